//! The JSON the API sends: games, seats, moves, analyses, the history list
//! and the catalogue, and how each is built from the store's records and the
//! library's answers.

use std::sync::Arc;

use nimatron::{
    Analysis, Board, CatalogueEntry, Element, Game, MoveInfo, Outcome, PositionValue, Remoteness,
    Trace,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, stored, stored_position};
use crate::store::{GameRecord, Mode, MoveRecord, Status};

/// One seat of a game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeatView {
    /// 0 or 1.
    pub seat: u8,
    /// `human` or `computer`.
    pub kind: &'static str,
    /// Whether someone holds the seat (online games: false until joined).
    pub taken: bool,
}

/// A move made, as the API shows it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayedMove {
    /// 1 for the first move.
    pub ply: u32,
    /// The seat that moved.
    pub seat: u8,
    /// The move in the game's notation.
    pub notation: String,
    /// The move in words.
    pub text: String,
    /// The position before.
    pub before: String,
    /// The position after.
    pub after: String,
    /// Whether the computer made it.
    pub by_computer: bool,
    /// Whether the computer chose it at random, because the position was
    /// beyond what the server judges within its limits (its `text` says so
    /// too).
    pub random: bool,
    /// Unix milliseconds.
    pub at: i64,
    /// The board elements the move touched, on the board before it. Given
    /// for the moves a request has just applied (`applied` in a move's
    /// reply), not for every move of a game.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    pub touches: Option<Vec<Element>>,
    /// The board after the move, as data. Given with `touches`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    pub geometry: Option<Board>,
    /// What the move did, told on the board after it (`geometry`): the
    /// pieces it took away and those it put down. Given with `touches`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    pub trace: Option<Trace>,
}

impl PlayedMove {
    /// The move with the elements it touched, the board it left, and what
    /// it did there.
    pub(crate) fn detailed(game: &dyn Game, m: &MoveRecord) -> Result<PlayedMove, ApiError> {
        let after = stored_position(game, &m.after)?;
        let mv = replayed(game, m)?;
        Ok(PlayedMove {
            touches: Some(mv.touches),
            geometry: Some(game.board(&after).map_err(|e| stored("position", e))?),
            trace: Some(mv.trace),
            ..PlayedMove::from(m)
        })
    }
}

/// A stored move, read again on the position before it: the elements it
/// touched there, and its trace on the board after it.
fn replayed(game: &dyn Game, m: &MoveRecord) -> Result<MoveInfo, ApiError> {
    let position = stored_position(game, &m.before)?;
    game.parse_move(&position, &m.notation)
        .map_err(|e| stored("move", e))
}

/// A position of a game's record (the start, or the position after a
/// move), drawn: what replaying the game shows.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PositionView {
    /// Moves made before it: 0 for the start.
    pub ply: u32,
    /// The position, canonical text.
    pub position: String,
    /// A text picture of it.
    pub board: String,
    /// How it is drawn, as data.
    pub geometry: Board,
    /// The elements that the next move of the record touched, if a move
    /// was made from it.
    pub next_touches: Vec<Element>,
    /// What the move that led here did, told on this board (empty at the
    /// start): what a replay marks as the last move.
    pub trace: Trace,
}

impl PositionView {
    /// The position after `ply` moves of a record.
    pub(crate) fn new(
        game: &dyn Game,
        record: &GameRecord,
        moves: &[MoveRecord],
        ply: u32,
    ) -> Result<PositionView, ApiError> {
        let text = match ply {
            0 => &record.start,
            k => match moves.get(k as usize - 1) {
                Some(m) => &m.after,
                None => {
                    return Err(ApiError::new(
                        axum::http::StatusCode::NOT_FOUND,
                        "no_such_ply",
                        format!(
                            "game {} has {} moves: ply {ply} is not one of its positions (0 to {})",
                            record.id, record.ply, record.ply
                        ),
                    ));
                }
            },
        };
        let position = stored_position(game, text)?;
        let next_touches = match moves.get(ply as usize) {
            Some(m) => replayed(game, m)?.touches,
            None => Vec::new(),
        };
        let trace = match ply.checked_sub(1).and_then(|k| moves.get(k as usize)) {
            Some(m) => replayed(game, m)?.trace,
            None => Trace::default(),
        };
        Ok(PositionView {
            ply,
            position: text.clone(),
            board: game.render(&position).map_err(|e| stored("position", e))?,
            geometry: game.board(&position).map_err(|e| stored("position", e))?,
            next_touches,
            trace,
        })
    }
}

impl From<&MoveRecord> for PlayedMove {
    fn from(m: &MoveRecord) -> PlayedMove {
        PlayedMove {
            ply: m.ply,
            seat: m.seat,
            notation: m.notation.clone(),
            text: m.text.clone(),
            before: m.before.clone(),
            after: m.after.clone(),
            by_computer: m.by_computer,
            random: m.random,
            at: m.created_at,
            touches: None,
            geometry: None,
            trace: None,
        }
    }
}

/// A game, as anyone with its link sees it (no tokens).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The canonical spec.
    pub game: String,
    /// `normal` or `misere`.
    pub convention: String,
    /// `computer`, `local` or `online`.
    pub mode: &'static str,
    /// The computer's level (computer games).
    #[schema(required)]
    pub level: Option<String>,
    /// The start position.
    pub start: String,
    /// The seat that moved first.
    pub first_seat: u8,
    /// The current position, canonical text.
    pub position: String,
    /// The current heaps, for heap games.
    #[schema(required)]
    pub heaps: Option<Vec<u64>>,
    /// Heap games whose moves may take objects from inside a row and leave
    /// its two ends as separate rows (Kayles, octal games), or split a row
    /// without taking (Grundy's game): the board selects runs of adjacent
    /// objects (and gaps) instead of a match and everything to its right.
    pub rows_split: bool,
    /// A text picture of the position.
    pub board: String,
    /// How the position is drawn, as data: heaps, a ring, a grid, a graph
    /// or a counter.
    pub geometry: Board,
    /// The seat to move.
    pub to_move: u8,
    /// Moves made.
    pub ply: u32,
    /// `waiting`, `playing` or `over`.
    pub status: &'static str,
    /// The winning seat, when over.
    #[schema(required)]
    pub winner: Option<u8>,
    /// Both seats.
    pub seats: [SeatView; 2],
    /// The moves made, in order: every one, or the last `max_listed` of a
    /// longer record (see `moves_total`).
    pub moves: Vec<PlayedMove>,
    /// How many moves the record holds (`ply`).
    pub moves_total: u64,
    /// Whether `moves` leaves out the first moves of a record longer than
    /// one reply lists (`GET …/positions/{ply}` draws any of them).
    pub moves_truncated: bool,
    /// The board elements the last move touched, on the board before it
    /// (empty before the first move): what a board marks as the last move.
    pub last_touches: Vec<Element>,
    /// What the last move did, told on the board now (`geometry`): the
    /// pieces it took away, each where it stood, and those it put down or
    /// changed; empty before the first move. What a board marks as the last
    /// move.
    pub last_trace: Trace,
    /// The legal moves now (empty when the game is over): every one, or
    /// the first `max_listed` of a position that has more (see
    /// `legal_moves_total`; `GET …/legal-moves` pages through the rest).
    pub legal_moves: Vec<MoveInfo>,
    /// How many legal moves there are now (0 when the game is over).
    pub legal_moves_total: u64,
    /// Whether `legal_moves` leaves some out.
    pub legal_moves_truncated: bool,
    /// How moves are written.
    pub move_syntax: String,
    /// How positions are written.
    pub position_syntax: &'static str,
    /// The seat that resigned, if the game ended that way.
    #[schema(required)]
    pub resigned: Option<u8>,
    /// Whether `POST /api/games/{id}/undo` would take a move back now
    /// (games against the computer and at one screen).
    pub can_undo: bool,
    /// Whether the analysis is shown during play, and who agreed to it.
    pub analysis: AnalysisConsent,
    /// Who asked for a rematch, and the rematch once it exists.
    pub rematch: RematchView,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds.
    pub updated_at: i64,
    /// The record's revision, which orders live updates (not sent).
    #[serde(skip)]
    pub rev: u64,
}

/// Whether a game's analysis may be shown. In an online game under way it
/// is shown only while both seats agree, so that neither player sees the
/// winning move alone; games against the computer or at one screen, and
/// finished games, always show it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AnalysisConsent {
    /// Whether `GET /api/games/{id}/analysis` answers now.
    pub shown: bool,
    /// Online games: whether each seat agrees (`[seat 0, seat 1]`).
    pub agreed: [bool; 2],
}

/// A rematch: the same game from the same start, the other seat moving
/// first.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RematchView {
    /// Whether each seat has asked for it (`[seat 0, seat 1]`). Online
    /// games start it once both have; the others at once.
    pub offered: [bool; 2],
    /// The rematch's game id, once it exists.
    #[schema(required)]
    pub game: Option<String>,
}

/// The reply to `POST /api/games/{id}/rematch`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RematchReply {
    /// This game, with the offer noted.
    pub game: GameView,
    /// The rematch and the caller's seat in it, once it exists (`null`
    /// while an online game waits for the other seat to agree).
    #[schema(required)]
    pub rematch: Option<SeatGrant>,
}

/// The reply to `POST /api/games/{id}/undo`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct UndoReply {
    /// The game after the moves were taken back.
    pub game: GameView,
    /// The moves taken back, in the order they were made.
    pub undone: Vec<PlayedMove>,
}

/// What a creator or joiner gets back: the game, and their seat's token.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeatGrant {
    /// The game.
    pub game: GameView,
    /// The seat now held.
    pub seat: u8,
    /// The secret that lets this seat move. Send it as
    /// `Authorization: Bearer TOKEN`.
    pub token: String,
    /// Online games, for the creator: the code that hands out seat 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// Online games, for the creator: the link to send to a friend.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite_url: Option<String>,
}

/// The reply to a move: the game after it, and the moves it caused.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MoveReply {
    /// The game after the move (and the computer's reply, if any).
    pub game: GameView,
    /// The moves just applied: yours, then the computer's.
    pub applied: Vec<PlayedMove>,
}

/// The binary table of Wikipedia's *Nim* for Nim: each heap in binary, then the nim-sum.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct NimTable {
    /// Bits shown.
    pub bits: u32,
    /// One row per heap.
    pub rows: Vec<NimRow>,
    /// The XOR of the heaps.
    pub nim_sum: u64,
    /// The nim-sum in binary.
    pub nim_sum_binary: String,
}

/// One heap in the binary table.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct NimRow {
    /// `A`, `B`, ...
    pub name: String,
    /// The heap size.
    pub size: u64,
    /// The heap size in binary, `bits` wide.
    pub binary: String,
}

/// A solved position: the library's analysis, the same object as
/// `nimatron analyze --json`, with every legal move valued and Nim's
/// binary table.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisView {
    /// The analysis.
    #[serde(flatten)]
    pub analysis: Analysis,
    /// Nim only: the binary table with the nim-sum.
    pub nim_table: Option<NimTable>,
}

/// One move of a finished or running game, judged.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ReviewedMove {
    /// 1 for the first move.
    pub ply: u32,
    /// The seat that moved.
    pub seat: u8,
    /// The move in words.
    pub text: String,
    /// `N` or `P`: the mover's position before the move.
    pub before: String,
    /// `N` or `P`: the opponent's position after the move.
    pub after: String,
    /// `winning` (kept a win), `blunder` (threw away a win) or `lost`
    /// (every move lost already).
    pub value: &'static str,
    /// For a blunder: a move that would have kept the win, in words.
    #[schema(required)]
    pub better: Option<String>,
}

/// A game's analysis: the current position, and every move judged.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameAnalysis {
    /// The current position solved (null when the game is over).
    #[schema(required)]
    pub current: Option<AnalysisView>,
    /// Each move made, judged, from the first: every one, or those judged
    /// within the request's budget (see `history_truncated`).
    pub history: Vec<ReviewedMove>,
    /// How many moves the record holds.
    pub history_total: u64,
    /// Whether `history` stops before the last move (the request's budget
    /// ran out, or the record is longer than one reply lists).
    pub history_truncated: bool,
    /// Why `history` stops early, naming the limit (null when complete).
    #[schema(required)]
    pub stopped: Option<String>,
    /// Each position of the game, from the start: who was winning it and
    /// in how many moves (what the value-history chart draws). One more
    /// than `history`, as far as it goes.
    pub values: Vec<ValuePoint>,
}

/// A page of the legal moves of a game's position:
/// `GET /api/games/{id}/legal-moves`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MovePage {
    /// The moves, from `offset` on, in the order of the game's list.
    pub moves: Vec<MoveInfo>,
    /// Where the page starts, counting from 0.
    pub offset: u64,
    /// How many legal moves there are in all.
    pub total: u64,
    /// Whether moves lie beyond this page.
    pub more: bool,
}

impl MovePage {
    /// A page of the legal moves of `position` (none once `over`).
    pub(crate) fn new(
        game: &dyn Game,
        position: &nimatron::Position,
        over: bool,
        offset: u64,
        limit: Option<u64>,
        max_listed: usize,
    ) -> Result<MovePage, ApiError> {
        let limit = crate::limits::page_limit(limit, max_listed)?;
        if over {
            return Ok(MovePage {
                moves: Vec::new(),
                offset,
                total: 0,
                more: false,
            });
        }
        let total = game
            .move_count(position)
            .map_err(|e| stored("position", e))?;
        let total = u64::try_from(total).unwrap_or(u64::MAX);
        let moves = if offset >= total {
            Vec::new()
        } else {
            game.legal_moves_page(position, offset as usize, limit)
                .map_err(|e| stored("position", e))?
        };
        Ok(MovePage {
            more: offset.saturating_add(moves.len() as u64) < total,
            moves,
            offset,
            total,
        })
    }
}

/// One position of a game, valued: the value history's point.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ValuePoint {
    /// Moves made before it: 0 for the start.
    pub ply: u32,
    /// The seat to move in it.
    pub to_move: u8,
    /// `N` (the player to move wins) or `P` (the player to move loses).
    pub outcome: &'static str,
    /// The seat that wins it with perfect play.
    pub winner: u8,
    /// Moves to the end with perfect play (the winner hurrying, the loser
    /// delaying), or null where the search was too large.
    #[schema(required)]
    pub remoteness: Option<Remoteness>,
    /// A winning move from it, in words (null when it is lost or over).
    #[schema(required)]
    pub winning_move: Option<String>,
}

impl ValuePoint {
    pub(crate) fn new(
        ply: u32,
        to_move: u8,
        outcome: Outcome,
        remoteness: Option<Remoteness>,
        winning_move: Option<String>,
    ) -> ValuePoint {
        let wins = outcome == Outcome::N;
        ValuePoint {
            ply,
            to_move,
            outcome: if wins { "N" } else { "P" },
            winner: if wins { to_move } else { 1 - to_move },
            remoteness,
            winning_move,
        }
    }
}

/// A line in the history list.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameSummary {
    /// The id.
    pub id: String,
    /// The spec.
    pub game: String,
    /// `normal` or `misere`.
    pub convention: String,
    /// How it is played.
    pub mode: &'static str,
    /// The computer's level.
    #[schema(required)]
    pub level: Option<String>,
    /// The start position.
    pub start: String,
    /// The position now.
    pub position: String,
    /// Moves made.
    pub ply: u32,
    /// `waiting`, `playing` or `over`.
    pub status: &'static str,
    /// The winning seat.
    #[schema(required)]
    pub winner: Option<u8>,
    /// The computer's seat.
    #[schema(required)]
    pub computer_seat: Option<u8>,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// A page of the history list: `GET /api/games`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameList {
    /// The games, newest first.
    pub games: Vec<GameSummary>,
    /// How many games are stored in all.
    pub total: u64,
}

/// Every game Nimatron knows: `GET /api/catalogue`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Catalogue {
    /// One entry per game family.
    pub games: Vec<CatalogueItem>,
}

/// A catalogue entry for the game chooser.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CatalogueItem {
    /// The game's name for people, e.g. "Moore's Nim".
    pub title: &'static str,
    /// How the spec is written, e.g. `moore:K[,R]`.
    pub syntax: &'static str,
    /// One line about it.
    pub summary: &'static str,
    /// A spec that plays it: its default parameters, or typical ones for
    /// a game that has no defaults (`subtraction:1,2,3`).
    #[schema(required)]
    pub spec: Option<String>,
    /// Whether this build can play it.
    pub playable: bool,
    /// Whether positions are heaps (drawn as rows of stones).
    pub heaps: bool,
    /// Whether the Explore page (`GET /api/explore`) takes it: a heap game
    /// in which a single heap is a position.
    pub explore: bool,
    /// The usual start.
    #[schema(required)]
    pub start: Option<String>,
    /// Conventions offered.
    pub conventions: Vec<&'static str>,
    /// How positions are written.
    #[schema(required)]
    pub position_syntax: Option<&'static str>,
    /// How moves are written.
    #[schema(required)]
    pub move_syntax: Option<String>,
    /// The rules.
    #[schema(required)]
    pub rules: Option<&'static str>,
}

impl GameView {
    /// The view of a stored game and its moves.
    pub(crate) fn new(
        game: &dyn Game,
        record: &GameRecord,
        moves: &[MoveRecord],
        max_listed: usize,
    ) -> Result<GameView, ApiError> {
        let position = stored_position(game, &record.position)?;
        let (legal, legal_total) = if record.status == Status::Over {
            (Vec::new(), 0)
        } else {
            let total = game
                .move_count(&position)
                .map_err(|e| stored("position", e))?;
            let page = game
                .legal_moves_page(&position, 0, max_listed)
                .map_err(|e| stored("position", e))?;
            (page, u64::try_from(total).unwrap_or(u64::MAX))
        };
        let shown = &moves[moves.len().saturating_sub(max_listed)..];
        let value = game.value(&position).map_err(|e| stored("position", e))?;
        let geometry = game.board(&position).map_err(|e| stored("position", e))?;
        let last = moves.last().map(|m| replayed(game, m)).transpose()?;
        let (last_touches, last_trace) = match last {
            Some(mv) => (mv.touches, mv.trace),
            None => (Vec::new(), Trace::default()),
        };
        Ok(GameView {
            rev: record.rev,
            id: record.id.clone(),
            game: record.spec.clone(),
            convention: record.convention.clone(),
            mode: record.mode.name(),
            level: record.level.clone(),
            start: record.start.clone(),
            first_seat: record.first_seat,
            position: record.position.clone(),
            heaps: value.heaps().map(<[u64]>::to_vec),
            rows_split: matches!(
                geometry,
                Board::Heaps {
                    rows_split: true,
                    ..
                }
            ),
            board: game.render(&position).map_err(|e| stored("position", e))?,
            geometry,
            to_move: record.to_move,
            ply: record.ply,
            status: record.status.name(),
            winner: record.winner,
            seats: seat_views(record),
            moves: shown.iter().map(PlayedMove::from).collect(),
            moves_total: moves.len() as u64,
            moves_truncated: shown.len() < moves.len(),
            last_touches,
            last_trace,
            legal_moves_truncated: (legal.len() as u64) < legal_total,
            legal_moves: legal,
            legal_moves_total: legal_total,
            move_syntax: game.move_syntax(),
            position_syntax: game.position_syntax(),
            resigned: record.resigned,
            can_undo: crate::policy::moves_to_undo(record, moves).is_some(),
            analysis: AnalysisConsent {
                shown: crate::policy::analysis_shown(record),
                agreed: seat_bits(record.analysis_votes),
            },
            rematch: RematchView {
                offered: seat_bits(record.rematch_offers),
                game: record.rematch.clone(),
            },
            created_at: record.created_at,
            updated_at: record.updated_at,
        })
    }
}

/// Bits 0 and 1 as one flag per seat.
fn seat_bits(bits: u8) -> [bool; 2] {
    [bits & 1 != 0, bits & 2 != 0]
}

/// Both seats: the creator's, and the computer's or the second player's.
fn seat_views(record: &GameRecord) -> [SeatView; 2] {
    let human = |taken| SeatView {
        seat: 0,
        kind: "human",
        taken,
    };
    let seat1 = match record.mode {
        Mode::Computer => SeatView {
            seat: 1,
            kind: "computer",
            taken: true,
        },
        Mode::Local => SeatView {
            seat: 1,
            ..human(true)
        },
        Mode::Online => SeatView {
            seat: 1,
            ..human(record.token1.is_some())
        },
    };
    [human(true), seat1]
}

impl AnalysisView {
    /// The view of an analysis, with Nim's binary table when the game is Nim.
    pub(crate) fn new(game: &dyn Game, analysis: Analysis) -> AnalysisView {
        let nim_table = match (analysis.details.nim, &analysis.position) {
            (Some(_), PositionValue::Heaps(heaps)) if game.name() == "nim" => {
                Some(nim_table(heaps))
            }
            _ => None,
        };
        AnalysisView {
            analysis,
            nim_table,
        }
    }
}

impl ReviewedMove {
    /// A move made, judged by the outcomes before and after it.
    pub(crate) fn judge(
        m: &MoveRecord,
        before: Outcome,
        after: Outcome,
        winning_move: Option<&String>,
    ) -> ReviewedMove {
        let blunder = (before, after) == (Outcome::N, Outcome::N);
        ReviewedMove {
            better: winning_move.filter(|_| blunder).cloned(),
            ply: m.ply,
            seat: m.seat,
            text: m.text.clone(),
            before: before.to_string(),
            after: after.to_string(),
            value: match (before, after) {
                (Outcome::N, Outcome::P) => "winning",
                (Outcome::N, Outcome::N) => "blunder",
                (Outcome::P, _) => "lost",
            },
        }
    }
}

impl From<GameRecord> for GameSummary {
    fn from(g: GameRecord) -> GameSummary {
        GameSummary {
            id: g.id,
            game: g.spec,
            convention: g.convention,
            mode: g.mode.name(),
            level: g.level,
            start: g.start,
            position: g.position,
            ply: g.ply,
            status: g.status.name(),
            winner: g.winner,
            computer_seat: g.computer_seat,
            created_at: g.created_at,
        }
    }
}

impl CatalogueItem {
    /// The entry written `syntax`, with what `built` (its game with default
    /// parameters, if this build plays it) can do.
    pub(crate) fn new(entry: &CatalogueEntry, built: Option<&Arc<dyn Game>>) -> CatalogueItem {
        let start = built.and_then(|g| g.start());
        let heaps = built
            .and_then(|g| {
                let p = match &start {
                    Some(p) => p.clone(),
                    None => g.parse(g.description().example).ok()?,
                };
                g.value(&p).ok()
            })
            .is_some_and(|v| matches!(v, PositionValue::Heaps(_)));
        let start = start.map(|p| p.text().to_string());
        CatalogueItem {
            title: entry.title,
            syntax: entry.syntax,
            summary: entry.summary,
            spec: built.map(|g| g.name()),
            playable: built.is_some(),
            heaps,
            explore: built.is_some_and(|g| explorable(g.as_ref())),
            start,
            conventions: built
                .map(|g| g.conventions().iter().map(|&c| c.name()).collect())
                .unwrap_or_default(),
            position_syntax: built.map(|g| g.position_syntax()),
            move_syntax: built.map(|g| g.move_syntax()),
            rules: built.map(|g| g.description().rules),
        }
    }
}

/// Whether Explore can plot a game: its positions are heaps, and a single
/// heap is a position.
pub(crate) fn explorable(game: &dyn Game) -> bool {
    game.heap_position(&[1])
        .and_then(|p| game.value(&p))
        .is_ok_and(|v| v.heaps().is_some())
}

/// The binary table of Wikipedia's *Nim* for Nim heaps.
pub fn nim_table(heaps: &[u64]) -> NimTable {
    let nim_sum = heaps.iter().fold(0, |a, &h| a ^ h);
    let widest = heaps.iter().copied().max().unwrap_or(0).max(nim_sum);
    let bits = (64 - widest.leading_zeros()).max(1);
    let w = bits as usize;
    NimTable {
        bits,
        rows: heaps
            .iter()
            .enumerate()
            .map(|(i, &h)| NimRow {
                name: nimatron::heap_name(i),
                size: h,
                binary: format!("{h:0w$b}"),
            })
            .collect(),
        nim_sum,
        nim_sum_binary: format!("{nim_sum:0w$b}"),
    }
}

/// A solved position (ANALYSIS in docs/api.md): the object of
/// `nimatron analyze --json`, with every legal move valued and Nim's
/// binary table.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(as = AnalysisView)]
struct AnalysisShape {
    /// The game, as its canonical spec.
    game: String,
    /// The convention.
    convention: nimatron::Convention,
    /// The position.
    position: PositionValue,
    /// The position, canonical text.
    position_text: String,
    /// Win or loss for the player to move.
    outcome: Outcome,
    /// The normal-play Grundy value, or null where none is computed.
    #[schema(required)]
    grundy: Option<u64>,
    /// Nim: the XOR of the heaps.
    #[schema(required = false)]
    nim_sum: u64,
    /// Nim: the rule that decides.
    #[schema(required = false)]
    regime: nimatron::nim::Regime,
    /// Moves to the end under perfect play, or null.
    #[schema(required)]
    remoteness: Option<Remoteness>,
    /// The winning moves, valued.
    winning_moves: Vec<MoveInfo>,
    /// How many winning moves there are in all.
    winning_moves_total: u64,
    /// Whether `winning_moves` leaves some out.
    winning_moves_truncated: bool,
    /// The legal moves, valued: every one, or the page asked for (at
    /// most the server's `--max-listed`).
    #[schema(required = false)]
    moves: Vec<MoveInfo>,
    /// How many legal moves there are in all (with `moves`).
    #[schema(required = false)]
    moves_total: u64,
    /// Where `moves` starts among them (with `moves`).
    #[schema(required = false)]
    moves_offset: u64,
    /// Whether `moves` leaves some legal moves out (with `moves`).
    #[schema(required = false)]
    moves_truncated: bool,
    /// How the verdict was reached.
    method: String,
    /// The positions a solver had stored, when one was used.
    #[schema(required = false)]
    states: u64,
    /// Why, in words and tables.
    explanation: String,
    /// Candy Nim: the candy split.
    #[schema(required = false)]
    candy: nimatron::CandySplit,
    /// Misère play of a heap game: how its misère quotient and a plain
    /// search raced for the answer.
    #[schema(required = false)]
    misere: nimatron::MisereRace,
    /// Nim only: the binary table with the nim-sum; else null.
    #[schema(required)]
    nim_table: Option<NimTable>,
}

impl utoipa::PartialSchema for AnalysisView {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        AnalysisShape::schema()
    }
}

impl ToSchema for AnalysisView {
    fn name() -> std::borrow::Cow<'static, str> {
        "AnalysisView".into()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        AnalysisShape::schemas(schemas);
    }
}
