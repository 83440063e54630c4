//! `nimatron grundy`: the Grundy sequence of a heap game, its period and
//! whether it is proven, with JSON/CSV/binary output, an SVG plot, a
//! progress bar, Ctrl-C handling and checkpoints.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use nimatron::sequence::{
    Algorithm, GrundySequence, HeapGame, SequenceOptions, SequenceRun, Simd, Values, human_bytes,
};

use crate::args::GrundyArgs;
use crate::bad_input;

/// How often a long run saves its checkpoint.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(60);

/// Magic bytes of the `--out` file format (see docs/games.md).
pub const OUT_MAGIC: &[u8; 8] = b"NIMGSEQ1";

/// The `--simd` value (or `NIMATRON_SIMD`), refused with exit 2 when it is
/// no path name or names a path this processor lacks.
pub(crate) fn simd_path(name: &str) -> anyhow::Result<Simd> {
    let simd: Simd = name
        .parse()
        .map_err(|e| bad_input(format!("--simd: {e}")))?;
    simd.resolve()
        .map_err(|e| bad_input(format!("--simd {simd}: {e}")))?;
    Ok(simd)
}

pub fn run(args: GrundyArgs) -> anyhow::Result<()> {
    let game: HeapGame = args.spec.parse().map_err(|e| bad_input(format!("{e}")))?;
    let algorithm: Algorithm = args
        .algorithm
        .parse()
        .map_err(|e| bad_input(format!("--algorithm: {e}")))?;
    let threads = match args.threads {
        Some(0) => return Err(bad_input("--threads must be at least 1")),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
    };
    let memory_limit = match args.memory_limit {
        Some(g) if !(g > 0.0 && g.is_finite()) => {
            return Err(bad_input("--memory-limit must be a positive number of GiB"));
        }
        Some(g) => (g * (1u64 << 30) as f64) as u64,
        None => default_memory_limit(),
    };
    // Refuse unwritable outputs before spending any time.
    for path in [&args.out, &args.plot, &args.checkpoint]
        .into_iter()
        .flatten()
    {
        check_writable(path)?;
    }
    let simd = simd_path(&args.simd)?;
    let options = SequenceOptions {
        algorithm,
        threads,
        memory_limit,
        simd,
    };
    let mut run = match &args.checkpoint {
        Some(path) if path.exists() && fs::metadata(path).map(|m| m.len() > 0).unwrap_or(false) => {
            let bytes =
                fs::read(path).with_context(|| format!("reading checkpoint {}", path.display()))?;
            let run = SequenceRun::resume(&bytes, &game, args.to, &options)
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
        _ => SequenceRun::new(&game, args.to, &options).map_err(|e| bad_input(format!("{e}")))?,
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
    }
    if let Some(path) = &args.plot {
        let svg = plot_svg(&seq);
        fs::write(path, svg)
            .map_err(|e| bad_input(format!("cannot write {}: {e}", path.display())))?;
    }
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    if args.json {
        write_json(&mut out, &seq, algorithm, elapsed)?;
    } else if args.csv {
        writeln!(out, "n,g")?;
        let mut buf = itoa_buffer();
        for (n, v) in seq.values.iter().enumerate() {
            write_u64(&mut out, &mut buf, n as u64)?;
            out.write_all(b",")?;
            write_u64(&mut out, &mut buf, v as u64)?;
            out.write_all(b"\n")?;
        }
    } else {
        write_summary(&mut out, &seq, algorithm, threads, computed_now, elapsed)?;
    }
    out.flush()?;
    Ok(())
}

/// 90% of the memory available now (Linux), or 8 GiB when unknown.
pub(crate) fn default_memory_limit() -> u64 {
    let available = fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        text.lines()
            .find(|l| l.starts_with("MemAvailable:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .map(|kb| kb * 1024)
    });
    available.map_or(8 << 30, |bytes| bytes / 10 * 9)
}

fn check_writable(path: &Path) -> anyhow::Result<()> {
    if path.is_dir() {
        return Err(bad_input(format!(
            "cannot write {}: it is a directory",
            path.display()
        )));
    }
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(drop)
        .map_err(|e| bad_input(format!("cannot write {}: {e}", path.display())))
}

fn save_checkpoint(run: &SequenceRun, path: &Path) -> anyhow::Result<()> {
    let mut tmp = PathBuf::from(path);
    tmp.as_mut_os_string().push(".tmp");
    fs::write(&tmp, run.checkpoint())
        .map_err(|e| bad_input(format!("cannot write checkpoint {}: {e}", tmp.display())))?;
    fs::rename(&tmp, path)
        .map_err(|e| bad_input(format!("cannot write checkpoint {}: {e}", path.display())))?;
    Ok(())
}

/// A one-line progress bar on standard error.
struct Progress {
    enabled: bool,
    last: Option<Instant>,
}

impl Progress {
    fn new(enabled: bool) -> Progress {
        Progress {
            enabled,
            last: None,
        }
    }

    fn show(&mut self, done_now: u64, known: u64, total: u64, started: Instant) {
        if !self.enabled
            || self
                .last
                .is_some_and(|t| t.elapsed() < Duration::from_millis(200))
        {
            return;
        }
        self.last = Some(Instant::now());
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        let rate = done_now as f64 / secs;
        let left = total.saturating_sub(known) as f64;
        let eta = if rate > 0.0 {
            left / rate
        } else {
            f64::INFINITY
        };
        let width = 30;
        let filled = ((known as f64 / total as f64) * width as f64) as usize;
        let bar: String = (0..width)
            .map(|i| {
                if i < filled {
                    '='
                } else if i == filled {
                    '>'
                } else {
                    ' '
                }
            })
            .collect();
        eprint!(
            "\r[{bar}] n = {known}/{total}  {}/s  ETA {}   ",
            si(rate),
            duration_text(eta)
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

/// `12.3M` style.
fn si(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2}G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2}M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1}k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

fn duration_text(secs: f64) -> String {
    if !secs.is_finite() {
        return "?".into();
    }
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

fn itoa_buffer() -> [u8; 20] {
    [0; 20]
}

fn write_u64(out: &mut impl Write, buf: &mut [u8; 20], mut x: u64) -> io::Result<()> {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    out.write_all(&buf[i..])
}

fn write_json(
    out: &mut impl Write,
    seq: &GrundySequence,
    algorithm: Algorithm,
    elapsed: Duration,
) -> anyhow::Result<()> {
    let s = &seq.summary;
    write!(
        out,
        "{{\"game\":{},\"values\":[",
        serde_json::to_string(&seq.game.to_string())?
    )?;
    let mut buf = itoa_buffer();
    for (n, v) in seq.values.iter().enumerate() {
        if n > 0 {
            out.write_all(b",")?;
        }
        write_u64(out, &mut buf, v as u64)?;
    }
    out.write_all(b"]")?;
    let opt = |x: Option<u64>| x.map_or("null".to_string(), |v| v.to_string());
    write!(
        out,
        ",\"period\":{},\"preperiod\":{},\"proven\":{}",
        opt(seq.period.map(|p| p.period)),
        opt(seq.period.map(|p| p.preperiod)),
        seq.period.is_some_and(|p| p.proven)
    )?;
    write!(
        out,
        ",\"to\":{},\"max_value\":{},\"algorithm\":\"{}\",\"method\":\"{}\",\"mask\":{},\"position_parity\":{},\"rare_count\":{},\"last_rare\":{},\"computed\":{},\"extended_by_period\":{},\"values_to_prove\":{},\"bytes_per_value\":{},\"simd\":\"{}\",\"seconds\":{:.6}}}",
        seq.values.len() - 1,
        s.max_value,
        algorithm,
        s.method,
        opt(s.mask.map(|m| m.mask as u64)),
        s.mask.is_some_and(|m| m.position_parity),
        opt(s.rare_count),
        opt(s.last_rare),
        s.computed,
        s.extended_by_period,
        opt(s.values_to_prove),
        s.bytes_per_value,
        s.simd,
        elapsed.as_secs_f64()
    )?;
    writeln!(out)?;
    Ok(())
}

fn write_summary(
    out: &mut impl Write,
    seq: &GrundySequence,
    algorithm: Algorithm,
    threads: usize,
    computed_now: u64,
    elapsed: Duration,
) -> anyhow::Result<()> {
    let s = &seq.summary;
    let n = seq.values.len() as u64 - 1;
    let code = seq
        .game
        .octal_code()
        .map(|c| format!(" (octal {c})"))
        .unwrap_or_default();
    writeln!(out, "{}{code}: G(0..={n})", seq.game)?;
    let argmax = seq
        .values
        .iter()
        .position(|v| v == s.max_value)
        .unwrap_or(0);
    writeln!(
        out,
        "  largest value    {} (first at n = {argmax})",
        s.max_value
    )?;
    writeln!(
        out,
        "  last value       G({n}) = {}",
        seq.values.get(n as usize)
    )?;
    match (s.mask, s.rare_count) {
        (Some(mask), Some(count)) => {
            writeln!(
                out,
                "  mask             {:#b}{} ({} bits)",
                mask.mask,
                if mask.position_parity {
                    " with position parity"
                } else {
                    ""
                },
                32 - mask.mask.leading_zeros()
            )?;
            let last = s.last_rare.map_or("none".to_string(), |l| l.to_string());
            writeln!(out, "  rare values      {count} (last rare n = {last})")?;
        }
        _ => writeln!(
            out,
            "  mask             none (the {} method uses no rare/common split)",
            s.method
        )?,
    }
    match seq.period {
        Some(p) if p.proven => writeln!(
            out,
            "  period           {}, preperiod {}: proven by the octal periodicity theorem",
            p.period, p.preperiod
        )?,
        Some(p) => {
            let need = s
                .values_to_prove
                .map(|k| format!("; a proof needs G(0..{k})"))
                .unwrap_or_else(|| "; no periodicity theorem covers this game".into());
            writeln!(
                out,
                "  period           {}, preperiod {}: apparent period, not proven{need}",
                p.period, p.preperiod
            )?
        }
        None => writeln!(out, "  period           none found up to n = {n}")?,
    }
    // Only the sparse method uses a second thread, and never more than two.
    let used = if s.method == "sparse" {
        threads.min(2)
    } else {
        1
    };
    writeln!(
        out,
        "  method           {} ({} asked), {} thread{}{}",
        s.method,
        algorithm,
        used,
        if used == 1 { "" } else { "s" },
        if s.method == "sparse" {
            format!(", {} vector path", s.simd)
        } else {
            String::new()
        }
    )?;
    let c = &s.counters;
    if c.rare_pairs + c.search_pairs > 0 {
        let per = |x: u64| x as f64 / s.computed.max(1) as f64;
        writeln!(
            out,
            "  work             {:.0} rare pairs + {:.0} searched pairs per value; {} full searches",
            per(c.rare_pairs),
            per(c.search_pairs),
            c.full_searches
        )?;
    }
    if s.extended_by_period > 0 {
        writeln!(
            out,
            "  computed         {} values by mex, {} filled in by the proven period",
            s.computed, s.extended_by_period
        )?;
    }
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        format!("{} values/s", si(computed_now as f64 / secs))
    } else {
        "-".into()
    };
    writeln!(
        out,
        "  time             {secs:.3} s for {computed_now} values ({rate})"
    )?;
    writeln!(
        out,
        "  memory           {} byte{} per value ({} in all)",
        s.bytes_per_value,
        if s.bytes_per_value == 1 { "" } else { "s" },
        human_bytes(seq.values.len() as u64 * s.bytes_per_value as u64)
    )?;
    if n < 200 {
        writeln!(out, "values:")?;
        let all: Vec<u32> = seq.values.iter().collect();
        for (row, chunk) in all.chunks(10).enumerate() {
            let words: Vec<String> = chunk.iter().map(|v| format!("{v:>3}")).collect();
            writeln!(out, "  {:>4}: {}", row * 10, words.join(" "))?;
        }
    }
    Ok(())
}

/// The `--out` file: magic `NIMGSEQ1`, bytes per value (u8), three zero
/// bytes, game spec length (u32 LE) and spec (UTF-8), value count (u64 LE),
/// then the values little-endian.
fn write_binary(seq: &GrundySequence, path: &Path) -> anyhow::Result<()> {
    let file = File::create(path)
        .map_err(|e| bad_input(format!("cannot write {}: {e}", path.display())))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let spec = seq.game.to_string();
    w.write_all(OUT_MAGIC)?;
    w.write_all(&[seq.values.bytes_per_value() as u8, 0, 0, 0])?;
    w.write_all(&(spec.len() as u32).to_le_bytes())?;
    w.write_all(spec.as_bytes())?;
    w.write_all(&(seq.values.len() as u64).to_le_bytes())?;
    match &seq.values {
        Values::Bytes(v) => w.write_all(v)?,
        Values::Shorts(v) => {
            for x in v {
                w.write_all(&x.to_le_bytes())?;
            }
        }
        Values::Words(v) => {
            for x in v {
                w.write_all(&x.to_le_bytes())?;
            }
        }
    }
    w.flush()
        .map_err(|e| bad_input(format!("cannot write {}: {e}", path.display())))?;
    Ok(())
}

/// A scatter plot of G(n) against n. For large N each pixel column shows
/// every value that occurs in its range of n, so rare values stay visible.
fn plot_svg(seq: &GrundySequence) -> String {
    const W: f64 = 900.0;
    const H: f64 = 420.0;
    const LEFT: f64 = 60.0;
    const TOP: f64 = 40.0;
    let count = seq.values.len();
    let max_v = seq.summary.max_value.max(1) as usize;
    let columns = count.min(W as usize);
    let rows = (max_v + 1).min(H as usize);
    // occupied[c] = bit set of rows used in column c.
    let words = rows.div_ceil(64);
    let mut occupied = vec![0u64; columns * words];
    for (n, v) in seq.values.iter().enumerate() {
        let c = n * columns / count;
        let r = v as usize * rows / (max_v + 1);
        occupied[c * words + r / 64] |= 1 << (r % 64);
    }
    let x_of = |c: f64| LEFT + (c + 0.5) * W / columns as f64;
    let y_of = |r: f64| TOP + H - (r + 0.5) * H / rows as f64;
    let radius = (W / columns as f64).min(H / rows as f64).clamp(0.6, 2.5) * 0.6;
    let mut svg = String::new();
    svg.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n",
        W + LEFT + 20.0,
        H + TOP + 50.0
    ));
    svg.push_str("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    let title = format!(
        "Grundy values of {} for n = 0..{}",
        xml_escape(&seq.game.to_string()),
        count - 1
    );
    svg.push_str(&format!(
        "<text x=\"{LEFT}\" y=\"24\" font-size=\"15\">{title}</text>\n"
    ));
    svg.push_str(&format!(
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{W}\" height=\"{H}\" fill=\"none\" stroke=\"#444\"/>\n"
    ));
    // Axis ticks.
    for i in 0..=5 {
        let n = (count - 1) as f64 * i as f64 / 5.0;
        let x = LEFT + W * i as f64 / 5.0;
        svg.push_str(&format!(
            "<line x1=\"{x:.1}\" y1=\"{}\" x2=\"{x:.1}\" y2=\"{}\" stroke=\"#444\"/><text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            TOP + H,
            TOP + H + 5.0,
            TOP + H + 18.0,
            n.round()
        ));
        let v = max_v as f64 * i as f64 / 5.0;
        let y = TOP + H - H * i as f64 / 5.0;
        svg.push_str(&format!(
            "<line x1=\"{}\" y1=\"{y:.1}\" x2=\"{LEFT}\" y2=\"{y:.1}\" stroke=\"#444\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            LEFT - 5.0,
            LEFT - 8.0,
            y + 4.0,
            v.round()
        ));
    }
    svg.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">heap size n</text>\n",
        LEFT + W / 2.0,
        TOP + H + 38.0
    ));
    svg.push_str(&format!(
        "<text x=\"16\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {})\">G(n)</text>\n",
        TOP + H / 2.0,
        TOP + H / 2.0
    ));
    svg.push_str("<g fill=\"#1f4e9c\">\n");
    for c in 0..columns {
        for wi in 0..words {
            let mut w = occupied[c * words + wi];
            while w != 0 {
                let r = wi * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                svg.push_str(&format!(
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{radius:.2}\"/>",
                    x_of(c as f64),
                    y_of(r as f64)
                ));
            }
        }
        svg.push('\n');
    }
    svg.push_str("</g>\n</svg>\n");
    svg
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
