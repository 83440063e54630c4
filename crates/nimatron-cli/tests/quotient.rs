//! `nimatron quotient` end to end: text, the JSON fields, bad input (exit 2)
//! and limits (exit 1, saying where the computation stopped).

mod common;
use common::{json, nimatron, stdout};

#[test]
fn misere_nim_text() {
    let out = nimatron(&["quotient", "nim", "--to", "3"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("Order 6, tame"), "{text}");
    assert!(text.contains("⟨a, b | a^2 = 1, b^3 = b⟩"), "{text}");
    assert!(text.contains("P-portion: {a, b^2}"), "{text}");
    assert!(text.contains("Elements: 1, a, b, ab, b^2, ab^2"), "{text}");
}

#[test]
fn json_fields() {
    let doc = json(&["quotient", "octal:0.75", "--to", "30", "--json"]);
    assert_eq!(doc["game"], "octal:0.75");
    assert_eq!(doc["to"], 30);
    assert_eq!(doc["order"], 8);
    assert_eq!(doc["tame"], false);
    assert_eq!(doc["generators"][0]["name"], "a");
    assert_eq!(doc["generators"][0]["heap"], 1);
    assert_eq!(
        doc["relations"],
        serde_json::json!(["a^2 = 1", "bc = ab", "c^2 = b^2", "b^3 = b"])
    );
    assert_eq!(doc["elements"].as_array().unwrap().len(), 8);
    assert_eq!(doc["images"].as_array().unwrap().len(), 30);
    assert_eq!(doc["stable_from"], 5);
    assert_eq!(doc["period"], 2);
    assert_eq!(doc["proven"], true);
    // Period 2 from heap 8, heaps leaving at most 2 heaps, takes of at
    // most 2: the periodicity argument needs heaps up to 2·8 + 2 + 2 + 1.
    assert_eq!(doc["computed_to"], 21);
    let doc = json(&["quotient", "nim", "--to", "3", "--json"]);
    assert_eq!(doc["p_portion"], serde_json::json!(["a", "b^2"]));
    assert_eq!(doc["images"], serde_json::json!(["a", "b", "ab"]));
    assert_eq!(doc["tame"], true);
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &["quotient", "chess"][..],
        &["quotient", "subtraction:0", "--to", "5"],
        &["quotient", "kayles", "--to", "0"],
        &["quotient", "kayles", "--to", "99999999"],
        &["quotient", "kayles", "--max-seconds", "-1"],
    ] {
        let out = nimatron(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
}

#[test]
fn limits_exit_1_and_say_where() {
    let out = nimatron(&["quotient", "kayles", "--to", "12", "--max-order", "5"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("limit of 5 elements at heap 2"), "{err}");
    assert!(err.contains("--max-order"), "{err}");
    let out = nimatron(&["quotient", "kayles", "--to", "40", "--max-states", "1000"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("while adding heap"), "{err}");
    assert!(err.contains("--max-states"), "{err}");
}
