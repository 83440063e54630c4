//! OpenAPI schemas (the `openapi` feature) of the types whose JSON is
//! written by hand in `analysis.rs` (its `json` module): a position as
//! data, remoteness, a move, the convention, the outcome, Nim's regime,
//! Candy Nim's split and the misère race. Each says what that `Serialize`
//! writes, field by field, and names take their values from the functions
//! that write them; the board's types derive theirs (`geometry.rs`).

use std::borrow::Cow;

use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use crate::analysis::json::regime_name;
use crate::analysis::{
    MisereRace, MoveInfo, PositionValue, RaceMethod, RaceRun, RaceStatus, Remoteness,
};
use crate::games::candy::CandySplit;
use crate::geometry::{Element, Trace};
use crate::nim::Regime;
use crate::{Convention, Outcome};

/// A schema, as the document lists it.
type Listed = (String, RefOr<Schema>);

fn described(schema: RefOr<Schema>, text: &str) -> RefOr<Schema> {
    match schema {
        RefOr::T(Schema::Object(mut o)) => {
            o.description = Some(text.to_string());
            RefOr::T(Schema::Object(o))
        }
        other => other,
    }
}

fn uint(text: &str) -> RefOr<Schema> {
    described(<u64 as PartialSchema>::schema(), text)
}

fn text(text: &str) -> RefOr<Schema> {
    described(<String as PartialSchema>::schema(), text)
}

/// `T` or null.
fn nullable(schema: RefOr<Schema>, text: &str) -> RefOr<Schema> {
    OneOfBuilder::new()
        .item(schema)
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .description(Some(text))
        .into()
}

/// A reference to `T`'s schema, described.
fn described_ref<T: ToSchema>(text: &str) -> RefOr<Schema> {
    let mut r = Ref::from_schema_name(T::name());
    r.description = text.to_string();
    r.into()
}

/// A string that is one of `names`.
fn one_of_names<'a>(names: impl IntoIterator<Item = &'a str>, text: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(names))
        .description(Some(text))
        .into()
}

fn list<T: ToSchema>(schemas: &mut Vec<Listed>) {
    schemas.push((T::name().into_owned(), T::schema()));
    T::schemas(schemas);
}

impl PartialSchema for PositionValue {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(ArrayBuilder::new().items(<u64 as PartialSchema>::schema()))
            .item(<String as PartialSchema>::schema())
            .description(Some(
                "A position as data: heap sizes for heap games, else the game's canonical text.",
            ))
            .into()
    }
}

impl ToSchema for PositionValue {}

impl PartialSchema for Remoteness {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .description(Some(
                "Moves left under perfect play, the winner hurrying and the loser delaying.",
            ))
            .property("moves", uint("The number of moves (exact, or a bound)."))
            .required("moves")
            .property(
                "exact",
                described(
                    <bool as PartialSchema>::schema(),
                    "Whether the number is exact (else it is an upper bound).",
                ),
            )
            .required("exact")
            .into()
    }
}

impl ToSchema for Remoteness {}

impl PartialSchema for MoveInfo {
    fn schema() -> RefOr<Schema> {
        let elements = || ArrayBuilder::new().items(Ref::from_schema_name(Element::name()));
        let mut o = ObjectBuilder::new()
            .description(Some(
                "A legal move (MOVE in docs/api.md). `heap` and `take` come together, in heap \
                 games only; `value`, `remoteness` and `value_text` together, in analyses.",
            ))
            .property(
                "heap",
                nullable(
                    uint("Heap games: the 0-based heap."),
                    "Heap games: the 0-based heap, or null for a move that changes several heaps.",
                ),
            )
            .property(
                "take",
                uint("Heap games: the objects removed (in all, for a move that changes several)."),
            )
            .property("to", Ref::from_schema_name(PositionValue::name()))
            .property(
                "to_text",
                text("The position after the move, canonical text."),
            )
            .property("text", text("The move in words."))
            .property(
                "move",
                text("The move in the game's notation, as `POST /api/games/{id}/moves` takes it."),
            )
            .property("notation", text("The same as `move`."))
            .property(
                "touches",
                elements().description(Some("The board elements the move acts on.")),
            )
            .property(
                "also_touches",
                ArrayBuilder::new().items(elements()).description(Some(
                    "Other element sets that make the same move (its mirror image in a row); \
                     absent when there are none.",
                )),
            )
            .property("trace", Ref::from_schema_name(Trace::name()))
            .property(
                "value",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some(["winning", "losing"]))
                    .description(Some("In analyses: whether the move wins.")),
            )
            .property(
                "remoteness",
                nullable(
                    Ref::from_schema_name(Remoteness::name()).into(),
                    "In analyses: moves to the end if this one is played, counting it; null \
                     where unknown.",
                ),
            )
            .property(
                "value_text",
                text("In analyses: the value in words, e.g. `wins in 3`."),
            );
        for field in [
            "to", "to_text", "text", "move", "notation", "touches", "trace",
        ] {
            o = o.required(field);
        }
        o.into()
    }
}

impl ToSchema for MoveInfo {
    fn name() -> Cow<'static, str> {
        "Move".into()
    }

    fn schemas(schemas: &mut Vec<Listed>) {
        list::<PositionValue>(schemas);
        list::<Remoteness>(schemas);
        list::<Element>(schemas);
        list::<Trace>(schemas);
    }
}

// The named values below list every variant: each list is beside a match
// that stops compiling when a variant is added and not listed.

impl Convention {
    const ALL: [Convention; 2] = [Convention::Normal, Convention::Misere];
}

impl PartialSchema for Convention {
    fn schema() -> RefOr<Schema> {
        let _listed = |c: Convention| match c {
            Convention::Normal | Convention::Misere => (),
        };
        one_of_names(
            Convention::ALL.map(Convention::name),
            "Who wins when no move is left: `normal`, the player who makes the last move; \
             `misere`, the other.",
        )
    }
}

impl ToSchema for Convention {}

impl PartialSchema for Outcome {
    fn schema() -> RefOr<Schema> {
        let _listed = |o: Outcome| match o {
            Outcome::N | Outcome::P => (),
        };
        one_of_names(
            [Outcome::N, Outcome::P].map(Outcome::name),
            "`N` when the player to move wins with perfect play, `P` when they lose.",
        )
    }
}

impl ToSchema for Outcome {}

impl PartialSchema for Regime {
    fn schema() -> RefOr<Schema> {
        let _listed = |r: Regime| match r {
            Regime::Bouton | Regime::MisereEndgame | Regime::MisereOnesOnly => (),
        };
        one_of_names(
            [
                Regime::Bouton,
                Regime::MisereEndgame,
                Regime::MisereOnesOnly,
            ]
            .map(regime_name),
            "Which rule decides Nim: `bouton` (the nim-sum; normal play, or misère with two \
             heaps over 1), `misere-endgame` (misère with one heap over 1), \
             `misere-ones-only` (misère with heaps of one object only).",
        )
    }
}

impl ToSchema for Regime {}

impl PartialSchema for CandySplit {
    fn schema() -> RefOr<Schema> {
        let mut o = ObjectBuilder::new()
            .description(Some("Candy Nim: how the candies split under perfect play."))
            .property(
                "winner",
                one_of_names(
                    [true, false].map(CandySplit::winner_name),
                    "Who takes the last candy.",
                ),
            )
            .property(
                "winner_candies",
                uint("Candies the winner collects from here on."),
            )
            .property(
                "loser_candies",
                uint("Candies the loser collects from here on."),
            )
            .property(
                "mover_candies",
                uint("Candies the player to move collects."),
            )
            .property(
                "opponent_candies",
                uint("Candies the other player collects."),
            )
            .property(
                "best_moves",
                ArrayBuilder::new()
                    .items(<String as PartialSchema>::schema())
                    .description(Some(
                        "The moves that achieve the split, in the game's notation (e.g. `A 3`).",
                    )),
            );
        for field in [
            "winner",
            "winner_candies",
            "loser_candies",
            "mover_candies",
            "opponent_candies",
            "best_moves",
        ] {
            o = o.required(field);
        }
        o.into()
    }
}

impl ToSchema for CandySplit {}

impl RaceMethod {
    const ALL: [RaceMethod; 2] = [RaceMethod::Quotient, RaceMethod::Search];
}

impl PartialSchema for RaceMethod {
    fn schema() -> RefOr<Schema> {
        let _listed = |m: RaceMethod| match m {
            RaceMethod::Quotient | RaceMethod::Search => (),
        };
        one_of_names(
            RaceMethod::ALL.map(RaceMethod::name),
            "`quotient` (the misère quotient) or `search` (plain search).",
        )
    }
}

impl ToSchema for RaceMethod {}

impl PartialSchema for RaceStatus {
    fn schema() -> RefOr<Schema> {
        let _listed = |s: RaceStatus| match s {
            RaceStatus::Answered
            | RaceStatus::Kept
            | RaceStatus::Unfinished
            | RaceStatus::Stopped
            | RaceStatus::NotRun => (),
        };
        one_of_names(
            [
                RaceStatus::Answered,
                RaceStatus::Kept,
                RaceStatus::Unfinished,
                RaceStatus::Stopped,
                RaceStatus::NotRun,
            ]
            .map(RaceStatus::name),
            "How a method of a misère race fared: `answered`; `kept` (answered at once from \
             the quotient kept from earlier positions); `unfinished` (still working when the \
             other answered); `stopped` (at a limit, or it cannot reach these heaps); \
             `not_run`.",
        )
    }
}

impl ToSchema for RaceStatus {}

impl PartialSchema for RaceRun {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .description(Some("What one method of a misère race did."))
            .property("status", described_ref::<RaceStatus>("How it fared."))
            .required("status")
            .property(
                "seconds",
                described(<f64 as PartialSchema>::schema(), "The time it had."),
            )
            .required("seconds")
            .property(
                "states",
                uint("For the search: the positions it stored (absent for the quotient)."),
            )
            .property("note", text("Why, in words."))
            .required("note")
            .into()
    }
}

impl ToSchema for RaceRun {
    fn schemas(schemas: &mut Vec<Listed>) {
        list::<RaceStatus>(schemas);
    }
}

impl PartialSchema for MisereRace {
    fn schema() -> RefOr<Schema> {
        let mut o = ObjectBuilder::new()
            .description(Some(
                "How misère play of a heap game was settled: its misère quotient and a plain \
                 search share one budget, and the first to prove the answer gives it.",
            ))
            .property(
                "answered_by",
                described_ref::<RaceMethod>("The method that answered."),
            )
            .property(
                "quotient",
                described_ref::<RaceRun>("What the misère quotient did."),
            )
            .property("search", described_ref::<RaceRun>("What the search did."))
            .property(
                "quotient_heaps",
                uint("The game's misère quotient is now verified for heaps 1 to this."),
            )
            .property("quotient_order", uint("Its order (elements)."))
            .property(
                "quotient_proven",
                described(
                    <bool as PartialSchema>::schema(),
                    "Whether its heap images are proven periodic (it covers every heap).",
                ),
            )
            .property("text", text("The race in a sentence or two."));
        for field in [
            "answered_by",
            "quotient",
            "search",
            "quotient_heaps",
            "quotient_order",
            "quotient_proven",
            "text",
        ] {
            o = o.required(field);
        }
        o.into()
    }
}

impl ToSchema for MisereRace {
    fn schemas(schemas: &mut Vec<Listed>) {
        list::<RaceMethod>(schemas);
        list::<RaceRun>(schemas);
    }
}
