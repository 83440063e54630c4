//! `nimatron play`: any game in the terminal, against the computer or a
//! friend.
//!
//! The loop reads lines from any `BufRead` and writes to any `Write`, so it
//! is driven the same way by a person, a pipe and the tests.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use nimatron::solve::Limits;
use nimatron::{Analysis, Convention, Game, MoveInfo, Position};
use nimatron::{Level, SplitMix64};

use crate::analyze::game_error;
use crate::args::{First, Opponent, PlayArgs};
use crate::bad_input;

/// Everything that stays fixed during one game.
pub struct Setup {
    /// The game: any [`Game`], from the catalogue or not.
    pub game: Arc<dyn Game>,
    /// Normal or misère play.
    pub convention: Convention,
    /// The position play starts from.
    pub start: Position,
    /// Whether the person (player 1 against a friend) moves first.
    pub human_first: bool,
    /// The computer or a friend.
    pub opponent: Opponent,
    /// The computer's level.
    pub level: Level,
    /// Seeds the computer's choices, for games that replay exactly.
    pub seed: u64,
    /// Bounds on the solvers' work per move.
    pub limits: Limits,
}

pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    let spec = args.game.clone();
    let game: Arc<dyn Game> = Arc::from(crate::analyze::build_game(&spec, args.words.as_deref())?);
    let level = args.level;
    let convention = crate::analyze::convention_for(args.misere, game.as_ref());
    if !game.conventions().contains(&convention) {
        return Err(bad_input(format!("{spec}: {}", game.convention_note())));
    }
    // What earlier runs learnt of the game's misère quotient, kept.
    let _kept = crate::kept::Kept::load(game.as_ref(), convention);
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x4E494D)
    });
    if let Some(note) = args
        .position
        .as_deref()
        .and_then(|p| crate::analyze::numbers_note(&spec, p))
    {
        eprintln!("note: {note}");
    }
    let mut rng = SplitMix64::new(seed);
    let start = if args.random {
        let count = 3 + rng.below(3) as usize;
        let heaps: Vec<u64> = (0..count).map(|_| 1 + rng.below(9)).collect();
        game.heap_position(&heaps)
    } else if let Some(heaps) = &args.heaps {
        game.parse(&heaps.join(" "))
    } else if let Some(position) = &args.position {
        game.parse(position)
    } else {
        game.start().ok_or_else(|| {
            bad_input(format!(
                "{spec} has no standard start: give --position ({})",
                game.position_syntax()
            ))
        })?;
        Ok(game.start().expect("checked above"))
    }
    .map_err(|e| bad_input(e.to_string()))?;
    if game
        .is_terminal(&start)
        .map_err(|e| bad_input(e.to_string()))?
    {
        return Err(bad_input(format!(
            "the position '{start}' has no moves: the game would be over before it began"
        )));
    }
    let human_first = match args.first {
        First::You => true,
        First::Computer => false,
        First::Random => rng.below(2) == 0,
    };
    let setup = Setup {
        game: game.clone(),
        convention,
        start,
        human_first,
        opponent: args.opponent,
        level,
        seed: rng.next_u64(),
        limits: crate::limits(
            args.max_states,
            crate::default_seconds(args.max_seconds, &spec, convention),
        ),
    };
    let stdin = io::stdin();
    let stdout = io::stdout();
    play(setup, stdin.lock(), stdout.lock())
}

/// The two sides. `Human` is the person (or player 1 in friend mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Human,
    Other,
}

impl Side {
    fn flip(self) -> Side {
        match self {
            Side::Human => Side::Other,
            Side::Other => Side::Human,
        }
    }
}

struct Table {
    setup: Setup,
    position: Position,
    to_move: Side,
    /// (who moved, position before the move)
    history: Vec<(Side, Position)>,
    rng: SplitMix64,
}

impl Table {
    fn name(&self, side: Side) -> &'static str {
        match (self.setup.opponent, side) {
            (Opponent::Computer, Side::Human) => "You",
            (Opponent::Computer, Side::Other) => "Nimatron",
            (Opponent::Friend, Side::Human) => "Player 1",
            (Opponent::Friend, Side::Other) => "Player 2",
        }
    }

    fn board(&self) -> anyhow::Result<String> {
        self.setup
            .game
            .render(&self.position)
            .map_err(|e| bad_input(e.to_string()))
    }

    fn is_over(&self) -> anyhow::Result<bool> {
        self.setup
            .game
            .is_terminal(&self.position)
            .map_err(|e| bad_input(e.to_string()))
    }

    fn apply(&mut self, mv: &MoveInfo) {
        let before = std::mem::replace(&mut self.position, mv.after().clone());
        self.history.push((self.to_move, before));
        self.to_move = self.to_move.flip();
    }

    fn undo_one(&mut self) -> Option<Side> {
        let (side, before) = self.history.pop()?;
        self.position = before;
        self.to_move = side;
        Some(side)
    }

    fn analyze(&self, position: &Position) -> anyhow::Result<Analysis> {
        self.setup
            .game
            .analyze(position, self.setup.convention, self.setup.limits)
            .map_err(game_error)
    }

    /// The computer's choice at `level`, from the shared strategy.
    fn choose(&self, level: Level, rng: &mut SplitMix64) -> anyhow::Result<Option<MoveInfo>> {
        Ok(self.choose_why(level, rng)?.0)
    }

    /// The computer's choice, and the limit that left it a random move.
    fn choose_why(
        &self,
        level: Level,
        rng: &mut SplitMix64,
    ) -> anyhow::Result<(Option<MoveInfo>, Option<String>)> {
        let (mv, why) = nimatron::computer_choice(
            self.setup.game.as_ref(),
            &self.position,
            self.setup.convention,
            level,
            rng,
            self.setup.limits,
        )
        .map_err(game_error)?;
        Ok((mv, why.map(|e| game_error(e).to_string())))
    }

    fn hint(&self) -> anyhow::Result<String> {
        let a = self.analyze(&self.position)?;
        Ok(match a.winning_moves.first() {
            Some(mv) => format!(
                "Hint: {} — type '{}' ({}). Type 'why' for the full explanation.",
                mv.text, mv.notation, a.method
            ),
            None => {
                let mut rng = self.rng.clone();
                let stall = self.choose(Level::Perfect, &mut rng)?;
                format!(
                    "Hint: this is a P-position: every move loses against perfect play. Make the win hard to find, e.g. {}.",
                    stall
                        .map(|m| format!("{} (type '{}')", m.text, m.notation))
                        .unwrap_or_default()
                )
            }
        })
    }
}

/// The rules and the move syntax of the game being played, each kind of
/// move with an example, then the commands.
fn help_text(game: &dyn Game) -> String {
    format!(
        "Rules:    {}\nMoves:    {}\nCommands: hint   suggest a move, and what to type for it\n          why    the full explanation\n          undo   take back your last move\n          help   this text\n          quit   stop the game",
        game.description().rules,
        move_lines(game, "          ")
    )
}

/// The move syntax with each kind of move on a line of its own, indented
/// by `indent` after the first.
fn move_lines(game: &dyn Game, indent: &str) -> String {
    game.move_syntax()
        .split("; ")
        .collect::<Vec<_>>()
        .join(&format!(";\n{indent}"))
}

/// Play one game, reading moves from `input` and writing to `output`.
pub fn play(setup: Setup, mut input: impl BufRead, mut output: impl Write) -> anyhow::Result<()> {
    if setup.game.conventions().len() == 1 {
        // The rules fix the ending themselves (the 21 game): state them.
        let rules = setup.game.description().rules;
        writeln!(output, "Nimatron — {}. {rules}", setup.game.name())?;
    } else {
        let rule = match setup.convention {
            Convention::Normal => "normal play: whoever makes the last move wins",
            Convention::Misere => "misère play: whoever makes the last move loses",
        };
        writeln!(output, "Nimatron — {}, {rule}.", setup.game.name())?;
    }
    if setup.game.conventions().len() != 1 {
        writeln!(output, "Rules: {}", setup.game.description().rules)?;
    }
    writeln!(
        output,
        "Moves: {}",
        move_lines(setup.game.as_ref(), "       ")
    )?;
    if setup.opponent == Opponent::Computer {
        writeln!(output, "Computer level: {}.", setup.level)?;
    }
    let mut table = Table {
        position: setup.start.clone(),
        to_move: if setup.human_first {
            Side::Human
        } else {
            Side::Other
        },
        history: Vec::new(),
        rng: SplitMix64::new(setup.seed),
        setup,
    };
    let first = table.name(table.to_move);
    writeln!(
        output,
        "{first} move{} first. Type 'help' for help.\n",
        if first == "You" { "" } else { "s" }
    )?;
    write!(output, "{}", table.board()?)?;
    let mut line = String::new();
    loop {
        if table.is_over()? {
            // The player to move cannot move: the other side moved last.
            let last = table.to_move.flip();
            let winner = match table.setup.convention {
                Convention::Normal => last,
                Convention::Misere => table.to_move,
            };
            let name = table.name(winner);
            writeln!(
                output,
                "\n{} made the last move. {name} win{}!",
                table.name(last),
                if name == "You" { "" } else { "s" }
            )?;
            return Ok(());
        }
        if table.setup.opponent == Opponent::Computer && table.to_move == Side::Other {
            let level = table.setup.level;
            let mut rng = table.rng.clone();
            let (mv, why) = table.choose_why(level, &mut rng)?;
            let mv = mv.ok_or_else(|| anyhow::anyhow!("the computer found no move"))?;
            table.rng = rng;
            writeln!(output, "\nNimatron: {}.", mv.text)?;
            if let Some(why) = why {
                writeln!(
                    output,
                    "(Nimatron could not judge its moves: {why}. It played a random one.)"
                )?;
            }
            table.apply(&mv);
            write!(output, "{}", table.board()?)?;
            continue;
        }
        write!(output, "\n{}> ", table.name(table.to_move))?;
        output.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(output, "\nEnd of input: game abandoned.")?;
            return Ok(());
        }
        let command = line.trim();
        match command.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "exit" | "q" => {
                writeln!(output, "Game abandoned.")?;
                return Ok(());
            }
            "help" | "?" => writeln!(output, "{}", help_text(table.setup.game.as_ref()))?,
            // A position beyond the limits gets no hint, and the game goes on.
            "hint" => match table.hint() {
                Ok(hint) => writeln!(output, "{hint}")?,
                Err(e) => writeln!(output, "No hint: {e}. The game goes on.")?,
            },
            "why" | "explain" => match table.analyze(&table.position) {
                Ok(a) => write!(output, "{}", a.explanation)?,
                Err(e) => writeln!(output, "No explanation: {e}. The game goes on.")?,
            },
            "undo" => {
                let undone = match table.setup.opponent {
                    Opponent::Friend => table.undo_one().is_some(),
                    Opponent::Computer => {
                        // Take back moves until a move of yours is undone.
                        if table.history.iter().any(|(s, _)| *s == Side::Human) {
                            while let Some(side) = table.undo_one() {
                                if side == Side::Human {
                                    break;
                                }
                            }
                            true
                        } else {
                            false
                        }
                    }
                };
                if undone {
                    writeln!(output, "Move taken back.")?;
                    write!(output, "{}", table.board()?)?;
                } else {
                    writeln!(output, "Nothing to undo.")?;
                }
            }
            _ => match table.setup.game.parse_move(&table.position, command) {
                Ok(mv) => {
                    writeln!(output, "{}: {}.", table.name(table.to_move), mv.text)?;
                    table.apply(&mv);
                    write!(output, "{}", table.board()?)?;
                }
                Err(why) => writeln!(
                    output,
                    "Illegal move: {why}. Type 'help' for the move syntax."
                )?,
            },
        }
    }
}
