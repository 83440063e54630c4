//! The Explore page's numbers: Grundy values of a single heap, the period
//! they show, and the P-positions of a few heaps.
//!
//! For the heap games of the sequence engine ([`nimatron::sequence`]:
//! take-and-break codes and presets, Grundy's game, subtraction and modular
//! games) the values and the period come from
//! [`grundy_sequence`](nimatron::sequence::grundy_sequence), computed to
//! the server's `explore_to` ([`SEQUENCE_TO`] by default) whatever N is
//! shown, and the period is proven only when the engine proves it. Other
//! heap games (Nim, Wythoff, ...) get their values through the [`Game`]
//! facade and a period only as observed, within the server's time limit
//! for all of them.

use std::time::Instant;

use nimatron::sequence::GrundySequence;
use nimatron::{Convention, Game, GameSpec, Limits, Outcome};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, game_error};
use crate::requests::parse_convention;
use crate::service::Engine;

/// The largest N for Grundy values.
pub const MAX_TO: u64 = 1000;

pub use crate::limits::SEQUENCE_TO;

/// Query of `GET /api/explore`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Period {
    /// The period p: g(n + p) = g(n) for n ≥ preperiod, as far as computed.
    pub period: u64,
    /// The preperiod e.
    pub preperiod: u64,
}

/// The reply of `GET /api/explore`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Explore {
    /// The canonical spec.
    pub game: String,
    /// g(0), g(1), ... (may stop early; see `values_error`).
    pub values: Vec<u64>,
    /// Why the values stop before `to`, if they do.
    #[schema(required)]
    pub values_error: Option<String>,
    /// The smallest period found (see `source`).
    #[schema(required)]
    pub period: Option<u64>,
    /// Its preperiod.
    #[schema(required)]
    pub preperiod: Option<u64>,
    /// Whether the period is proven (not just observed): only when the
    /// sequence engine proves it by the periodicity theorem.
    pub proven: bool,
    /// What `proven` rests on.
    pub period_note: String,
    /// `sequence` (the Grundy-sequence engine, for the heap games it
    /// knows) or `solver` (each heap solved through the game's own solver).
    pub source: &'static str,
    /// The values looked at for the period: g(0..=computed_to). For the
    /// sequence engine this is the server's `explore_to` (10 000 unless it is
    /// set otherwise), or `to` if that is larger.
    pub computed_to: u64,
    /// Heaps in the P-positions table.
    pub heaps: usize,
    /// Largest heap in the table.
    pub max: u64,
    /// The table's convention.
    pub convention: String,
    /// Every P-position with sizes in non-decreasing order, each ≤ `max`.
    pub p_positions: Vec<Vec<u64>>,
    /// Why the table is missing, if it is.
    #[schema(required)]
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
    if !crate::views::explorable(game.as_ref()) {
        return Err(ApiError::unprocessable(
            "not_a_heap_game",
            format!(
                "{} is not a heap game: Explore shows heap games ({})",
                game.name(),
                game.position_syntax()
            ),
        ));
    }
    let sequence = match &spec {
        Some(GameSpec::Heap(heap_game)) => {
            Some(engine.grundy_sequence(heap_game, to.max(engine.explore_to())))
        }
        _ => None,
    };
    let (p_positions, p_positions_error) =
        match p_positions(engine, game.as_ref(), heaps, max, convention) {
            Ok(p) => (p, None),
            Err(e) => (Vec::new(), Some(e)),
        };
    let mut out = match sequence {
        Some(Ok(seq)) => from_sequence(&seq, to),
        other => {
            let (values, values_error) = grundy_values(engine, game.as_ref(), to);
            let period = find_period(&values);
            let mut note = match &period {
                Some(_) => format!(
                    "observed over g(0..={to}) for at least three whole periods; not proven here (a proof needs the game's own periodicity theorem)"
                ),
                None => format!("no period seen over g(0..={to})"),
            };
            if let Some(Err(e)) = other {
                note.push_str(&format!(
                    "; the sequence engine could not compute this game: {e}"
                ));
            }
            Explore {
                game: String::new(),
                values,
                values_error,
                period: period.as_ref().map(|p| p.period),
                preperiod: period.as_ref().map(|p| p.preperiod),
                proven: false,
                period_note: note,
                source: "solver",
                computed_to: to,
                heaps,
                max,
                convention: String::new(),
                p_positions: Vec::new(),
                p_positions_error: None,
            }
        }
    };
    out.game = game.name();
    out.heaps = heaps;
    out.max = max;
    out.convention = match convention {
        Convention::Normal => "normal".into(),
        Convention::Misere => "misere".into(),
    };
    out.p_positions = p_positions;
    out.p_positions_error = p_positions_error;
    Ok(out)
}

/// The page's values and period from a computed sequence; `to` values
/// shown, the period as the engine found it over all of them.
fn from_sequence(seq: &GrundySequence, to: u64) -> Explore {
    let computed_to = (seq.values.len() as u64).saturating_sub(1);
    let shown = (to.min(computed_to) + 1) as usize;
    let values = (0..shown).map(|n| u64::from(seq.values.get(n))).collect();
    let period_note = match seq.period {
        Some(p) if p.proven => format!(
            "proven by the periodicity theorem for take-and-break games (Guy and Smith 1956): the sequence engine's values g(0..={computed_to}) cover the theorem's bound for period {} and preperiod {}",
            p.period, p.preperiod
        ),
        Some(_) => {
            let why = match seq.summary.values_to_prove {
                Some(k) => format!("the periodicity theorem needs g(0..{k})"),
                None if !seq.game.periodicity_provable() => {
                    format!("no periodicity theorem in Nimatron applies to {}", seq.game)
                }
                None => "the periodicity theorem's bound is not reached".to_string(),
            };
            format!(
                "apparent over g(0..={computed_to}), computed by the sequence engine; not proven: {why}"
            )
        }
        None => format!("no period found over g(0..={computed_to}) by the sequence engine"),
    };
    Explore {
        game: String::new(),
        values,
        values_error: None,
        period: seq.period.map(|p| p.period),
        preperiod: seq.period.map(|p| p.preperiod),
        proven: seq.period.is_some_and(|p| p.proven),
        period_note,
        source: "sequence",
        computed_to,
        heaps: 0,
        max: 0,
        convention: String::new(),
        p_positions: Vec::new(),
        p_positions_error: None,
    }
}

/// The time left of one part of an Explore request. The server's time
/// limit bounds each part in all (the values, and the P-positions table),
/// not each of the up to 1 001 heaps or 286 positions it solves.
struct Deadline {
    limits: Limits,
    end: Option<Instant>,
}

impl Deadline {
    fn start(limits: Limits) -> Deadline {
        Deadline {
            limits,
            end: limits.max_time.map(|t| Instant::now() + t),
        }
    }

    /// The limits of the next solve: the server's positions, and the time
    /// left; `Err` with the reason when none is left.
    fn next(&self, part: &str) -> Result<Limits, String> {
        let Some(end) = self.end else {
            return Ok(self.limits);
        };
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            let ms = self.limits.max_time.unwrap_or_default().as_millis();
            return Err(format!("{part} used the time limit of {ms} ms"));
        }
        Ok(Limits {
            max_time: Some(left),
            ..self.limits
        })
    }
}

fn grundy_values(engine: &Engine, game: &dyn Game, to: u64) -> (Vec<u64>, Option<String>) {
    let deadline = Deadline::start(engine.limits());
    let mut values = Vec::new();
    for n in 0..=to {
        let position = match game.heap_position(&[n]) {
            Ok(p) => p,
            Err(e) => return (values, Some(format!("heap of {n}: {e}"))),
        };
        let limits = match deadline.next("the values") {
            Ok(limits) => limits,
            Err(why) => {
                return (
                    values,
                    Some(format!("stopped before the heap of {n}: {why}")),
                );
            }
        };
        match engine.analyze_within(game, &position, Convention::Normal, limits) {
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
    let deadline = Deadline::start(engine.limits());
    let mut out = Vec::new();
    let mut sizes = vec![0u64; heaps];
    loop {
        let text = heap_text(&sizes);
        let position = game
            .heap_position(&sizes)
            .map_err(|e| format!("position '{text}': {e}"))?;
        let limits = deadline
            .next("the table")
            .map_err(|why| format!("stopped before position '{text}': {why}"))?;
        let outcome = game
            .outcome(&position, convention, limits)
            .map_err(|e| format!("position '{text}': {}", game_error(e).message))?;
        if outcome == Outcome::P {
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
