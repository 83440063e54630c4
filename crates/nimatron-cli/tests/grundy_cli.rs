//! `nimatron grundy` end to end: JSON contract, exit codes, outputs and
//! checkpoint resume.

mod common;
use common::nimatron;

use std::path::PathBuf;
use std::process::Output;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nimatron-grundy-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "status {:?}, stderr {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// Kayles from OEIS A002186 (tests/data/A002186-kayles.txt), n = 0..=40.
const KAYLES: [u64; 41] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 3, 1,
];

#[test]
fn json_follows_the_contract() {
    let doc = json(&nimatron(&["grundy", "kayles", "--to", "400", "--json"]));
    assert_eq!(doc["game"], "kayles");
    let values = doc["values"].as_array().unwrap();
    assert_eq!(values.len(), 401);
    for (n, &expected) in KAYLES.iter().enumerate() {
        assert_eq!(values[n].as_u64(), Some(expected), "G({n})");
    }
    assert_eq!(doc["period"], 12);
    assert_eq!(doc["preperiod"], 71);
    assert_eq!(doc["proven"], true);
    // Grundy's game: no proof, ever.
    let doc = json(&nimatron(&[
        "grundy",
        "grundy-game",
        "--to",
        "3000",
        "--json",
    ]));
    assert_eq!(doc["proven"], false);
    assert_eq!(doc["values"][5], 2);
    // No period at all is null, not 0.
    let doc = json(&nimatron(&[
        "grundy",
        "modular:1:0",
        "--to",
        "50",
        "--json",
    ]));
    assert!(doc["period"].is_null() && doc["preperiod"].is_null());
    assert_eq!(doc["proven"], false);
}

#[test]
fn bad_input_exits_with_2() {
    for (args, needle) in [
        (vec!["grundy", "octal:0.1z", "--to", "10"], "'z'"),
        (
            vec!["grundy", "subtraction:0,2", "--to", "10"],
            "0 is not a move",
        ),
        (vec!["grundy", "subtraction:", "--to", "10"], "empty"),
        (vec!["grundy", "chess", "--to", "10"], "unknown heap game"),
        (
            vec!["grundy", "kayels", "--to", "10"],
            "did you mean 'kayles'",
        ),
        (
            vec!["quotient", "dawsom", "--to", "10"],
            "did you mean 'dawson'",
        ),
        (
            vec!["grundy", "kayles", "--to", "10", "--simd", "avx9"],
            "auto, avx512, avx2, portable or none",
        ),
        (
            vec!["grundy", "kayles", "--to", "10", "--memory-limit", "0"],
            "positive number of GiB",
        ),
        (
            vec!["analyze", "--max-states", "0", "3", "4"],
            "--max-states",
        ),
        (
            vec!["grundy", "kayles", "--to", "10", "--algorithm", "fast"],
            "auto, naive, sparse or plain",
        ),
        (
            vec!["grundy", "kayles", "--to", "10", "--threads", "0"],
            "--threads",
        ),
        (
            vec!["grundy", "officers", "--to", "18446744073709551614"],
            "memory limit",
        ),
        (
            vec![
                "grundy",
                "officers",
                "--to",
                "100000000",
                "--memory-limit",
                "0.01",
            ],
            "memory limit",
        ),
        (
            vec![
                "grundy",
                "kayles",
                "--to",
                "10",
                "--out",
                "/nonexistent-dir/x.bin",
            ],
            "cannot write",
        ),
        (
            vec![
                "grundy",
                "kayles",
                "--to",
                "10",
                "--plot",
                "/nonexistent-dir/x.svg",
            ],
            "cannot write",
        ),
    ] {
        let out = nimatron(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // A file that cannot be written is an I/O failure (1), not bad
        // input (2).
        let code = if needle == "cannot write" { 1 } else { 2 };
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn resuming_a_checkpoint_gives_the_uninterrupted_result() {
    let whole = json(&nimatron(&[
        "grundy", "officers", "--to", "30000", "--json",
    ]));
    let ckpt = temp("officers.ckpt");
    let ckpt_arg = ckpt.to_str().unwrap();
    let out = nimatron(&[
        "grundy",
        "officers",
        "--to",
        "30000",
        "--checkpoint",
        ckpt_arg,
        "--stop-at",
        "12345",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(ckpt.exists());
    let resumed = json(&nimatron(&[
        "grundy",
        "officers",
        "--to",
        "30000",
        "--checkpoint",
        ckpt_arg,
        "--json",
    ]));
    for key in [
        "game",
        "values",
        "period",
        "preperiod",
        "proven",
        "mask",
        "rare_count",
    ] {
        assert_eq!(resumed[key], whole[key], "{key}");
    }
    // A checkpoint of another game is refused.
    let out = nimatron(&["grundy", "kayles", "--to", "100", "--checkpoint", ckpt_arg]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("officers"));
}

#[test]
fn binary_csv_and_plot_outputs() {
    let bin = temp("kayles.bin");
    let svg = temp("kayles.svg");
    let out = nimatron(&[
        "grundy",
        "kayles",
        "--to",
        "40",
        "--out",
        bin.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
        "--csv",
    ]);
    assert!(out.status.success());
    let csv = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "n,g");
    assert_eq!(lines.len(), 42);
    assert_eq!(lines[27], "26,2");
    // Binary: magic, width, spec, count, values.
    let bytes = std::fs::read(&bin).unwrap();
    assert_eq!(&bytes[..8], b"NIMGSEQ1");
    assert_eq!(bytes[8], 1);
    let spec_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    assert_eq!(&bytes[16..16 + spec_len], b"kayles");
    let at = 16 + spec_len;
    let count = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    assert_eq!(count, 41);
    let values: Vec<u64> = bytes[at + 8..].iter().map(|&b| b as u64).collect();
    assert_eq!(values, KAYLES);
    // The library reads it back.
    let file = nimatron::sequence::read_sequence_file(&bytes).unwrap();
    assert_eq!(file.game.to_string(), "kayles");
    let read: Vec<u64> = file.values.iter().map(u64::from).collect();
    assert_eq!(read, KAYLES);
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg") && plot.trim_end().ends_with("</svg>"));
    assert_eq!(plot.matches("<circle").count(), 41);
    // Each file written is reported: what, where, how big.
    let stderr = String::from_utf8_lossy(&out.stderr);
    for (path, what) in [(&bin, "sequence file"), (&svg, "plot")] {
        let size = std::fs::metadata(path).unwrap().len();
        let line = stderr
            .lines()
            .find(|l| l.contains(path.to_str().unwrap()))
            .unwrap_or_else(|| panic!("no report of {}: {stderr}", path.display()));
        assert!(line.starts_with("wrote ") && line.contains(what), "{line}");
        let shown = if size < 1024 {
            format!("({size} bytes)")
        } else {
            format!("({:.1} KiB)", size as f64 / 1024.0)
        };
        assert!(line.ends_with(&shown), "{line}, size {size}");
    }
}

/// The attribute `name` of an SVG element's text, as a number.
fn attr(element: &str, name: &str) -> f64 {
    let key = format!(" {name}=\"");
    let from = element
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {element}"))
        + key.len();
    let to = from + element[from..].find('"').unwrap();
    element[from..to].parse().unwrap()
}

/// The ticks of one axis read back from the SVG: (label, position), where
/// the position is `x1` or `y1` of the tick line of class `{axis}-tick`
/// and the label the text of the `{axis}-label` that follows it.
fn axis(svg: &str, axis: &str) -> Vec<(f64, f64)> {
    let line_key = format!("<line class=\"{axis}-tick\"");
    let label_key = format!("<text class=\"{axis}-label\"");
    let mut ticks = Vec::new();
    for (at, _) in svg.match_indices(&line_key) {
        let line = &svg[at..at + svg[at..].find("/>").unwrap()];
        let text_at = at + svg[at..].find(&label_key).unwrap();
        let text = &svg[text_at..text_at + svg[text_at..].find("</text>").unwrap()];
        let label: f64 = text[text.find('>').unwrap() + 1..].trim().parse().unwrap();
        assert_eq!(label.fract(), 0.0, "a tick labelled {label}");
        ticks.push((label, attr(line, if axis == "x" { "x1" } else { "y1" })));
    }
    assert!(ticks.len() >= 2, "fewer than two {axis} ticks");
    ticks
}

/// The value at a position, read off an axis as a person would: the
/// straight line through its first and last ticks.
fn read_axis(ticks: &[(f64, f64)], position: f64) -> f64 {
    let (v0, p0) = ticks[0];
    let (v1, p1) = ticks[ticks.len() - 1];
    v0 + (position - p0) * (v1 - v0) / (p1 - p0)
}

/// Checks the ticks of an axis: whole numbers at one round step from 0,
/// evenly spaced, each at the position its label reads as.
fn check_axis(ticks: &[(f64, f64)]) {
    assert_eq!(ticks[0].0, 0.0);
    let step = ticks[1].0 - ticks[0].0;
    let round = [1.0, 2.0, 5.0]
        .iter()
        .any(|m| (0..19).any(|e| step == m * 10f64.powi(e)));
    assert!(round, "tick step {step}");
    for (i, &(label, position)) in ticks.iter().enumerate() {
        assert_eq!(label, i as f64 * step);
        // Positions are written to 1/100 of a pixel.
        assert!(
            (read_axis(ticks, position) - label).abs() < 1e-3 * step,
            "tick {label} at {position} reads as {}",
            read_axis(ticks, position)
        );
    }
}

fn circles(svg: &str) -> Vec<(f64, f64)> {
    svg.match_indices("<circle")
        .map(|(at, _)| {
            let c = &svg[at..at + svg[at..].find("/>").unwrap()];
            (attr(c, "cx"), attr(c, "cy"))
        })
        .collect()
}

/// Regression (the y axis once labelled 0, 2, 3, 5, 6, 8 on a scale the
/// dots did not use): read the plot back as a person would. Each tick's
/// label is the value at its height, and each dot, read off the two axes,
/// is (n, G(n)) of the published Kayles sequence.
#[test]
fn plot_ticks_read_true_against_the_dots() {
    let svg_path = temp("kayles-read.svg");
    let out = nimatron(&[
        "grundy",
        "kayles",
        "--to",
        "40",
        "--plot",
        svg_path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let xs = axis(&svg, "x");
    let ys = axis(&svg, "y");
    check_axis(&xs);
    check_axis(&ys);
    // Every value 0..=8 has its own tick, and its dots sit at its height.
    assert_eq!(
        ys.iter().map(|t| t.0 as u64).collect::<Vec<_>>(),
        (0..=8).collect::<Vec<_>>()
    );
    let dots = circles(&svg);
    assert_eq!(dots.len(), 41);
    let mut seen = [false; 41];
    for &(cx, cy) in &dots {
        let n = read_axis(&xs, cx);
        assert!((n - n.round()).abs() < 1e-3, "a dot at n = {n}");
        let n = n.round() as usize;
        seen[n] = true;
        let tick_y = ys[KAYLES[n] as usize].1;
        assert!(
            (cy - tick_y).abs() < 0.01,
            "G({n}) = {} drawn at y = {cy}, its tick at {tick_y}",
            KAYLES[n]
        );
    }
    assert!(seen.iter().all(|&s| s), "a heap size without its dot");
    // The caption names the game and N.
    assert!(svg.contains("kayles (octal 0.77), N = 40"), "{svg}");
}

/// A large N: many heap sizes per pixel column and more values than fit
/// one tick each. The ticks are still whole numbers on the dots' scale:
/// the highest dot reads as the largest value and the lowest as 0.
#[test]
fn plot_of_a_large_sequence_keeps_its_scale() {
    let svg_path = temp("grundy-game.svg");
    let out = nimatron(&[
        "grundy",
        "grundy-game",
        "--to",
        "20000",
        "--json",
        "--plot",
        svg_path.to_str().unwrap(),
    ]);
    let max = json(&out)["max_value"].as_f64().unwrap();
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let xs = axis(&svg, "x");
    let ys = axis(&svg, "y");
    check_axis(&xs);
    check_axis(&ys);
    assert!(ys.last().unwrap().0 <= max && ys.len() <= 11, "{ys:?}");
    let dots = circles(&svg);
    let top = dots.iter().map(|d| d.1).fold(f64::INFINITY, f64::min);
    let bottom = dots.iter().map(|d| d.1).fold(f64::NEG_INFINITY, f64::max);
    assert!(
        (read_axis(&ys, top) - max).abs() < 0.01,
        "top reads {}",
        read_axis(&ys, top)
    );
    assert!(read_axis(&ys, bottom).abs() < 0.01);
    // The right-most column reads as about N (it covers 20001 / 900 heap sizes).
    let right = dots.iter().map(|d| d.0).fold(f64::NEG_INFINITY, f64::max);
    assert!((read_axis(&xs, right) - 20000.0).abs() < 12.0);
    assert!(svg.contains("grundy-game, N = 20000"));
}

/// `--plot k.png` would have held SVG under a PNG name: it is refused as
/// bad input before any work, naming the .svg name to use instead.
#[test]
fn plot_refuses_a_name_that_is_not_svg() {
    let png = temp("k.png");
    let out = nimatron(&[
        "grundy",
        "kayles",
        "--to",
        "10",
        "--plot",
        png.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("SVG") && stderr.contains("k.svg"),
        "{stderr}"
    );
    assert!(!png.exists());
}

#[test]
fn human_summary_names_the_essentials() {
    let out = nimatron(&["grundy", "officers", "--to", "20000", "--threads", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "G(0..=20000)",
        "largest value",
        "rare values",
        "last rare n",
        "mask",
        "period",
        "values/s",
    ] {
        assert!(text.contains(needle), "missing {needle}: {text}");
    }
    let out = nimatron(&["grundy", "kayles", "--to", "1000000"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("proven by the octal periodicity theorem"),
        "{text}"
    );
    assert!(text.contains("filled in by the proven period"), "{text}");
}

/// Ctrl-C (SIGINT) stops a long run cleanly: a non-zero exit, a message
/// naming where it stopped, and a checkpoint. The run resumed from it and
/// taken a little past that point equals an uninterrupted run to the same
/// size, value for value.
#[cfg(unix)]
#[test]
fn ctrl_c_saves_a_checkpoint_that_resumes_exactly() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let ckpt = temp("ctrl-c.ckpt");
    let ckpt_arg = ckpt.to_str().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args([
            "grundy",
            "officers",
            "--to",
            "100000000",
            "--checkpoint",
            ckpt_arg,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    std::thread::sleep(Duration::from_millis(1500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let started = Instant::now();
    let out = child.wait_with_output().expect("exits");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "stopped promptly"
    );
    assert!(!out.status.success(), "an interrupted run is not a success");
    let err = String::from_utf8_lossy(&out.stderr);
    let at: u64 = err
        .split("interrupted at n = ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("names where it stopped: {err}"));
    assert!(err.contains("checkpoint saved"), "{err}");
    assert!(at > 0 && at < 100_000_000);
    let to = (at + 50_000).to_string();
    let (resumed, whole) = (temp("resumed.bin"), temp("whole.bin"));
    let out = nimatron(&[
        "grundy",
        "officers",
        "--to",
        &to,
        "--checkpoint",
        ckpt_arg,
        "--out",
        resumed.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming from"));
    let out = nimatron(&[
        "grundy",
        "officers",
        "--to",
        &to,
        "--out",
        whole.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let (a, b) = (
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&whole).unwrap(),
    );
    assert!(a.len() > 24 + (at as usize));
    assert!(a == b, "resumed and uninterrupted values differ");
}

/// On a terminal a long run shows a progress bar with n, the rate and the
/// time left. `script` (util-linux, part of every Debian system) gives the
/// run a terminal; the bar is redrawn in place with carriage returns.
#[cfg(target_os = "linux")]
#[test]
fn a_terminal_shows_progress_with_rate_and_eta() {
    let command = format!(
        "{} grundy officers --to 2000000",
        env!("CARGO_BIN_EXE_nimatron")
    );
    let out = std::process::Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .output()
        .expect("script (util-linux) runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let screen = String::from_utf8_lossy(&out.stdout);
    let bars: Vec<&str> = screen
        .split('\r')
        .filter(|line| line.contains("] n = ") && line.contains("/s") && line.contains("ETA"))
        .collect();
    assert!(!bars.is_empty(), "no progress bar in {screen:?}");
    assert!(screen.contains("G(2000000)"), "the summary follows the bar");
}

/// `--simd` forces a vector path (the JSON names it), and so does
/// `NIMATRON_SIMD`; every path gives the same values; a path this processor
/// lacks and an unknown name exit 2 with the reason.
#[test]
fn simd_paths_are_forced_checked_and_agree() {
    use nimatron::sequence::Simd;
    let mut values = Vec::new();
    for path in Simd::PATHS {
        let out = nimatron(&[
            "grundy",
            "officers",
            "--to",
            "5000",
            "--json",
            "--simd",
            path.name(),
        ]);
        if path.is_available() {
            let doc = json(&out);
            assert_eq!(doc["simd"], path.name());
            values.push(doc["values"].clone());
        } else {
            assert_eq!(out.status.code(), Some(2), "{path}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(path.name()) && err.contains("none"), "{err}");
        }
    }
    assert!(values.len() >= 2 && values.iter().all(|v| *v == values[0]));

    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_nimatron"));
    let out = cmd
        .args(["grundy", "officers", "--to", "3000", "--json"])
        .env("NIMATRON_SIMD", "none")
        .output()
        .unwrap();
    assert_eq!(json(&out)["simd"], "none");

    let out = nimatron(&["grundy", "officers", "--to", "10", "--simd", "sse9"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'sse9'") && err.contains("avx2"), "{err}");
}
