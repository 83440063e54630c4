//! Every catalogue game draws its positions as a board, and every legal move
//! names the parts of that board it touches: parts that exist, that are
//! still in play, and that no other move claims. This is what lets the
//! browser play any game by clicking without knowing its notation. Every
//! move's trace (what it did, told on the board after it) gives the board
//! before it back when undone here, piece by piece, and the pieces of a
//! graph keep their ids through every move.

use std::collections::{HashMap, HashSet};

use nimatron::{Board, Element, Game, GameSpec, Ghost, Position, Trace};

/// Why `element` cannot be part of a move on `board`, if it cannot.
fn misplaced(board: &Board, element: &Element) -> Option<String> {
    let ok = match (board, element) {
        (Board::Heaps { heaps, .. }, Element::Objects { heap, start, count }) => {
            *count > 0 && heaps.get(*heap).is_some_and(|&n| start + count <= n)
        }
        (Board::Heaps { heaps, .. }, Element::Gap { heap, index }) => {
            heaps.get(*heap).is_some_and(|&n| *index > 0 && *index < n)
        }
        (Board::Heaps { all_heaps_move, .. }, Element::AllHeaps) => *all_heaps_move,
        (Board::Heaps { heaps, supply, .. }, Element::Heap { heap }) => {
            *heap < heaps.len() && supply.is_some_and(|s| s > 0)
        }
        (Board::Ring { objects }, Element::Place { index }) => {
            objects.get(*index).copied().unwrap_or(false)
        }
        (Board::Grid { dims, cells, .. }, Element::Cell { at }) => {
            at.len() == dims.len()
                && at.iter().zip(dims).all(|(x, d)| x < d)
                && cells[at.iter().zip(dims).fold(0, |flat, (x, d)| flat * d + x)]
        }
        (Board::Marks { side, boards, dead }, Element::Cell { at }) => match at.as_slice() {
            [b, r, c] => {
                *b < boards.len() && r < side && c < side && !dead[*b] && !boards[*b][r * side + c]
            }
            _ => false,
        },
        (Board::Graph { vertices, .. }, Element::Vertex { index, id }) => vertices
            .get(*index)
            .is_some_and(|v| v.present && &v.id == id),
        (Board::Graph { edges, .. }, Element::Edge { index, id }) => {
            edges.get(*index).is_some_and(|e| &e.id == id)
        }
        (
            Board::Counter {
                min_step, max_step, ..
            },
            Element::Step { amount },
        ) => min_step <= amount && amount <= max_step,
        (Board::Words { words }, Element::Letter { word, index }) => {
            words.get(*word).is_some_and(|w| *index < w.len())
        }
        _ => false,
    };
    (!ok).then(|| format!("{element:?} on {board:?}"))
}

/// A graph's vertex and edge ids are unique, and a vertex's id is its label.
fn check_ids(name: &str, position: &Position, board: &Board) {
    if let Board::Graph {
        vertices, edges, ..
    } = board
    {
        let ids: HashSet<&str> = vertices.iter().map(|v| v.id.as_str()).collect();
        assert_eq!(
            ids.len(),
            vertices.len(),
            "{name}: '{position}': vertex ids repeat"
        );
        assert!(
            vertices.iter().all(|v| v.id == v.label),
            "{name}: '{position}'"
        );
        let ids: HashSet<&str> = edges.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(
            ids.len(),
            edges.len(),
            "{name}: '{position}': edge ids repeat"
        );
    }
}

fn count<T: std::hash::Hash + Eq>(items: impl IntoIterator<Item = T>) -> HashMap<T, usize> {
    let mut out = HashMap::new();
    for x in items {
        *out.entry(x).or_insert(0) += 1;
    }
    out
}

/// Undo a move's trace on the board after it: put the ghosts back where
/// they stood and lift what was put down. This must give the board before
/// the move (as far as a trace tells: a lowered weight's old value and a
/// counter's limits are not in it, so those are checked as changed).
fn undo(after: &Board, trace: &Trace, before: &Board) -> Result<(), String> {
    if trace.removed.is_empty() && trace.added.is_empty() {
        return Err("the move leaves no trace".into());
    }
    match (after, before) {
        (
            Board::Heaps {
                heaps, supply: s, ..
            },
            Board::Heaps {
                heaps: want,
                supply: was,
                ..
            },
        ) => {
            let mut rows = heaps.clone();
            let mut placed = 0;
            for e in &trace.added {
                match e {
                    Element::Objects { heap, start, count } => {
                        if rows.get(*heap) != Some(&(start + count)) {
                            return Err(format!("{e:?} is not at the end of its row"));
                        }
                        rows[*heap] -= count;
                        placed += count;
                    }
                    Element::Heap { .. } => {}
                    _ => return Err(format!("{e:?} on heaps")),
                }
            }
            let mut ghosts = 0;
            for g in &trace.removed {
                match g {
                    Ghost::Objects { heap, at, count }
                        if rows.get(*heap).is_some_and(|&n| *at <= n) =>
                    {
                        rows[*heap] += count;
                        ghosts += 1;
                    }
                    _ => return Err(format!("{g:?} stands nowhere")),
                }
            }
            // A row split off (the last row marked new) goes back into the
            // row before it, and the ghosts stood at that row's end.
            if let Some(k) = trace
                .added
                .iter()
                .filter_map(|e| match e {
                    Element::Heap { heap } => Some(*heap),
                    _ => None,
                })
                .max()
                && s.is_none()
            {
                if k == 0 || k >= rows.len() {
                    return Err(format!("row {k} split off nothing"));
                }
                if let Some(Ghost::Objects { heap, at, .. }) = trace.removed.first()
                    && (*heap != k - 1 || *at != heaps[k - 1])
                {
                    return Err("the ghosts of a split are not between its rows".into());
                }
                let right = rows.remove(k);
                rows[k - 1] += right;
                if ghosts > 1 {
                    return Err("a split with ghosts in two places".into());
                }
            }
            if &rows != want {
                return Err(format!("undone: {rows:?}, before: {want:?}"));
            }
            if s.map(|s| s + placed) != *was {
                return Err(format!("supply {s:?} + {placed} placed, before: {was:?}"));
            }
        }
        (Board::Ring { objects }, Board::Ring { objects: want }) => {
            let mut o = objects.clone();
            for g in &trace.removed {
                match g {
                    Ghost::Place { index } if !o[*index] => o[*index] = true,
                    _ => return Err(format!("{g:?}")),
                }
            }
            for e in &trace.added {
                match e {
                    Element::Place { index } if o[*index] => o[*index] = false,
                    _ => return Err(format!("{e:?}")),
                }
            }
            if &o != want {
                return Err(format!("undone: {o:?}"));
            }
        }
        (Board::Grid { dims, cells, .. }, Board::Grid { cells: want, .. }) => {
            let flat = |at: &[usize]| at.iter().zip(dims).fold(0, |f, (x, d)| f * d + x);
            let mut c = cells.clone();
            for g in &trace.removed {
                match g {
                    Ghost::Cell { at } if !c[flat(at)] => c[flat(at)] = true,
                    _ => return Err(format!("{g:?}")),
                }
            }
            for e in &trace.added {
                match e {
                    Element::Cell { at } if c[flat(at)] => c[flat(at)] = false,
                    _ => return Err(format!("{e:?}")),
                }
            }
            if &c != want {
                return Err("undone cells differ".into());
            }
        }
        (Board::Marks { side, boards, .. }, Board::Marks { boards: want, .. }) => {
            let mut b = boards.clone();
            for e in &trace.added {
                match e.clone() {
                    Element::Cell { at } if at.len() == 3 && b[at[0]][at[1] * side + at[2]] => {
                        b[at[0]][at[1] * side + at[2]] = false;
                    }
                    _ => return Err(format!("{e:?}")),
                }
            }
            if !trace.removed.is_empty() || &b != want {
                return Err("undone marks differ".into());
            }
        }
        (
            Board::Graph {
                vertices,
                edges,
                token,
                ..
            },
            Board::Graph {
                vertices: wv,
                edges: we,
                token: wt,
                ..
            },
        ) => {
            let mut ids: Vec<String> = vertices.iter().map(|v| v.id.clone()).collect();
            let mut edge_ids: Vec<(String, String, String)> = edges
                .iter()
                .map(|e| {
                    (
                        e.id.clone(),
                        vertices[e.from].id.clone(),
                        vertices[e.to].id.clone(),
                    )
                })
                .collect();
            for g in &trace.removed {
                match g {
                    Ghost::Vertex { id, label } if id == label => ids.push(id.clone()),
                    Ghost::Edge { id, from, to, .. } => {
                        edge_ids.push((id.clone(), from.clone(), to.clone()))
                    }
                    _ => return Err(format!("{g:?}")),
                }
            }
            let want_ids: Vec<String> = wv.iter().map(|v| v.id.clone()).collect();
            if count(&ids) != count(&want_ids) {
                return Err(format!("vertices undone: {ids:?}, before: {want_ids:?}"));
            }
            let norm = |(id, a, b): &(String, String, String)| {
                (id.clone(), a.min(b).clone(), a.max(b).clone())
            };
            let want_edges: Vec<(String, String, String)> = we
                .iter()
                .map(|e| norm(&(e.id.clone(), wv[e.from].id.clone(), wv[e.to].id.clone())))
                .collect();
            let got: Vec<_> = edge_ids.iter().map(norm).collect();
            if count(&got) != count(&want_edges) {
                return Err(format!("edges undone: {got:?}, before: {want_edges:?}"));
            }
            for e in &trace.added {
                match e {
                    Element::Edge { index, id } => {
                        let old = we.iter().find(|w| &w.id == id).ok_or("a new edge")?;
                        if old.weight == edges[*index].weight {
                            return Err(format!("{id} did not change"));
                        }
                    }
                    Element::Vertex { index, id } => {
                        if *token != Some(*index) || wt.map(|t| &wv[t].id) == Some(id) {
                            return Err(format!("the token did not move to {id}"));
                        }
                    }
                    _ => return Err(format!("{e:?}")),
                }
            }
        }
        (Board::Counter { value, adds, .. }, Board::Counter { value: was, .. }) => {
            match trace.added.as_slice() {
                [Element::Step { amount }] if trace.removed.is_empty() => {
                    let undone = if *adds {
                        value - amount
                    } else {
                        value + amount
                    };
                    if undone != *was {
                        return Err(format!("{value} less the step {amount} is not {was}"));
                    }
                }
                _ => return Err("a counter's trace is its step".into()),
            }
        }
        (Board::Words { words }, Board::Words { words: want }) => {
            let mut w = words.clone();
            for g in &trace.removed {
                match g {
                    Ghost::Letters { word, letters } => w[*word].push_str(letters),
                    _ => return Err(format!("{g:?}")),
                }
            }
            let sorted = |s: &String| {
                let mut c: Vec<char> = s.chars().collect();
                c.sort();
                c
            };
            let got: Vec<_> = w.iter().map(sorted).collect();
            let want_sorted: Vec<_> = want.iter().map(sorted).collect();
            if got != want_sorted {
                return Err(format!("undone: {w:?}, before: {want:?}"));
            }
            for e in &trace.added {
                match e {
                    Element::Letter { word, index } if *index < words[*word].len() => {}
                    _ => return Err(format!("{e:?}")),
                }
            }
        }
        _ => return Err(format!("boards of two kinds: {after:?} after {before:?}")),
    }
    Ok(())
}

/// The checks on one position; returns the positions its moves lead to.
fn check_position(game: &dyn Game, position: &Position) -> Vec<Position> {
    let name = game.name();
    let board = game.board(position).expect("board");
    assert!(
        !matches!(board, Board::Text { .. }),
        "{name}: '{position}' is drawn only as text"
    );
    if let Board::Heaps { heaps, labels, .. } = &board {
        let want: Vec<String> = (0..heaps.len()).map(nimatron::heap_name).collect();
        assert_eq!(labels, &want, "{name}: '{position}'");
    }
    let moves = game.legal_moves(position).expect("moves");
    check_ids(&name, position, &board);
    for m in &moves {
        let after = game.board(m.after()).expect("board after");
        check_ids(&name, m.after(), &after);
        if let Err(why) = undo(&after, &m.trace, &board) {
            panic!(
                "{name}: '{position}': {} (to '{}'): trace {:?}: {why}",
                m.notation, m.to_text, m.trace
            );
        }
    }
    // On weighted edges a move also says how much it takes, which is no
    // part of the board: the board offers the amounts as a choice.
    let amounts_chosen = matches!(&board, Board::Graph { edges, .. }
        if edges.iter().any(|e| e.weight.is_some()));
    let mut owner: HashMap<Vec<String>, String> = HashMap::new();
    for m in &moves {
        assert!(
            !m.touches.is_empty(),
            "{name}: '{position}': {} touches nothing",
            m.notation
        );
        for set in std::iter::once(&m.touches).chain(&m.also_touches) {
            for e in set {
                if let Some(why) = misplaced(&board, e) {
                    panic!("{name}: '{position}': {}: {why}", m.notation);
                }
            }
            let mut key: Vec<String> = set.iter().map(|e| format!("{e:?}")).collect();
            key.sort();
            key.dedup();
            if let Some(other) = owner.insert(key.clone(), m.notation.clone())
                && !amounts_chosen
            {
                assert_eq!(
                    other, m.notation,
                    "{name}: '{position}': {key:?} is claimed by two moves"
                );
            }
        }
    }
    moves.iter().map(|m| m.after().clone()).collect()
}

#[test]
fn every_catalogue_game_draws_a_board_that_its_moves_touch() {
    for entry in GameSpec::CATALOGUE {
        let spec: GameSpec = entry.example.parse().expect(entry.example);
        let game = spec.build().expect(entry.example);
        let start = game
            .start()
            .unwrap_or_else(|| game.parse(game.description().example).expect("example"));
        // Breadth first from the start, a few dozen positions deep.
        let mut queue = vec![start];
        let mut seen = HashSet::new();
        let mut checked = 0;
        while let Some(p) = queue.pop() {
            if checked >= 40 || !seen.insert(p.to_string()) {
                continue;
            }
            checked += 1;
            let next = check_position(game.as_ref(), &p);
            queue.splice(0..0, next.into_iter().take(6));
        }
        assert!(
            checked > 1,
            "{}: only {checked} position checked",
            entry.example
        );
    }
}

#[test]
fn building_nim_places_on_a_heap_then_takes_from_it() {
    let game = GameSpec::Building {
        stones: 3,
        piles: 2,
    }
    .build()
    .unwrap();
    let start = game.start().unwrap();
    match game.board(&start).unwrap() {
        Board::Heaps { heaps, supply, .. } => {
            assert_eq!(heaps, vec![0, 0]);
            assert_eq!(supply, Some(3));
        }
        b => panic!("{b:?}"),
    }
    let moves = game.legal_moves(&start).unwrap();
    let touched: Vec<&[Element]> = moves.iter().map(|m| m.touches.as_slice()).collect();
    assert_eq!(
        touched,
        [[Element::Heap { heap: 0 }], [Element::Heap { heap: 1 }]]
    );
    let placed = game.parse("0 / 2 1").unwrap();
    match game.board(&placed).unwrap() {
        Board::Heaps { supply, .. } => assert_eq!(supply, Some(0)),
        b => panic!("{b:?}"),
    }
    let take = game.parse_move(&placed, "A 2").unwrap();
    assert_eq!(
        take.touches,
        [Element::Objects {
            heap: 0,
            start: 0,
            count: 2
        }]
    );
}

/// The trace of the move written `mv` from `position` in `spec`.
fn trace_of(spec: &str, position: &str, mv: &str) -> (Trace, Board) {
    let game = spec.parse::<GameSpec>().unwrap().build().unwrap();
    let p = game.parse(position).unwrap();
    let m = game.parse_move(&p, mv).unwrap();
    (m.trace.clone(), game.board(m.after()).unwrap())
}

fn vertex(id: &str) -> Ghost {
    Ghost::Vertex {
        id: id.into(),
        label: id.into(),
    }
}

#[test]
fn a_vertex_keeps_its_id_when_others_are_removed() {
    // Node Kayles on the path 1-…-6 and 7-8-9-10: removing 9 takes 8 and
    // 10 with it; vertex 7 is left, under its own id, though its index
    // changes (the board after lists 1 … 7 only).
    let (t, after) = trace_of("node-kayles", "1-2,2-3,3-4,4-5,5-6,7-8,8-9,9-10", "9");
    let removed: HashSet<Ghost> = t.removed.iter().cloned().collect();
    for id in ["8", "9", "10"] {
        assert!(removed.contains(&vertex(id)), "{id} went: {t:?}");
    }
    let edges: Vec<&str> = t
        .removed
        .iter()
        .filter_map(|g| match g {
            Ghost::Edge { id, .. } => Some(id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(edges, ["7-8", "8-9", "10-9"]);
    assert_eq!(t.removed.len(), 6);
    assert!(t.added.is_empty());
    let Board::Graph { vertices, .. } = after else {
        panic!()
    };
    let ids: Vec<&str> = vertices.iter().map(|v| v.id.as_str()).collect();
    assert_eq!(ids.len(), 7);
    assert!(ids.contains(&"7"));
}

#[test]
fn hackenbush_cut_takes_what_falls() {
    // Cutting g-1 under 1-2 and 1-3: three edges go, vertices 1, 2, 3 with
    // them; g-4, 4-5 and 5-g stand.
    let (t, _) = trace_of("hackenbush", "g-1 1-2 1-3 g-4 4-5 5-g", "g-1");
    let mut edges: Vec<String> = t
        .removed
        .iter()
        .filter_map(|g| match g {
            Ghost::Edge { from, to, .. } => Some(format!("{from}-{to}")),
            _ => None,
        })
        .collect();
    edges.sort();
    assert_eq!(edges, ["1-2", "1-3", "g-1"]);
    let mut vertices: Vec<Ghost> = t
        .removed
        .iter()
        .filter(|g| matches!(g, Ghost::Vertex { .. }))
        .cloned()
        .collect();
    vertices.sort_by_key(|g| format!("{g:?}"));
    assert_eq!(vertices, [vertex("1"), vertex("2"), vertex("3")]);
}

#[test]
fn nim_on_graphs_marks_the_token_and_the_lowered_edge() {
    // a-b:3, b-c:1, c-d:2, token on a; move to b leaving 1 on a-b.
    let (t, after) = trace_of("graph-nim", "a-b:3,b-c:1,c-d:2,@a", "b 1");
    assert!(t.removed.is_empty(), "{t:?}");
    let Board::Graph {
        edges,
        token,
        vertices,
        ..
    } = &after
    else {
        panic!()
    };
    let b = vertices.iter().position(|v| v.id == "b").unwrap();
    assert_eq!(*token, Some(b));
    let ab = edges.iter().position(|e| e.id == "a-b").unwrap();
    assert_eq!(edges[ab].weight, Some(1));
    let marked: HashSet<Element> = t.added.iter().cloned().collect();
    assert_eq!(
        marked,
        HashSet::from([
            Element::Vertex {
                index: b,
                id: "b".into()
            },
            Element::Edge {
                index: ab,
                id: "a-b".into()
            }
        ])
    );
    // Lowered to 0 the edge goes: a ghost, not a mark.
    let (t, _) = trace_of("graph-nim", "a-b:3,b-c:1,c-d:2,@a", "b 0");
    assert_eq!(
        t.removed,
        [Ghost::Edge {
            id: "a-b".into(),
            from: "a".into(),
            to: "b".into(),
            weight: Some(3)
        }]
    );
}

#[test]
fn wordnim_marks_the_word_left_and_keeps_the_letters_taken() {
    let (t, after) = trace_of("wordnim", "planet", "take an from planet");
    assert_eq!(
        after,
        Board::Words {
            words: vec!["pelt".into()]
        }
    );
    assert_eq!(
        t.removed,
        [Ghost::Letters {
            word: 0,
            letters: "an".into()
        }]
    );
    assert_eq!(
        t.added,
        (0..4)
            .map(|index| Element::Letter { word: 0, index })
            .collect::<Vec<_>>()
    );
}

#[test]
fn a_run_taken_from_inside_a_row_stands_between_the_rows_it_leaves() {
    // Kayles 10 4: one pin after the first four leaves rows 4, 5 and 4.
    let (t, after) = trace_of("kayles", "10 4", "A 1 4+5");
    assert!(matches!(after, Board::Heaps { ref heaps, .. } if heaps == &[4, 5, 4]));
    assert_eq!(
        t,
        Trace {
            removed: vec![Ghost::Objects {
                heap: 0,
                at: 4,
                count: 1
            }],
            added: vec![Element::Heap { heap: 1 }],
        }
    );
    // Two pins from an end of B (the move touches the right end, its mirror
    // the left): the ghosts stand at the end of the row of 2 left.
    let (t, _) = trace_of("kayles", "10 4", "B 2 0+2");
    assert_eq!(
        t.removed,
        [Ghost::Objects {
            heap: 1,
            at: 2,
            count: 2
        }]
    );
    // Nim: three of four taken from B; only those three are ghosts.
    let (t, _) = trace_of("nim", "3 4 5", "B 3");
    assert_eq!(
        t.removed,
        [Ghost::Objects {
            heap: 1,
            at: 1,
            count: 3
        }]
    );
    // Chomp: a bite takes the squares above and right of it.
    let (t, _) = trace_of("chomp:3x4", "4 4 4", "2 3");
    let mut cells: Vec<Vec<usize>> = t
        .removed
        .iter()
        .map(|g| match g {
            Ghost::Cell { at } => at.clone(),
            g => panic!("{g:?}"),
        })
        .collect();
    cells.sort();
    assert_eq!(cells, [[1, 2], [1, 3], [2, 2], [2, 3]]);
    // Notakto: the X put down.
    let (t, _) = trace_of("notakto:3", ".../.../...", "1 b2");
    assert_eq!(t.added, [Element::Cell { at: vec![0, 1, 1] }]);
}
