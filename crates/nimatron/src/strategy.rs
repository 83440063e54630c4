//! How a computer player picks a move: perfectly, or at a weaker level that
//! people can beat. When every move loses, it plays the one that leaves the
//! opponent the fewest winning replies, so the win is hard to find, and among
//! those the one that keeps the most material, so the game lasts longest.

use std::fmt;
use std::str::FromStr;

use crate::Outcome;

/// A playing strength.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Level {
    /// Always a winning move when one exists.
    #[default]
    Perfect,
    /// A winning move 85% of the time, else any legal move.
    Hard,
    /// A winning move 55% of the time.
    Medium,
    /// A winning move 25% of the time.
    Easy,
}

impl Level {
    /// Every level, strongest first.
    pub const ALL: [Level; 4] = [Level::Perfect, Level::Hard, Level::Medium, Level::Easy];

    /// The stable name.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Perfect => "perfect",
            Level::Hard => "hard",
            Level::Medium => "medium",
            Level::Easy => "easy",
        }
    }

    /// The chance, in percent, that the level looks for the best move.
    pub const fn accuracy_percent(self) -> u64 {
        match self {
            Level::Perfect => 100,
            Level::Hard => 85,
            Level::Medium => 55,
            Level::Easy => 25,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not one of `perfect`, `hard`, `medium`, `easy`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLevelError(pub String);

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown level '{}': expected perfect, hard, medium or easy",
            self.0
        )
    }
}

impl std::error::Error for ParseLevelError {}

impl FromStr for Level {
    type Err = ParseLevelError;
    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseLevelError(s.to_string()))
    }
}

/// A small, fast, seedable generator (SplitMix64). Not for cryptography.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator with the given seed.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform value in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: u64) -> u64 {
        // Lemire's multiply-shift; the tiny bias is irrelevant for play.
        ((self.next_u64() as u128 * bound as u128) >> 64) as u64
    }
}

/// A candidate move with what it leads to, as the strategy sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate<M> {
    /// The move.
    pub mv: M,
    /// The outcome for the opponent, who moves next. `P` means the move wins.
    pub outcome_after: Outcome,
    /// How many winning replies the opponent has after the move.
    pub winning_replies: usize,
    /// A measure of material left (objects, cells, ...): more means longer play.
    pub material_after: u64,
}

/// Pick a move at `level` from the candidates (all legal moves, or a
/// representative subset of them). `None` only when there are no candidates.
pub fn choose<M: Clone>(
    level: Level,
    candidates: &[Candidate<M>],
    rng: &mut SplitMix64,
) -> Option<M> {
    if candidates.is_empty() {
        return None;
    }
    let careful = rng.below(100) < level.accuracy_percent();
    if !careful {
        let i = rng.below(candidates.len() as u64) as usize;
        return Some(candidates[i].mv.clone());
    }
    let winning: Vec<&Candidate<M>> = candidates
        .iter()
        .filter(|c| c.outcome_after == Outcome::P)
        .collect();
    if !winning.is_empty() {
        let i = rng.below(winning.len() as u64) as usize;
        return Some(winning[i].mv.clone());
    }
    // Losing: fewest winning replies, then most material, then at random.
    let best_key = candidates
        .iter()
        .map(|c| (c.winning_replies, std::cmp::Reverse(c.material_after)))
        .min()
        .expect("non-empty");
    let best: Vec<&Candidate<M>> = candidates
        .iter()
        .filter(|c| (c.winning_replies, std::cmp::Reverse(c.material_after)) == best_key)
        .collect();
    let i = rng.below(best.len() as u64) as usize;
    Some(best[i].mv.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(mv: u32, outcome_after: Outcome, replies: usize, material: u64) -> Candidate<u32> {
        Candidate {
            mv,
            outcome_after,
            winning_replies: replies,
            material_after: material,
        }
    }

    #[test]
    fn perfect_takes_a_win() {
        let c = [cand(1, Outcome::N, 1, 9), cand(2, Outcome::P, 0, 1)];
        let mut rng = SplitMix64::new(7);
        for _ in 0..50 {
            assert_eq!(choose(Level::Perfect, &c, &mut rng), Some(2));
        }
    }

    #[test]
    fn losing_side_makes_the_win_hard_to_find() {
        let c = [
            cand(1, Outcome::N, 3, 9),
            cand(2, Outcome::N, 1, 4),
            cand(3, Outcome::N, 1, 6),
        ];
        let mut rng = SplitMix64::new(1);
        for _ in 0..50 {
            assert_eq!(choose(Level::Perfect, &c, &mut rng), Some(3));
        }
    }

    #[test]
    fn easy_level_blunders_sometimes() {
        let c = [cand(1, Outcome::N, 1, 9), cand(2, Outcome::P, 0, 1)];
        let mut rng = SplitMix64::new(3);
        let blunders = (0..1000)
            .filter(|_| choose(Level::Easy, &c, &mut rng) == Some(1))
            .count();
        assert!((200..600).contains(&blunders), "{blunders}");
    }

    #[test]
    fn level_names_round_trip() {
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
        }
        assert!("grandmaster".parse::<Level>().is_err());
    }
}
