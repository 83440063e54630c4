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
    Algorithm, CensusError, CensusRecord, CensusSpec, CensusTable, HeapGame, LOG_FRAME_MAX,
    LOG_FRAME_PREFIX, LogLoader, SequenceOptions, SequenceRun, Shard, census_game, merge,
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
    let memory_limit = args
        .memory_limit
        .unwrap_or_else(crate::memory::default_memory_limit);
    let options = SequenceOptions {
        algorithm: Algorithm::Auto,
        threads: args.threads,
        // With --out the code in progress is saved, appending at most one
        // frame of the log at a time: that buffer is part of the plan.
        memory_limit: {
            let limit = if args.out.is_some() {
                memory_limit.saturating_sub(LOG_FRAME_MAX as u64)
            } else {
                memory_limit
            };
            // A derived record copies its root's values once.
            if args.derive { limit / 2 } else { limit }
        },
        simd: args.simd,
    };

    // With --derive, each code's shift root and depth; a code belongs to
    // the shard of its root.
    let roots: Option<Vec<(u64, u64)>> = args
        .derive
        .then(|| (0..spec.code_count()).map(|i| spec.shift_root(i)).collect());
    let belongs = |index: u64| match &roots {
        Some(r) => shard.contains(&spec, r[index as usize].0),
        None => shard.contains(&spec, index),
    };
    // Records already in --out, and the file opened to append the rest.
    let mut records: Vec<CensusRecord> = Vec::new();
    let mut sink = match &args.out {
        Some(path) => {
            let (done, file) = open_out(path, &spec, &shard, &belongs)?;
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
    // The codes to compute, in the shard's order, each with the codes
    // derived from it (only with --derive) that are not done yet.
    let mut derived_of: std::collections::BTreeMap<u64, Vec<(u64, u64)>> = Default::default();
    if let Some(r) = &roots {
        for (index, &(root, depth)) in r.iter().enumerate() {
            if depth > 0 && !done.contains(&(index as u64)) && shard.contains(&spec, root) {
                derived_of
                    .entry(root)
                    .or_default()
                    .push((index as u64, depth));
            }
        }
    }
    let todo: Vec<u64> = shard
        .indices(&spec)
        .filter(|&i| roots.as_ref().is_none_or(|r| r[i as usize].1 == 0))
        .filter(|i| !done.contains(i) || derived_of.contains_key(i))
        .collect();
    let total = done.len() as u64
        + todo.iter().filter(|i| !done.contains(i)).count() as u64
        + derived_of.values().map(|v| v.len() as u64).sum::<u64>();

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
        let (mut run, mut logged) = resume_or_start(run_file.as_deref(), &game, &spec, &options)?;
        let timer = args.timing.then(|| CodeTimer::start(run.len()));
        let mut last_save = Instant::now();
        let mut step: u64 = 1 << 12;
        while !run.is_complete() {
            if interrupted.load(Ordering::SeqCst) {
                progress.clear();
                if let Some(path) = &run_file {
                    save(&run, path, &mut logged)?;
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
                save(&run, path, &mut logged)?;
                last_save = Instant::now();
            }
        }
        let seq = run.finish();
        // A root already done is computed again only for codes derived
        // from it that are not (a run stopped between the two).
        if !done.contains(&index) {
            let record = CensusRecord::from_sequence(&spec, index, &seq);
            sink.write(&record_line(&record))?;
            if let Some(timer) = &timer {
                progress.clear();
                eprintln!("{}", timer.line(&record));
            }
            records.push(record);
            computed += 1;
        }
        for &(derived, depth) in derived_of.get(&index).map_or(&[][..], |v| &v[..]) {
            let timer = args.timing.then(|| CodeTimer::start(0));
            let record = CensusRecord::derived(&spec, derived, &seq, depth);
            sink.write(&record_line(&record))?;
            if let Some(timer) = &timer {
                eprintln!("{}", timer.line(&record));
            }
            records.push(record);
            computed += 1;
        }
        if let Some(path) = &run_file {
            let _ = fs::remove_file(path);
        }
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
    belongs: &dyn Fn(u64) -> bool,
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
        if record.spec != *spec || !belongs(record.index) {
            return Err(bad_input(format!(
                "{} holds code {} of the census of {}, not of shard {shard} of the {spec} (with --derive a shard holds other codes than without): give each shard and census its own --out file",
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
/// starts it afresh. Also returns how many values the file's log holds
/// (`None` if it must be written anew). A save cut short at the end of the
/// log is cut off the file.
fn resume_or_start(
    run_file: Option<&Path>,
    game: &HeapGame,
    spec: &CensusSpec,
    options: &SequenceOptions,
) -> anyhow::Result<(SequenceRun, Option<u64>)> {
    if let Some(path) = run_file
        && let Some((run, logged)) = load_progress(path, game, spec, options)
    {
        eprintln!(
            "resuming code {} at n = {} from {}",
            game,
            run.len(),
            path.display()
        );
        return Ok((run, logged));
    }
    if let Some(path) = run_file {
        // A file for another code (or a damaged one) is of no use.
        let _ = fs::remove_file(path);
    }
    let run =
        SequenceRun::new(game, spec.to, options).map_err(|e| bad_input(format!("{game}: {e}")))?;
    Ok((run, None))
}

/// Reads `FILE.run`: a checkpoint log, or a whole checkpoint (as earlier
/// versions wrote), if it holds this game. `None` if there is nothing to
/// resume.
fn load_progress(
    path: &Path,
    game: &HeapGame,
    spec: &CensusSpec,
    options: &SequenceOptions,
) -> Option<(SequenceRun, Option<u64>)> {
    let mut file = OpenOptions::new().read(true).write(true).open(path).ok()?;
    let mut magic = [0u8; 8];
    if file.read_exact(&mut magic).is_ok() && &magic == b"NIMGRCK1" {
        let mut bytes = magic.to_vec();
        file.read_to_end(&mut bytes).ok()?;
        let run = SequenceRun::resume(&bytes, game, spec.to, options).ok()?;
        return Some((run, None));
    }
    file.seek(SeekFrom::Start(0)).ok()?;
    let mut loader = LogLoader::new(game, spec.to, options).ok()?;
    let mut frame = Vec::with_capacity(LOG_FRAME_MAX);
    loop {
        let mut prefix = [0u8; LOG_FRAME_PREFIX];
        if file.read_exact(&mut prefix).is_err() {
            break;
        }
        let Ok(len) = LogLoader::frame_len(prefix) else {
            break;
        };
        frame.clear();
        frame.extend_from_slice(&prefix);
        frame.resize(len, 0);
        if file.read_exact(&mut frame[LOG_FRAME_PREFIX..]).is_err() {
            break;
        }
        // The first frame that does not read is where a save was cut
        // short (or the file is not this code's): stop there.
        if loader.push(&frame).is_err() {
            break;
        }
    }
    drop(frame);
    let committed = loader.committed_bytes();
    let logged = loader.committed_values();
    let run = loader.finish().ok()?;
    file.set_len(committed).ok()?;
    Some((run, Some(logged)))
}

/// Saves the code in progress to `path`: appends what is new since the
/// last save (`logged` values), or writes the log anew.
fn save(run: &SequenceRun, path: &Path, logged: &mut Option<u64>) -> anyhow::Result<()> {
    let fresh = logged.is_none();
    let mut file = OpenOptions::new()
        .create(true)
        .append(!fresh)
        .write(true)
        .truncate(fresh)
        .open(path)
        .with_context(|| format!("writing {}", path.display()))?;
    if fresh {
        file.write_all(&run.log_header())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let n = run
        .log_since(logged.unwrap_or(0), |frame| file.write_all(frame))
        .with_context(|| format!("writing {}", path.display()))?;
    file.sync_data()
        .with_context(|| format!("writing {}", path.display()))?;
    *logged = Some(n);
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

/// `--timing`: what one code cost, measured from its start (or resumption)
/// in this process.
struct CodeTimer {
    wall: Instant,
    cpu: Option<f64>,
    from_n: u64,
}

impl CodeTimer {
    fn start(from_n: u64) -> CodeTimer {
        CodeTimer {
            wall: Instant::now(),
            cpu: process_cpu_seconds(),
            from_n,
        }
    }

    /// One line, `key=value` fields separated by spaces, for `awk` or a
    /// spreadsheet: `census-timing code=0.76 index=62 result=unsolved
    /// mask=- max=1585 from_n=0 cpu_s=5.61 wall_s=47.02`. `from_n` is where
    /// the code started in this process (above 0 when resumed from a
    /// checkpoint: the times then cover only the rest).
    fn line(&self, record: &CensusRecord) -> String {
        let result = if record.result.is_proven() {
            "proven"
        } else {
            "unsolved"
        };
        let mask = match record.mask {
            Some(m) => format!("{:x}{}", m.mask, if m.position_parity { "+p" } else { "" }),
            None => "-".to_string(),
        };
        let from = record
            .derived_from
            .as_ref()
            .map_or_else(String::new, |root| format!(" derived_from={root}"));
        let cpu = match (self.cpu, process_cpu_seconds()) {
            (Some(a), Some(b)) => format!("{:.2}", b - a),
            _ => "na".to_string(),
        };
        format!(
            "census-timing code={} index={} result={result} mask={mask} max={} from_n={} cpu_s={cpu} wall_s={:.2}{from}",
            record.code,
            record.index,
            record.max_value,
            self.from_n,
            self.wall.elapsed().as_secs_f64()
        )
    }
}

/// The processor time of this process so far (user plus system, every
/// thread), from `/proc/self/stat` on Linux; `None` elsewhere.
fn process_cpu_seconds() -> Option<f64> {
    let stat = fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may
    // hold spaces: state is field 3, utime and stime fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    // Clock ticks: 100 a second on Linux (USER_HZ, fixed in its ABI).
    Some((utime + stime) as f64 / 100.0)
}
