//! The games Nimatron knows, one module each, behind the [`Game`] facade.

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
pub mod hundred;
pub mod moore;
pub mod nim;
pub mod node_kayles;
pub mod notakto;
pub mod take_break;
pub mod twenty_one;
pub mod wordnim;
pub mod wythoff;

use crate::{Adapter, Game};
use crate::{GameSpec, SpecError};

/// Build the game a spec names.
pub fn build(spec: &GameSpec) -> Result<Box<dyn Game>, SpecError> {
    match spec {
        GameSpec::Nim => Ok(Box::new(Adapter::new(spec.to_string(), nim::Nim))),
        GameSpec::Heap(game) => Ok(Box::new(Adapter::new(
            spec.to_string(),
            take_break::TakeBreakGame::new(game.clone()),
        ))),
        GameSpec::Fibonacci => Ok(Box::new(Adapter::new(
            spec.to_string(),
            fibonacci::Fibonacci,
        ))),
        GameSpec::Greedy => Ok(Box::new(Adapter::new(spec.to_string(), greedy::Greedy))),
        GameSpec::Moore {
            heaps_per_move,
            cap,
        } => Ok(Box::new(Adapter::new(
            spec.to_string(),
            moore::Moore::new(*heaps_per_move, *cap),
        ))),
        GameSpec::Wythoff => Ok(Box::new(Adapter::new(spec.to_string(), wythoff::Wythoff))),
        GameSpec::TwentyOne { max_add, target } => {
            check_max_add(spec, *max_add)?;
            let game = twenty_one::TwentyOne {
                max_add: *max_add,
                target: *target,
            };
            Ok(Box::new(Adapter::new(spec.to_string(), game)))
        }
        GameSpec::Circular { max_take } => Ok(Box::new(Adapter::new(
            spec.to_string(),
            circular::Circular::new(*max_take),
        ))),
        GameSpec::Hundred { max_add, target } => {
            check_max_add(spec, *max_add)?;
            let game = hundred::Hundred {
                max_add: *max_add,
                target: *target,
            };
            Ok(Box::new(Adapter::new(spec.to_string(), game)))
        }
        GameSpec::Chomp { rows, columns } => Ok(Box::new(Adapter::new(
            spec.to_string(),
            chomp::Chomp::new(*rows as usize, *columns as usize),
        ))),
        GameSpec::Board { dims } => {
            let dims: Vec<usize> = dims.iter().map(|&k| k as usize).collect();
            Ok(Box::new(Adapter::new(
                spec.to_string(),
                board::Board::new(&dims),
            )))
        }
        GameSpec::NodeKayles => Ok(Box::new(Adapter::new(
            spec.to_string(),
            node_kayles::NodeKayles,
        ))),
        GameSpec::GraphNim => Ok(Box::new(Adapter::new(
            spec.to_string(),
            graph_nim::GraphNim,
        ))),
        GameSpec::Building { stones, piles } => Ok(Box::new(Adapter::new(
            spec.to_string(),
            building::Building::new(*stones, *piles as usize),
        ))),
        GameSpec::Candy => Ok(Box::new(Adapter::new(spec.to_string(), candy::CandyNim))),
        GameSpec::Wordnim => Ok(Box::new(Adapter::new(
            spec.to_string(),
            wordnim::Wordnim::default(),
        ))),
        GameSpec::Hackenbush => Ok(Box::new(Adapter::new(
            spec.to_string(),
            hackenbush::Hackenbush,
        ))),
        GameSpec::Notakto { side } => Ok(Box::new(Adapter::new(
            spec.to_string(),
            notakto::Notakto::new(*side as usize),
        ))),
    }
}

/// The counting games list every move in play, so K must stay listable.
fn check_max_add(spec: &GameSpec, max_add: u64) -> Result<(), SpecError> {
    if max_add > counting::MAX_ADD {
        let text = spec.to_string();
        let (game, given) = text.split_once(':').unwrap_or((&text, ""));
        return Err(SpecError::BadParameters {
            game: game.to_string(),
            given: given.to_string(),
            expected: format!(
                "K (the most added per turn) may be at most {}",
                counting::MAX_ADD
            ),
        });
    }
    Ok(())
}
