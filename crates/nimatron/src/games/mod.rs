//! The rules and theory of each game, one module each. Which games exist,
//! and how a spec builds one, is the catalogue's business
//! ([`GameSpec`](crate::GameSpec)).

pub mod board;
pub mod building;
pub mod candy;
pub mod chomp;
pub mod circular;
pub mod counting;
pub mod fibonacci;
pub mod graph;
pub mod graph_nim;
pub mod greedy;
pub mod hackenbush;
pub mod heaps;
pub mod moore;
pub mod nim;
pub mod node_kayles;
pub mod notakto;
pub mod take_break;
pub mod wordnim;
pub mod wythoff;
