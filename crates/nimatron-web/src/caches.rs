//! What the server keeps between requests: each game built from its spec
//! (with the solver tables it has filled), and the Grundy sequences the
//! Explore page asked for. Both forget everything when full.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use nimatron::sequence::{
    GrundySequence, HeapGame, SequenceError, SequenceOptions, grundy_sequence,
};
use nimatron::{Game, GameSpec};

use crate::error::{ApiError, spec_error};

/// A game outside the catalogue that the server plays under its own name:
/// the name and a function that builds it.
pub type CustomGame = (&'static str, fn() -> Box<dyn Game>);

/// How many different game specs are kept built (with their solver tables).
const GAME_CACHE: usize = 64;
/// How many Grundy sequences the Explore page keeps computed.
const SEQUENCE_CACHE: usize = 16;
/// The most memory one Grundy sequence may plan to use.
const SEQUENCE_MEMORY: u64 = 64 << 20;

/// A map shared by every request that is emptied when it holds `capacity`
/// entries and another comes.
struct Bounded<K, V> {
    capacity: usize,
    map: Mutex<HashMap<K, V>>,
}

impl<K: Eq + Hash, V: Clone> Bounded<K, V> {
    fn new(capacity: usize) -> Bounded<K, V> {
        Bounded {
            capacity,
            map: Mutex::new(HashMap::new()),
        }
    }

    fn get(&self, key: &K) -> Option<V> {
        self.map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .cloned()
    }

    /// Keep `value` under `key`, unless another request kept one first:
    /// the value kept.
    fn values(&self) -> Vec<V> {
        self.map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect()
    }

    fn keep(&self, key: K, value: V) -> V {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= self.capacity {
            map.clear();
        }
        map.entry(key).or_insert(value).clone()
    }
}

/// The games built so far, by canonical spec or custom name.
pub(crate) struct GameCache {
    custom: Vec<CustomGame>,
    games: Bounded<String, Arc<dyn Game>>,
}

impl GameCache {
    /// An empty cache that also knows these custom games.
    pub(crate) fn new(custom: Vec<CustomGame>) -> GameCache {
        GameCache {
            custom,
            games: Bounded::new(GAME_CACHE),
        }
    }

    /// Parse a spec and build its game, or find it built. A custom game is
    /// found by its name; a catalogue game by its spec, which is returned too.
    pub(crate) fn game(
        &self,
        spec_text: &str,
    ) -> Result<(Option<GameSpec>, Arc<dyn Game>), ApiError> {
        if spec_text.len() > 200 {
            return Err(ApiError::bad_request(
                "bad_spec",
                "a game spec is at most 200 characters",
            ));
        }
        let custom = self
            .custom
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(spec_text.trim()));
        let (spec, key) = match custom {
            Some((name, _)) => (None, name.to_string()),
            None => {
                let spec: GameSpec = spec_text.parse().map_err(spec_error)?;
                let key = spec.to_string();
                (Some(spec), key)
            }
        };
        if let Some(g) = self.games.get(&key) {
            return Ok((spec, g));
        }
        let built: Arc<dyn Game> = match (custom, &spec) {
            (Some((_, build)), _) => Arc::from(build()),
            (None, Some(spec)) => Arc::from(spec.build().map_err(spec_error)?),
            (None, None) => return Err(ApiError::internal("no game was built")),
        };
        Ok((spec, self.games.keep(key, built)))
    }
}

impl GameCache {
    /// Bound the solver tables kept by every game to `max_states` in all:
    /// past it, every game forgets its tables (the next request of each
    /// fills them again).
    pub(crate) fn trim(&self, max_states: usize) {
        let games = self.games.values();
        let kept = games
            .iter()
            .fold(0usize, |a, g| a.saturating_add(g.kept_states()));
        if kept > max_states {
            for g in &games {
                g.forget_tables();
            }
        }
    }
}

/// The Grundy sequences computed so far, by game and length.
pub(crate) struct SequenceCache {
    sequences: Bounded<(String, u64), Arc<GrundySequence>>,
}

impl SequenceCache {
    /// An empty cache.
    pub(crate) fn new() -> SequenceCache {
        SequenceCache {
            sequences: Bounded::new(SEQUENCE_CACHE),
        }
    }

    /// The Grundy sequence g(0..=to) of a heap game from the sequence
    /// engine, computed or found computed.
    pub(crate) fn grundy_sequence(
        &self,
        game: &HeapGame,
        to: u64,
    ) -> Result<Arc<GrundySequence>, SequenceError> {
        let key = (game.to_string(), to);
        if let Some(seq) = self.sequences.get(&key) {
            return Ok(seq);
        }
        let options = SequenceOptions {
            memory_limit: SEQUENCE_MEMORY,
            ..SequenceOptions::default()
        };
        let seq = Arc::new(grundy_sequence(game, to, &options)?);
        Ok(self.sequences.keep(key, seq))
    }
}
