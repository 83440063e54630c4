//! The checks are in `nimatron_fuzz::moves`, shared with the corpus replay.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| nimatron_fuzz::moves::check(data));
