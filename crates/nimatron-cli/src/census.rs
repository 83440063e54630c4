//! `nimatron census`: run a census of octal codes (or one shard of it),
//! writing one JSON line per code, resumable; and `nimatron census merge`,
//! which turns shard files into one table.

use std::fs::{self, File, OpenOptions};
use std::io::{self, IsTerminal, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use nimatron::sequence::{
    Algorithm, CensusError, CensusRecord, CensusSpec, CensusTable, SequenceOptions, SequenceRun,
    Shard, census_game, merge,
};

use crate::args::{CensusArgs, CensusCommand, CensusMergeArgs, CensusRunArgs};
use crate::bad_input;
use crate::census_format::{self, parse_record, record_line};

/// How often the code in progress is saved.
const SAVE_EVERY: Duration = Duration::from_secs(60);

pub fn run(args: CensusArgs) -> anyhow::Result<()> {
    match args.command {
        Some(CensusCommand::Merge(m)) => run_merge(m),
        None => run_census(args.run),
    }
}

/// Where a shard's records go.
enum Sink {
    /// Appended to the `--out` file, one write per line.
    File(File),
    /// Standard output (a shard without `--out`).
    Stdout,
    /// Kept for the table only.
    Nowhere,
}

impl Sink {
    fn write(&mut self, line: &str) -> anyhow::Result<()> {
        match self {
            Sink::File(f) => f
                .write_all(line.as_bytes())
                .context("writing a census record")?,
            Sink::Stdout => {
                let mut out = io::stdout().lock();
                out.write_all(line.as_bytes())?;
                out.flush()?;
            }
            Sink::Nowhere => {}
        }
        Ok(())
    }
}

/// The file that holds the code in progress: `FILE.run` beside `--out FILE`.
fn progress_path(out: &Path) -> PathBuf {
    let mut p = PathBuf::from(out);
    p.as_mut_os_string().push(".run");
    p
}

fn run_census(args: CensusRunArgs) -> anyhow::Result<()> {
    let digits = args
        .digits
        .ok_or_else(|| bad_input("--digits D is needed (1 to 8)"))?;
    let spec = CensusSpec::new(digits, args.leading, args.to).map_err(|e| {
        let flag = match e {
            CensusError::Leading { .. } => "--leading",
            _ => "--digits",
        };
        bad_input(format!("{flag}: {e}"))
    })?;
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    if !shard.is_whole() && args.json {
        return Err(bad_input(
            "--json prints the table of a whole census; a shard writes JSON lines (merge them with `nimatron census merge`)",
        ));
    }
    let options = SequenceOptions {
        algorithm: Algorithm::Auto,
        threads: args.threads,
        memory_limit: args
            .memory_limit
            .unwrap_or_else(crate::grundy::default_memory_limit),
        simd: args.simd,
    };

    // Records already in --out, and the file opened to append the rest.
    let mut records: Vec<CensusRecord> = Vec::new();
    let mut sink = match &args.out {
        Some(path) => {
            let (done, file) = open_out(path, &spec, &shard)?;
            if !done.is_empty() {
                eprintln!(
                    "resuming {}: {} of this shard's codes already done",
                    path.display(),
                    done.len()
                );
            }
            records = done;
            Sink::File(file)
        }
        None if shard.is_whole() => Sink::Nowhere,
        None => Sink::Stdout,
    };
    let done: std::collections::BTreeSet<u64> = records.iter().map(|r| r.index).collect();
    let todo: Vec<u64> = shard.indices(&spec).filter(|i| !done.contains(i)).collect();
    let total = done.len() as u64 + todo.len() as u64;

    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = Arc::clone(&interrupted);
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    }
    let mut progress = Progress {
        enabled: io::stderr().is_terminal(),
        last: None,
    };
    let run_file = args.out.as_deref().map(progress_path);
    let limit = args.stop_after.unwrap_or(u64::MAX);
    let mut computed = 0u64;
    let started = Instant::now();
    for &index in &todo {
        if computed >= limit {
            break;
        }
        let game = census_game(&spec, index);
        let mut run = resume_or_start(run_file.as_deref(), &game, &spec, &options)?;
        let mut last_save = Instant::now();
        let mut step: u64 = 1 << 12;
        while !run.is_complete() {
            if interrupted.load(Ordering::SeqCst) {
                progress.clear();
                if let Some(path) = &run_file {
                    save(&run, path)?;
                    anyhow::bail!(
                        "interrupted at code {} (n = {}); finished codes are in {}, and the code in progress in {}: run the same command to resume",
                        spec.code(index),
                        run.len(),
                        args.out.as_deref().unwrap_or(Path::new("")).display(),
                        path.display()
                    );
                }
                anyhow::bail!(
                    "interrupted at code {} (use --out FILE to keep progress)",
                    spec.code(index)
                );
            }
            let t = Instant::now();
            let target = run.len().saturating_add(step);
            run.advance(target)
                .map_err(|e| bad_input(format!("code {}: {e}", spec.code(index))))?;
            let took = t.elapsed().as_secs_f64();
            if took < 0.05 {
                step = step.saturating_mul(2);
            } else if took > 0.2 && step > 1 << 10 {
                step /= 2;
            }
            progress.show(
                &shard,
                &spec,
                index,
                done.len() as u64 + computed,
                total,
                &run,
            );
            if let Some(path) = &run_file
                && last_save.elapsed() >= SAVE_EVERY
            {
                save(&run, path)?;
                last_save = Instant::now();
            }
        }
        let seq = run.finish();
        let record = CensusRecord::from_sequence(&spec, index, &seq);
        sink.write(&record_line(&record))?;
        if let Some(path) = &run_file {
            let _ = fs::remove_file(path);
        }
        records.push(record);
        computed += 1;
    }
    progress.clear();
    let finished = done.len() as u64 + computed;
    if let Some(path) = &args.out {
        crate::grundy::report_written(&format!("{finished} census records (JSON Lines)"), path);
    }
    if finished < total {
        eprintln!(
            "stopped after {computed} codes as asked: {finished} of {total} done{}",
            args.out
                .as_deref()
                .map(|p| format!(" (run the same command to go on with {})", p.display()))
                .unwrap_or_default()
        );
        return Ok(());
    }
    if !shard.is_whole() {
        eprintln!(
            "shard {shard}: {total} codes ({computed} computed now) in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        return Ok(());
    }
    let table = merge(records).map_err(|e| bad_input(e.to_string()))?;
    let text = if args.json {
        census_format::json(&table)
    } else {
        census_format::markdown(&table)
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Reads the records already in `path` (which must belong to this census
/// and shard), drops a last line cut short, and opens the file to append.
fn open_out(
    path: &Path,
    spec: &CensusSpec,
    shard: &Shard,
) -> anyhow::Result<(Vec<CensusRecord>, File)> {
    if path.is_dir() {
        return Err(crate::grundy::cannot_write(path, "it is a directory"));
    }
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| crate::grundy::cannot_write(path, e))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let text = std::str::from_utf8(&bytes[..complete]).map_err(|_| {
        bad_input(format!(
            "{} is not a census file (not UTF-8)",
            path.display()
        ))
    })?;
    let mut records = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record = parse_record(line).map_err(|e| {
            bad_input(format!(
                "{} line {}: {e}; it is not a census record as `nimatron census` writes them (remove the file or choose another --out)",
                path.display(),
                number + 1
            ))
        })?;
        if record.spec != *spec || !shard.contains(record.index) {
            return Err(bad_input(format!(
                "{} holds code {} of the census of {}, not of shard {shard} of the {spec}: give each shard and census its own --out file",
                path.display(),
                record.code,
                record.spec
            )));
        }
        if records
            .iter()
            .any(|r: &CensusRecord| r.index == record.index)
        {
            return Err(bad_input(format!(
                "{} line {}: code {} appears twice",
                path.display(),
                number + 1,
                record.code
            )));
        }
        records.push(record);
    }
    if complete < bytes.len() {
        eprintln!(
            "{}: dropping a record cut short at the end ({} bytes); it is computed again",
            path.display(),
            bytes.len() - complete
        );
        file.set_len(complete as u64)
            .map_err(|e| bad_input(format!("cannot truncate {}: {e}", path.display())))?;
        file.seek(SeekFrom::End(0))?;
    }
    Ok((records, file))
}

/// Resumes the code in progress from `FILE.run` if it is this code's, else
/// starts it afresh.
fn resume_or_start(
    run_file: Option<&Path>,
    game: &nimatron::sequence::HeapGame,
    spec: &CensusSpec,
    options: &SequenceOptions,
) -> anyhow::Result<SequenceRun> {
    if let Some(path) = run_file
        && let Ok(bytes) = fs::read(path)
    {
        match SequenceRun::resume(&bytes, game, spec.to, options) {
            Ok(run) => {
                eprintln!(
                    "resuming code {} at n = {} from {}",
                    game,
                    run.len(),
                    path.display()
                );
                return Ok(run);
            }
            // A file for another code (or a damaged one) is of no use.
            Err(_) => {
                let _ = fs::remove_file(path);
            }
        }
    }
    SequenceRun::new(game, spec.to, options).map_err(|e| bad_input(format!("{game}: {e}")))
}

fn save(run: &SequenceRun, path: &Path) -> anyhow::Result<()> {
    let mut tmp = PathBuf::from(path);
    tmp.as_mut_os_string().push(".tmp");
    fs::write(&tmp, run.checkpoint()).with_context(|| format!("writing {}", tmp.display()))?;
    fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

fn run_merge(args: CensusMergeArgs) -> anyhow::Result<()> {
    let mut records = Vec::new();
    for path in &args.files {
        let text = fs::read_to_string(path)
            .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))?;
        if !text.is_empty() && !text.ends_with('\n') {
            return Err(bad_input(format!(
                "{}: the last line is cut short (the shard did not finish): run its command again to complete it",
                path.display()
            )));
        }
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let record = parse_record(line).map_err(|e| {
                bad_input(format!(
                    "{} line {}: {e}; census merge reads the JSON lines `nimatron census --out` writes",
                    path.display(),
                    number + 1
                ))
            })?;
            records.push(record);
        }
    }
    let table: CensusTable = merge(records).map_err(|e| bad_input(e.to_string()))?;
    if !table.missing.is_empty() && !args.partial {
        let first: Vec<String> = table
            .missing
            .iter()
            .take(8)
            .map(|&i| table.spec.code(i).to_string())
            .collect();
        return Err(bad_input(format!(
            "{} of the {} codes of the census of {} have no record (first: {}): merge every shard's file, or pass --partial",
            table.missing.len(),
            table.spec.code_count(),
            table.spec,
            first.join(" ")
        )));
    }
    let text = if args.json {
        census_format::json(&table)
    } else {
        census_format::markdown(&table)
    };
    match &args.out {
        Some(path) => {
            fs::write(path, text).map_err(|e| crate::grundy::cannot_write(path, e))?;
            crate::grundy::report_written(
                &format!(
                    "the census table ({})",
                    if args.json { "JSON" } else { "Markdown" }
                ),
                path,
            );
        }
        None => {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(())
}

/// One line of progress on standard error, when it is a terminal.
struct Progress {
    enabled: bool,
    last: Option<Instant>,
}

impl Progress {
    fn show(
        &mut self,
        shard: &Shard,
        spec: &CensusSpec,
        index: u64,
        done: u64,
        total: u64,
        run: &SequenceRun,
    ) {
        if !self.enabled
            || self
                .last
                .is_some_and(|t| t.elapsed() < Duration::from_millis(200))
        {
            return;
        }
        self.last = Some(Instant::now());
        eprint!(
            "\r[census {shard}] {done}/{total} codes; code {} at n = {}/{}   ",
            spec.code(index),
            run.len(),
            spec.to + 1
        );
        let _ = io::stderr().flush();
    }

    fn clear(&mut self) {
        if self.enabled && self.last.is_some() {
            eprint!("\r{:80}\r", "");
            let _ = io::stderr().flush();
        }
    }
}
