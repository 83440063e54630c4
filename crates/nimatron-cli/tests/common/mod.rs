//! Running the `nimatron` binary from the CLI tests.
#![allow(dead_code)] // each test file uses its own subset

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Run `nimatron ARGS` with `input` on standard input. Nothing is kept on
/// disk between runs (`NIMATRON_CACHE_DIR` is empty), so that each run
/// starts alike.
pub fn run(args: &[&str], input: &str) -> Output {
    run_with_cache(args, input, "")
}

/// [`run`], keeping misère quotients in `cache` between runs.
pub fn run_with_cache(args: &[&str], input: &str, cache: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .env("NIMATRON_CACHE_DIR", cache)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nimatron starts");
    let mut stdin = child.stdin.take().expect("stdin");
    // A writer thread, so a large input cannot deadlock against the output.
    let input = input.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        // The program may exit before reading everything (quit, bad input).
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("nimatron finishes");
    writer.join().expect("writer thread");
    out
}

/// Run `nimatron ARGS` with empty standard input.
pub fn nimatron(args: &[&str]) -> Output {
    run(args, "")
}

/// Run `nimatron ARGS`, which must succeed, and parse its JSON output.
pub fn json(args: &[&str]) -> Value {
    let out = nimatron(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// Play `nimatron ARGS` as a person at the terminal: at every `You> ` prompt
/// `answer` sees the whole screen so far and returns the line to type. Ends
/// when the program does; panics if it prompts more than `max_turns` times.
/// Returns the screen and whether the program exited successfully.
pub fn drive(
    args: &[&str],
    max_turns: usize,
    mut answer: impl FnMut(&str) -> String,
) -> (String, bool) {
    use std::io::{BufReader, Read};
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .env("NIMATRON_CACHE_DIR", "")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("nimatron starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut screen = Vec::new();
    let mut turns = 0;
    let mut byte = [0u8];
    while stdout.read(&mut byte).expect("read") == 1 {
        screen.push(byte[0]);
        if screen.ends_with(b"You> ") {
            turns += 1;
            let text = String::from_utf8_lossy(&screen);
            assert!(turns <= max_turns, "more than {max_turns} turns:\n{text}");
            writeln!(stdin, "{}", answer(&text)).expect("send a line");
        }
    }
    drop(stdin);
    let ok = child.wait().expect("nimatron exits").success();
    (String::from_utf8(screen).expect("UTF-8 output"), ok)
}
