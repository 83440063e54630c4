//! Every catalogue game draws its positions as a board, and every legal move
//! names the parts of that board it touches: parts that exist, that are
//! still in play, and that no other move claims. This is what lets the
//! browser play any game by clicking without knowing its notation.

use std::collections::{HashMap, HashSet};

use nimatron::{Board, Element, Game, GameSpec, Position};

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
        (Board::Graph { vertices, .. }, Element::Vertex { index }) => {
            vertices.get(*index).is_some_and(|v| v.present)
        }
        (Board::Graph { edges, .. }, Element::Edge { index }) => *index < edges.len(),
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

/// The checks on one position; returns the positions its moves lead to.
fn check_position(game: &dyn Game, position: &Position) -> Vec<Position> {
    let name = game.name();
    let board = game.board(position).expect("board");
    assert!(
        !matches!(board, Board::Text { .. }),
        "{name}: '{position}' is drawn only as text"
    );
    if let Board::Heaps { heaps, labels, .. } = &board {
        let want: Vec<String> = (0..heaps.len()).map(nimatron::explain::heap_name).collect();
        assert_eq!(labels, &want, "{name}: '{position}'");
    }
    let moves = game.legal_moves(position).expect("moves");
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
