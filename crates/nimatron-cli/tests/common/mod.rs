//! Running the `nimatron` binary from the CLI tests.
#![allow(dead_code)] // each test file uses its own subset

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Run `nimatron ARGS` with `input` on standard input.
pub fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimatron"))
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
