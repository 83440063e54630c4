//! `nimatron play`: a game of Nim in the terminal.
//!
//! The loop reads lines from any `BufRead` and writes to any `Write`, so it
//! is driven the same way by a person, a pipe and the tests.

use std::io::{self, BufRead, Write};
use std::time::{SystemTime, UNIX_EPOCH};

use nimatron::explain::{self, describe_move, heap_name, parse_heap_name};
use nimatron::nim::{self, HeapMove};
use nimatron::strategy::{self, Candidate, Level, SplitMix64};
use nimatron::{Convention, GameSpec};

use crate::args::{First, Opponent, PlayArgs};
use crate::bad_input;

/// Everything that stays fixed during one game.
pub struct Setup {
    pub convention: Convention,
    pub heaps: Vec<u64>,
    pub human_first: bool,
    pub opponent: Opponent,
    pub level: Level,
    pub seed: u64,
}

pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    let spec: GameSpec = args.game.parse().map_err(|e| bad_input(format!("{e}")))?;
    let GameSpec::Nim = spec;
    let level: Level = args.level.parse().map_err(|e| bad_input(format!("{e}")))?;
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x4E494D)
    });
    let mut rng = SplitMix64::new(seed);
    let heaps = if args.random {
        let count = 3 + rng.below(3) as usize;
        (0..count).map(|_| 1 + rng.below(9)).collect()
    } else if let Some(words) = &args.heaps {
        let heaps: Vec<u64> = crate::analyze::read_heaps(words, "nimatron play --heaps 3,4,5")?;
        if heaps.iter().all(|&h| h == 0) {
            return Err(bad_input("--heaps: at least one heap must be non-empty"));
        }
        if heaps.len() > 26 * 27 {
            return Err(bad_input(
                "--heaps: at most 702 heaps (A to ZZ) can be played",
            ));
        }
        heaps
    } else {
        vec![3, 4, 5]
    };
    let human_first = match args.first {
        First::You => true,
        First::Computer => false,
        First::Random => rng.below(2) == 0,
    };
    let setup = Setup {
        convention: if args.misere {
            Convention::Misere
        } else {
            Convention::Normal
        },
        heaps,
        human_first,
        opponent: args.opponent,
        level,
        seed: rng.next_u64(),
    };
    let stdin = io::stdin();
    let stdout = io::stdout();
    play(setup, stdin.lock(), stdout.lock())?;
    Ok(())
}

/// The two sides. `First` is the human (or player 1 in friend mode).
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

struct Game {
    setup: Setup,
    heaps: Vec<u64>,
    to_move: Side,
    history: Vec<(Side, HeapMove)>,
    rng: SplitMix64,
}

impl Game {
    fn name(&self, side: Side) -> &'static str {
        match (self.setup.opponent, side) {
            (Opponent::Computer, Side::Human) => "You",
            (Opponent::Computer, Side::Other) => "Nimatron",
            (Opponent::Friend, Side::Human) => "Player 1",
            (Opponent::Friend, Side::Other) => "Player 2",
        }
    }

    fn is_over(&self) -> bool {
        self.heaps.iter().all(|&h| h == 0)
    }

    fn board(&self) -> String {
        let mut s = String::new();
        for (i, &h) in self.heaps.iter().enumerate() {
            let matches = if h <= 30 {
                "| ".repeat(h as usize)
            } else {
                format!("{}… ", "| ".repeat(30))
            };
            s.push_str(&format!(
                "  {:>2}  {:>4}  {}\n",
                heap_name(i),
                h,
                matches.trim_end()
            ));
        }
        s
    }

    fn apply(&mut self, mv: HeapMove) {
        self.heaps[mv.heap] -= mv.take;
        self.history.push((self.to_move, mv));
        self.to_move = self.to_move.flip();
    }

    fn undo_one(&mut self) -> Option<(Side, HeapMove)> {
        let (side, mv) = self.history.pop()?;
        self.heaps[mv.heap] += mv.take;
        self.to_move = side;
        Some((side, mv))
    }

    fn hint(&self) -> String {
        let a = nim::analyze(&self.heaps, self.setup.convention);
        match a.winning_move(&self.heaps) {
            Some(mv) => {
                let why = match a.regime {
                    nim::Regime::Bouton => format!(
                        "the nim-sum is {}; this leaves nim-sum 0",
                        a.nim_sum.value()
                    ),
                    nim::Regime::MisereEndgame => {
                        "misère endgame: leave an odd number of 1-heaps".to_string()
                    }
                    nim::Regime::MisereOnesOnly => {
                        "misère: leave an odd number of 1-heaps".to_string()
                    }
                };
                format!(
                    "Hint: {} ({why}). Type 'why' for the full explanation.",
                    describe_move(&mv, &self.heaps)
                )
            }
            None => {
                let stall = self.stalling_move();
                format!(
                    "Hint: this is a P-position (nim-sum {}): every move loses against perfect play. Make the win hard to find, e.g. {}.",
                    a.nim_sum.value(),
                    stall
                        .map(|m| describe_move(&m, &self.heaps))
                        .unwrap_or_default()
                )
            }
        }
    }

    fn candidates(&self) -> Vec<Candidate<HeapMove>> {
        let convention = self.setup.convention;
        let total: u64 = self.heaps.iter().fold(0u64, |a, &h| a.saturating_add(h));
        let mut moves: Vec<HeapMove> = Vec::new();
        for (heap, &h) in self.heaps.iter().enumerate() {
            if total <= 2000 {
                moves.extend((1..=h).map(|take| HeapMove { heap, take }));
            } else {
                // Representative subset for huge heaps: small takes, emptying,
                // and every winning move.
                let mut takes: Vec<u64> = (1..=h.min(8)).collect();
                takes.push(h);
                takes.push(h.saturating_sub(1).max(1));
                takes.sort_unstable();
                takes.dedup();
                moves.extend(
                    takes
                        .into_iter()
                        .filter(|&t| t >= 1 && t <= h)
                        .map(|take| HeapMove { heap, take }),
                );
            }
        }
        if total > 2000 {
            let a = nim::analyze(&self.heaps, convention);
            moves.extend(a.winning_moves(&self.heaps));
            moves.sort_unstable();
            moves.dedup();
        }
        moves
            .into_iter()
            .map(|mv| {
                let after = mv.apply(&self.heaps);
                let a = nim::analyze(&after, convention);
                Candidate {
                    mv,
                    outcome_after: a.outcome,
                    winning_replies: a.winning_moves(&after).count(),
                    material_after: after.iter().fold(0u64, |s, &h| s.saturating_add(h)),
                }
            })
            .collect()
    }

    fn stalling_move(&self) -> Option<HeapMove> {
        let mut rng = self.rng.clone();
        strategy::choose(Level::Perfect, &self.candidates(), &mut rng)
    }

    fn computer_move(&mut self) -> Option<HeapMove> {
        let candidates = self.candidates();
        strategy::choose(self.setup.level, &candidates, &mut self.rng)
    }
}

/// Parse a typed move: `A 2`, `a2`, `take 2 from A`, `2 from A`, `A all`.
fn parse_move(input: &str, heaps: &[u64]) -> Result<HeapMove, String> {
    let lower = input.trim().to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let (heap_word, count_word): (String, String) = match words.as_slice() {
        ["take" | "remove", n, "from", "heap", h] | [n, "from", "heap", h] => {
            (h.to_string(), n.to_string())
        }
        ["take" | "remove", n, "from", h] | [n, "from", h] => (h.to_string(), n.to_string()),
        ["heap", h, n] | [h, n] => (h.to_string(), n.to_string()),
        [single] => {
            let split = single
                .find(|c: char| !c.is_ascii_alphabetic())
                .ok_or_else(|| format!("'{}' is not a move", input.trim()))?;
            let (h, n) = single.split_at(split);
            (h.to_string(), n.to_string())
        }
        _ => return Err(format!("'{}' is not a move", input.trim())),
    };
    let heap =
        parse_heap_name(&heap_word).ok_or_else(|| format!("'{heap_word}' is not a heap letter"))?;
    if heap >= heaps.len() {
        return Err(format!(
            "there is no heap {}: the heaps are A to {}",
            heap_word.to_ascii_uppercase(),
            heap_name(heaps.len() - 1)
        ));
    }
    let size = heaps[heap];
    let take = if count_word == "all" {
        size
    } else {
        count_word.parse::<u64>().map_err(|_| {
            format!("'{count_word}' is not a number of objects: give a whole number from 1 to {size}, or 'all'")
        })?
    };
    if size == 0 {
        return Err(format!("heap {} is empty", heap_name(heap)));
    }
    if take == 0 {
        return Err("a move must take at least one object".to_string());
    }
    if take > size {
        return Err(format!(
            "heap {} has only {size} object{}",
            heap_name(heap),
            if size == 1 { "" } else { "s" }
        ));
    }
    Ok(HeapMove { heap, take })
}

const HELP: &str = "\
Moves:    'A 2', 'a2' or 'take 2 from A' take 2 objects from heap A;
          'A all' empties heap A.
Commands: hint   suggest a move and say why
          why    the full explanation: heaps in binary and the nim-sum
          undo   take back your last move
          help   this text
          quit   stop the game";

/// Play one game, reading moves from `input` and writing to `output`.
pub fn play(setup: Setup, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let rule = match setup.convention {
        Convention::Normal => "normal play: whoever takes the last object wins",
        Convention::Misere => "misère play: whoever takes the last object loses",
    };
    writeln!(output, "Nimatron — Nim, {rule}.")?;
    if setup.opponent == Opponent::Computer {
        writeln!(output, "Computer level: {}.", setup.level)?;
    }
    let rng = SplitMix64::new(setup.seed);
    let mut game = Game {
        heaps: setup.heaps.clone(),
        to_move: if setup.human_first {
            Side::Human
        } else {
            Side::Other
        },
        history: Vec::new(),
        rng,
        setup,
    };
    writeln!(
        output,
        "{} move{} first. Type 'help' for help.\n",
        game.name(game.to_move),
        if game.to_move == Side::Human && game.setup.opponent == Opponent::Computer {
            ""
        } else {
            "s"
        }
    )?;
    write!(output, "{}", game.board())?;
    let mut line = String::new();
    loop {
        if game.is_over() {
            // The player to move cannot move: the last mover took the last object.
            let last = game.to_move.flip();
            let winner = match game.setup.convention {
                Convention::Normal => last,
                Convention::Misere => game.to_move,
            };
            writeln!(
                output,
                "\n{} took the last object. {} win{}!",
                game.name(last),
                game.name(winner),
                if game.name(winner) == "You" { "" } else { "s" }
            )?;
            return Ok(());
        }
        if game.setup.opponent == Opponent::Computer && game.to_move == Side::Other {
            let mv = game
                .computer_move()
                .expect("a non-empty position has moves");
            writeln!(output, "\nNimatron: {}.", describe_move(&mv, &game.heaps))?;
            game.apply(mv);
            write!(output, "{}", game.board())?;
            continue;
        }
        write!(output, "\n{}> ", game.name(game.to_move))?;
        output.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(output, "\nEnd of input: game abandoned.")?;
            return Ok(());
        }
        let command = line.trim().to_ascii_lowercase();
        match command.as_str() {
            "" => continue,
            "quit" | "exit" | "q" => {
                writeln!(output, "Game abandoned.")?;
                return Ok(());
            }
            "help" | "?" => writeln!(output, "{HELP}")?,
            "hint" => writeln!(output, "{}", game.hint())?,
            "why" | "explain" => write!(
                output,
                "{}",
                explain::explain_position(&game.heaps, game.setup.convention)
            )?,
            "undo" => {
                let undone = match game.setup.opponent {
                    Opponent::Friend => game.undo_one().is_some(),
                    Opponent::Computer => {
                        // Take back moves until a move of yours is undone.
                        if game.history.iter().any(|(s, _)| *s == Side::Human) {
                            while let Some((side, _)) = game.undo_one() {
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
                    write!(output, "{}", game.board())?;
                } else {
                    writeln!(output, "Nothing to undo.")?;
                }
            }
            _ => match parse_move(&command, &game.heaps) {
                Ok(mv) => {
                    writeln!(
                        output,
                        "{}: {}.",
                        game.name(game.to_move),
                        describe_move(&mv, &game.heaps)
                    )?;
                    game.apply(mv);
                    write!(output, "{}", game.board())?;
                }
                Err(why) => writeln!(
                    output,
                    "Illegal move: {why}. Type 'help' for the move syntax."
                )?,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_syntax() {
        let heaps = [3, 4, 5];
        let m = |heap, take| Ok(HeapMove { heap, take });
        assert_eq!(parse_move("A 2", &heaps), m(0, 2));
        assert_eq!(parse_move("a2", &heaps), m(0, 2));
        assert_eq!(parse_move("take 2 from A", &heaps), m(0, 2));
        assert_eq!(parse_move("take 3 from heap b", &heaps), m(1, 3));
        assert_eq!(parse_move("2 from c", &heaps), m(2, 2));
        assert_eq!(parse_move("C all", &heaps), m(2, 5));
        assert!(parse_move("D 1", &heaps).unwrap_err().contains("no heap D"));
        assert!(parse_move("A 4", &heaps).unwrap_err().contains("only 3"));
        assert!(parse_move("A 0", &heaps).is_err());
        assert!(parse_move("A -1", &heaps).is_err());
        assert!(parse_move("hello world again", &heaps).is_err());
        assert!(parse_move("7", &heaps).is_err());
    }
}
