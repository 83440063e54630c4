//! The writers of a finished sequence: the summary for people, JSON and
//! CSV on standard output, and the binary `--out` file (the library's
//! sequence file).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::Duration;

use nimatron::sequence::{Algorithm, GrundySequence, human_bytes, write_sequence_file};

use super::progress::si;

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

/// `n,g` and one line per value.
pub(super) fn write_csv(out: &mut impl Write, seq: &GrundySequence) -> io::Result<()> {
    writeln!(out, "n,g")?;
    let mut buf = itoa_buffer();
    for (n, v) in seq.values.iter().enumerate() {
        write_u64(out, &mut buf, n as u64)?;
        out.write_all(b",")?;
        write_u64(out, &mut buf, v as u64)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

pub(super) fn write_json(
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

pub(super) fn write_summary(
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
        if c.retried_lanes > 0 {
            writeln!(
                out,
                "                   {:.1}% of positions compared a second set of candidates, {:.2}% stamped",
                100.0 * per(c.retried_lanes),
                100.0 * per(c.stamped_lanes)
            )?;
        }
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

/// The `--out` file: the library's sequence file (see
/// `nimatron::sequence::SequenceFile` and docs/games.md).
pub(super) fn write_binary(seq: &GrundySequence, path: &Path) -> anyhow::Result<()> {
    let file = File::create(path).map_err(|e| super::cannot_write(path, e))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    write_sequence_file(&mut w, &seq.game, &seq.values)
        .map_err(|e| super::cannot_write(path, e))?;
    w.flush().map_err(|e| super::cannot_write(path, e))?;
    Ok(())
}
