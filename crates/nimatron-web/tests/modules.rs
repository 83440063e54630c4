//! The web crate's modules import each other without a circle: each file
//! of `src/` is a node, with an edge to every module it names through
//! `crate::`, `super::` or one of its own `mod` children, and the graph has
//! no cycle. (A circle means no module can be read, or changed, alone.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every `.rs` file under `dir`, by its module path (`api/hub`, `store`).
fn modules(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if path.is_dir() {
            modules(&path, &format!("{prefix}{name}/"), out);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            let module = match stem {
                "mod" => prefix.trim_end_matches('/').to_string(),
                "lib" if prefix.is_empty() => "crate".to_string(),
                _ => format!("{prefix}{stem}"),
            };
            let text = std::fs::read_to_string(&path).unwrap();
            // Comments name modules without importing them, and a file's own
            // test module (at its end) names its parent as `super`.
            let text = match text.find("#[cfg(test)]\nmod ") {
                Some(at) => &text[..at],
                None => &text[..],
            };
            let code: String = text
                .lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n");
            out.insert(module, code);
        }
    }
}

/// The longest module that `parts` names, if any.
fn resolve(known: &BTreeMap<String, String>, parts: &[&str]) -> Option<String> {
    (1..=parts.len())
        .rev()
        .map(|k| parts[..k].join("/"))
        .find(|m| known.contains_key(m))
}

fn ident_at(text: &str, at: usize) -> &str {
    let rest = &text[at..];
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The path of segments after `at` (`a::b::c`), stopping at a brace.
fn path_at(text: &str, mut at: usize) -> Vec<&str> {
    let mut parts = Vec::new();
    loop {
        let id = ident_at(text, at);
        if id.is_empty() {
            break;
        }
        parts.push(id);
        at += id.len();
        if text[at..].starts_with("::") {
            at += 2;
        } else {
            break;
        }
    }
    parts
}

fn edges(known: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for (module, code) in known {
        let mut to = BTreeSet::new();
        let parent: Vec<&str> = if module == "crate" {
            Vec::new()
        } else {
            let mut p: Vec<&str> = module.split('/').collect();
            p.pop();
            p
        };
        let own: Vec<&str> = if module == "crate" {
            Vec::new()
        } else {
            module.split('/').collect()
        };
        // `crate::a::b`, `super::a`, and `use crate::{a, b::c}`.
        for (root, base) in [("crate::", &Vec::new()), ("super::", &parent)] {
            for (at, _) in code.match_indices(root) {
                let after = at + root.len();
                let before = code[..at].chars().last();
                if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                    continue;
                }
                let mut items = Vec::new();
                if code[after..].starts_with('{') {
                    let end = code[after..].find('}').map_or(code.len(), |e| after + e);
                    for item in code[after + 1..end].split(',') {
                        let item = item.trim();
                        if !item.is_empty() {
                            let start = code[after..].find(item).map_or(after, |i| after + i);
                            items.push(path_at(code, start));
                        }
                    }
                } else {
                    items.push(path_at(code, after));
                }
                for item in items {
                    let mut parts = base.clone();
                    parts.extend(item);
                    if let Some(target) = resolve(known, &parts) {
                        to.insert(target);
                    }
                }
            }
        }
        // A `mod child;` whose items this file uses (`child::x`, `use child`).
        for line in code.lines() {
            let line = line.trim();
            let decl = line
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub ");
            let Some(child) = decl.strip_prefix("mod ").and_then(|c| c.strip_suffix(';')) else {
                continue;
            };
            let used = code.lines().any(|l| {
                let l = l.trim();
                !l.ends_with(&format!("mod {child};"))
                    && (l.contains(&format!("{child}::"))
                        || l.starts_with(&format!("use {child}"))
                        || l.starts_with(&format!("pub use {child}")))
            });
            let mut parts = own.clone();
            parts.push(child);
            if used
                && module != "crate"
                && let Some(target) = resolve(known, &parts)
            {
                to.insert(target);
            }
        }
        to.remove(module);
        to.remove("crate");
        if module != "crate" {
            graph.insert(module.clone(), to);
        }
    }
    graph
}

/// A cycle of the graph, if it has one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                1 => {
                    let from = path.iter().position(|p| p == next).unwrap();
                    let mut c = path[from..].to_vec();
                    c.push(next.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(next, graph, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node.as_str()).copied().unwrap_or(0) == 0
            && let Some(c) = visit(node, graph, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

fn graph_of(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut known = BTreeMap::new();
    modules(src, "", &mut known);
    edges(&known)
}

#[test]
fn the_web_modules_import_each_other_without_a_circle() {
    let graph = graph_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    // The reading is real: the router uses the document, the handlers the
    // engine, the engine the seat policy.
    for (from, to) in [
        ("api", "api/openapi"),
        ("api/seats", "service"),
        ("service", "policy"),
    ] {
        assert!(
            graph[from].contains(to),
            "{from} -> {to} not found: {graph:?}"
        );
    }
    if let Some(c) = cycle(&graph) {
        let listing: Vec<String> = graph
            .iter()
            .map(|(m, to)| {
                format!(
                    "{m} -> {}",
                    to.iter().cloned().collect::<Vec<_>>().join(", ")
                )
            })
            .collect();
        panic!(
            "a circle of imports: {}\n{}",
            c.join(" -> "),
            listing.join("\n")
        );
    }
}

#[test]
fn the_check_finds_a_circle() {
    let dir = std::env::temp_dir().join(format!("nimatron-modules-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("b")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    std::fs::write(dir.join("a.rs"), "use crate::b::c::Thing;\n").unwrap();
    std::fs::write(dir.join("b/mod.rs"), "mod c;\n").unwrap();
    std::fs::write(
        dir.join("b/c.rs"),
        "use crate::{a, b};\n// crate::nothing\n",
    )
    .unwrap();
    let graph = graph_of(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(graph["a"], BTreeSet::from(["b/c".to_string()]));
    assert_eq!(
        graph["b/c"],
        BTreeSet::from(["a".to_string(), "b".to_string()])
    );
    let c = cycle(&graph).expect("a -> b/c -> a");
    assert!(
        c.contains(&"a".to_string()) && c.contains(&"b/c".to_string()),
        "{c:?}"
    );
}
