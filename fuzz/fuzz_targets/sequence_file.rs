//! The checks are in `nimatron_fuzz::sequence_file`, shared with the corpus replay.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| nimatron_fuzz::sequence_file::check(data));
