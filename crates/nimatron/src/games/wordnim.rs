//! Wordnim: Nim with words.
//!
//! # The rules Nimatron implements
//!
//! - The position is a list of words (any strings of the letters a–z; they
//!   need not be in the dictionary).
//! - A move chooses one word and removes one or more of its letters, **but
//!   not all of them**, such that the removed letters can be rearranged
//!   into a dictionary word **and** the letters left can be rearranged into
//!   a dictionary word. The removed letters leave the game; the letters left
//!   stay in play as that word (shown as the first such dictionary word in
//!   alphabetical order).
//! - A player who cannot move loses (normal play); under misère play that
//!   player wins.
//!
//! Only a word's letters matter, not their order, so each word is an
//! independent component whose Grundy value depends on its letters; the
//! position's value is the XOR of the words' values.
//!
//! The dictionary is a word list: the default is the list shipped with the
//! library (`crates/nimatron/data/words.txt`, written for Nimatron, MIT OR
//! Apache-2.0); [`Wordnim::from_words`] builds the game from any other list.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::solve::{GrundySolver, Limits};
use crate::{Adapter, Description, Game, MoveError, Notation, PositionError, Theory};
use crate::{Board, Element};
use crate::{Convention, GameSpec, Nimber, Outcome, Rules};

/// The longest word accepted in a position.
pub const MAX_WORD_LENGTH: usize = 30;
/// The most words in a position.
pub const MAX_WORDS: usize = 64;

const DEFAULT_WORDS: &str = include_str!("../../data/words.txt");

/// A word list entry with characters outside a–z, or an empty list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WordListError {
    /// An entry is not letters a–z.
    BadWord {
        /// 1-based line number.
        line: usize,
        /// The entry.
        word: String,
    },
    /// The list has no words.
    Empty,
}

impl fmt::Display for WordListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WordListError::BadWord { line, word } => write!(
                f,
                "word list line {line}: '{word}' has characters outside a-z: a word list holds one word per line, letters a to z only (upper case is folded; blank lines and lines starting with '#' are skipped)"
            ),
            WordListError::Empty => {
                f.write_str("the word list has no words: give one word per line, letters a to z")
            }
        }
    }
}

impl std::error::Error for WordListError {}

type Counts = [u8; 26];

fn counts(key: &str) -> Counts {
    let mut c = [0u8; 26];
    for b in key.bytes() {
        // Saturating: typed text may repeat a letter hundreds of times.
        let n = &mut c[(b - b'a') as usize];
        *n = n.saturating_add(1);
    }
    c
}

fn key_of(counts: &Counts) -> String {
    let mut s = String::new();
    for (i, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            s.push((b'a' + i as u8) as char);
        }
    }
    s
}

/// The letters of a word, sorted: its anagram class.
pub fn letters(word: &str) -> String {
    let mut b: Vec<u8> = word.bytes().collect();
    b.sort_unstable();
    String::from_utf8(b).expect("ASCII letters")
}

/// A dictionary as anagram classes.
#[derive(Debug)]
pub struct Dictionary {
    /// Sorted letters → the first dictionary word (alphabetically) with
    /// those letters.
    words: HashMap<String, String>,
    /// Anagram classes by length: (sorted letters, letter counts).
    by_length: Vec<Vec<(String, Counts)>>,
    size: usize,
}

impl Dictionary {
    /// Build from word-list lines (see [`Wordnim::from_words`]).
    pub fn from_lines<I, S>(lines: I) -> Result<Dictionary, WordListError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut words: HashMap<String, String> = HashMap::new();
        let mut size = 0;
        for (n, line) in lines.into_iter().enumerate() {
            let entry = line.as_ref().trim();
            if entry.is_empty() || entry.starts_with('#') {
                continue;
            }
            let lower = entry.to_ascii_lowercase();
            if !lower.bytes().all(|b| b.is_ascii_lowercase()) {
                return Err(WordListError::BadWord {
                    line: n + 1,
                    word: entry.to_string(),
                });
            }
            size += 1;
            let k = letters(&lower);
            match words.get_mut(&k) {
                Some(w) if *w <= lower => {}
                Some(w) => *w = lower,
                None => {
                    words.insert(k, lower);
                }
            }
        }
        if words.is_empty() {
            return Err(WordListError::Empty);
        }
        let longest = words.keys().map(String::len).max().unwrap_or(0);
        let mut by_length = vec![Vec::new(); longest + 1];
        for k in words.keys() {
            by_length[k.len()].push((k.clone(), counts(k)));
        }
        for list in &mut by_length {
            list.sort_unstable();
        }
        Ok(Dictionary {
            words,
            by_length,
            size,
        })
    }

    /// How many words the list had.
    pub fn len(&self) -> usize {
        self.size
    }

    /// Whether the list was empty (never, once built).
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// The dictionary word spelt by these letters, if any.
    pub fn word_for(&self, letters_key: &str) -> Option<&str> {
        self.words.get(letters_key).map(String::as_str)
    }

    /// Every split of `word`'s letters into (removed, left), both
    /// non-empty anagrams of dictionary words, as sorted-letter keys.
    pub fn splits(&self, word: &str) -> Vec<(String, String)> {
        let have = counts(&letters(word));
        let len = word.len();
        let mut out = Vec::new();
        for l in 1..len.min(self.by_length.len()) {
            for (k, c) in &self.by_length[l] {
                if (0..26).all(|i| c[i] <= have[i]) {
                    let mut rest = have;
                    for i in 0..26 {
                        rest[i] -= c[i];
                    }
                    let rest_key = key_of(&rest);
                    if self.words.contains_key(&rest_key) {
                        out.push((k.clone(), rest_key));
                    }
                }
            }
        }
        out
    }
}

/// Wordnim with a dictionary.
#[derive(Clone, Debug)]
pub struct Wordnim {
    dictionary: Arc<Dictionary>,
}

/// A move: from word number `word`, remove the letters `removed` (sorted).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WordMove {
    /// 0-based index of the word.
    pub word: usize,
    /// The letters removed, sorted.
    pub removed: String,
}

const POSITION_SYNTAX: &str = "words of the letters a-z separated by spaces or commas, e.g. 'heart stone' (upper case is folded to lower case; at most 64 words of at most 30 letters)";

impl Default for Wordnim {
    /// Wordnim with the word list shipped with Nimatron.
    fn default() -> Wordnim {
        Wordnim::from_words(DEFAULT_WORDS.lines()).expect("the shipped word list is valid")
    }
}

impl Wordnim {
    /// Wordnim with the words of a list, one entry per item: letters a–z
    /// (upper case is folded), blank entries and entries starting with `#`
    /// skipped. An entry with any other character is an error.
    pub fn from_words<I, S>(lines: I) -> Result<Wordnim, WordListError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        Ok(Wordnim {
            dictionary: Arc::new(Dictionary::from_lines(lines)?),
        })
    }

    /// The dictionary.
    pub fn dictionary(&self) -> &Dictionary {
        &self.dictionary
    }

    /// The displayed word for a set of letters.
    fn show(&self, key: &str) -> String {
        self.dictionary
            .word_for(key)
            .map(str::to_string)
            .unwrap_or_else(|| key.to_string())
    }

    fn left_after(&self, word: &str, removed: &str) -> String {
        let mut have = counts(&letters(word));
        let c = counts(removed);
        for i in 0..26 {
            have[i] -= c[i];
        }
        key_of(&have)
    }
}

/// The most ways of picking a move's letters on the board that one move
/// lists: a word with many repeated letters could have thousands.
const MAX_LETTER_CHOICES: usize = 64;

impl Wordnim {
    /// The ways of picking the letters `mv` removes, as board elements: in
    /// its word first, then in each later copy of that word; at most
    /// `limit` of them.
    fn letter_sets(&self, words: &[String], mv: &WordMove, limit: usize) -> Vec<Vec<Element>> {
        let Some(text) = words.get(mv.word) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (word, _) in words
            .iter()
            .enumerate()
            .filter(|(i, w)| *i >= mv.word && *w == text)
        {
            for indices in letter_choices(text, &mv.removed, limit - out.len()) {
                out.push(
                    indices
                        .into_iter()
                        .map(|index| Element::Letter { word, index })
                        .collect(),
                );
            }
            if out.len() >= limit {
                break;
            }
        }
        out
    }
}

/// Every way of choosing the letters `removed` among those of `word`, as
/// sorted letter indices, earliest first; at most `limit`. None when the
/// word lacks some of them.
fn letter_choices(word: &str, removed: &str, limit: usize) -> Vec<Vec<usize>> {
    // For each kind of letter removed: where it stands in the word, and how
    // many of it go.
    let mut groups: Vec<(Vec<usize>, usize)> = Vec::new();
    for c in b'a'..=b'z' {
        let need = removed.bytes().filter(|&b| b == c).count();
        if need == 0 {
            continue;
        }
        let places: Vec<usize> = (0..word.len())
            .filter(|&i| word.as_bytes()[i] == c)
            .collect();
        if places.len() < need {
            return Vec::new();
        }
        groups.push((places, need));
    }
    fn choose(
        groups: &[(Vec<usize>, usize)],
        from: usize,
        left: usize,
        picked: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
        limit: usize,
    ) {
        if out.len() >= limit {
            return;
        }
        let Some(((places, _), rest)) = groups.split_first() else {
            let mut set = picked.clone();
            set.sort_unstable();
            out.push(set);
            return;
        };
        if left == 0 {
            let next = rest.first().map_or(0, |g| g.1);
            choose(rest, 0, next, picked, out, limit);
            return;
        }
        for i in from..places.len() {
            if places.len() - i < left {
                break;
            }
            picked.push(places[i]);
            choose(groups, i + 1, left - 1, picked, out, limit);
            picked.pop();
        }
    }
    let mut out = Vec::new();
    let first = groups.first().map_or(0, |g| g.1);
    choose(&groups, 0, first, &mut Vec::new(), &mut out, limit);
    out
}

/// The game a word list gives, behind the [`Game`] face (spec `wordnim`).
pub fn game_with_words(text: &str) -> Result<Box<dyn Game>, WordListError> {
    Ok(Box::new(Adapter::new(
        GameSpec::Wordnim.to_string(),
        Wordnim::from_words(text.lines())?,
    )))
}

impl Rules for Wordnim {
    type Position = Vec<String>;
    type Move = WordMove;

    fn moves(&self, words: &Vec<String>) -> Vec<WordMove> {
        let mut out = Vec::new();
        for (i, w) in words.iter().enumerate() {
            // A move is written by its word, so a word that stands twice
            // has its moves listed once, at its first place (found by the
            // `positions` fuzz target: 'take see from listele' in
            // 'oe listele listele' was listed for both, leading to two
            // positions, and read back as the first).
            if words[..i].contains(w) {
                continue;
            }
            for (removed, _) in self.dictionary.splits(w) {
                out.push(WordMove { word: i, removed });
            }
        }
        out
    }

    fn apply(&self, words: &Vec<String>, mv: &WordMove) -> Vec<String> {
        let mut after = words.clone();
        after[mv.word] = self.show(&self.left_after(&words[mv.word], &mv.removed));
        after
    }

    fn components(&self, words: &Vec<String>) -> Vec<Vec<String>> {
        words.iter().map(|w| vec![w.clone()]).collect()
    }

    /// Only the letters of each word matter, and not the words' order.
    fn canonical(&self, words: &Vec<String>) -> Vec<String> {
        let mut keys: Vec<String> = words.iter().map(|w| letters(w)).collect();
        keys.sort_unstable();
        keys
    }
}

impl Notation for Wordnim {
    fn parse_position(&self, text: &str) -> Result<Vec<String>, PositionError> {
        let mut words = Vec::new();
        for w in text
            .split([' ', ',', '\t', '\n', '\r'])
            .filter(|w| !w.is_empty())
        {
            let lower = w.to_ascii_lowercase();
            if !lower.bytes().all(|b| b.is_ascii_lowercase()) {
                return Err(PositionError::new(
                    format!("'{w}' has characters outside the alphabet a-z"),
                    POSITION_SYNTAX,
                ));
            }
            if lower.len() > MAX_WORD_LENGTH {
                return Err(PositionError::new(
                    format!("'{w}' is longer than {MAX_WORD_LENGTH} letters"),
                    POSITION_SYNTAX,
                ));
            }
            words.push(lower);
        }
        if words.is_empty() {
            return Err(PositionError::new("no words given", POSITION_SYNTAX));
        }
        if words.len() > MAX_WORDS {
            return Err(PositionError::new(
                format!("{} words given; at most {MAX_WORDS}", words.len()),
                POSITION_SYNTAX,
            ));
        }
        Ok(words)
    }

    fn format_position(&self, words: &Vec<String>) -> String {
        words.join(" ")
    }

    fn start_position(&self) -> Option<Vec<String>> {
        self.parse_position("heart stone planet").ok()
    }

    fn parse_move(&self, words: &Vec<String>, input: &str) -> Result<WordMove, MoveError> {
        let lower = input.trim().to_ascii_lowercase();
        let parts: Vec<&str> = lower.split_whitespace().collect();
        let (removed, word) = match parts.as_slice() {
            ["take" | "remove", removed, "from", word] => (*removed, *word),
            [word, removed] => (*removed, *word),
            _ => {
                return Err(MoveError::new(format!(
                    "'{}' is not a move: {}",
                    input.trim(),
                    self.move_syntax()
                )));
            }
        };
        let removed = removed.trim_start_matches('-');
        let index = words.iter().position(|w| w == word).ok_or_else(|| {
            MoveError::new(format!(
                "there is no word '{word}': the words are {}",
                words.join(", ")
            ))
        })?;
        if !removed.bytes().all(|b| b.is_ascii_lowercase()) || removed.is_empty() {
            return Err(MoveError::new(format!(
                "'{removed}' is not a set of letters a-z"
            )));
        }
        let have = counts(&letters(word));
        let take = counts(&letters(removed));
        if removed.len() > word.len() || (0..26).any(|i| take[i] > have[i]) {
            return Err(MoveError::new(format!(
                "'{word}' does not hold the letters of '{removed}'"
            )));
        }
        if removed.len() == word.len() {
            return Err(MoveError::new(format!(
                "a move may not remove every letter of '{word}': the letters left must spell a word"
            )));
        }
        let key = letters(removed);
        if self.dictionary.word_for(&key).is_none() {
            return Err(MoveError::new(format!(
                "the letters '{removed}' spell no word of the dictionary"
            )));
        }
        let left = self.left_after(word, &key);
        if self.dictionary.word_for(&left).is_none() {
            return Err(MoveError::new(format!(
                "the letters left, '{left}', spell no word of the dictionary"
            )));
        }
        Ok(WordMove {
            word: index,
            removed: key,
        })
    }

    fn format_move(&self, words: &Vec<String>, mv: &WordMove) -> String {
        format!("take {} from {}", self.show(&mv.removed), words[mv.word])
    }

    fn describe_move(&self, words: &Vec<String>, mv: &WordMove) -> String {
        format!(
            "take '{}' from '{}', leaving '{}'",
            self.show(&mv.removed),
            words[mv.word],
            self.show(&self.left_after(&words[mv.word], &mv.removed))
        )
    }

    fn render(&self, words: &Vec<String>) -> String {
        let mut s = String::new();
        for w in words {
            let splits = self.dictionary.splits(w).len();
            s.push_str(&format!(
                "  {w:<16} {} letter{}, {splits} move{}\n",
                w.len(),
                if w.len() == 1 { "" } else { "s" },
                if splits == 1 { "" } else { "s" }
            ));
        }
        s.push_str(&format!("  position: {}\n", words.join(" ")));
        s
    }

    fn material(&self, words: &Vec<String>) -> u64 {
        words.iter().map(|w| w.len() as u64).sum()
    }

    fn board(&self, words: &Vec<String>) -> Board {
        Board::Words {
            words: words.clone(),
        }
    }

    /// The removed letters, the earliest of each kind in the word.
    fn touches(&self, words: &Vec<String>, mv: &WordMove) -> Vec<Element> {
        self.letter_sets(words, mv, 1)
            .into_iter()
            .next()
            .unwrap_or_default()
    }

    /// The same letters chosen elsewhere in the word (where it has a
    /// letter twice), or in another copy of the same word.
    fn also_touches(&self, words: &Vec<String>, mv: &WordMove) -> Vec<Vec<Element>> {
        self.letter_sets(words, mv, MAX_LETTER_CHOICES)
            .into_iter()
            .skip(1)
            .collect()
    }

    fn position_syntax(&self) -> &'static str {
        POSITION_SYNTAX
    }

    fn move_syntax(&self) -> String {
        String::from(
            "'take he from heart' (or 'heart he') removes the letters h, e from 'heart', leaving 'art': the letters removed and the letters left must each spell a dictionary word, in any order, and at least one letter must stay",
        )
    }
}

impl Theory for Wordnim {
    fn description(&self) -> Description {
        Description {
            rules: "A list of words. A move chooses one word and removes one or more of its letters, but not all, so that the removed letters can be rearranged into a dictionary word and so can the letters left; the removed letters leave the game and the rest stays as that word. Normal play: a player who cannot move loses; misère play: a player who cannot move wins. Start words may be any strings of a-z.",
            example: "heart stone",
            theory: "Each word is an independent component whose value depends only on its letters, so the Grundy value is the XOR of the words' values, each the mex over its splits, memoised by sorted letters; misère play by outcome search. The default dictionary is the list shipped with Nimatron (2714 common English words, written for the project, MIT OR Apache-2.0); a game may be built on any other word list. Checked against a plain recursion over whole positions with its own move generation (every sub-multiset of letters) on random positions of up to three words, in both conventions.",
            citation: "C. Waterford, \"Wordnim\", Purple Rose Puzzles (cited by Wikipedia, \"Nim\"); R. P. Sprague (1935), P. M. Grundy (1939).",
        }
    }

    fn explain_solved(
        &self,
        words: &Vec<String>,
        convention: Convention,
        outcome: Outcome,
        grundy: Option<Nimber>,
    ) -> String {
        let verdict = match outcome {
            Outcome::N => "the player to move wins",
            Outcome::P => "the player to move loses against perfect play",
        };
        let mut s = format!(
            "Each word is played on its own, and only its letters matter (dictionary of {} words).\n",
            self.dictionary.len()
        );
        let mut solver = GrundySolver::new(self, Limits::default());
        for w in words.iter().take(20) {
            let splits = self.dictionary.splits(w);
            let shown: Vec<String> = splits
                .iter()
                .take(4)
                .map(|(r, l)| format!("{} + {}", self.show(r), self.show(l)))
                .collect();
            let value = solver
                .grundy(&vec![w.clone()])
                .map(|v| v.to_string())
                .unwrap_or_else(|_| "?".to_string());
            s.push_str(&format!(
                "  {w}: value {value}; {} split{}{}{}\n",
                splits.len(),
                if splits.len() == 1 { "" } else { "s" },
                if shown.is_empty() { "" } else { ", e.g. " },
                shown.join(", ")
            ));
        }
        match (convention, grundy) {
            (Convention::Normal, Some(v)) => s.push_str(&format!(
                "The Grundy value is the XOR of the words' values: {v}, so {verdict}.\n"
            )),
            _ => s.push_str(&format!(
                "Misère play does not add by XOR, so Nimatron searched whole positions: {verdict}.\n"
            )),
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::TextGame;
    use crate::solve::OutcomeSearch;
    use crate::strategy::SplitMix64;
    use std::collections::{HashMap, HashSet};

    /// Every sub-multiset of `word`'s letters, as sorted strings.
    fn sub_multisets(word: &str) -> Vec<String> {
        let mut out = vec![String::new()];
        let mut letters: Vec<char> = word.chars().collect();
        letters.sort_unstable();
        let mut i = 0;
        while i < letters.len() {
            let c = letters[i];
            let run = letters[i..].iter().take_while(|&&x| x == c).count();
            out = out
                .into_iter()
                .flat_map(|s| (0..=run).map(move |k| format!("{s}{}", c.to_string().repeat(k))))
                .collect();
            i += run;
        }
        out
    }

    fn minus(word: &str, part: &str) -> String {
        let mut left: Vec<char> = word.chars().collect();
        for c in part.chars() {
            let at = left.iter().position(|&x| x == c).expect("letter");
            left.remove(at);
        }
        left.sort_unstable();
        left.into_iter().collect()
    }

    /// Options of a whole position, from the rules as written.
    fn naive_options(dict: &HashSet<String>, words: &[String]) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        for (i, w) in words.iter().enumerate() {
            for part in sub_multisets(w) {
                if part.is_empty() || part.len() == w.len() {
                    continue;
                }
                let left = minus(w, &part);
                if dict.contains(&part) && dict.contains(&left) {
                    let mut after = words.to_vec();
                    after[i] = left;
                    out.push(after);
                }
            }
        }
        out
    }

    fn naive_grundy(
        dict: &HashSet<String>,
        words: &[String],
        memo: &mut HashMap<Vec<String>, u64>,
    ) -> u64 {
        if let Some(&v) = memo.get(words) {
            return v;
        }
        let seen: HashSet<u64> = naive_options(dict, words)
            .iter()
            .map(|q| naive_grundy(dict, q, memo))
            .collect();
        let v = (0..).find(|x| !seen.contains(x)).expect("mex");
        memo.insert(words.to_vec(), v);
        v
    }

    fn naive_misere(
        dict: &HashSet<String>,
        words: &[String],
        memo: &mut HashMap<Vec<String>, bool>,
    ) -> bool {
        if let Some(&v) = memo.get(words) {
            return v;
        }
        let options = naive_options(dict, words);
        let w = options.is_empty() || options.iter().any(|q| !naive_misere(dict, q, memo));
        memo.insert(words.to_vec(), w);
        w
    }

    #[test]
    fn a_tiny_dictionary_by_hand() {
        // With a, t, at, tat: 't' and 'a' cannot split; 'at' → a + t (0),
        // so value 1; 'tat' → t + at (1) or at + t (0), so value 2.
        let game = Wordnim::from_words(["a", "t", "at", "tat"]).unwrap();
        let mut solver = GrundySolver::new(&game, Limits::default());
        let mut v = |w: &str| solver.grundy(&vec![w.to_string()]).unwrap();
        assert_eq!(v("t"), Nimber(0));
        assert_eq!(v("at"), Nimber(1));
        assert_eq!(v("ta"), Nimber(1));
        assert_eq!(v("tat"), Nimber(2));
        assert_eq!(v("att"), Nimber(2));
        assert_eq!(v("xyz"), Nimber(0));
        let p = game.parse_position("tat at").unwrap();
        assert_eq!(solver.grundy(&p).unwrap(), Nimber(3));
        let mv = game.parse_move(&p, "take t from tat").unwrap();
        assert_eq!(
            game.apply(&p, &mv),
            vec!["at".to_string(), "at".to_string()]
        );
        assert_eq!(
            game.describe_move(&p, &mv),
            "take 't' from 'tat', leaving 'at'"
        );
    }

    #[test]
    fn agrees_with_plain_recursion() {
        let game = Wordnim::default();
        let dict: HashSet<String> = DEFAULT_WORDS
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(letters)
            .collect();
        let pool: Vec<&str> = DEFAULT_WORDS
            .lines()
            .filter(|l| !l.starts_with('#') && (3..=7).contains(&l.len()))
            .collect();
        let mut rng = SplitMix64::new(5);
        let mut solver = GrundySolver::new(&game, Limits::default());
        let mut misere = OutcomeSearch::new(&game, Convention::Misere, Limits::default());
        let mut nonzero = 0;
        for round in 0..60 {
            let count = 1 + round % 3;
            let words: Vec<String> = (0..count)
                .map(|_| pool[rng.below(pool.len() as u64) as usize].to_string())
                .collect();
            let keys: Vec<String> = words.iter().map(|w| letters(w)).collect();
            let mut memo = HashMap::new();
            let expected = naive_grundy(&dict, &keys, &mut memo);
            assert_eq!(
                solver.grundy(&words).unwrap(),
                Nimber(expected),
                "{words:?}"
            );
            if expected != 0 {
                nonzero += 1;
            }
            let mut memo = HashMap::new();
            assert_eq!(
                misere.outcome(&words).unwrap().to_move_wins(),
                naive_misere(&dict, &keys, &mut memo),
                "{words:?}"
            );
            // The moves are exactly the rules' options.
            let ours: HashSet<Vec<String>> = game
                .moves(&words)
                .iter()
                .map(|m| game.apply(&words, m).iter().map(|w| letters(w)).collect())
                .collect();
            let theirs: HashSet<Vec<String>> = naive_options(&dict, &keys).into_iter().collect();
            assert_eq!(ours, theirs, "{words:?}");
        }
        assert!(nonzero > 5, "the sample should not be all zeros");
    }

    #[test]
    fn word_lists_and_positions_are_checked() {
        let e = Wordnim::from_words(["cat", "don't"]).unwrap_err();
        assert_eq!(
            e,
            WordListError::BadWord {
                line: 2,
                word: "don't".into()
            }
        );
        assert!(e.to_string().contains("line 2"));
        assert_eq!(
            Wordnim::from_words(["# only a comment", ""]).unwrap_err(),
            WordListError::Empty
        );
        let upper = Wordnim::from_words(["Cat", "A"]).unwrap();
        assert_eq!(upper.dictionary().word_for("act"), Some("cat"));
        let game = Wordnim::default();
        assert_eq!(game.dictionary().len(), 2714);
        let err = |t: &str| game.parse_position(t).unwrap_err().to_string();
        assert!(err("héllo").contains("outside the alphabet"));
        assert!(err("cat d0g").contains("'d0g' has characters outside"));
        assert!(err("").contains("no words"));
        let p = game.parse_position("Heart stone").unwrap();
        assert_eq!(game.format_position(&p), "heart stone");
        let m = |t: &str| game.parse_move(&p, t);
        assert!(m("take he from heart").is_ok());
        assert!(m("heart he").is_ok());
        assert!(
            m("take heart from heart")
                .unwrap_err()
                .problem
                .contains("every letter")
        );
        assert!(
            m("take zz from heart")
                .unwrap_err()
                .problem
                .contains("does not hold")
        );
        assert!(
            m("take he from house")
                .unwrap_err()
                .problem
                .contains("no word 'house'")
        );
        assert!(
            m("take h from heart")
                .unwrap_err()
                .problem
                .contains("spell no word")
        );
    }

    #[test]
    fn default_start_and_explanation() {
        let adapter = Adapter::new(GameSpec::Wordnim, Wordnim::default());
        let start = adapter.start_position().unwrap();
        let a = adapter
            .analyze_text(&start, Convention::Normal, Limits::default())
            .unwrap();
        assert!(a.explanation.contains("heart: value"), "{}", a.explanation);
        let e = adapter
            .analyze_text(&start, Convention::Normal, Limits::states(2))
            .unwrap_err();
        assert!(e.to_string().contains("limit of 2"), "{e}");
    }

    /// Found by the `moves` fuzz target: a typed move repeating a letter
    /// more than 255 times overflowed the letter counts.
    #[test]
    fn a_move_repeating_a_letter_hundreds_of_times_is_refused() {
        let game = Wordnim::default();
        let words = game.parse_position("heart stone").unwrap();
        for typed in [
            format!("take {} from heart", "e".repeat(300)),
            format!("heart {}", "q".repeat(600)),
            format!("take {} from heart", "heartheart"),
        ] {
            let e = game.parse_move(&words, &typed).unwrap_err().problem;
            assert!(e.contains("does not hold the letters"), "{e}");
        }
    }

    /// Found by the `positions` fuzz target: in 'oe listele listele' the
    /// move 'take see from listele' was listed for both copies, leading to
    /// two different positions, and read back as the first. A word that
    /// stands twice has its moves listed once, and every listed notation
    /// reads back as its own move.
    #[test]
    fn a_repeated_word_has_its_moves_listed_once() {
        let game = Wordnim::default();
        let words = game.parse_position("oe listele listele").unwrap();
        let moves = game.moves(&words);
        assert!(!moves.is_empty());
        assert!(moves.iter().all(|m| m.word != 2), "{moves:?}");
        let mut seen = HashSet::new();
        for m in &moves {
            let notation = game.format_move(&words, m);
            assert!(seen.insert(notation.clone()), "{notation} twice");
            assert_eq!(
                &game.parse_move(&words, &notation).unwrap(),
                m,
                "{notation}"
            );
        }
    }

    /// The letter choices a board is told of, against every subset of the
    /// word's letters that spells the removed letters.
    #[test]
    fn letter_choices_are_every_subset_spelling_the_removed_letters() {
        for (word, removed) in [
            ("listele", "eel"),
            ("banana", "aan"),
            ("heart", "he"),
            ("aaaa", "aa"),
            ("tree", "z"),
            ("abc", "abcd"),
        ] {
            let mut letters = removed.as_bytes().to_vec();
            letters.sort_unstable();
            let mut want: Vec<Vec<usize>> = Vec::new();
            for mask in 0u32..1 << word.len() {
                let picked: Vec<usize> = (0..word.len()).filter(|i| mask >> i & 1 == 1).collect();
                let mut spelled: Vec<u8> = picked.iter().map(|&i| word.as_bytes()[i]).collect();
                spelled.sort_unstable();
                if spelled == letters {
                    want.push(picked);
                }
            }
            let mut got = letter_choices(word, removed, usize::MAX);
            got.sort();
            want.sort();
            assert_eq!(got, want, "{word} - {removed}");
            assert_eq!(letter_choices(word, removed, 2).len(), want.len().min(2));
        }
    }

    /// Every way of selecting a move's letters on the board is listed, in
    /// each copy of the word, and no two moves share a selection.
    #[test]
    fn board_letters_identify_moves() {
        let game = Wordnim::default();
        let words = game.parse_position("oe listele listele").unwrap();
        assert_eq!(
            game.board(&words),
            Board::Words {
                words: words.clone()
            }
        );
        let mut owner = HashMap::new();
        for m in game.moves(&words) {
            let sets: Vec<Vec<Element>> = std::iter::once(game.touches(&words, &m))
                .chain(game.also_touches(&words, &m))
                .collect();
            let choices = letter_choices(&words[m.word], &m.removed, usize::MAX).len();
            let copies = words[m.word..]
                .iter()
                .filter(|w| **w == words[m.word])
                .count();
            assert_eq!(
                sets.len(),
                (copies * choices).min(MAX_LETTER_CHOICES),
                "{m:?}"
            );
            for set in sets {
                assert_eq!(set.len(), m.removed.len());
                let word = match set[0] {
                    Element::Letter { word, .. } => word,
                    ref e => panic!("{e:?}"),
                };
                let mut spelled: Vec<u8> = set
                    .iter()
                    .map(|e| match e {
                        Element::Letter { word: w, index } if *w == word => {
                            words[word].as_bytes()[*index]
                        }
                        e => panic!("{e:?}"),
                    })
                    .collect();
                spelled.sort_unstable();
                assert_eq!(spelled, m.removed.as_bytes());
                assert!(
                    owner.insert(format!("{set:?}"), m.clone()).is_none(),
                    "{set:?}"
                );
            }
        }
    }
}
