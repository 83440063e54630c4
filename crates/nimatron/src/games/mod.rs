//! The rules and theory of each game, one module each. Which games exist,
//! and how a spec builds one, is the catalogue's business
//! ([`GameSpec`](crate::GameSpec)).

pub mod board;
pub(crate) mod building;
pub(crate) mod candy;
pub(crate) mod chomp;
pub mod circular;
pub(crate) mod counting;
pub mod fibonacci;
pub(crate) mod graph;
pub(crate) mod graph_nim;
pub mod greedy;
pub(crate) mod hackenbush;
pub(crate) mod heaps;
pub(crate) mod moore;
pub(crate) mod nim;
pub(crate) mod node_kayles;
pub mod notakto;
pub(crate) mod take_break;
pub mod wordnim;
pub(crate) mod wythoff;

// A heap game with a Grundy sequence (take-and-break codes, Grundy's game,
// subtraction and modular games) as a typed game, for code that runs its
// own search over it; the catalogue builds the same game behind
// `Game`.
pub use take_break::{SplitMove, TakeBreakGame};

// Theory a reader may want on its own: Candy Nim's split under optimal
// play, and the Wythoff numbers (the P-positions of Wythoff's game).
pub use candy::candy_split;
pub use wythoff::{lower as wythoff_lower, upper as wythoff_upper};

// Moore's P-test for Nim_k (normal and misère play), for checking a
// position by hand.
pub use moore::{moore_misere_p, moore_p_test};
