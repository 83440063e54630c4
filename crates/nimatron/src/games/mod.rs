//! The games Nimatron knows, one module each, behind the [`Game`] facade.

pub mod board;
pub mod building;
pub mod candy;
pub mod chomp;
pub mod graph;
pub mod graph_nim;
pub mod heaps;
pub mod nim;
pub mod node_kayles;
pub mod wordnim;

use crate::facade::{Adapter, Game};
use crate::{GameSpec, SpecError};

/// Build the game a spec names.
pub fn build(spec: &GameSpec) -> Result<Box<dyn Game>, SpecError> {
    match spec {
        GameSpec::Nim => Ok(Box::new(Adapter::new(spec.clone(), nim::Nim))),
        GameSpec::Chomp { rows, columns } => Ok(Box::new(Adapter::new(
            spec.clone(),
            chomp::Chomp::new(*rows as usize, *columns as usize),
        ))),
        GameSpec::Board { dims } => {
            let dims: Vec<usize> = dims.iter().map(|&k| k as usize).collect();
            Ok(Box::new(Adapter::new(
                spec.clone(),
                board::Board::new(&dims),
            )))
        }
        GameSpec::NodeKayles => Ok(Box::new(Adapter::new(
            spec.clone(),
            node_kayles::NodeKayles,
        ))),
        GameSpec::GraphNim => Ok(Box::new(Adapter::new(spec.clone(), graph_nim::GraphNim))),
        GameSpec::Building { stones, piles } => Ok(Box::new(Adapter::new(
            spec.clone(),
            building::Building::new(*stones, *piles as usize),
        ))),
        GameSpec::Candy => Ok(Box::new(Adapter::new(spec.clone(), candy::CandyNim))),
        GameSpec::Wordnim => Ok(Box::new(Adapter::new(
            spec.clone(),
            wordnim::Wordnim::default(),
        ))),
        _ => Err(SpecError::NotPlayable {
            game: spec.to_string(),
        }),
    }
}
