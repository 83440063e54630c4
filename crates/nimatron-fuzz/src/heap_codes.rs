//! `heap_codes`: heap-game specs ([`HeapGame`]: octal and hexadecimal
//! codes, presets, `subtraction:`, `modular:`) and bare take-and-break codes
//! ([`OctalCode`]) print and parse back to the same value, and the catalogue
//! reads a heap-game spec as the same game. Then `G(0..=`[`TO`]`)` is
//! computed by every algorithm: each either refuses with a typed error or
//! gives the same values as the naive reference. The runs have the
//! library's default options, as `nimatron grundy` has: a run of 65 values
//! has no business allocating much, and the fuzzer's malloc limit says so.

use nimatron::GameSpec;
use nimatron::sequence::{Algorithm, HeapGame, OctalCode, SequenceOptions, grundy_sequence};

/// The largest heap whose value is computed.
pub const TO: u64 = 64;

/// Check one input.
pub fn check(data: &[u8]) {
    let Some(text) = crate::text(data) else {
        return;
    };
    if let Some(code) = crate::round_trip::<OctalCode>(text) {
        assert_eq!(OctalCode::from_digits(code.digits()).as_ref(), Ok(&code));
    }
    let Some(game) = crate::round_trip::<HeapGame>(text) else {
        return;
    };
    let printed = game.to_string();
    assert_eq!(
        text.parse::<GameSpec>(),
        Ok(GameSpec::Heap(game.clone())),
        "{text:?}: the catalogue reads another game"
    );
    let run = |algorithm| {
        let options = SequenceOptions {
            algorithm,
            ..SequenceOptions::default()
        };
        grundy_sequence(&game, TO, &options)
            .map(|s| s.values.iter().collect::<Vec<u32>>())
            .map_err(|e| assert!(!e.to_string().is_empty()))
    };
    let Ok(reference) = run(Algorithm::Naive) else {
        return;
    };
    assert_eq!(reference.len() as u64, TO + 1, "{printed}");
    for algorithm in [Algorithm::Auto, Algorithm::Sparse, Algorithm::Plain] {
        if let Ok(values) = run(algorithm) {
            assert_eq!(values, reference, "{printed}: {algorithm} against naive");
        }
    }
}
