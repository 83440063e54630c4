//! `nimatron quotient`: the misère quotient of a heap game, as text or JSON.

use std::io::{self, Write};

use nimatron::misere::{MisereQuotient, QuotientError, QuotientLimits, quotient};
use nimatron::sequence::HeapGame;
use serde_json::json;

use crate::args::{QuotientArgs, QuotientGame};
use crate::bad_input;

pub fn run(args: QuotientArgs) -> anyhow::Result<()> {
    let (name, game) = heap_game(&args.spec, args.to)?;
    let limits = QuotientLimits {
        max_order: args.max_order,
        max_states: args.max_states,
        max_time: Some(args.max_seconds),
        interrupt: None,
    };
    let q = quotient(&game, args.to, &limits).map_err(|e| match e {
        e if e.is_bad_input() => bad_input(format!("--to: {e}")),
        QuotientError::OrderLimit { .. } => anyhow::anyhow!("{e}; raise it with --max-order"),
        QuotientError::StateLimit { .. } => anyhow::anyhow!("{e}; raise it with --max-states"),
        QuotientError::TimeLimit { .. } => anyhow::anyhow!("{e}; raise it with --max-seconds"),
        e => anyhow::anyhow!("{e}"),
    })?;
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", to_json(&name, &q))?;
    } else {
        write_text(&mut out, &name, &q)?;
    }
    out.flush()?;
    Ok(())
}

/// The heap game and its name; `nim` is Nim with heaps up to `to` (the
/// code `0.33…3` with `to` digits, whose moves on such heaps are exactly
/// Nim's).
fn heap_game(spec: &QuotientGame, to: u64) -> anyhow::Result<(String, HeapGame)> {
    let game = match spec {
        QuotientGame::Heaps(game) => game,
        QuotientGame::Nim => {
            let game =
                nimatron::misere::nim_up_to(to).map_err(|e| bad_input(format!("--to: {e}")))?;
            return Ok(("nim".into(), game));
        }
    };
    Ok((game.to_string(), game.clone()))
}

fn names(q: &MisereQuotient, ids: impl IntoIterator<Item = usize>) -> Vec<String> {
    ids.into_iter().map(|id| q.element_name(id)).collect()
}

fn to_json(name: &str, q: &MisereQuotient) -> serde_json::Value {
    let generators: Vec<_> = q
        .generators()
        .iter()
        .map(|g| json!({"name": g.name, "heap": g.heap}))
        .collect();
    let growth: Vec<_> = q
        .growth()
        .iter()
        .map(|&(heap, order)| json!({"heap": heap, "order": order}))
        .collect();
    json!({
        "game": name,
        "to": q.to(),
        "computed_to": q.computed_to(),
        "order": q.order(),
        "tame": q.tame(),
        "presentation": q.presentation(),
        "generators": generators,
        "relations": q.relations_text(),
        "elements": names(q, 0..q.order()),
        "p_portion": names(q, q.p_portion()),
        "images": names(q, q.images()[1..].iter().copied()),
        "growth": growth,
        "stable_from": q.stable_from(),
        "period": q.period().map(|p| p.period),
        "preperiod": q.period().map(|p| p.preperiod),
        "proven": q.proven(),
    })
}

fn write_text(out: &mut impl Write, name: &str, q: &MisereQuotient) -> io::Result<()> {
    writeln!(
        out,
        "Misère quotient of {name}, sums of heaps 1 to {}",
        q.to()
    )?;
    writeln!(
        out,
        "Order {}, {}",
        q.order(),
        if q.tame() {
            "tame (it is the quotient of a set of Nim positions)"
        } else {
            "wild (not the quotient of any set of Nim positions)"
        }
    )?;
    writeln!(out, "Presentation: {}", q.presentation())?;
    for g in q.generators() {
        writeln!(out, "  {} = image of heap {}", g.name, g.heap)?;
    }
    writeln!(out, "Elements: {}", names(q, 0..q.order()).join(", "))?;
    writeln!(
        out,
        "P-portion: {{{}}}  (a sum is a P-position when the product of its heaps' images is here)",
        names(q, q.p_portion()).join(", ")
    )?;
    writeln!(out, "Heap images:")?;
    for (n, &id) in q.images().iter().enumerate().skip(1) {
        writeln!(out, "  {n:>5}  {}", q.element_name(id))?;
    }
    let growth: Vec<String> = q
        .growth()
        .iter()
        .map(|&(h, o)| format!("heap {h}: {o}"))
        .collect();
    writeln!(out, "Order as heaps were added: {}", growth.join(", "))?;
    writeln!(
        out,
        "Stable: the presentation has not changed since heap {} (up to heap {}).",
        q.stable_from(),
        q.to()
    )?;
    match q.period() {
        Some(p) => writeln!(
            out,
            "Images: period {} from heap {}{}",
            p.period,
            p.preperiod,
            if q.proven() {
                " (proven for every heap)."
            } else {
                " (observed up to this heap, not proven)."
            }
        )?,
        None => writeln!(out, "Images: no period seen up to heap {}.", q.to())?,
    }
    if q.proven() {
        writeln!(
            out,
            "Proven: this is the misère quotient of every sum of heaps of any size; each heap beyond {} has the same options' images as the heap one period below it.",
            q.computed_to()
        )?;
        if q.computed_to() < q.to() {
            writeln!(
                out,
                "Computed heap by heap to heap {}, where the period was proven; the images of heaps {} to {} follow from it.",
                q.computed_to(),
                q.computed_to() + 1,
                q.to()
            )?;
        }
    } else {
        writeln!(
            out,
            "Proven: this is the exact quotient of the sums of heaps 1 to {} (each step verified); larger heaps may change it.",
            q.to()
        )?;
    }
    Ok(())
}
