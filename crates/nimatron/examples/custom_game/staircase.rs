//! Staircase Nim, a game that is not in Nimatron's catalogue, written as a
//! developer would write their own: [`Rules`], [`Notation`] and [`Theory`].
//!
//! Coins stand on the steps of a staircase. A move takes any number of
//! coins from one step down to the step below; coins on the ground (step 0)
//! are out of play. Whoever cannot move loses. The coins on odd steps are
//! a game of Nim: the player to move loses exactly when their nim-sum is 0
//! (Berlekamp, Conway and Guy, *Winning Ways*, chapter 11; the game is due
//! to Sprague, 1937).

use nimatron::{Description, MoveError, Notation, PositionError, PositionValue, Rules, Theory};

/// Staircase Nim. A position lists the coins on steps 1, 2, 3, ...
#[derive(Clone, Copy, Debug, Default)]
pub struct Staircase;

/// Move `coins` coins from `step` (1-based) to the step below.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Descend {
    /// The step the coins leave, 1 being the lowest.
    pub step: usize,
    /// How many coins move.
    pub coins: u64,
}

const SYNTAX: &str = "the coins on steps 1, 2, 3, ... separated by spaces, e.g. '3 0 2 1'";

impl Rules for Staircase {
    type Position = Vec<u64>;
    type Move = Descend;

    fn moves(&self, steps: &Vec<u64>) -> Vec<Descend> {
        let mut out = Vec::new();
        for (i, &n) in steps.iter().enumerate() {
            out.extend((1..=n).map(|coins| Descend { step: i + 1, coins }));
        }
        out
    }

    fn apply(&self, steps: &Vec<u64>, mv: &Descend) -> Vec<u64> {
        let mut after = steps.clone();
        after[mv.step - 1] -= mv.coins;
        if mv.step >= 2 {
            after[mv.step - 2] += mv.coins;
        }
        after
    }
}

impl Notation for Staircase {
    fn parse_position(&self, text: &str) -> Result<Vec<u64>, PositionError> {
        let steps: Vec<u64> = text
            .split_whitespace()
            .map(|w| {
                w.parse::<u64>().ok().filter(|&n| n <= 1000).ok_or_else(|| {
                    PositionError::new(
                        format!("'{w}' is not a number of coins from 0 to 1000"),
                        SYNTAX,
                    )
                })
            })
            .collect::<Result<_, _>>()?;
        if steps.is_empty() || steps.len() > 12 {
            return Err(PositionError::new(
                format!("'{text}' does not give 1 to 12 steps"),
                SYNTAX,
            ));
        }
        Ok(steps)
    }
    fn format_position(&self, steps: &Vec<u64>) -> String {
        let words: Vec<String> = steps.iter().map(u64::to_string).collect();
        words.join(" ")
    }
    /// The steps are drawn as rows of coins, the lowest step first.
    fn position_value(&self, steps: &Vec<u64>) -> PositionValue {
        PositionValue::Heaps(steps.clone())
    }
    fn start_position(&self) -> Option<Vec<u64>> {
        Some(vec![2, 3, 1, 4])
    }
    fn parse_move(&self, steps: &Vec<u64>, input: &str) -> Result<Descend, MoveError> {
        let words: Vec<&str> = input.split_whitespace().collect();
        let bad = || {
            MoveError::new(format!(
                "'{}' is not a move here: {}",
                input.trim(),
                self.move_syntax()
            ))
        };
        let [step, coins] = words.as_slice() else {
            return Err(bad());
        };
        let step: usize = step.parse().map_err(|_| bad())?;
        let coins: u64 = coins.parse().map_err(|_| bad())?;
        if step == 0 || step > steps.len() || coins == 0 || coins > steps[step - 1] {
            return Err(bad());
        }
        Ok(Descend { step, coins })
    }
    fn format_move(&self, _steps: &Vec<u64>, mv: &Descend) -> String {
        format!("{} {}", mv.step, mv.coins)
    }
    fn describe_move(&self, _steps: &Vec<u64>, mv: &Descend) -> String {
        let coins = if mv.coins == 1 { "coin" } else { "coins" };
        match mv.step {
            1 => format!("move {} {coins} from step 1 to the ground", mv.coins),
            s => format!("move {} {coins} from step {s} to step {}", mv.coins, s - 1),
        }
    }
    /// The move touches the heap it names, like a heap game's.
    fn heap_move(&self, _steps: &Vec<u64>, mv: &Descend) -> Option<(usize, u64)> {
        Some((mv.step - 1, mv.coins))
    }
    /// Each coin moves down at most once per step above the ground.
    fn material(&self, steps: &Vec<u64>) -> u64 {
        steps
            .iter()
            .enumerate()
            .map(|(i, &n)| n * (i as u64 + 1))
            .sum()
    }
    fn moves_left_bound(&self, steps: &Vec<u64>) -> Option<u64> {
        Some(self.material(steps))
    }
    fn position_syntax(&self) -> &'static str {
        SYNTAX
    }
    fn move_syntax(&self) -> String {
        String::from("STEP COINS, e.g. '3 2' moves 2 coins from step 3 to step 2")
    }
}

impl Theory for Staircase {
    fn description(&self) -> Description {
        Description {
            rules: "Coins on a staircase; a move takes any number of coins from one step down to the step below (coins on the ground are out of play). Whoever cannot move loses.",
            example: "3 0 2 1",
            theory: "Solved by Nimatron's generic search; the odd steps form a game of Nim.",
            citation: "E. R. Berlekamp, J. H. Conway and R. K. Guy, Winning Ways for your Mathematical Plays, chapter 11.",
        }
    }
}

/// The nim-sum of the coins on odd steps: the theory's value, for checks.
#[allow(dead_code)]
pub fn odd_step_nim_sum(steps: &[u64]) -> u64 {
    steps.iter().step_by(2).fold(0, |a, &n| a ^ n)
}
