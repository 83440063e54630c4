//! The census formats: one JSON line per code (what shards write), and the
//! merged table in Markdown and JSON. Both are documented in docs/census.md.

use std::fmt::Write as _;

use nimatron::sequence::{
    CensusClass, CensusRecord, CensusResult, CensusSpec, CensusTable, EquivalenceRule, Fingerprint,
    OctalCode, SparseMask,
};
use serde_json::Value;

/// The `format` field of every record line.
pub const RECORD_FORMAT: &str = "nimatron-census-1";
/// The `format` field of the JSON table.
pub const TABLE_FORMAT: &str = "nimatron-census-table-1";

fn opt<T: ToString>(x: Option<T>) -> String {
    x.map_or_else(|| "null".to_string(), |v| v.to_string())
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

fn list<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    let parts: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", parts.join(","))
}

/// One record as a JSON line (with the newline), fields in a fixed order.
pub fn record_line(r: &CensusRecord) -> String {
    let (result, period, preperiod, cycle, apparent, to_prove) = match &r.result {
        CensusResult::Proven {
            period,
            preperiod,
            cycle,
        } => (
            "proven",
            Some(*period),
            Some(*preperiod),
            list(cycle),
            None,
            None,
        ),
        CensusResult::Unsolved {
            apparent,
            values_to_prove,
        } => (
            "unsolved",
            None,
            None,
            "null".into(),
            *apparent,
            *values_to_prove,
        ),
    };
    format!(
        "{{\"format\":\"{RECORD_FORMAT}\",\"digits\":{},\"leading\":{},\"to\":{},\"index\":{},\"code\":{},\"moves\":{},\"result\":\"{result}\",\"period\":{},\"preperiod\":{},\"apparent_period\":{},\"apparent_preperiod\":{},\"values_to_prove\":{},\"max_value\":{},\"mask\":{},\"position_parity\":{},\"rare_count\":{},\"last_rare\":{},\"values\":\"{}\",\"cycle\":{cycle},\"max_value_at\":{},\"shift\":{},\"shifted_values\":{}{}}}\n",
        r.spec.digits,
        r.spec.leading,
        r.spec.to,
        r.index,
        json_str(&r.code.to_string()),
        json_str(&r.moves),
        opt(period),
        opt(preperiod),
        opt(apparent.map(|a| a.0)),
        opt(apparent.map(|a| a.1)),
        opt(to_prove),
        r.max_value,
        opt(r.mask.map(|m| m.mask)),
        r.mask.is_some_and(|m| m.position_parity),
        opt(r.rare_count),
        opt(r.last_rare),
        r.values,
        opt(r.max_value_at),
        opt(r.shift),
        r.shifted_values
            .map_or_else(|| "null".to_string(), |f| format!("\"{f}\"")),
        // Only in derived records (`census --derive`), so that computed
        // records keep the bytes they always had.
        r.derived_from
            .as_ref()
            .map_or_else(String::new, |root| format!(
                ",\"derived_from\":{}",
                json_str(&root.to_string())
            )),
    )
}

/// Parses one record line, saying what is wrong if it is not one.
pub fn parse_record(line: &str) -> Result<CensusRecord, String> {
    let doc: Value = serde_json::from_str(line).map_err(|e| format!("not a JSON object ({e})"))?;
    let obj = doc.as_object().ok_or("not a JSON object")?;
    let field = |name: &str| obj.get(name).ok_or_else(|| format!("no field '{name}'"));
    let uint = |name: &str| -> Result<u64, String> {
        field(name)?
            .as_u64()
            .ok_or_else(|| format!("field '{name}' is not a whole number"))
    };
    // Fields added after the first records were written: absent is null.
    let later_uint = |name: &str| -> Result<Option<u64>, String> {
        match obj.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| format!("field '{name}' is neither a whole number nor null")),
        }
    };
    let opt_uint = |name: &str| -> Result<Option<u64>, String> {
        match field(name)? {
            Value::Null => Ok(None),
            v => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| format!("field '{name}' is neither a whole number nor null")),
        }
    };
    let text = |name: &str| -> Result<&str, String> {
        field(name)?
            .as_str()
            .ok_or_else(|| format!("field '{name}' is not a string"))
    };
    if text("format")? != RECORD_FORMAT {
        return Err(format!("format is not \"{RECORD_FORMAT}\""));
    }
    let small = |name: &str, max: u64| -> Result<u64, String> {
        let v = uint(name)?;
        if v > max {
            return Err(format!("field '{name}' is {v}, above {max}"));
        }
        Ok(v)
    };
    let spec = CensusSpec::new(
        small("digits", 99)? as u32,
        small("leading", 15)? as u8,
        uint("to")?,
    )
    .map_err(|e| e.to_string())?;
    let index = uint("index")?;
    let code: OctalCode = text("code")?
        .parse()
        .map_err(|e| format!("field 'code': {e}"))?;
    let values: Fingerprint = text("values")?
        .parse()
        .map_err(|_| "field 'values' is not a hexadecimal fingerprint".to_string())?;
    let mask = opt_uint("mask")?
        .map(|m| -> Result<SparseMask, String> {
            Ok(SparseMask {
                mask: u32::try_from(m).map_err(|_| "field 'mask' is above 2^32")?,
                position_parity: field("position_parity")?
                    .as_bool()
                    .ok_or("field 'position_parity' is not true or false")?,
            })
        })
        .transpose()?;
    let result = match text("result")? {
        "proven" => {
            let cycle = field("cycle")?
                .as_array()
                .ok_or("field 'cycle' is not a list")?
                .iter()
                .map(|v| v.as_u64().and_then(|x| u32::try_from(x).ok()))
                .collect::<Option<Vec<u32>>>()
                .ok_or("field 'cycle' holds something other than values")?;
            let period = uint("period")?;
            let preperiod = uint("preperiod")?;
            if period == 0 || preperiod.checked_add(period) != Some(cycle.len() as u64) {
                return Err(
                    "field 'cycle' must hold preperiod + period values, the period at least 1"
                        .into(),
                );
            }
            CensusResult::Proven {
                period,
                preperiod,
                cycle,
            }
        }
        "unsolved" => CensusResult::Unsolved {
            apparent: match (
                opt_uint("apparent_period")?,
                opt_uint("apparent_preperiod")?,
            ) {
                (Some(p), Some(e)) => Some((p, e)),
                (None, None) => None,
                _ => return Err("apparent_period and apparent_preperiod go together".into()),
            },
            values_to_prove: opt_uint("values_to_prove")?,
        },
        other => return Err(format!("result '{other}' is neither proven nor unsolved")),
    };
    let shifted_values = match obj.get("shifted_values") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_str()
                .and_then(|t| t.parse::<Fingerprint>().ok())
                .ok_or("field 'shifted_values' is not a hexadecimal fingerprint or null")?,
        ),
    };
    let derived_from = match obj.get("derived_from") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_str()
                .and_then(|t| t.parse::<OctalCode>().ok())
                .ok_or("field 'derived_from' is not a code or null")?,
        ),
    };
    Ok(CensusRecord {
        spec,
        index,
        derived_from,
        moves: text("moves")?.to_string(),
        code,
        max_value: u32::try_from(uint("max_value")?).map_err(|_| "max_value is above 2^32")?,
        max_value_at: later_uint("max_value_at")?,
        values,
        shift: later_uint("shift")?,
        shifted_values,
        mask,
        rare_count: opt_uint("rare_count")?,
        last_rare: opt_uint("last_rare")?,
        result,
    })
}

fn rule_text(rule: EquivalenceRule, to: u64) -> String {
    match rule {
        EquivalenceRule::Single => "one code".into(),
        EquivalenceRule::SameMoves => "same moves".into(),
        EquivalenceRule::SameValuesProven => "same values, proven".into(),
        EquivalenceRule::SameValuesObserved => format!("same values up to n = {to}, observed"),
    }
}

/// A mask in hexadecimal, as published tables write it.
fn mask_text(mask: Option<SparseMask>) -> String {
    match mask {
        Some(m) if m.position_parity => format!("{:#x} + parity", m.mask),
        Some(m) => format!("{:#x}", m.mask),
        None => "-".into(),
    }
}

/// Nimber strings longer than this are cut in the Markdown table (the JSON
/// table has them whole).
const NIMBERS_SHOWN: usize = 240;

fn dash(x: Option<u64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| v.to_string())
}

fn summary_counts(table: &CensusTable) -> (usize, u64, usize, u64) {
    let (pc, pn) = table.proven();
    let uc = table.classes.len() - pc;
    (pc, pn, uc, table.codes - pn)
}

fn spec_title(spec: &CensusSpec) -> String {
    format!(
        "codes {}.{} of up to {} digit{}, G(0..={})",
        spec.leading,
        "d".repeat(spec.digits as usize),
        spec.digits,
        if spec.digits == 1 { "" } else { "s" },
        spec.to
    )
}

/// The table in Markdown.
pub fn markdown(table: &CensusTable) -> String {
    let spec = &table.spec;
    let (pc, pn, uc, un) = summary_counts(table);
    let mut out = String::new();
    let _ = writeln!(out, "# Octal game census: {}\n", spec_title(spec));
    let _ = writeln!(
        out,
        "{} of {} codes in {} classes: {pc} proven periodic ({pn} codes), {uc} unsolved at n = {} ({un} codes). The classes form {} shift groups (values equal once leading zeros are dropped).",
        table.codes,
        spec.code_count(),
        table.classes.len(),
        spec.to,
        table.shift_groups
    );
    if !table.missing.is_empty() {
        let shown: Vec<String> = table
            .missing
            .iter()
            .take(20)
            .map(|&i| spec.code(i).to_string())
            .collect();
        let _ = writeln!(
            out,
            "\n**Partial:** {} codes have no record: {}{}.",
            table.missing.len(),
            shown.join(" "),
            if table.missing.len() > 20 { " ..." } else { "" }
        );
    }
    out.push_str(
        "\n| class | codes | rule | result | period | preperiod | largest value | first at | mask | rare | last rare | shift group |\n",
    );
    out.push_str(
        "| ---: | --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |\n",
    );
    let mut notes = Vec::new();
    for class in &table.classes {
        let r = class.representative();
        let codes = class.codes().join(" ");
        let rule = rule_text(class.rule, spec.to);
        let (result, period, preperiod) = match &r.result {
            CensusResult::Proven {
                period, preperiod, ..
            } => (
                "proven".to_string(),
                period.to_string(),
                preperiod.to_string(),
            ),
            CensusResult::Unsolved {
                apparent,
                values_to_prove,
            } => {
                if let Some((p, e)) = apparent {
                    let proof = values_to_prove.map_or_else(
                        || "no theorem covers it".to_string(),
                        |k| format!("a proof needs G(0..{k})"),
                    );
                    notes.push(format!(
                        "class {}: apparent period {p}, preperiod {e}, not proven; {proof}.",
                        class.number
                    ));
                }
                (
                    format!("unsolved at {}", spec.to),
                    String::new(),
                    String::new(),
                )
            }
        };
        let _ = writeln!(
            out,
            "| {} | {codes} | {rule} | {result} | {period} | {preperiod} | {} | {} | {} | {} | {} | {} |",
            class.number,
            r.max_value,
            dash(r.max_value_at),
            mask_text(r.mask),
            dash(r.rare_count),
            dash(r.last_rare),
            class.shift_group,
        );
        if !class.same_values_up_to_n.is_empty() {
            notes.push(format!(
                "class {}: same values up to n = {} as class{} {} (observed, not proven).",
                class.number,
                spec.to,
                if class.same_values_up_to_n.len() == 1 {
                    ""
                } else {
                    "es"
                },
                class
                    .same_values_up_to_n
                    .iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    if !notes.is_empty() {
        out.push_str("\nNotes:\n\n");
        for note in notes {
            let _ = writeln!(out, "- {note}");
        }
    }

    // Shift groups of more than one class.
    let mut groups: Vec<(usize, Vec<&CensusClass>)> = Vec::new();
    for class in &table.classes {
        match groups.iter_mut().find(|(g, _)| *g == class.shift_group) {
            Some((_, members)) => members.push(class),
            None => groups.push((class.shift_group, vec![class])),
        }
    }
    let shared: Vec<&(usize, Vec<&CensusClass>)> =
        groups.iter().filter(|(_, m)| m.len() > 1).collect();
    if !shared.is_empty() {
        out.push_str(
            "\nShift groups of several classes (values equal after the leading zeros):\n\n",
        );
        for (g, members) in shared {
            let proven = members[0].representative().result.is_proven();
            let list: Vec<String> = members
                .iter()
                .map(|c| {
                    format!(
                        "class {} ({}; {} leading zero{})",
                        c.number,
                        c.codes().join(" "),
                        dash(c.representative().shift),
                        if c.representative().shift == Some(1) {
                            ""
                        } else {
                            "s"
                        }
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "- group {g}: {}; {}.",
                list.join(", "),
                if proven {
                    "proven at every heap size".to_string()
                } else {
                    format!("observed over {} values", spec.shift_window())
                }
            );
        }
    }

    // The values of proven classes.
    let proven: Vec<&CensusClass> = table
        .classes
        .iter()
        .filter(|c| c.representative().result.is_proven())
        .collect();
    if !proven.is_empty() {
        out.push_str("\nValues of the proven classes (preperiod, then the period in parentheses; 0-9, A-Z for 10-35, larger values in braces):\n\n");
        out.push_str("| class | codes | values |\n| ---: | --- | --- |\n");
        for class in proven {
            let text = class.representative().result.nimbers().unwrap_or_default();
            let shown = if text.chars().count() > NIMBERS_SHOWN {
                let cut: String = text.chars().take(NIMBERS_SHOWN).collect();
                format!(
                    "{cut}... ({} characters; whole in the JSON table)",
                    text.chars().count()
                )
            } else {
                text
            };
            let _ = writeln!(
                out,
                "| {} | {} | {shown} |",
                class.number,
                class.codes().join(" ")
            );
        }
    }
    let _ = write!(
        out,
        "\nRules: *one code*: the class has a single code. *same moves*: the codes are equal once \
trailing zeros are dropped (distinct canonical codes never have the same moves). *same values, \
proven*: each code is periodic by the octal periodicity theorem, with the same period p and \
preperiod e, and G(0..e+p) agree value by value, so the values agree for every heap size. \
*same values up to n = {to}, observed*: G(0..={to}) agree (compared by a 128-bit fingerprint); \
nothing is claimed beyond. *proven*: the period holds for every heap size. *unsolved at {to}*: \
no proven period up to n = {to}. *largest value* and *first at*: the largest of G(0..={to}) and \
the first heap size where it occurs. *mask*, *rare*, *last rare*: the sparse method's final mask \
in hexadecimal (values v are sorted by the parity of v AND mask, \"+ parity\" adding the heap \
size's parity), the count of rare positions in 0..={to} (heap 0 included) and the last one, for \
the class's first code. *shift group*: classes whose values agree once the leading zeros (heaps \
too small for any move) are dropped; proven for proven classes, observed over {w} values for \
unsolved ones.\n",
        to = spec.to,
        w = spec.shift_window()
    );
    out
}

fn class_json(class: &CensusClass) -> String {
    let r = class.representative();
    let (result, period, preperiod, apparent, to_prove) = match &r.result {
        CensusResult::Proven {
            period, preperiod, ..
        } => ("proven", Some(*period), Some(*preperiod), None, None),
        CensusResult::Unsolved {
            apparent,
            values_to_prove,
        } => ("unsolved", None, None, *apparent, *values_to_prove),
    };
    let members: Vec<String> = class
        .members
        .iter()
        .map(|m| {
            format!(
                "{{\"code\":{},\"index\":{},\"mask\":{},\"position_parity\":{},\"rare_count\":{},\"last_rare\":{},\"max_value_at\":{},\"shift\":{}}}",
                json_str(&m.code.to_string()),
                m.index,
                opt(m.mask.map(|x| x.mask)),
                m.mask.is_some_and(|x| x.position_parity),
                opt(m.rare_count),
                opt(m.last_rare),
                opt(m.max_value_at),
                opt(m.shift)
            )
        })
        .collect();
    format!(
        "{{\"class\":{},\"codes\":{},\"rule\":\"{}\",\"result\":\"{result}\",\"period\":{},\"preperiod\":{},\"apparent_period\":{},\"apparent_preperiod\":{},\"values_to_prove\":{},\"max_value\":{},\"mask\":{},\"position_parity\":{},\"rare_count\":{},\"last_rare\":{},\"values\":\"{}\",\"same_values_up_to_n\":{},\"members\":[{}],\"max_value_at\":{},\"mask_hex\":{},\"shift\":{},\"shift_group\":{},\"nimbers\":{}}}",
        class.number,
        list(class.codes().iter().map(|c| json_str(c))),
        class.rule.name(),
        opt(period),
        opt(preperiod),
        opt(apparent.map(|a| a.0)),
        opt(apparent.map(|a| a.1)),
        opt(to_prove),
        r.max_value,
        opt(r.mask.map(|m| m.mask)),
        r.mask.is_some_and(|m| m.position_parity),
        opt(r.rare_count),
        opt(r.last_rare),
        r.values,
        list(&class.same_values_up_to_n),
        members.join(","),
        opt(r.max_value_at),
        r.mask.map_or_else(
            || "null".to_string(),
            |m| json_str(&format!("{:x}", m.mask))
        ),
        opt(r.shift),
        class.shift_group,
        r.result
            .nimbers()
            .map_or_else(|| "null".to_string(), |t| json_str(&t)),
    )
}

/// The table as one JSON object (with a final newline).
pub fn json(table: &CensusTable) -> String {
    let spec = &table.spec;
    let (pc, pn, uc, un) = summary_counts(table);
    let missing = list(
        table
            .missing
            .iter()
            .map(|&i| json_str(&spec.code(i).to_string())),
    );
    let classes: Vec<String> = table.classes.iter().map(class_json).collect();
    format!(
        "{{\"format\":\"{TABLE_FORMAT}\",\"digits\":{},\"leading\":{},\"to\":{},\"codes\":{},\"complete\":{},\"missing\":{missing},\"proven_classes\":{pc},\"proven_codes\":{pn},\"unsolved_classes\":{uc},\"unsolved_codes\":{un},\"shift_groups\":{},\"classes\":[\n{}\n]}}\n",
        spec.digits,
        spec.leading,
        spec.to,
        table.codes,
        table.missing.is_empty(),
        table.shift_groups,
        classes.join(",\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use nimatron::sequence::{SequenceOptions, census_record};

    #[test]
    fn census_records_survive_a_round_trip() {
        let spec = CensusSpec::new(2, 0, 300).unwrap();
        let options = SequenceOptions::default();
        for index in 0..64 {
            let record = census_record(&spec, index, &options).unwrap();
            let line = record_line(&record);
            assert!(line.ends_with('\n') && !line[..line.len() - 1].contains('\n'));
            assert_eq!(parse_record(&line).unwrap(), record, "{line}");
        }
    }

    #[test]
    fn census_bad_lines_say_what_is_wrong() {
        let spec = CensusSpec::new(1, 0, 50).unwrap();
        let good = record_line(&census_record(&spec, 6, &SequenceOptions::default()).unwrap());
        for (bad, says) in [
            ("", "not a JSON object"),
            ("[1]", "not a JSON object"),
            ("{\"format\":\"x\"}", "format"),
            (&good.replace("\"digits\":1", "\"digits\":0"), "digits"),
            (&good.replace("\"values\":\"", "\"values\":\"z"), "values"),
            (
                &good.replace("\"code\":\"0.6\"", "\"code\":\"0.6z\""),
                "code",
            ),
            (&good[..good.len() / 2], "not a JSON object"),
        ] {
            let e = parse_record(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
