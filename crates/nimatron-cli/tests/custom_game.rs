//! A game outside the catalogue (Staircase Nim, from the library's
//! `custom_game` example) is analysed and played through standard input by
//! the same loop as `nimatron play`.

#[path = "../../nimatron/examples/custom_game/staircase.rs"]
mod staircase;

use std::io::{BufReader, Read, Write};
use std::sync::{Arc, Mutex};

use nimatron::Level;
use nimatron::{Adapter, Convention, Game, Limits, Notation, Outcome, Rules};
use nimatron_cli::Opponent;
use nimatron_cli::play::{Setup, play};
use staircase::{Staircase, odd_step_nim_sum};

fn game() -> Box<dyn Game> {
    Box::new(Adapter::new("staircase", Staircase))
}

#[test]
fn the_search_agrees_with_the_odd_steps_theory() {
    let g = game();
    for a in 0..4u64 {
        for b in 0..3u64 {
            for c in 0..4u64 {
                for d in 0..3u64 {
                    let steps = [a, b, c, d];
                    let p = g.heap_position(&steps).unwrap();
                    let analysis = g
                        .analyze(&p, Convention::Normal, Limits::default())
                        .unwrap();
                    let expected = if odd_step_nim_sum(&steps) == 0 {
                        Outcome::P
                    } else {
                        Outcome::N
                    };
                    assert_eq!(analysis.outcome, expected, "{steps:?}");
                    for m in &analysis.winning_moves {
                        let after = m.to.heaps().unwrap();
                        assert_eq!(odd_step_nim_sum(after), 0, "{steps:?} → {after:?}");
                    }
                }
            }
        }
    }
}

/// Output the test can read while the game is running.
#[derive(Clone, Default)]
struct Screen(Arc<Mutex<Vec<u8>>>);

impl Write for Screen {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A player at the keyboard: a few scripted lines, then the theory's move
/// (leave the odd steps' nim-sum 0) from the last board on the screen.
struct Player {
    screen: Screen,
    script: Vec<&'static str>,
    pending: Vec<u8>,
}

impl Read for Player {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            let line = if self.script.is_empty() {
                let text = String::from_utf8(self.screen.0.lock().unwrap().clone()).unwrap();
                let board = text
                    .lines()
                    .rev()
                    .find_map(|l| Staircase.parse_position(l.trim()).ok())
                    .expect("a board on the screen");
                theory_move(&board).unwrap_or_else(|| "quit".to_string())
            } else {
                self.script.remove(0).to_string()
            };
            self.pending = format!("{line}\n").into_bytes();
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// A move that leaves the odd steps' nim-sum 0, if there is one.
fn theory_move(steps: &[u64]) -> Option<String> {
    Staircase
        .moves(&steps.to_vec())
        .into_iter()
        .find(|m| odd_step_nim_sum(&Staircase.apply(&steps.to_vec(), m)) == 0)
        .map(|m| format!("{} {}", m.step, m.coins))
}

#[test]
fn it_is_played_through_standard_input() {
    let g = game();
    let start = g.parse("3 0 2 1").unwrap();
    let setup = Setup {
        game: g.into(),
        convention: Convention::Normal,
        start,
        human_first: true,
        opponent: Opponent::Computer,
        level: Level::Perfect,
        seed: 1,
        limits: Limits::default(),
    };
    let screen = Screen::default();
    let player = Player {
        screen: screen.clone(),
        script: vec!["9 9", "hint"],
        pending: Vec::new(),
    };
    play(setup, BufReader::new(player), screen.clone()).unwrap();
    let text = String::from_utf8(screen.0.lock().unwrap().clone()).unwrap();
    assert!(text.contains("Nimatron — staircase"), "{text}");
    assert!(text.contains("Illegal move"), "{text}");
    assert!(text.contains("Hint: move 1 coin"), "{text}");
    assert!(text.contains("Nimatron: move"), "{text}");
    // The theory's moves beat the perfect computer from an N-position.
    assert!(text.contains("You win!"), "{text}");
}
