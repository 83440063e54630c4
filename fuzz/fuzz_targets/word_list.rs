//! The checks are in `nimatron_fuzz::word_list`, shared with the corpus replay.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| nimatron_fuzz::word_list::check(data));
