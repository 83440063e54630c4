use super::misere_play::*;
use super::*;
use crate::check::{all_tuples, closed_form_agrees_with_search};
use crate::misere::{self, QuotientLimits};
use crate::{RaceMethod, RaceStatus};
use std::sync::Arc;

fn game(spec: &str) -> TakeBreakGame {
    TakeBreakGame::new(spec.parse().unwrap())
}

/// The misère quotient learnt up to heap `max` (or to where its period
/// is proven) within `limits`, with no search racing it.
fn learn(g: &TakeBreakGame, max: u64, limits: Limits) -> Option<Arc<MisereQuotient>> {
    let bounds = QuotientLimits {
        max_states: limits.max_states,
        max_time: limits.max_time,
        ..QuotientLimits::default()
    };
    let mut kept = g.misere.lock().unwrap();
    kept.learn(&g.game, max, &bounds).ok()
}

/// The race's account of a misère verdict.
fn race_of(v: &Verdict<SplitMove>) -> &MisereRace {
    v.details.misere.as_ref().expect("a misère race")
}

/// An explanation gives a presentation of many relations in brief:
/// every generator with its heap, the first relations and the count of
/// the rest; a small one whole.
#[test]
fn a_large_presentation_is_explained_in_brief() {
    let limits = QuotientLimits::default();
    let q = misere::quotient(&"octal:0.35".parse().unwrap(), 12, &limits).unwrap();
    let relations = q.relations_text();
    assert!(
        relations.len() > MAX_RELATIONS_IN_FULL,
        "{}",
        relations.len()
    );
    let text = brief_presentation(&q);
    for g in q.generators() {
        assert!(
            text.contains(&format!("{} (heap {})", g.name, g.heap)),
            "{text}"
        );
    }
    assert!(text.contains(&format!("with {} relations", relations.len())));
    assert!(text.contains(&relations[..SHOWN_RELATIONS].join(", ")));
    assert!(!text.contains(&relations[..=SHOWN_RELATIONS].join(", ")));
    let more = format!(" and {} more", relations.len() - SHOWN_RELATIONS);
    assert!(text.ends_with(&more), "{text}");
    let kayles = misere::quotient(&"kayles".parse().unwrap(), 30, &limits).unwrap();
    assert_eq!(brief_presentation(&kayles), kayles.presentation());
}

/// Within the web server's budget (500 000 positions), misère Kayles'
/// quotient covers large heaps: its verification at heap 37 stores
/// 378 099 states, more than half that budget. A heap of 80 is past
/// search, so the race goes to the quotient.
#[test]
fn misere_kayles_quotient_fits_the_server_budget() {
    let g = game("kayles");
    let server = Limits::states(500_000);
    let v = g
        .closed_form_within(&vec![80], Convention::Misere, server)
        .unwrap()
        .expect("a misère verdict");
    let race = race_of(&v);
    assert_eq!(race.answered_by, RaceMethod::Quotient, "{race:?}");
    assert_eq!(race.quotient_order, 40);
    assert!(race.quotient_heaps >= 80, "{race:?}");
}

/// A quotient that stopped at a hard limit keeps the heaps it verified,
/// and is not run again for heaps that far within no larger bounds;
/// larger bounds run it. Misère Dawson's Kayles stops at heap 28 with
/// 100 000 positions, and search cannot finish four heaps of 30 within
/// them either.
#[test]
fn a_quotient_that_stopped_is_not_run_again_within_the_same_bounds() {
    let g = game("dawson");
    let small = Limits::states(100_000);
    let position = vec![30, 30, 30, 30];
    let turns = |g: &TakeBreakGame| g.misere.lock().unwrap().turns;
    let err = g
        .closed_form_within(&position, Convention::Misere, small)
        .unwrap_err();
    let SolveError::Unresolved { limit, reason } = &err else {
        panic!("{err}");
    };
    assert_eq!(**limit, SolveError::StateLimit { limit: 100_000 });
    assert!(reason.contains("while adding heap 28"), "{reason}");
    assert!(reason.contains("verified for heaps 1 to 27"), "{reason}");
    assert_eq!(g.misere.lock().unwrap().heaps(), 27);
    let before = turns(&g);
    assert!(before >= 1);
    // The same bounds: the quotient does not run, and says why.
    let err = g
        .closed_form_within(&position, Convention::Misere, small)
        .unwrap_err();
    assert!(
        err.to_string().contains("stopped before at heap 28"),
        "{err}"
    );
    assert_eq!(turns(&g), before);
    // Heaps it verified are answered by it at once.
    let v = g
        .closed_form_within(&vec![27, 27, 26], Convention::Misere, small)
        .unwrap()
        .unwrap();
    assert_eq!(race_of(&v).quotient.status, RaceStatus::Kept);
    assert_eq!(turns(&g), before);
    // Larger bounds run it again (and stop again, later or not).
    let larger = Limits::states(200_000);
    let _ = g.closed_form_within(&position, Convention::Misere, larger);
    assert!(turns(&g) > before);
}

#[test]
fn closed_forms_agree_with_search() {
    for spec in [
        "subtraction:1,2,3",
        "subtraction:1,2",
        "subtraction:2,5",
        "subtraction:squares",
        "modular:3:1,2",
        "kayles",
        "dawson",
        "officers",
        "grundy-game",
        "octal:4.07",
        "octal:0.F",
    ] {
        let g = game(spec);
        let positions: Vec<Vec<u64>> = (1..=2).flat_map(|k| all_tuples(k, 9)).collect();
        let checked =
            closed_form_agrees_with_search(&g, positions).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert!(checked >= 110, "{spec}: {checked}");
    }
    // Three heaps for Wikipedia's S(1..k) rule, both conventions.
    for k in 1..=3u64 {
        let set: Vec<String> = (1..=k).map(|x| x.to_string()).collect();
        let g = game(&format!("subtraction:{}", set.join(",")));
        let checked = closed_form_agrees_with_search(&g, all_tuples(3, 8)).unwrap();
        assert_eq!(checked, 2 * 729);
    }
}

/// Misère play by the quotient: the outcome and the exact winning moves
/// of every sum of up to three heaps agree with plain search.
#[test]
fn misere_quotient_verdicts_agree_with_search() {
    for spec in [
        "kayles",
        "dawson",
        "octal:0.137",
        "octal:0.75",
        "grundy-game",
        "subtraction:1,3,4",
    ] {
        let g = game(spec);
        // Before the quotient is learnt, search settles small positions.
        let v = g.closed_form(&vec![3, 4], Convention::Misere).unwrap();
        assert_eq!(race_of(&v).answered_by, RaceMethod::Search, "{spec}");
        learn(&g, 8, Limits::default()).expect("a quotient to 8");
        let positions: Vec<Vec<u64>> = (1..=3).flat_map(|k| all_tuples(k, 8)).collect();
        let misere = positions
            .iter()
            .filter(|p| {
                let v = g.closed_form(p, Convention::Misere).unwrap();
                race_of(&v).answered_by == RaceMethod::Quotient
            })
            .count();
        assert_eq!(
            misere,
            positions.len(),
            "{spec}: the quotient covers every position"
        );
        closed_form_agrees_with_search(&g, positions).unwrap_or_else(|e| panic!("{spec}: {e}"));
    }
    // A sum of large heaps of a game with a finite, proven quotient
    // answers at once: misère 0.75 has period 4 in its images.
    let g = game("octal:0.75");
    let v = g
        .closed_form(&vec![1_000_001, 999_998, 4_321], Convention::Misere)
        .expect("a proven quotient covers every heap");
    assert!(v.theorem.contains("every heap size"), "{}", v.theorem);
}

#[test]
fn seed_subtraction_rule() {
    // A single heap of n in S(1..k): the second player wins iff
    // n ≡ 0 (mod k+1) in normal play, n ≡ 1 in misère play.
    for k in 1..=4u64 {
        let set: Vec<String> = (1..=k).map(|x| x.to_string()).collect();
        let g = game(&format!("subtraction:{}", set.join(",")));
        for n in 0..40u64 {
            let normal = g.closed_form(&vec![n], Convention::Normal).unwrap();
            assert_eq!(
                normal.outcome == Outcome::P,
                n % (k + 1) == 0,
                "k={k} n={n}"
            );
            let misere = g.closed_form(&vec![n], Convention::Misere).unwrap();
            assert_eq!(
                misere.outcome == Outcome::P,
                n % (k + 1) == 1,
                "k={k} n={n}"
            );
        }
        // "If this makes all the heaps of size zero (in misère play), the
        // winning move is to take k objects from one of the heaps."
        let heaps = vec![k + 1, 2 * (k + 1)];
        let v = g.closed_form(&heaps, Convention::Misere).unwrap();
        assert_eq!(v.outcome, Outcome::N);
        assert!(
            v.winning_moves.iter().all(|m| m.take == k),
            "{:?}",
            v.winning_moves
        );
    }
}

#[test]
fn moves_split_in_place_and_parse() {
    let k = game("kayles");
    let heaps = vec![5, 3];
    let mv = k.parse_move(&heaps, "A 1 2+2").unwrap();
    assert_eq!(k.apply(&heaps, &mv), vec![2, 2, 3]);
    let mv = k.parse_move(&heaps, "take 2 from A").unwrap();
    assert_eq!(k.apply(&heaps, &mv), vec![3, 3]);
    let mv = k.parse_move(&heaps, "B all").unwrap_err();
    assert!(mv.problem.contains("may take 1, 2"), "{}", mv.problem);
    let gg = game("grundy-game");
    let mv = gg.parse_move(&vec![6], "A 5+1").unwrap();
    assert_eq!(gg.apply(&vec![6], &mv), vec![1, 5]);
    assert!(gg.parse_move(&vec![6], "A 3+3").is_err());
    assert!(
        gg.parse_move(&vec![6], "A 2+3")
            .unwrap_err()
            .problem
            .contains("leaves 6")
    );
}

#[test]
fn huge_heaps_use_a_proven_period() {
    let k = game("kayles");
    let big = MAX_HEAP_MANY_MOVES - 1;
    let v = k.closed_form(&vec![big, 5], Convention::Normal).unwrap();
    // Kayles has period 12 from 71: G(n) = G(71 + (n - 71) mod 12).
    let small = 71 + (big - 71) % 12;
    let w = k.closed_form(&vec![small, 5], Convention::Normal).unwrap();
    assert_eq!(v.grundy, w.grundy);
    // Every winning move of the big row is found: each leaves XOR 0.
    assert!(!v.winning_moves.is_empty());
    for m in &v.winning_moves {
        let after = k.apply(&vec![big, 5], m);
        assert!(
            k.closed_form(&after, Convention::Normal)
                .unwrap()
                .grundy
                .unwrap()
                .is_zero()
        );
    }
    // No proven period: refused rather than guessed, with the reason.
    let err = game("grundy-game")
        .closed_form_within(&vec![500_000], Convention::Normal, Limits::default())
        .unwrap_err();
    assert!(err.to_string().contains("no proven period"), "{err}");
    // Games that split a heap in three or take any residue list every
    // move of a heap: a position error naming the bound.
    for spec in ["octal:0.8", "modular:3:1,2"] {
        let err = game(spec).parse_position("2000000").unwrap_err();
        assert!(err.to_string().contains("at most 1000000"), "{spec}: {err}");
    }
    // Games that split in two take heaps up to 10^18, by the period.
    assert!(k.parse_position("2000000").is_ok());
    let err = k.parse_position("1000000000000000001").unwrap_err();
    assert!(
        err.to_string().contains("at most 1000000000000000000"),
        "{err}"
    );
    // Subtraction games have few moves per heap: any u64 heap.
    let s = game("subtraction:1,2,3");
    let v = s.closed_form(&vec![u64::MAX], Convention::Normal).unwrap();
    assert_eq!(v.grundy, Some(Nimber(u64::MAX % 4)));
}

/// The winning moves of heaps too large to examine one by one are
/// counted class by class. Against every move of the heap examined
/// one by one (a heap just past the bound still allows it): the same
/// total, and the listed moves are the first ones of the full list.
#[test]
fn large_heaps_count_their_winning_moves_by_class() {
    let mut checked = 0;
    for spec in ["kayles", "dawson", "octal:0.137", "octal:0.15", "octal:4.7"] {
        let g = game(spec);
        for (n, others) in [
            (MAX_HEAP_MANY_MOVES + 1, vec![5u64]),
            (MAX_HEAP_MANY_MOVES + 2, vec![7, 3]),
            (MAX_HEAP_MANY_MOVES + 35, vec![]),
            (MAX_HEAP_MANY_MOVES + 60, vec![1, 2]),
        ] {
            let position: Vec<u64> = [n].iter().chain(&others).copied().collect();
            let Ok(Some(v)) =
                g.closed_form_within(&position, Convention::Normal, Limits::default())
            else {
                // No proven period: nothing to count.
                continue;
            };
            let total = v.grundy.unwrap();
            let brute: Vec<SplitMove> = g
                .with_values(n, |value, _| {
                    let mut out = Vec::new();
                    for (heap, &h) in position.iter().enumerate() {
                        for (take, parts) in g.heap_moves(h) {
                            let after: Nimber =
                                total + value(h) + parts.iter().map(|&p| value(p)).sum::<Nimber>();
                            if after.is_zero() {
                                out.push(SplitMove { heap, take, parts });
                            }
                        }
                    }
                    out
                })
                .unwrap();
            let listed = brute.len().min(LISTED_BY_PERIOD);
            assert_eq!(
                v.winning_moves.len() + v.details.unlisted_winning,
                brute.len(),
                "{spec} {position:?}"
            );
            let first_difference = v.winning_moves.iter().zip(&brute).position(|(a, b)| a != b);
            assert_eq!(first_difference, None, "{spec} {position:?}");
            assert_eq!(v.winning_moves.len(), listed, "{spec} {position:?}");
            checked += 1;
        }
    }
    assert!(
        checked >= 12,
        "only {checked} positions had a proven period"
    );
    // Misère Kayles, by its quotient's periodic heap images.
    let k = game("kayles");
    for position in [
        vec![MAX_HEAP_MANY_MOVES + 1, 5, 7],
        vec![MAX_HEAP_MANY_MOVES + 6],
        vec![MAX_HEAP_MANY_MOVES + 11, 4],
    ] {
        let v = k
            .closed_form_within(&position, Convention::Misere, Limits::default())
            .unwrap()
            .expect("misère Kayles' quotient is proven");
        let q = learn(&k, position[0], Limits::default()).unwrap();
        let mut brute = Vec::new();
        for (heap, &h) in position.iter().enumerate() {
            for (take, parts) in k.heap_moves(h) {
                let m = SplitMove { heap, take, parts };
                if q.is_p_position(&k.apply(&position, &m)) == Some(true) {
                    brute.push(m);
                }
            }
        }
        let listed = brute.len().min(LISTED_BY_PERIOD);
        assert_eq!(
            v.winning_moves.len() + v.details.unlisted_winning,
            brute.len()
        );
        let first_difference = v.winning_moves.iter().zip(&brute).position(|(a, b)| a != b);
        assert_eq!(first_difference, None, "{position:?}");
        assert_eq!(v.winning_moves.len(), listed, "{position:?}");
    }
}

/// A move's legality, checked without listing a heap's moves, agrees
/// with the list, for every rule kind.
#[test]
fn legality_agrees_with_the_move_list() {
    for spec in [
        "kayles",
        "octal:0.137",
        "octal:0.8",
        "octal:4.7",
        "grundy-game",
        "subtraction:1,3,4",
        "subtraction:squares",
        "modular:3:1,2",
    ] {
        let g = game(spec);
        for n in 0..=13u64 {
            let list = g.heap_moves(n);
            let mut allowed = 0;
            for take in 0..=n + 1 {
                for parts in sorted_parts(n.saturating_sub(take), 3) {
                    let legal = g.heap_allows(n, take, &parts);
                    assert_eq!(
                        legal,
                        list.contains(&(take, parts.clone())),
                        "{spec}: heap {n}, take {take}, leave {parts:?}"
                    );
                    allowed += usize::from(legal);
                }
            }
            assert_eq!(allowed, list.len(), "{spec}: heap {n}");
            let takes: std::collections::BTreeSet<u64> = list.iter().map(|(t, _)| *t).collect();
            assert_eq!(g.heap_takes(n), takes, "{spec}: heap {n}");
            // Parts out of order, empty, or summing wrong never are.
            assert!(!g.heap_allows(n, 1, &[n, 0]));
            assert!(!g.heap_allows(n, 0, &[n + 1]));
            if n >= 4 {
                assert!(!g.heap_allows(n, 1, &[2, 1]));
            }
        }
    }
}

/// Every sorted list of at most `len` positive parts with sum `total`.
fn sorted_parts(total: u64, len: usize) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    fn go(left: u64, min: u64, len: usize, cur: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
        if left == 0 {
            out.push(cur.clone());
            return;
        }
        if len == 0 {
            return;
        }
        for p in min..=left {
            cur.push(p);
            go(left - p, p, len - 1, cur, out);
            cur.pop();
        }
    }
    go(total, 1, len, &mut Vec::new(), &mut out);
    out
}

/// The outcome alone agrees with the full verdict's, in both
/// conventions, on every sum of up to three heaps of up to 9.
#[test]
fn the_outcome_alone_agrees_with_the_verdict() {
    let limits = Limits::default();
    for spec in [
        "kayles",
        "dawson",
        "octal:0.137",
        "grundy-game",
        "subtraction:1,2,3",
        "subtraction:1,3,4",
    ] {
        let g = game(spec);
        // Misère positions go by the quotient kept, or by the race.
        learn(&g, 9, limits);
        let mut by_quotient = 0;
        for a in 0..=9u64 {
            for b in a..=9 {
                for c in b..=9 {
                    let position = vec![a, b, c];
                    for convention in [Convention::Normal, Convention::Misere] {
                        let alone = g
                            .closed_outcome_within(&position, convention, limits)
                            .unwrap();
                        let verdict = g.closed_form_within(&position, convention, limits).unwrap();
                        assert_eq!(
                            alone,
                            verdict.map(|v| v.outcome),
                            "{spec} {position:?} {convention:?}"
                        );
                        if convention == Convention::Misere && alone.is_some() {
                            by_quotient += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(by_quotient, 220, "{spec}");
    }
}
