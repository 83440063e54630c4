//! OpenAPI schemas (the `openapi` feature) of the types whose JSON is
//! written by hand in `analysis.rs` (its `json` module): a position as
//! data, remoteness, a move. Each says what that `Serialize` writes, field
//! by field; the board's types derive theirs (`geometry.rs`).

use std::borrow::Cow;

use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use crate::analysis::{MoveInfo, PositionValue, Remoteness};
use crate::geometry::{Element, Trace};

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
