//! The `nimatron` command; everything is in the library crate.

/// mimalloc rather than the system allocator: the web server makes and
/// frees many small strings per request from many threads, where glibc's
/// malloc spent a fifth of the server's time (see docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    nimatron_cli::main()
}
