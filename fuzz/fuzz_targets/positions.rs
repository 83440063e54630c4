//! The checks are in `nimatron_fuzz::positions`, shared with the corpus replay.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| nimatron_fuzz::positions::check(data));
