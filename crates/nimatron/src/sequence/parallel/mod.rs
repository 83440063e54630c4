//! The two threads of the sparse method's two-thread mode: the helper
//! thread ([`pair`], on `std::thread::scope`) and what the two share
//! during a round of the pipeline ([`handoff`]: the values one thread
//! appends to while the other reads them, and the ring of blocks the helper
//! hands over). The pipeline itself, the rounds and what each thread does in
//! them, is `sparse/pipeline.rs`, in safe code over these.
//!
//! With `sequence::kernel`, this is where the library's `unsafe` lives:
//! each block says why it is sound, and the tests of both modules run
//! under Miri (`scripts/miri-tests.sh`).

pub(crate) mod handoff;
pub(crate) mod pair;

pub(crate) use handoff::{Grow, Handoff};
pub(crate) use pair::{Pair, with_pair};
