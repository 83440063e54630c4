//! `word_list`: Wordnim's word-list reader (`--words FILE`, the Python
//! package's `words=`) on any text. A list is either refused, with a
//! message, and for a bad entry the line it names is that entry, one that
//! is not letters a-z while every line before it is blank, a comment or a
//! word; or it gives a game in which each of its first words, and all of
//! them together, is a position that prints and parses back and whose
//! legal moves apply as listed (the checks of [`positions`](crate::positions)).

use nimatron::games::wordnim::{WordListError, game_with_words};

/// The words of a list tried as positions, one by one.
pub const MAX_TRIED: usize = 8;

/// Check one input.
pub fn check(data: &[u8]) {
    let Some(text) = crate::text(data) else {
        return;
    };
    let game = match game_with_words(text) {
        Ok(game) => game,
        Err(e) => {
            assert!(!e.to_string().is_empty(), "{text:?}: an empty error");
            if let WordListError::BadWord { line, word } = &e {
                let lines: Vec<&str> = text.lines().collect();
                let at = lines.get(line - 1).map(|l| l.trim());
                assert_eq!(at, Some(word.as_str()), "{text:?}: {e}");
                assert!(!is_word(word), "{text:?}: {word:?} was refused");
                assert!(
                    lines[..line - 1]
                        .iter()
                        .all(|l| is_skipped(l) || is_word(l.trim())),
                    "{text:?}: a bad entry before line {line}"
                );
            }
            return;
        }
    };
    let words: Vec<&str> = text
        .lines()
        .filter(|l| !is_skipped(l))
        .map(str::trim)
        .collect();
    assert!(
        !words.is_empty(),
        "{text:?}: a game from a list of no words"
    );
    let mut tried: Vec<&str> = words.iter().copied().take(MAX_TRIED).collect();
    let all = tried.join(" ");
    tried.push(&all);
    for position_text in tried {
        let Ok(position) = game.parse(position_text) else {
            // Too long or too many words: refused with a message.
            continue;
        };
        crate::positions::check_round_trip("wordnim", game.as_ref(), &position);
        let legal = game
            .legal_moves(&position)
            .expect("the game's own position");
        for m in legal.iter().take(crate::positions::MAX_MOVES) {
            crate::positions::check_listed_move("wordnim", game.as_ref(), &position, m);
        }
    }
}

/// Whether the reader skips a line: blank, or a comment.
fn is_skipped(line: &str) -> bool {
    let line = line.trim();
    line.is_empty() || line.starts_with('#')
}

/// Whether an entry is a word: letters a-z in either case.
fn is_word(entry: &str) -> bool {
    !entry.is_empty() && entry.bytes().all(|b| b.is_ascii_alphabetic())
}
