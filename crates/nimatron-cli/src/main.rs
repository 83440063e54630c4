//! The `nimatron` command; everything is in the library crate.

/// mimalloc rather than the system allocator: the web server makes and
/// frees many small strings per request from many threads, where glibc's
/// malloc spent a fifth of the server's time (see docs/benchmarks.md).
///
/// Built without its transparent huge pages (the `no_thp` feature): with
/// them, a Grundy sequence's small buffers each took a fresh 2 MiB page
/// that the kernel cleared whole, on a virtual machine at well under 1
/// GB/s (2.4% of Officers' profile to 10^6, `clear_page_erms`). Without
/// them Officers to 10^6 took 0.96 to 0.98 of the time, to 10^7 0.98, and
/// Grundy's game to 2^24 was unchanged within its spread.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    nimatron_cli::main()
}
