//! Every file of each fuzz target's corpus (`fuzz/corpus/<target>/`: the
//! seeds, and each input that once found a bug) run through the target's
//! checks, on stable, as ordinary tests.

use std::path::{Path, PathBuf};

use nimatron_fuzz::web_api::Harness;

/// The corpus files of a target, sorted by name.
fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no input", dir.display());
    files
}

fn replay(target: &str, check: impl Fn(&[u8])) {
    for file in corpus(target) {
        let data = std::fs::read(&file).expect("a corpus file");
        // On a failure the test prints this line last before the panic.
        eprintln!("{target}: {}", file.display());
        check(&data);
    }
}

/// One test per target, named after it.
macro_rules! replay_tests {
    ($($target:ident),*) => {$(
        #[test]
        fn $target() {
            replay(stringify!($target), nimatron_fuzz::$target::check);
        }
    )*};
}

replay_tests!(
    game_spec,
    positions,
    moves,
    heap_codes,
    sequence_file,
    checkpoint,
    word_list
);

#[test]
fn web_api() {
    let harness = Harness::new(Path::new(env!("CARGO_TARGET_TMPDIR")));
    replay("web_api", |data| harness.check(data));
}
