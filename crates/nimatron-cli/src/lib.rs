//! The `nimatron` command as a library: [`main`] parses flags, runs the
//! command and maps errors to exit codes (0 success, 2 bad input, 1
//! anything else). [`play`] is the terminal game loop, open to any
//! [`Game`](nimatron::Game), including one outside the catalogue.

mod analyze;
mod args;
mod census;
mod census_format;
mod db;
mod games;
mod grundy;
mod kept;
mod memory;
pub mod play;
mod positions;
mod quotient;
mod serve;

pub use args::Opponent;

use std::process::ExitCode;

use clap::Parser;

pub use args::Cli;
use args::Command;

/// An error in what the user gave us: exit code 2.
#[derive(Debug)]
pub struct BadInput(pub String);

impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// The solver limits from `--max-states` and `--max-seconds` (both checked
/// as the flags were read).
pub fn limits(max_states: usize, max_time: std::time::Duration) -> nimatron::solve::Limits {
    nimatron::solve::Limits::states(max_states).with_time(max_time)
}

/// The time limit of `analyze` and `play` when `--max-seconds` is not
/// given: [`MISERE_RACE_SECONDS`] for misère play of a heap game, else
/// [`DEFAULT_SECONDS`].
pub fn default_seconds(
    given: Option<std::time::Duration>,
    spec: &nimatron::GameSpec,
    convention: nimatron::Convention,
) -> std::time::Duration {
    given.unwrap_or_else(|| {
        let race = convention == nimatron::Convention::Misere
            && matches!(spec, nimatron::GameSpec::Heap(_));
        std::time::Duration::from_secs(if race {
            MISERE_RACE_SECONDS
        } else {
            DEFAULT_SECONDS
        })
    })
}

/// The time limit of a search when `--max-seconds` is not given.
pub const DEFAULT_SECONDS: u64 = 120;

/// The time limit of misère play of a heap game when `--max-seconds` is not
/// given. The misère quotient races a plain search there (the library's
/// `misere` module); a position either settles does so within a second or
/// two, while a sum of large heaps (misère Dawson's Kayles `60 70 80`) is
/// past both, and is better told so within seconds than after two minutes.
/// What the quotient learnt by then is kept on disk for the next run.
pub const MISERE_RACE_SECONDS: u64 = 8;

/// Shorthand for a bad-input error.
pub fn bad_input(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(BadInput(message.into()))
}

/// Run one parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Analyze(a) => analyze::run(a),
        Command::Positions(p) => positions::run(p),
        Command::Play(p) => play::run(p),
        Command::Grundy(g) => grundy::run(g),
        Command::Census(c) => census::run(c),
        Command::Quotient(q) => quotient::run(q),
        Command::Games(g) => games::run(g),
        Command::Serve(s) => serve::run(s),
        Command::Db(d) => db::run(d),
    }
}

/// The whole command: flags from the process, exit code back.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help/version to stdout with exit 0, usage errors with 2.
            let _ = e.print();
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed pipe (e.g. `| head`) is not an error worth a message.
            if let Some(io) = e.downcast_ref::<std::io::Error>()
                && io.kind() == std::io::ErrorKind::BrokenPipe
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            if e.downcast_ref::<BadInput>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
