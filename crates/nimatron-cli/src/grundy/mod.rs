//! `nimatron grundy`: the Grundy sequence of a heap game, its period and
//! whether it is proven, with JSON/CSV/binary output, an SVG plot, a
//! progress bar, Ctrl-C handling and checkpoints.
//!
//! This file holds the run loop, Ctrl-C and checkpoints; [`progress`] the
//! progress bar, [`output`] the writers and [`plot`] the SVG plot.

mod output;
mod plot;
mod progress;

use std::fs::{self, OpenOptions};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use nimatron::sequence::{SequenceOptions, SequenceRun, human_bytes};

use crate::args::GrundyArgs;
use crate::bad_input;
use output::{write_binary, write_csv, write_json, write_summary};
use plot::plot_svg;
use progress::Progress;

/// How often a long run saves its checkpoint.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(60);

pub fn run(args: GrundyArgs) -> anyhow::Result<()> {
    let game = &args.spec;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(2)));
    let memory_limit = args
        .memory_limit
        .unwrap_or_else(crate::memory::default_memory_limit);
    // Refuse unwritable outputs before spending any time.
    for path in [&args.out, &args.plot, &args.checkpoint]
        .into_iter()
        .flatten()
    {
        check_writable(path)?;
    }
    let options = SequenceOptions {
        algorithm: args.algorithm,
        threads,
        memory_limit,
        simd: args.simd,
    };
    let mut run = match &args.checkpoint {
        Some(path) if path.exists() && fs::metadata(path).map(|m| m.len() > 0).unwrap_or(false) => {
            let bytes =
                fs::read(path).with_context(|| format!("reading checkpoint {}", path.display()))?;
            let run = SequenceRun::resume(&bytes, game, args.to, &options)
                .map_err(|e| bad_input(format!("checkpoint {}: {e}", path.display())))?;
            if !args.json && !args.csv {
                eprintln!(
                    "resuming from {} with {} values known",
                    path.display(),
                    run.len()
                );
            }
            run
        }
        _ => SequenceRun::new(game, args.to, &options).map_err(|e| bad_input(format!("{e}")))?,
    };

    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = Arc::clone(&interrupted);
        // A second handler cannot be installed; only one run per process.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    }

    let start_len = run.len();
    let started = Instant::now();
    let stop_at = args.stop_at.map_or(u64::MAX, |s| s.min(args.to + 1));
    let mut progress = Progress::new(io::stderr().is_terminal() && !args.json && !args.csv);
    let mut last_save = Instant::now();
    let mut step: u64 = 1 << 12;
    while !run.is_complete() && run.len() < stop_at {
        if interrupted.load(Ordering::SeqCst) {
            progress.clear();
            if let Some(path) = &args.checkpoint {
                save_checkpoint(&run, path)?;
                anyhow::bail!(
                    "interrupted at n = {}; checkpoint saved to {} (run the same command to resume)",
                    run.len(),
                    path.display()
                );
            }
            anyhow::bail!(
                "interrupted at n = {} (use --checkpoint FILE to keep progress)",
                run.len()
            );
        }
        let t = Instant::now();
        let target = run.len().saturating_add(step).min(stop_at);
        run.advance(target).map_err(|e| bad_input(format!("{e}")))?;
        // Aim for about a tenth of a second per step.
        let took = t.elapsed().as_secs_f64();
        if took < 0.05 {
            step = step.saturating_mul(2);
        } else if took > 0.2 && step > 1 << 10 {
            step /= 2;
        }
        progress.show(run.len() - start_len, run.len(), args.to + 1, started);
        if let Some(path) = &args.checkpoint
            && last_save.elapsed() >= CHECKPOINT_EVERY
        {
            save_checkpoint(&run, path)?;
            last_save = Instant::now();
        }
    }
    progress.clear();
    let elapsed = started.elapsed();
    if let Some(path) = &args.checkpoint {
        save_checkpoint(&run, path)?;
    }
    if !run.is_complete() {
        eprintln!(
            "stopped at n = {} as asked; checkpoint saved to {} (run again without --stop-at to finish)",
            run.len(),
            args.checkpoint
                .as_deref()
                .map(Path::display)
                .map(|d| d.to_string())
                .unwrap_or_default()
        );
        return Ok(());
    }
    let computed_now = run.len() - start_len;
    let seq = run.finish();

    if let Some(path) = &args.out {
        write_binary(&seq, path)?;
        report_written(
            &format!("G(0..={}) as a sequence file", seq.values.len() - 1),
            path,
        );
    }
    if let Some(path) = &args.plot {
        let svg = plot_svg(&seq);
        fs::write(path, svg).map_err(|e| cannot_write(path, e))?;
        report_written("the plot (SVG)", path);
    }
    if let Some(path) = &args.checkpoint {
        report_written("the checkpoint", path);
    }
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    if args.json {
        write_json(&mut out, &seq, args.algorithm, elapsed)?;
    } else if args.csv {
        write_csv(&mut out, &seq)?;
    } else {
        write_summary(
            &mut out,
            &seq,
            args.algorithm,
            threads,
            computed_now,
            elapsed,
        )?;
    }
    out.flush()?;
    Ok(())
}

/// A file that cannot be written is a failure of the machine, not of the
/// input: exit code 1.
pub(crate) fn cannot_write(path: &Path, e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("cannot write {}: {e}", path.display())
}

/// Says on standard error what was written, where, and how big (standard
/// output stays for the JSON, CSV or summary).
pub(crate) fn report_written(what: &str, path: &Path) {
    let size =
        fs::metadata(path).map_or_else(|_| "size unknown".to_string(), |m| human_bytes(m.len()));
    eprintln!("wrote {what} to {} ({size})", path.display());
}

fn check_writable(path: &Path) -> anyhow::Result<()> {
    if path.is_dir() {
        return Err(cannot_write(path, "it is a directory"));
    }
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(drop)
        .map_err(|e| cannot_write(path, e))
}

fn save_checkpoint(run: &SequenceRun, path: &Path) -> anyhow::Result<()> {
    let mut tmp = PathBuf::from(path);
    tmp.as_mut_os_string().push(".tmp");
    fs::write(&tmp, run.checkpoint()).map_err(|e| cannot_write(&tmp, e))?;
    fs::rename(&tmp, path).map_err(|e| cannot_write(path, e))?;
    Ok(())
}
