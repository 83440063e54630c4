//! Building Nim BN(n, s) (Larsson, Heubach, Dufour, Duchêne): players take
//! turns placing one of n stones onto one of s piles; when every stone is
//! placed, Nim is played on the piles, starting with the player who would
//! move next.
//!
//! The placing phase is not a sum of games, so Nimatron searches it: every
//! way of placing the remaining stones, layer by layer, with each finished
//! placement scored by Bouton's theorem ([`crate::nim`]) in the chosen
//! convention. Piles are compared sorted, so placements that differ only in
//! the order of the piles are stored once.

use std::collections::{HashMap, HashSet};

use crate::explain::{describe_move, explain_nim};
use crate::games::heaps;
use crate::geometry::take_from_end;
use crate::heap_notation;
use crate::heap_notation::{heap_name, parse_heap_name};
use crate::nim::{self, HeapMove};
use crate::solve::{Limits, SolveError};
use crate::{Board, Element};
use crate::{Convention, Nimber, Outcome, Rules, mex};
use crate::{Description, MoveError, Notation, PositionError, Theory, Verdict};

/// A Building Nim position: stones still to place, and the piles.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BuildingPosition {
    /// Stones not yet placed.
    pub left: u64,
    /// The piles.
    pub piles: Vec<u64>,
}

/// A move: place a stone on a pile, or (once all are placed) a Nim move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BuildMove {
    /// Place one stone on this pile.
    Place(usize),
    /// A Nim move on the piles.
    Take(HeapMove),
}

/// Building Nim with `stones` stones and `piles` piles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Building {
    stones: u64,
    piles: usize,
}

const POSITION_SYNTAX: &str = "the stones left to place, a '/' (or '|', ';', ':'), then the pile sizes, e.g. '3 / 1 0 2' for building:6,3; there must be exactly S piles; while stones are left, the stones on the piles and those left add up to N; once all are placed, the piles hold at most N; 'start' is N stones and S empty piles";

/// What the search found for one placing-phase position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Solved {
    wins: bool,
    grundy: Nimber,
}

/// Placing-phase positions (stones left, sorted piles) and their values.
type SolvedTable = HashMap<(u64, Vec<u64>), Solved>;

impl Building {
    /// BN(`stones`, `piles`).
    pub fn new(stones: u64, piles: usize) -> Building {
        Building { stones, piles }
    }

    /// `n` stones to place on `s` empty piles.
    pub fn start(&self) -> BuildingPosition {
        BuildingPosition {
            left: self.stones,
            piles: vec![0; self.piles],
        }
    }

    fn sorted(piles: &[u64]) -> Vec<u64> {
        let mut p = piles.to_vec();
        p.sort_unstable();
        p
    }

    /// Solve a position of the placing phase (or the Nim phase, by
    /// Bouton): whether the player to move wins under `convention`, and the
    /// normal-play Grundy value. Also returns how many positions were
    /// stored.
    fn search(
        &self,
        position: &BuildingPosition,
        convention: Convention,
        limits: Limits,
    ) -> Result<(SolvedTable, usize), SolveError> {
        // Layers of sorted placements, from the position down to the last
        // stone.
        let mut layers: Vec<HashSet<Vec<u64>>> =
            vec![HashSet::from([Self::sorted(&position.piles)])];
        let mut stored = 1usize;
        let mut budget = limits.budget();
        for _ in 0..position.left {
            let mut next = HashSet::new();
            for piles in layers.last().expect("a layer") {
                for i in 0..piles.len() {
                    if i > 0 && piles[i] == piles[i - 1] {
                        continue;
                    }
                    let mut after = piles.clone();
                    after[i] += 1;
                    after.sort_unstable();
                    next.insert(after);
                }
            }
            stored += next.len();
            budget.check(stored.saturating_sub(1))?;
            layers.push(next);
        }
        let mut solved: HashMap<(u64, Vec<u64>), Solved> = HashMap::with_capacity(stored);
        for (depth, layer) in layers.iter().enumerate().rev() {
            let left = position.left - depth as u64;
            for piles in layer {
                let value = if left == 0 {
                    Solved {
                        wins: nim::outcome(piles, convention).to_move_wins(),
                        grundy: nim::nim_sum(piles),
                    }
                } else {
                    let children: Vec<Solved> = (0..piles.len())
                        .map(|i| {
                            let mut after = piles.clone();
                            after[i] += 1;
                            after.sort_unstable();
                            solved[&(left - 1, after)]
                        })
                        .collect();
                    Solved {
                        wins: children.iter().any(|c| !c.wins),
                        grundy: mex(children.iter().map(|c| c.grundy)),
                    }
                };
                solved.insert((left, piles.clone()), value);
            }
        }
        Ok((solved, stored))
    }

    fn is_start(&self, p: &BuildingPosition) -> bool {
        p.left == self.stones && p.piles.iter().all(|&x| x == 0)
    }
}

impl Rules for Building {
    type Position = BuildingPosition;
    type Move = BuildMove;

    fn moves(&self, p: &BuildingPosition) -> Vec<BuildMove> {
        if p.left > 0 {
            (0..p.piles.len()).map(BuildMove::Place).collect()
        } else {
            (0..p.piles.len())
                .flat_map(|heap| {
                    (1..=p.piles[heap]).map(move |take| BuildMove::Take(HeapMove { heap, take }))
                })
                .collect()
        }
    }

    fn apply(&self, p: &BuildingPosition, mv: &BuildMove) -> BuildingPosition {
        match mv {
            BuildMove::Place(i) => {
                let mut piles = p.piles.clone();
                piles[*i] += 1;
                BuildingPosition {
                    left: p.left - 1,
                    piles,
                }
            }
            BuildMove::Take(m) => BuildingPosition {
                left: 0,
                piles: m.apply(&p.piles),
            },
        }
    }

    fn canonical(&self, p: &BuildingPosition) -> BuildingPosition {
        BuildingPosition {
            left: p.left,
            piles: Self::sorted(&p.piles),
        }
    }
}

fn position_error(problem: impl Into<String>) -> PositionError {
    PositionError::new(problem, POSITION_SYNTAX)
}

impl Notation for Building {
    fn parse_position(&self, text: &str) -> Result<BuildingPosition, PositionError> {
        if text.trim().eq_ignore_ascii_case("start") {
            return Ok(self.start());
        }
        let (left_text, piles_text) = text.split_once(['/', '|', ';', ':']).ok_or_else(|| {
            position_error(format!(
                "'{}' has no '/' between the stones left and the piles",
                text.trim()
            ))
        })?;
        let left: u64 = left_text.trim().parse().map_err(|_| {
            position_error(format!(
                "'{}' is not a number of stones left to place",
                left_text.trim()
            ))
        })?;
        let piles = heap_notation::parse_heaps(piles_text, POSITION_SYNTAX)?;
        if piles.len() != self.piles {
            return Err(position_error(format!(
                "{} pile{} given, but building:{},{} has {} piles",
                piles.len(),
                if piles.len() == 1 { "" } else { "s" },
                self.stones,
                self.piles,
                self.piles
            )));
        }
        let placed = heaps::total(&piles);
        let n = self.stones;
        if left > n || placed > n || left.saturating_add(placed) > n {
            return Err(position_error(format!(
                "too many stones: {left} left and {placed} on the piles, but BN({n},{}) has only {n}",
                self.piles
            )));
        }
        if left > 0 && left + placed != n {
            return Err(position_error(format!(
                "{} stones are missing: while stones are left to place none has been taken, so the {left} left and the {placed} on the piles must make {n}",
                n - left - placed
            )));
        }
        Ok(BuildingPosition { left, piles })
    }

    fn format_position(&self, p: &BuildingPosition) -> String {
        format!("{} / {}", p.left, heap_notation::format_heaps(&p.piles))
    }

    fn start_position(&self) -> Option<BuildingPosition> {
        Some(self.start())
    }

    fn parse_move(&self, p: &BuildingPosition, input: &str) -> Result<BuildMove, MoveError> {
        if p.left == 0 {
            let (heap, take) = heap_notation::parse_heap_and_count(input, &p.piles)?;
            return Ok(BuildMove::Take(HeapMove { heap, take }));
        }
        let lower = input.trim().to_ascii_lowercase().replace("a stone", "");
        let words: Vec<&str> = lower
            .split_whitespace()
            .filter(|w| {
                !matches!(
                    *w,
                    "place" | "put" | "on" | "onto" | "pile" | "heap" | "stone"
                )
            })
            .collect();
        match words.as_slice() {
            [name] => match parse_heap_name(name) {
                Some(i) if i < p.piles.len() => Ok(BuildMove::Place(i)),
                _ => Err(MoveError::new(format!(
                    "there is no pile {}: the piles are A to {}",
                    name.to_ascii_uppercase(),
                    heap_name(p.piles.len() - 1)
                ))),
            },
            _ => Err(MoveError::new(format!(
                "'{}' is not a placing move: {} stone{} still to place; name the pile, e.g. 'A' or 'place on B'",
                input.trim(),
                p.left,
                if p.left == 1 { " is" } else { "s are" }
            ))),
        }
    }

    fn format_move(&self, _p: &BuildingPosition, mv: &BuildMove) -> String {
        match mv {
            BuildMove::Place(i) => heap_name(*i),
            BuildMove::Take(m) => format!("{} {}", heap_name(m.heap), m.take),
        }
    }

    fn describe_move(&self, p: &BuildingPosition, mv: &BuildMove) -> String {
        match mv {
            BuildMove::Place(i) => format!(
                "place a stone on pile {} ({} → {})",
                heap_name(*i),
                p.piles[*i],
                p.piles[*i] + 1
            ),
            BuildMove::Take(m) => describe_move(m, &p.piles),
        }
    }

    fn heap_move(&self, _p: &BuildingPosition, mv: &BuildMove) -> Option<(usize, u64)> {
        match mv {
            BuildMove::Place(_) => None,
            BuildMove::Take(m) => Some((m.heap, m.take)),
        }
    }

    fn render(&self, p: &BuildingPosition) -> String {
        let mut s = if p.left > 0 {
            format!(
                "  Stones left to place: {}   (placing phase: name a pile)\n",
                p.left
            )
        } else {
            "  All stones placed: Nim is being played on the piles.\n".to_string()
        };
        s.push_str(&heap_notation::render_heaps(&p.piles));
        s.push_str(&format!("  position: {}\n", self.format_position(p)));
        s
    }

    fn material(&self, p: &BuildingPosition) -> u64 {
        p.left + heaps::total(&p.piles)
    }

    /// The piles as heaps, with the stones still to place as a supply.
    fn board(&self, p: &BuildingPosition) -> Board {
        Board::Heaps {
            heaps: p.piles.clone(),
            labels: crate::geometry::heap_labels(p.piles.len()),
            rows_split: false,
            all_heaps_move: false,
            supply: Some(p.left),
        }
    }

    /// A placing move touches its pile; a Nim move takes from the end of
    /// its pile.
    fn touches(&self, p: &BuildingPosition, mv: &BuildMove) -> Vec<Element> {
        match mv {
            BuildMove::Place(heap) => vec![Element::Heap { heap: *heap }],
            BuildMove::Take(m) => vec![take_from_end(
                m.heap,
                p.piles.get(m.heap).copied().unwrap_or(0),
                m.take,
            )],
        }
    }

    fn candidate_moves(&self, p: &BuildingPosition) -> Vec<BuildMove> {
        if p.left > 0 || heaps::total(&p.piles) <= 2000 {
            return self.moves(p);
        }
        let mut moves: Vec<BuildMove> = (0..p.piles.len())
            .flat_map(|heap| {
                heaps::representative_takes(p.piles[heap])
                    .into_iter()
                    .map(move |take| BuildMove::Take(HeapMove { heap, take }))
            })
            .collect();
        for convention in [Convention::Normal, Convention::Misere] {
            moves.extend(
                nim::analyze(&p.piles, convention)
                    .winning_moves(&p.piles)
                    .map(BuildMove::Take),
            );
        }
        moves.sort_unstable();
        moves.dedup();
        moves
    }

    fn position_syntax(&self) -> &'static str {
        POSITION_SYNTAX
    }

    fn move_syntax(&self) -> String {
        String::from(
            "while placing: a pile letter, 'A' or 'place on B'; once all stones are placed: Nim moves, 'A 2' or 'take 2 from A'",
        )
    }
}

impl Theory for Building {
    fn description(&self) -> Description {
        Description {
            rules: "n stones and s empty piles. Players take turns placing one stone onto a pile of their choice. When every stone is placed, Nim is played on the piles, starting with the player who would move next. Normal play: whoever takes the last stone wins; misère play applies to the Nim phase: whoever takes the last stone loses.",
            example: if self.stones == 6 && self.piles == 3 {
                "3 / 1 0 2"
            } else {
                "start"
            },
            theory: "The placing phase is not a sum of games, so Nimatron searches every way of placing the remaining stones (piles compared sorted), scoring each finished placement by Bouton's theorem in the chosen convention; the Nim phase is Bouton's closed form. Published results reproduced: with n odd, or with s even, the second player wins; BN(4,3), BN(8,3), BN(16,3), BN(10,5) and BN(12,7) are first-player wins; BN(6,3), BN(14,3), BN(8,5) and BN(10,7) second-player wins. Checked against plain search over the whole game tree (placing and Nim) for every position with up to 7 stones on up to 3 piles and 5 stones on 4 piles, in both conventions.",
            citation: "U. Larsson, S. Heubach, M. Dufour, E. Duchêne, \"Building Nim\", arXiv:1502.04068 (2015); C. L. Bouton, Annals of Mathematics 3 (1901-1902) 35-39.",
        }
    }

    fn closed_form(
        &self,
        p: &BuildingPosition,
        convention: Convention,
    ) -> Option<Verdict<BuildMove>> {
        self.closed_form_within(p, convention, Limits::default())
            .ok()
            .flatten()
    }

    fn closed_form_within(
        &self,
        p: &BuildingPosition,
        convention: Convention,
        limits: Limits,
    ) -> Result<Option<Verdict<BuildMove>>, SolveError> {
        if p.left == 0 {
            let a = nim::analyze(&p.piles, convention);
            return Ok(Some(Verdict {
                details: Default::default(),
                outcome: a.outcome,
                grundy: Some(a.nim_sum),
                winning_moves: a.winning_moves(&p.piles).map(BuildMove::Take).collect(),
                explanation: format!(
                    "All {} stones are placed, so this is Nim on the piles.\n{}",
                    self.stones,
                    explain_nim(&p.piles, &a)
                ),
                theorem: "Bouton's theorem (Nim phase)".to_string(),
            }));
        }
        let (solved, stored) = self.search(p, convention, limits)?;
        let here = solved[&(p.left, Self::sorted(&p.piles))];
        let mut winning = Vec::new();
        let mut child_values = Vec::new();
        for i in 0..p.piles.len() {
            let after = self.apply(p, &BuildMove::Place(i));
            let child = solved[&(after.left, Self::sorted(&after.piles))];
            child_values.push(child);
            if !child.wins {
                winning.push(BuildMove::Place(i));
            }
        }
        let verdict = if here.wins {
            "the player to move wins"
        } else {
            "the player to move loses against perfect play"
        };
        let rule = match convention {
            Convention::Normal => "normal play",
            Convention::Misere => "misère play",
        };
        let mut explanation = format!(
            "{} stone{} still to place on {} piles. The placing phase is not a sum of games, so Nimatron searched every way to place them ({stored} placements, piles compared sorted) and scored each finished placement by Bouton's theorem for Nim in {rule}.\n",
            p.left,
            if p.left == 1 { " is" } else { "s are" },
            p.piles.len(),
        );
        let mut sizes: Vec<u64> = p.piles.clone();
        sizes.sort_unstable();
        sizes.dedup();
        for size in sizes {
            let names: Vec<String> = (0..p.piles.len())
                .filter(|&i| p.piles[i] == size)
                .map(heap_name)
                .collect();
            let i = (0..p.piles.len())
                .find(|&i| p.piles[i] == size)
                .expect("a pile");
            explanation.push_str(&format!(
                "  a stone on pile {} ({size} → {}): {}\n",
                names.join(", "),
                size + 1,
                if child_values[i].wins {
                    "the opponent then wins"
                } else {
                    "the opponent then loses"
                }
            ));
        }
        explanation.push_str(&format!(
            "So {verdict}. The normal-play Grundy value of the whole game from here is {}.\n",
            here.grundy
        ));
        if self.is_start(p) && convention == Convention::Normal {
            if self.stones % 2 == 1 {
                explanation.push_str("Larsson, Heubach, Dufour and Duchêne prove that with an odd number of stones the second player wins; the search agrees.\n");
            } else if self.piles.is_multiple_of(2) {
                explanation.push_str("Larsson, Heubach, Dufour and Duchêne prove that with an even number of piles the second player wins (answer each stone on the twin pile); the search agrees.\n");
            }
        }
        Ok(Some(Verdict {
            details: Default::default(),
            outcome: Outcome::from_to_move_wins(here.wins),
            grundy: Some(here.grundy),
            winning_moves: winning,
            explanation,
            theorem: format!(
                "search of the placing phase ({stored} placements), Bouton's theorem for the Nim phase"
            ),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Adapter;
    use crate::check::TextGame;
    use crate::check::closed_form_agrees_with_search;

    fn all_positions(stones: u64, piles: usize) -> Vec<BuildingPosition> {
        let mut out = Vec::new();
        for tuple in crate::check::all_tuples(piles, stones) {
            let placed: u64 = tuple.iter().sum();
            if placed <= stones {
                out.push(BuildingPosition {
                    left: stones - placed,
                    piles: tuple.clone(),
                });
                if placed < stones {
                    out.push(BuildingPosition {
                        left: 0,
                        piles: tuple,
                    });
                }
            }
        }
        out
    }

    #[test]
    fn search_agrees_with_plain_search_of_the_whole_game() {
        for (stones, piles) in [(7, 1), (7, 2), (7, 3), (5, 4)] {
            let game = Building::new(stones, piles);
            let positions = all_positions(stones, piles);
            let checked = closed_form_agrees_with_search(&game, positions.clone()).unwrap();
            assert_eq!(checked, 2 * positions.len(), "BN({stones},{piles})");
        }
    }

    fn first_player_wins(stones: u64, piles: usize) -> bool {
        let game = Building::new(stones, piles);
        game.closed_form(&game.start(), Convention::Normal)
            .expect("verdict")
            .outcome
            .to_move_wins()
    }

    #[test]
    fn published_results() {
        // Larsson, Heubach, Dufour, Duchêne, arXiv:1502.04068.
        for stones in (1..=15).step_by(2) {
            for piles in 1..=5 {
                assert!(
                    !first_player_wins(stones, piles),
                    "BN({stones},{piles}), n odd"
                );
            }
        }
        for stones in 1..=14 {
            for piles in [2, 4, 6] {
                assert!(
                    !first_player_wins(stones, piles),
                    "BN({stones},{piles}), s even"
                );
            }
        }
        for (n, s) in [(4, 3), (8, 3), (16, 3), (10, 5), (12, 7)] {
            assert!(first_player_wins(n, s), "BN({n},{s}) is a first-player win");
        }
        for (n, s) in [(6, 3), (14, 3), (8, 5), (10, 7)] {
            assert!(
                !first_player_wins(n, s),
                "BN({n},{s}) is a second-player win"
            );
        }
    }

    #[test]
    fn positions_moves_and_errors() {
        let game = Building::new(6, 3);
        let p = game.parse_position("3 / 1 0 2").unwrap();
        assert_eq!(game.format_position(&p), "3 / 1 0 2");
        assert_eq!(game.parse_move(&p, "place on B"), Ok(BuildMove::Place(1)));
        assert_eq!(
            game.parse_move(&p, "put a stone on pile a"),
            Ok(BuildMove::Place(0))
        );
        assert_eq!(game.parse_move(&p, "c"), Ok(BuildMove::Place(2)));
        assert!(
            game.parse_move(&p, "D")
                .unwrap_err()
                .problem
                .contains("no pile D")
        );
        assert!(
            game.parse_move(&p, "A 2")
                .unwrap_err()
                .problem
                .contains("placing move")
        );
        let nim_phase = game.parse_position("0 / 1 0 2").unwrap();
        assert_eq!(
            game.parse_move(&nim_phase, "C 2"),
            Ok(BuildMove::Take(HeapMove { heap: 2, take: 2 }))
        );
        let err = |t: &str| game.parse_position(t).unwrap_err().to_string();
        assert!(err("7 / 0 0 0").contains("too many stones"));
        assert!(err("2 / 3 2 1").contains("too many stones"));
        assert!(err("0 / 7 0 0").contains("too many stones"));
        assert!(err("2 / 1 0 0").contains("3 stones are missing"));
        assert!(err("2 / 1 3").contains("has 3 piles"));
        assert!(err("1 2 3").contains("no '/'"));
        assert_eq!(game.parse_position("3 / 1 0 2").unwrap(), p);
        assert_eq!(game.parse_position("3: 1,0,2").unwrap(), p);
        assert_eq!(game.parse_position("start").unwrap(), game.start());
        assert!(err("x | 1 2 3").contains("not a number of stones"));
        let adapter = Adapter::new(
            crate::GameSpec::Building {
                stones: 40,
                piles: 9,
            },
            Building::new(40, 9),
        );
        let e = adapter
            .analyze_text(
                "40 / 0 0 0 0 0 0 0 0 0",
                Convention::Normal,
                Limits::states(1000),
            )
            .unwrap_err();
        assert!(e.to_string().contains("limit of 1000"), "{e}");
        let a = adapter
            .analyze_text(
                "1 / 10 9 8 7 5 0 0 0 0",
                Convention::Normal,
                Limits::default(),
            )
            .unwrap();
        assert!(
            a.explanation.contains("a stone on pile A (10 → 11)"),
            "{}",
            a.explanation
        );
        assert!(
            a.explanation.contains("pile F, G, H, I (0 → 1)"),
            "{}",
            a.explanation
        );
    }
}
