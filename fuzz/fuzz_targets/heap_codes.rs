//! The checks are in `nimatron_fuzz::heap_codes`, shared with the corpus replay.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| nimatron_fuzz::heap_codes::check(data));
