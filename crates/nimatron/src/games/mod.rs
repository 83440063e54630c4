//! The games Nimatron knows, one module each, behind the [`Game`] facade.

pub mod fibonacci;
pub mod greedy;
pub mod heaps;
pub mod moore;
pub mod nim;
pub mod wythoff;

use crate::facade::{Adapter, Game};
use crate::{GameSpec, SpecError};

/// Build the game a spec names.
pub fn build(spec: &GameSpec) -> Result<Box<dyn Game>, SpecError> {
    match spec {
        GameSpec::Nim => Ok(Box::new(Adapter::new(spec.clone(), nim::Nim))),
        GameSpec::Fibonacci => Ok(Box::new(Adapter::new(spec.clone(), fibonacci::Fibonacci))),
        GameSpec::Greedy => Ok(Box::new(Adapter::new(spec.clone(), greedy::Greedy))),
        GameSpec::Moore {
            heaps_per_move,
            cap,
        } => Ok(Box::new(Adapter::new(
            spec.clone(),
            moore::Moore::new(*heaps_per_move, *cap),
        ))),
        GameSpec::Wythoff => Ok(Box::new(Adapter::new(spec.clone(), wythoff::Wythoff))),
        _ => Err(SpecError::NotPlayable {
            game: spec.to_string(),
        }),
    }
}
