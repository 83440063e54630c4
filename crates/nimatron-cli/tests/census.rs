//! `nimatron census` end to end: every code classified, proven periods
//! checked against the naive algorithm far beyond the proof, shards merged
//! equal to the whole census byte for byte, resume after an interruption,
//! and bad input.

mod common;
use common::nimatron;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Output;

use nimatron::sequence::{
    Algorithm, HeapGame, OctalCode, SequenceOptions, Values, grundy_sequence,
};
use serde_json::Value;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nimatron-census-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(path.with_extension("jsonl.run"));
    path
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "status {:?}, stderr {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn p(path: &std::path::Path) -> &str {
    path.to_str().unwrap()
}

/// `G(0..=to)` by the naive algorithm (the mex over every option).
fn naive(code: &OctalCode, to: u64) -> Vec<u32> {
    let options = SequenceOptions {
        algorithm: Algorithm::Naive,
        ..SequenceOptions::default()
    };
    let seq = grundy_sequence(&HeapGame::Octal(code.clone()), to, &options).unwrap();
    match seq.values {
        Values::Bytes(v) => v.into_iter().map(u32::from).collect(),
        Values::Shorts(v) => v.into_iter().map(u32::from).collect(),
        Values::Words(v) => v,
    }
}

/// The fingerprint as docs/census.md defines it, written out again here.
fn fingerprint(values: &[u32]) -> String {
    let mut h: u128 = 0x6c62272e07bb014262b821756295c58d;
    for &v in values {
        h ^= v as u128;
        h = h.wrapping_mul(0x0000000001000000000000000000013B);
    }
    format!("{h:032x}")
}

/// The largest take of a code: the position of its last nonzero digit.
fn largest_take(code: &str) -> usize {
    let digits = code.split('.').nth(1).unwrap().trim_end_matches('0');
    digits.len()
}

#[test]
fn census_of_two_digit_codes_to_1000_classifies_every_code_and_proofs_hold() {
    const N: usize = 1000;
    let out = nimatron(&["census", "--digits", "2", "--to", "1000", "--json"]);
    let table: Value = serde_json::from_str(&ok(&out)).unwrap();
    assert_eq!(table["format"], "nimatron-census-table-1");
    assert_eq!(table["codes"], 64);
    assert_eq!(table["complete"], true);
    let classes = table["classes"].as_array().unwrap();
    let mut seen = BTreeSet::new();
    let mut proven_codes = 0;
    for class in classes {
        let codes: Vec<&str> = class["codes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        let rule = class["rule"].as_str().unwrap();
        assert_eq!(rule == "single", codes.len() == 1, "{class}");
        for code in &codes {
            assert!(seen.insert(code.to_string()), "{code} in two classes");
            let parsed: OctalCode = code.parse().unwrap();
            let t = largest_take(code);
            let short = naive(&parsed, N as u64);
            assert_eq!(
                fingerprint(&short),
                class["values"],
                "{code}: values up to N"
            );
            assert_eq!(
                short.iter().max().copied().unwrap() as u64,
                class["max_value"].as_u64().unwrap(),
                "{code}"
            );
            let member = class["members"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["code"] == *code)
                .unwrap();
            // The first heap size with the largest value, and the leading
            // zeros, by a plain scan.
            let largest = *short.iter().max().unwrap();
            let first = short.iter().position(|&v| v == largest).unwrap();
            assert_eq!(member["max_value_at"], first, "{code}");
            let zeros = short.iter().position(|&v| v != 0);
            assert_eq!(member["shift"], serde_json::json!(zeros), "{code}");
            // The mask in hexadecimal, as published tables give it.
            match class["mask"].as_u64() {
                Some(m) => assert_eq!(class["mask_hex"], format!("{m:x}")),
                None => assert_eq!(class["mask_hex"], Value::Null),
            }
            match class["result"].as_str().unwrap() {
                "proven" => {
                    proven_codes += 1;
                    assert!(rule == "single" || rule == "same-values-proven", "{class}");
                    let period = class["period"].as_u64().unwrap() as usize;
                    let pre = class["preperiod"].as_u64().unwrap() as usize;
                    // Far beyond the proof: four times the theorem's range,
                    // and at least 3000 values.
                    let far = (4 * (2 * pre + 2 * t + 2 * period)).max(3000);
                    let g = naive(&parsed, far as u64);
                    // Guy and Smith's hypothesis, checked with the wider
                    // range e <= n < 2e + 2t + p ...
                    for n in pre..2 * pre + 2 * t + period {
                        assert_eq!(g[n + period], g[n], "{code}: theorem range at n = {n}");
                    }
                    // ... and its conclusion, by computing on.
                    for n in pre..=far - period {
                        assert_eq!(g[n + period], g[n], "{code}: period {period} at n = {n}");
                    }
                    // The preperiod is the smallest, and so is the period.
                    if pre > 0 {
                        assert_ne!(g[pre - 1 + period], g[pre - 1], "{code}: preperiod");
                    }
                    for q in 1..period {
                        assert!(
                            (far / 2..=far - q).any(|n| g[n + q] != g[n]),
                            "{code}: {q} is a smaller period"
                        );
                    }
                    // The nimber string: the preperiod, then the period in
                    // parentheses, one character a value.
                    let ch = |v: &u32| match *v {
                        0..=9 => char::from(b'0' + *v as u8).to_string(),
                        10..=35 => char::from(b'A' + (*v - 10) as u8).to_string(),
                        _ => format!("{{{v}}}"),
                    };
                    let text: String = g[..pre].iter().map(ch).collect::<String>()
                        + "("
                        + &g[pre..pre + period].iter().map(ch).collect::<String>()
                        + ")";
                    assert_eq!(class["nimbers"], text, "{code}");
                }
                "unsolved" => {
                    assert_eq!(class["nimbers"], Value::Null);
                    assert!(
                        rule == "single" || rule == "same-values-observed",
                        "{class}"
                    );
                    // No period and preperiod the theorem could prove from
                    // G(0..=N): for every p, the smallest preperiod e leaves
                    // the check range 2e + p + t (plus p) beyond N.
                    for q in 1..=N {
                        let e = (0..=N - q)
                            .rev()
                            .find(|&n| short[n + q] != short[n])
                            .map_or(0, |n| n + 1);
                        assert!(
                            2 * e + 2 * q + t > N + 1,
                            "{code}: period {q}, preperiod {e} is provable from G(0..={N})"
                        );
                    }
                }
                other => panic!("{code}: result {other}"),
            }
        }
    }
    assert_eq!(seen.len(), 64);
    assert_eq!(table["proven_codes"], proven_codes);
    // Kayles and Dawson's Kayles, as published.
    let find = |code: &str| {
        classes
            .iter()
            .find(|c| c["codes"].as_array().unwrap().iter().any(|x| x == code))
            .unwrap()
    };
    assert_eq!(
        (
            find("0.77")["period"].clone(),
            find("0.77")["preperiod"].clone()
        ),
        (12.into(), 71.into())
    );
    assert_eq!(find("0.07")["period"], 34);
    assert_eq!(find("0.6")["result"], "unsolved");
}

fn census(args: &[&str]) -> String {
    let mut all = vec!["census"];
    all.extend_from_slice(args);
    ok(&nimatron(&all))
}

#[test]
fn census_shards_merged_equal_the_whole_census_byte_for_byte() {
    let base = ["--digits", "3", "--to", "300"];
    let whole_md = census(&base);
    let mut json_args = base.to_vec();
    json_args.push("--json");
    let whole_json = census(&json_args);
    let mut files = Vec::new();
    for i in 1..=4 {
        let path = temp(&format!("shard-{i}.jsonl"));
        let shard = format!("{i}/4");
        let mut args = base.to_vec();
        args.extend(["--shard", &shard, "--out", p(&path)]);
        assert_eq!(census(&args), "", "a shard with --out prints no table");
        files.push(path);
    }
    let names: Vec<&str> = files.iter().map(|f| p(f)).collect();
    let mut merge = vec!["merge"];
    merge.extend(names.iter().rev());
    assert_eq!(census(&merge), whole_md);
    merge.push("--json");
    assert_eq!(census(&merge), whole_json);
    // Records are disjoint: 512 lines in all.
    let lines: usize = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap().lines().count())
        .sum();
    assert_eq!(lines, 512);
    // A shard written to standard output, and a file holding all shards at
    // once (with one shard twice), merge the same.
    let mut args = base.to_vec();
    args.extend(["--shard", "2/4"]);
    assert_eq!(census(&args), std::fs::read_to_string(&files[1]).unwrap());
    let all = temp("all.jsonl");
    let mut text: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    text.push_str(&std::fs::read_to_string(&files[0]).unwrap());
    std::fs::write(&all, text).unwrap();
    let table = temp("table.md");
    census(&["merge", p(&all), "--out", p(&table)]);
    assert_eq!(std::fs::read_to_string(&table).unwrap(), whole_md);
    // The same census in 3 shards.
    let mut three = Vec::new();
    for i in 1..=3 {
        let path = temp(&format!("three-{i}.jsonl"));
        let shard = format!("{i}/3");
        let mut args = base.to_vec();
        args.extend(["--shard", &shard, "--out", p(&path)]);
        census(&args);
        three.push(path);
    }
    let mut merge = vec!["merge"];
    merge.extend(three.iter().map(|f| p(f)));
    assert_eq!(census(&merge), whole_md);
    // And in 16 (a multiple of 8: each shard still mixes every last digit).
    let mut sixteen = Vec::new();
    for i in 1..=16 {
        let path = temp(&format!("sixteen-{i}.jsonl"));
        let shard = format!("{i}/16");
        let mut args = base.to_vec();
        args.extend(["--shard", &shard, "--out", p(&path)]);
        census(&args);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 32, "shard {i}/16 holds 512/16 codes");
        let digits: BTreeSet<u64> = text
            .lines()
            .map(|l| {
                serde_json::from_str::<Value>(l).unwrap()["index"]
                    .as_u64()
                    .unwrap()
                    % 8
            })
            .collect();
        assert!(digits.len() >= 6, "shard {i}/16: last digits {digits:?}");
        sixteen.push(path);
    }
    let mut merge = vec!["merge"];
    merge.extend(sixteen.iter().map(|f| p(f)));
    assert_eq!(census(&merge), whole_md);
    merge.push("--json");
    assert_eq!(census(&merge), whole_json);
}

/// SIGTERM (what GNU parallel, Slurm and Kubernetes send) saves the code in
/// progress, as Ctrl-C does; the shard run again resumes it and writes the
/// same record as a run never stopped.
#[cfg(unix)]
#[test]
fn census_saves_the_code_in_progress_on_sigterm() {
    use std::process::{Command, Stdio};
    use std::time::Duration;
    // Shard 2/8 of the one-digit census is 0.6 (Officers) alone.
    let base = [
        "census", "--digits", "1", "--to", "3000000", "--shard", "2/8",
    ];
    let stopped = temp("term.jsonl");
    let run_file = stopped.with_extension("jsonl.run");
    let child = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(base)
        .args(["--out", p(&stopped)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    std::thread::sleep(Duration::from_millis(300));
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let out = child.wait_with_output().expect("exits");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "finished before SIGTERM: {err}");
    assert!(err.contains("interrupted at code 0.6"), "{err}");
    assert!(
        std::fs::metadata(&run_file).is_ok_and(|m| m.len() > 0),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&stopped).unwrap(), "");
    // Resumed: the same record as an uninterrupted run.
    let out = nimatron(&[&base[..], &["--out", p(&stopped)]].concat());
    ok(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("resuming code octal:0.6 at n = "), "{err}");
    assert!(
        std::fs::metadata(&run_file).is_err(),
        "the .run file is gone"
    );
    let whole = temp("term-whole.jsonl");
    ok(&nimatron(&[&base[..], &["--out", p(&whole)]].concat()));
    let record = std::fs::read_to_string(&whole).unwrap();
    assert!(record.contains("\"code\":\"0.6\""), "{record}");
    assert_eq!(std::fs::read_to_string(&stopped).unwrap(), record);
}

#[test]
fn census_resumes_where_it_stopped() {
    let whole = census(&["--digits", "2", "--to", "1000"]);
    let out = temp("resume.jsonl");
    let args = ["--digits", "2", "--to", "1000", "--out", p(&out)];
    // Stop after 10 codes: no table yet.
    let mut first = args.to_vec();
    first.extend(["--stop-after", "10"]);
    let run = nimatron(&[&["census"][..], &first].concat());
    assert_eq!(ok(&run), "");
    assert!(String::from_utf8_lossy(&run.stderr).contains("stopped after 10 codes"));
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 10);
    // An interrupted write leaves half a line at the end.
    let mut text = std::fs::read_to_string(&out).unwrap();
    let last = text.lines().last().unwrap().to_string();
    text.push_str(&last.replace("\"index\":9,", "\"index\":10,")[..last.len() / 2]);
    std::fs::write(&out, &text).unwrap();
    let run = nimatron(&[&["census"][..], &args].concat());
    assert_eq!(ok(&run), whole);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("resuming") && err.contains("cut short"),
        "{err}"
    );
    let lines = std::fs::read_to_string(&out).unwrap();
    assert_eq!(lines.lines().count(), 64);
    assert!(lines.ends_with('\n'));
    // Running again computes nothing and prints the same table.
    assert_eq!(census(&args), whole);
    // A shard file merges to the same table as well.
    assert_eq!(census(&["merge", p(&out)]), whole);
}

#[test]
fn census_with_leading_four_splits_without_taking() {
    let out = nimatron(&[
        "census",
        "--digits",
        "1",
        "--leading",
        "4",
        "--to",
        "500",
        "--json",
    ]);
    let table: Value = serde_json::from_str(&ok(&out)).unwrap();
    assert_eq!(table["leading"], 4);
    let codes: Vec<String> = table["classes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["codes"].as_array().unwrap().clone())
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    let mut sorted = codes.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        ["4.0", "4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7"]
    );
}

fn bad(args: &[&str], says: &[&str]) {
    let out = nimatron(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    for word in says {
        assert!(err.contains(word), "{args:?}: {err} lacks {word}");
    }
}

#[test]
fn census_bad_input_exits_2_naming_the_problem() {
    bad(&["census", "--digits", "0"], &["0 digits", "1 to 8"]);
    bad(&["census", "--digits", "9"], &["9 digits", "1 to 8"]);
    bad(&["census", "--digits", "x"], &["--digits"]);
    bad(&["census"], &["--digits"]);
    bad(
        &["census", "--digits", "1", "--leading", "2"],
        &["--leading", "0", "4"],
    );
    bad(
        &["census", "--digits", "1", "--shard", "0/4"],
        &["'0/4'", "1 <= I <= N"],
    );
    bad(
        &["census", "--digits", "1", "--shard", "5/4"],
        &["'5/4'", "1 <= I <= N"],
    );
    bad(
        &["census", "--digits", "1", "--shard", "two"],
        &["'two'", "I/N"],
    );
    bad(
        &["census", "--digits", "1", "--threads", "0"],
        &["--threads"],
    );
    bad(
        &["census", "--digits", "1", "--shard", "1/2", "--json"],
        &["--json", "merge"],
    );
    bad(&["census", "merge"], &["FILE"]);
    let missing = temp("no-such-file.jsonl");
    bad(
        &["census", "merge", p(&missing)],
        &["cannot read", "no-such-file"],
    );

    let a = temp("bad-a.jsonl");
    census(&["--digits", "1", "--to", "100", "--out", p(&a)]);
    let b = temp("bad-b.jsonl");
    census(&["--digits", "1", "--to", "200", "--out", p(&b)]);
    bad(
        &["census", "merge", p(&a), p(&b)],
        &["two censuses", "n = 100", "n = 200"],
    );
    let c = temp("bad-c.jsonl");
    census(&[
        "--digits",
        "2",
        "--to",
        "100",
        "--shard",
        "1/8",
        "--out",
        p(&c),
    ]);
    bad(
        &["census", "merge", p(&a), p(&c)],
        &["two censuses", "1 digit", "2 digits"],
    );
    // Missing codes, unless --partial.
    bad(
        &["census", "merge", p(&c)],
        &["56 of the 64 codes", "--partial"],
    );
    let partial = census(&["merge", "--partial", p(&c)]);
    assert!(
        partial.contains("**Partial:** 56 codes have no record"),
        "{partial}"
    );
    // A corrupt line, a line cut short, and a record that contradicts another.
    let text = std::fs::read_to_string(&a).unwrap();
    let corrupt = temp("bad-corrupt.jsonl");
    std::fs::write(&corrupt, text.replacen("{\"format\"", "{\"form\"", 1)).unwrap();
    bad(
        &["census", "merge", p(&corrupt)],
        &["line 1", "no field 'format'"],
    );
    std::fs::write(&corrupt, text.replacen("\"digits\":1", "\"digits\":1x", 1)).unwrap();
    bad(
        &["census", "merge", p(&corrupt)],
        &["line 1", "not a JSON object"],
    );
    std::fs::write(&corrupt, &text[..text.len() - 5]).unwrap();
    bad(&["census", "merge", p(&corrupt)], &["cut short"]);
    let first = text.lines().next().unwrap();
    let changed = first.replace("\"max_value\":0", "\"max_value\":7");
    assert_ne!(first, changed);
    std::fs::write(&corrupt, format!("{text}{changed}\n")).unwrap();
    bad(
        &["census", "merge", p(&corrupt)],
        &["two different records", "0.0"],
    );
    // An --out file of another census, or of another shard, or not a census file.
    bad(
        &["census", "--digits", "1", "--to", "150", "--out", p(&a)],
        &["its own --out file"],
    );
    bad(
        &[
            "census",
            "--digits",
            "2",
            "--to",
            "100",
            "--shard",
            "2/8",
            "--out",
            p(&c),
        ],
        &["its own --out file", "shard 2/8"],
    );
    let junk = temp("junk.jsonl");
    std::fs::write(&junk, "hello\n").unwrap();
    bad(
        &["census", "--digits", "1", "--to", "100", "--out", p(&junk)],
        &["line 1", "not a census record"],
    );
}

#[test]
fn census_timing_prints_one_line_per_code_and_leaves_the_records_alone() {
    let plain = temp("timing-plain.jsonl");
    let timed = temp("timing-timed.jsonl");
    let base = ["--digits", "2", "--to", "2000", "--shard", "1/2"];
    let run = nimatron(&[&["census"][..], &base, &["--out", p(&plain)]].concat());
    ok(&run);
    assert!(!String::from_utf8_lossy(&run.stderr).contains("census-timing"));
    let run = nimatron(&[&["census"][..], &base, &["--out", p(&timed), "--timing"]].concat());
    ok(&run);
    let records = std::fs::read_to_string(&timed).unwrap();
    // The records are the same bytes with or without --timing.
    assert_eq!(records, std::fs::read_to_string(&plain).unwrap());
    let err = String::from_utf8_lossy(&run.stderr);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("census-timing "))
        .collect();
    assert_eq!(lines.len(), records.lines().count(), "{err}");
    for (line, record) in lines.iter().zip(records.lines()) {
        let record: Value = serde_json::from_str(record).unwrap();
        let field = |name: &str| {
            line.split(' ')
                .find_map(|f| f.strip_prefix(&format!("{name}=")[..]))
                .unwrap_or_else(|| panic!("no {name} in {line}"))
                .to_string()
        };
        assert_eq!(field("code"), record["code"].as_str().unwrap());
        assert_eq!(field("index"), record["index"].to_string());
        assert_eq!(field("result"), record["result"].as_str().unwrap());
        assert_eq!(field("max"), record["max_value"].to_string());
        let mask = match record["mask"].as_u64() {
            Some(m) if record["position_parity"] == true => format!("{m:x}+p"),
            Some(m) => format!("{m:x}"),
            None => "-".to_string(),
        };
        assert_eq!(field("mask"), mask);
        assert_eq!(field("from_n"), "0");
        for t in ["cpu_s", "wall_s"] {
            let v = field(t);
            if v != "na" {
                assert!(v.parse::<f64>().unwrap() >= 0.0, "{line}");
            }
        }
    }
}

#[test]
fn census_derive_computes_each_game_once_and_merges_the_same_whatever_the_sharding() {
    let base = ["--digits", "3", "--to", "400", "--derive"];
    let whole = census(&base);
    let mut files = Vec::new();
    for i in 1..=3 {
        let path = temp(&format!("derive-{i}.jsonl"));
        let shard = format!("{i}/3");
        let mut args = base.to_vec();
        args.extend(["--shard", &shard, "--out", p(&path)]);
        census(&args);
        files.push(path);
    }
    let mut merge = vec!["merge"];
    merge.extend(files.iter().map(|f| p(f)));
    assert_eq!(census(&merge), whole);
    // Against the plain census: computed records are the same lines;
    // derived ones differ only in having no mask and naming their root.
    let plain = temp("derive-plain.jsonl");
    census(&["--digits", "3", "--to", "400", "--out", p(&plain)]);
    let plain: std::collections::BTreeMap<u64, Value> = std::fs::read_to_string(&plain)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["index"].as_u64().unwrap(), v)
        })
        .collect();
    let mut derived = 0;
    let mut seen = BTreeSet::new();
    for f in &files {
        for line in std::fs::read_to_string(f).unwrap().lines() {
            let mut got: Value = serde_json::from_str(line).unwrap();
            let index = got["index"].as_u64().unwrap();
            assert!(seen.insert(index), "code {index} written twice");
            let mut want = plain[&index].clone();
            if let Some(root) = got.as_object_mut().unwrap().remove("derived_from") {
                derived += 1;
                // 0.6 is 0.37 with a heap one larger.
                if got["code"] == "0.6" {
                    assert_eq!(root, "0.37");
                }
                for k in ["mask", "rare_count", "last_rare"] {
                    assert!(got[k].is_null(), "{line}");
                    want[k] = Value::Null;
                }
                want["position_parity"] = Value::Bool(false);
            }
            assert_eq!(got, want, "{line}");
        }
    }
    assert_eq!(seen.len(), 512);
    assert_eq!(derived, 127);
    // A file of the plain sharding is refused under --derive.
    let plain_shard = temp("derive-plain-shard.jsonl");
    census(&[
        "--digits",
        "3",
        "--to",
        "400",
        "--shard",
        "1/3",
        "--out",
        p(&plain_shard),
    ]);
    let out = nimatron(&[
        "census",
        "--digits",
        "3",
        "--to",
        "400",
        "--derive",
        "--shard",
        "1/3",
        "--out",
        p(&plain_shard),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--derive"));
}
