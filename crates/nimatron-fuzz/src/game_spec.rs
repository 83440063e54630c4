//! `game_spec`: a [`GameSpec`] that parses prints a spec that parses back
//! to the same value; the game it names builds, under that name, and its
//! start position prints and parses back to itself.

use nimatron::GameSpec;

/// Check one input.
pub fn check(data: &[u8]) {
    let Some(text) = crate::text(data) else {
        return;
    };
    let Some(spec) = crate::round_trip::<GameSpec>(text) else {
        return;
    };
    let printed = spec.to_string();
    if let GameSpec::Heap(heap) = &spec {
        assert_eq!(heap.to_string().parse().as_ref(), Ok(heap), "{text:?}");
    }
    let Ok(game) = spec.build() else {
        return;
    };
    assert_eq!(game.name(), printed, "{text:?}");
    if let Some(start) = game.start() {
        let back = game
            .parse(start.text())
            .unwrap_or_else(|e| panic!("{printed}: the start {start} does not parse: {e}"));
        assert_eq!(back, start, "{printed}");
    }
}
