//! The API described as an OpenAPI 3.1 document, served at
//! `GET /api/openapi.json`.
//!
//! The document is generated: each handler in [`crate::api`] carries its
//! operation (`#[utoipa::path]`), and the router registers the handlers
//! through that same description, so a route cannot exist without its
//! operation or the other way round. Request and view types derive their
//! schemas; the library's types (a board and its elements, a move,
//! remoteness, the convention, the outcome, Nim's regime, Candy Nim's split,
//! the misère race) bring their own, with the library's `openapi` feature.
//! The test `tests/openapi.rs`
//! validates real replies of every operation, for every catalogue game,
//! against the document.

use std::sync::OnceLock;

use axum::http::HeaderMap;
use axum::response::Response;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::pages::asset;
use super::state::AppState;
use super::{analysis, events, games, seats};

/// The document's fixed parts; the operations come from the router.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Nimatron",
        description = "Play and analyse Nim and other impartial games. \
            Every refusal is a 4xx reply `{\"error\": {\"code\", \"message\"}}`; \
            the codes are listed in docs/api.md.",
        license(name = "MIT OR Apache-2.0")
    ),
    modifiers(&SeatToken)
)]
pub(crate) struct ApiDoc;

/// The seat token that moves need, as a bearer token.
struct SeatToken;

impl Modify for SeatToken {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "seat_token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The token of the seat that moves, from the reply that \
                         created or joined the game.",
                    ))
                    .build(),
            ),
        );
    }
}

/// This API as an OpenAPI 3.1 document.
#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "meta",
    responses((status = 200, description = "The OpenAPI document", body = Object))
)]
async fn openapi_json(headers: HeaderMap) -> Response {
    asset("application/json", document_json().as_bytes(), &headers)
}

/// The API's operations, each registered through its description
/// (`#[utoipa::path]`), so that the router and the OpenAPI document list
/// the same operations. Paths are relative to `/api`.
pub(crate) fn operations() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(games::create_game, games::list_games))
        .routes(routes!(games::get_game))
        .routes(routes!(seats::make_move))
        .routes(routes!(seats::computer_move))
        .routes(routes!(seats::join_game))
        .routes(routes!(seats::undo))
        .routes(routes!(seats::resign))
        .routes(routes!(seats::analysis_consent))
        .routes(routes!(seats::rematch))
        .routes(routes!(analysis::game_analysis))
        .routes(routes!(games::game_position))
        .routes(routes!(games::legal_moves))
        .routes(routes!(events::events))
        .routes(routes!(analysis::analyze))
        .routes(routes!(analysis::explore_handler))
        .routes(routes!(analysis::catalogue))
        .routes(routes!(openapi_json))
}

/// The API's operations under `/api`, with the document they make.
pub(crate) fn documented_operations() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi()).nest("/api", operations())
}

/// The operations on one game that need no seat, each reached with the id
/// of a game a reply names: the game, its analysis, its live updates, its
/// legal moves, and its position at the ply the reply shows.
const GAME_READS: [(&str, &str, &str); 5] = [
    ("the_game", "get_game", "The game."),
    ("its_analysis", "game_analysis", "The game's analysis."),
    ("its_events", "events", "The game's live updates."),
    (
        "its_legal_moves",
        "legal_moves",
        "The legal moves, a page at a time.",
    ),
    (
        "its_position",
        "game_position",
        "The position at this ply, drawn.",
    ),
];

/// A link (OpenAPI 3.1 § Link Object) to the operation `target`, with the
/// values of its path parameters. utoipa 5.5 writes a `Link`'s own
/// `operation_id` in snake case, which no OpenAPI reader knows, so it is
/// written through the link's extensions, which are flattened into the
/// object under the name given.
fn link(
    target: &str,
    parameters: &[(&str, String)],
    description: &str,
) -> utoipa::openapi::link::Link {
    let mut fields = utoipa::openapi::extensions::Extensions::default();
    fields.insert("operationId".to_string(), target.into());
    let mut link = utoipa::openapi::link::LinkBuilder::new()
        .description(description)
        .extensions(Some(fields));
    for (name, value) in parameters {
        link = link.parameter(*name, value.as_str());
    }
    link.build()
}

/// Links from each reply that names a game to the operations on it, so
/// that a client, or a tester such as schemathesis's stateful phase,
/// follows real ids. Each source is an operation, its status, and the JSON
/// pointer of the game view in its reply (whose `id` and `ply` the links
/// take). The list of games links to its first game. (Joining is left
/// out: only an online game's reply has the invite code it needs.)
fn add_links(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::RefOr;
    let sources: [(&str, &str, &str); 9] = [
        ("create_game", "201", "/game"),
        ("make_move", "200", "/game"),
        ("computer_move", "200", "/game"),
        ("join_game", "200", "/game"),
        ("undo", "200", "/game"),
        ("resign", "200", ""),
        ("analysis_consent", "200", ""),
        ("rematch", "201", "/rematch/game"),
        ("get_game", "200", ""),
    ];
    for item in doc.paths.paths.values_mut() {
        for op in [item.get.as_mut(), item.post.as_mut()]
            .into_iter()
            .flatten()
        {
            let Some(source) = op.operation_id.clone() else {
                continue;
            };
            let mut links = Vec::new();
            if let Some((_, status, game)) = sources.iter().find(|s| s.0 == source) {
                for (name, target, what) in GAME_READS {
                    if target == source {
                        continue;
                    }
                    let mut parameters = vec![("id", format!("$response.body#{game}/id"))];
                    if target == "game_position" {
                        parameters.push(("ply", format!("$response.body#{game}/ply")));
                    }
                    links.push((*status, name, link(target, &parameters, what)));
                }
            }
            if source == "list_games" {
                let id = ("id", "$response.body#/games/0/id".to_string());
                let text = "The first game of the page.";
                links.push(("200", "first_game", link("get_game", &[id], text)));
            }
            for (status, name, link) in links {
                let Some(RefOr::T(reply)) = op.responses.responses.get_mut(status) else {
                    panic!("{source} has no {status} reply to link from");
                };
                reply.links.insert(name.to_string(), link.into());
            }
        }
    }
}

/// The whole document: the fixed parts and every operation of the router.
pub fn document() -> utoipa::openapi::OpenApi {
    let mut doc = documented_operations().into_openapi();
    add_links(&mut doc);
    // These bodies may be left out (they are then `{}`).
    for item in doc.paths.paths.values_mut() {
        if let Some(op) = item.post.as_mut()
            && matches!(
                op.operation_id.as_deref(),
                Some("create_game" | "computer_move" | "undo" | "resign" | "rematch")
            )
            && let Some(body) = op.request_body.as_mut()
        {
            body.required = Some(utoipa::openapi::Required::False);
        }
    }
    // A new game's fields that go together: a position or a random start,
    // not both; a level only against the computer (the opponent by
    // default). Each rule is "this field absent or null, or that one
    // absent or taking these values", which `properties` says (it checks
    // only the fields present).
    if let Some(components) = doc.components.as_mut()
        && let Some(new_game) = components.schemas.remove("NewGame")
    {
        use utoipa::openapi::schema::{AllOfBuilder, AnyOfBuilder, ObjectBuilder, Type};
        let field = |name: &str, schema: ObjectBuilder| ObjectBuilder::new().property(name, schema);
        let null = || ObjectBuilder::new().schema_type(Type::Null);
        let either = |a: ObjectBuilder, b: ObjectBuilder| AnyOfBuilder::new().item(a).item(b);
        let rules = AllOfBuilder::new()
            .item(new_game)
            .item(either(
                field("position", null()),
                field(
                    "random",
                    ObjectBuilder::new().enum_values(Some([serde_json::Value::Bool(false)])),
                ),
            ))
            .item(either(
                field("level", null()),
                field(
                    "opponent",
                    ObjectBuilder::new().enum_values(Some([
                        serde_json::json!("computer"),
                        serde_json::Value::Null,
                    ])),
                ),
            ));
        components
            .schemas
            .insert("NewGame".to_string(), rules.into());
    }
    // What any operation may answer before its handler runs (the checks
    // of `site.rs` and `limits.rs`).
    let error = super::responses::error;
    for item in doc.paths.paths.values_mut() {
        let ops = [(false, item.get.as_mut()), (true, item.post.as_mut())];
        for (post, op) in ops {
            let Some(op) = op else { continue };
            let responses = &mut op.responses.responses;
            let mut add = |status: &str, text: &str| {
                responses
                    .entry(status.to_string())
                    .or_insert_with(|| error(text).into());
            };
            add("403", "A page of another site sent it (`foreign_origin`)");
            add("421", "The `Host` is not this server's (`wrong_host`)");
            add(
                "429",
                "This client has its share of requests in flight (`too_many_requests`); see `Retry-After`",
            );
            add(
                "500",
                "A fault of the server (`internal`): the message gives an id that is in the server's log",
            );
            if post {
                add(
                    "415",
                    "A body that is not `application/json` (`unsupported_media_type`)",
                );
            }
        }
    }
    doc
}

/// The document as JSON, made once.
pub(crate) fn document_json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        document()
            .to_json()
            .expect("the OpenAPI document serialises")
    })
}
