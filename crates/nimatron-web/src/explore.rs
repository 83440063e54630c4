//! The Explore page's numbers: Grundy values of a single heap, the period
//! they show, and the P-positions of a few heaps. Computed through the
//! [`Game`] facade, so they work for every heap game that builds.

use nimatron::facade::PositionValue;
use nimatron::{Convention, Game, Outcome};
use serde::{Deserialize, Serialize};

use crate::engine::{Engine, parse_convention};
use crate::error::ApiError;

/// The largest N for Grundy values.
pub const MAX_TO: u64 = 1000;

/// Query of `GET /api/explore`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExploreQuery {
    /// Game spec (default `nim`).
    pub game: Option<String>,
    /// Grundy values g(0..=to) (default 64, at most 1000).
    pub to: Option<u64>,
    /// Heaps in the P-positions table: 2 or 3 (default 2).
    pub heaps: Option<usize>,
    /// Largest heap in the P-positions table (default 10; at most 20 for 2
    /// heaps, 10 for 3).
    pub max: Option<u64>,
    /// Convention for the P-positions table (default normal).
    pub convention: Option<String>,
}

/// A period found in the values computed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Period {
    /// The period p: g(n + p) = g(n) for n ≥ preperiod, as far as computed.
    pub period: u64,
    /// The preperiod e.
    pub preperiod: u64,
}

/// The reply of `GET /api/explore`.
#[derive(Clone, Debug, Serialize)]
pub struct Explore {
    /// The canonical spec.
    pub game: String,
    /// g(0), g(1), ... (may stop early; see `values_error`).
    pub values: Vec<u64>,
    /// Why the values stop before `to`, if they do.
    pub values_error: Option<String>,
    /// The smallest period seen at least three times over the values.
    pub period: Option<u64>,
    /// Its preperiod.
    pub preperiod: Option<u64>,
    /// Whether the period is proven (not just observed).
    pub proven: bool,
    /// What `proven` rests on.
    pub period_note: String,
    /// Heaps in the P-positions table.
    pub heaps: usize,
    /// Largest heap in the table.
    pub max: u64,
    /// The table's convention.
    pub convention: String,
    /// Every P-position with sizes in non-decreasing order, each ≤ `max`.
    pub p_positions: Vec<Vec<u64>>,
    /// Why the table is missing, if it is.
    pub p_positions_error: Option<String>,
}

/// The smallest period p, with its smallest preperiod e, such that
/// `values[n + p] == values[n]` for every `n ≥ e` computed, seen over at
/// least three whole periods.
///
/// ```
/// use nimatron_web::explore::{find_period, Period};
/// // Subtraction {1,2}: 0 1 2 0 1 2 ...
/// let v: Vec<u64> = (0..30).map(|n| n % 3).collect();
/// assert_eq!(find_period(&v), Some(Period { period: 3, preperiod: 0 }));
/// let nim: Vec<u64> = (0..30).collect();
/// assert_eq!(find_period(&nim), None);
/// ```
pub fn find_period(values: &[u64]) -> Option<Period> {
    let n = values.len();
    for p in 1..=n / 3 {
        // The smallest e from which the tail repeats with period p.
        let mut e = n - p;
        while e > 0 && values[e - 1] == values[e - 1 + p] {
            e -= 1;
        }
        if n - e >= 3 * p {
            return Some(Period {
                period: p as u64,
                preperiod: e as u64,
            });
        }
    }
    None
}

fn heap_text(sizes: &[u64]) -> String {
    sizes
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Compute the Explore page for a query.
pub fn explore(engine: &Engine, q: &ExploreQuery) -> Result<Explore, ApiError> {
    let (spec, game) = engine.game(q.game.as_deref().unwrap_or("nim"))?;
    let to = q.to.unwrap_or(64);
    if to > MAX_TO {
        return Err(ApiError::bad_request(
            "bad_request",
            format!("'to' is at most {MAX_TO}"),
        ));
    }
    let heaps = q.heaps.unwrap_or(2);
    let max = q.max.unwrap_or(10);
    let max_allowed = match heaps {
        1 | 2 => 20,
        3 => 10,
        _ => {
            return Err(ApiError::bad_request("bad_request", "'heaps' is 1, 2 or 3"));
        }
    };
    if max > max_allowed {
        return Err(ApiError::bad_request(
            "bad_request",
            format!("'max' is at most {max_allowed} for {heaps} heaps"),
        ));
    }
    let convention = parse_convention(q.convention.as_deref())?;
    let heap_game = game
        .position_value("1")
        .is_ok_and(|v| matches!(v, PositionValue::Heaps(_)));
    if !heap_game {
        return Err(ApiError::unprocessable(
            "not_a_heap_game",
            format!(
                "{spec} is not a heap game: Explore shows heap games ({})",
                game.position_syntax()
            ),
        ));
    }
    let (values, values_error) = grundy_values(engine, game.as_ref(), to);
    let period = find_period(&values);
    let (p_positions, p_positions_error) =
        match p_positions(engine, game.as_ref(), heaps, max, convention) {
            Ok(p) => (p, None),
            Err(e) => (Vec::new(), Some(e)),
        };
    Ok(Explore {
        game: spec.to_string(),
        values,
        values_error,
        period: period.as_ref().map(|p| p.period),
        preperiod: period.as_ref().map(|p| p.preperiod),
        proven: false,
        period_note: match &period {
            Some(_) => format!(
                "observed over g(0..={to}) for at least three whole periods; not proven here (a proof needs the game's own periodicity theorem)"
            ),
            None => format!("no period seen over g(0..={to})"),
        },
        heaps,
        max,
        convention: match convention {
            Convention::Normal => "normal".into(),
            Convention::Misere => "misere".into(),
        },
        p_positions,
        p_positions_error,
    })
}

fn grundy_values(engine: &Engine, game: &dyn Game, to: u64) -> (Vec<u64>, Option<String>) {
    let mut values = Vec::new();
    for n in 0..=to {
        match engine.analyze(game, &n.to_string(), Convention::Normal) {
            Ok(a) => match a.grundy {
                Some(g) => values.push(g.value()),
                None => {
                    return (
                        values,
                        Some(format!("no Grundy value is computed for a heap of {n}")),
                    );
                }
            },
            Err(e) => return (values, Some(format!("heap of {n}: {}", e.message))),
        }
    }
    (values, None)
}

fn p_positions(
    engine: &Engine,
    game: &dyn Game,
    heaps: usize,
    max: u64,
    convention: Convention,
) -> Result<Vec<Vec<u64>>, String> {
    let mut out = Vec::new();
    let mut sizes = vec![0u64; heaps];
    loop {
        let text = heap_text(&sizes);
        let a = engine
            .analyze(game, &text, convention)
            .map_err(|e| format!("position '{text}': {}", e.message))?;
        if a.outcome == Outcome::P {
            out.push(sizes.clone());
        }
        // Next non-decreasing tuple.
        let mut i = heaps;
        loop {
            if i == 0 {
                return Ok(out);
            }
            i -= 1;
            if sizes[i] < max {
                sizes[i] += 1;
                let v = sizes[i];
                for s in &mut sizes[i + 1..] {
                    *s = v;
                }
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_with_preperiods() {
        // 5 1 then 0 1 2 repeating.
        let mut v = vec![5, 1];
        v.extend((0..30).map(|n| n % 3));
        assert_eq!(
            find_period(&v),
            Some(Period {
                period: 3,
                preperiod: 2
            })
        );
        // A constant sequence has period 1.
        assert_eq!(
            find_period(&[0; 5]),
            Some(Period {
                period: 1,
                preperiod: 0
            })
        );
        // Too short to see three periods.
        assert_eq!(find_period(&[0, 1, 0, 1, 0]), None);
    }
}
