//! The `nimatron` command; everything is in the library crate.

fn main() -> std::process::ExitCode {
    nimatron_cli::main()
}
