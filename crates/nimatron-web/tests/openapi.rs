//! The OpenAPI document at `/api/openapi.json` against the router and the
//! replies it really sends: every route is an operation and every operation
//! a route; docs/api.md lists the same endpoints; and the replies of every
//! operation, for every catalogue game and several positions, match the
//! document (status, content type and body), with every object in it
//! closed to fields it does not list.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use axum::body::Body;
use axum::http::{Request, header};
use common::{concrete, fresh_db};
use futures_util::StreamExt;
use nimatron::GameSpec;
use nimatron::TextGame;
use serde_json::{Map, Value, json};
use tower::ServiceExt;

/// Methods the probes try on every path.
const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// An id no game has (16 hex digits, as ids are).
const NO_GAME: &str = "0123456789abcdef";

/// The router in process, the document it serves, and a validator per
/// documented reply.
struct Checker {
    router: axum::Router,
    doc: Value,
    /// The document's schemas, each object closed to unlisted fields.
    closed_components: Value,
    validators: HashMap<(String, String, u16), jsonschema::Validator>,
    /// Each (method, path, status) seen, and how often.
    seen: BTreeMap<(String, String, u16), usize>,
    _stop: tokio::sync::watch::Sender<bool>,
}

/// A reply: status, and its JSON (for an event stream, the first event's
/// data).
struct Reply {
    status: u16,
    body: Value,
}

/// Close every object schema (one with `properties`) to the fields it
/// lists, unless it says otherwise.
fn close_objects(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                map.insert("additionalProperties".into(), Value::Bool(false));
            }
            for v in map.values_mut() {
                close_objects(v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(close_objects),
        _ => {}
    }
}

/// The documented path template that `path` (without its query) matches.
fn template_of<'d>(doc: &'d Value, path: &str) -> Option<&'d str> {
    let path = path.split('?').next().unwrap_or(path);
    let parts: Vec<&str> = path.split('/').collect();
    doc["paths"]
        .as_object()?
        .keys()
        .find(|template| {
            let t: Vec<&str> = template.split('/').collect();
            t.len() == parts.len()
                && t.iter()
                    .zip(&parts)
                    .all(|(t, p)| (t.starts_with('{') && t.ends_with('}')) || t == p)
        })
        .map(String::as_str)
}

impl Checker {
    async fn new(name: &str) -> Checker {
        let config = nimatron_web::Config::new(fresh_db(name));
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let router = nimatron_web::app(&config, stopped).expect("app");
        let mut checker = Checker {
            router,
            doc: Value::Null,
            closed_components: Value::Null,
            validators: HashMap::new(),
            seen: BTreeMap::new(),
            _stop: stop,
        };
        // The document as served, which is also checked as a reply.
        let served = checker.raw("GET", "/api/openapi.json", None, None).await;
        assert_eq!(served.0, 200);
        if let Ok(path) = std::env::var("NIMATRON_OPENAPI_OUT") {
            std::fs::write(path, &served.2).unwrap();
        }
        let doc: Value = serde_json::from_slice(&served.2).expect("the document is JSON");
        assert_eq!(
            doc,
            serde_json::to_value(nimatron_web::openapi::document()).unwrap()
        );
        let mut components = doc["components"].clone();
        close_objects(&mut components);
        checker.doc = doc;
        checker.closed_components = components;
        checker.call("GET", "/api/openapi.json", None, None).await;
        checker
    }

    /// Send one request; the status, content type and body.
    async fn raw(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> (u16, String, Vec<u8>) {
        let mut request = Request::builder().method(method).uri(path);
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let request = match body {
            Some(body) => request
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string())),
            None => request.body(Body::empty()),
        }
        .unwrap();
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        let bytes = if content_type.starts_with("text/event-stream") {
            // An endless stream: read its first event only.
            let mut stream = response.into_body().into_data_stream();
            let mut bytes = Vec::new();
            while !bytes.ends_with(b"\n\n") {
                let chunk = stream.next().await.expect("an event").expect("a chunk");
                bytes.extend_from_slice(&chunk);
            }
            bytes
        } else {
            axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .unwrap()
                .to_vec()
        };
        (status, content_type, bytes)
    }

    /// The validator of a documented schema.
    fn validator(&mut self, key: (String, String, u16), schema: &Value) -> &jsonschema::Validator {
        let components = &self.closed_components;
        self.validators.entry(key).or_insert_with(|| {
            let mut root = match schema {
                Value::Object(map) => map.clone(),
                other => panic!("not a schema: {other}"),
            };
            root.insert("components".into(), components.clone());
            let mut schema = Value::Object(root);
            close_objects(&mut schema);
            jsonschema::draft202012::new(&schema).expect("a valid schema")
        })
    }

    /// Send a request and check the reply against the document; its JSON.
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> Reply {
        let (status, content_type, bytes) = self.raw(method, path, token, body).await;
        let template = template_of(&self.doc, path)
            .unwrap_or_else(|| panic!("{method} {path}: no such path in the document"))
            .to_string();
        let operation = &self.doc["paths"][&template][method.to_ascii_lowercase()];
        assert!(
            operation.is_object(),
            "{method} {path}: no such operation in the document"
        );
        let text = String::from_utf8_lossy(&bytes).to_string();
        let documented = &operation["responses"][status.to_string()];
        assert!(
            documented.is_object(),
            "{method} {path}: status {status} is not documented: {text}"
        );
        let content = documented["content"].as_object().expect("content");
        let (media_type, media) = content
            .iter()
            .find(|(media_type, _)| content_type.starts_with(media_type.as_str()))
            .unwrap_or_else(|| {
                panic!("{method} {path}: {status} with undocumented content type '{content_type}'")
            });
        let media_type = media_type.clone();
        let media_schema = media["schema"].clone();
        let (schema, value) = if media_type == "text/event-stream" {
            // The first event, as schemathesis reads one: its fields.
            let mut event = Map::new();
            for line in text.lines() {
                if let Some((field, value)) = line.split_once(": ") {
                    event.insert(field.to_string(), Value::String(value.to_string()));
                }
            }
            // Its data is a game view.
            let data = event["data"].as_str().expect("the event has data");
            let game: Value = serde_json::from_str(data).expect("the event's data is JSON");
            let key = ("GET".to_string(), "GameView".to_string(), status);
            let game_view = json!({"$ref": "#/components/schemas/GameView"});
            let validator = self.validator(key, &game_view);
            let errors: Vec<String> = validator
                .iter_errors(&game)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{path}: the event's game: {errors:?}");
            (media_schema, Value::Object(event))
        } else {
            (
                media_schema,
                serde_json::from_slice::<Value>(&bytes)
                    .unwrap_or_else(|e| panic!("{method} {path}: {status} not JSON ({e}): {text}")),
            )
        };
        let key = (method.to_string(), template.clone(), status);
        let validator = self.validator(key.clone(), &schema);
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{method} {path} {status}: the reply does not match the document:\n{}\n{value:#}",
            errors.join("\n")
        );
        *self.seen.entry(key).or_default() += 1;
        Reply {
            status,
            body: value,
        }
    }

    /// Every documented (method, path).
    fn operations(&self) -> BTreeSet<(String, String)> {
        let mut ops = BTreeSet::new();
        for (path, item) in self.doc["paths"].as_object().unwrap() {
            for method in item.as_object().unwrap().keys() {
                if METHODS.contains(&method.to_ascii_uppercase().as_str()) {
                    ops.insert((method.to_ascii_uppercase(), path.clone()));
                }
            }
        }
        ops
    }
}

fn with_id(template: &str, id: &str) -> String {
    template.replace("{id}", id)
}

#[tokio::test]
async fn every_operation_is_a_route_and_every_api_route_an_operation() {
    let mut checker = Checker::new("openapi-routes").await;
    let ops = checker.operations();
    assert!(ops.len() >= 11, "{ops:?}");
    let paths: BTreeSet<&String> = ops.iter().map(|(_, p)| p).collect();
    for path in paths {
        let concrete_path = with_id(path, NO_GAME);
        for method in METHODS {
            let documented = ops.contains(&(method.to_string(), path.clone()));
            let (status, _, bytes) = checker.raw(method, &concrete_path, None, None).await;
            let reply: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            let code = reply["error"]["code"].as_str().unwrap_or("");
            if documented {
                assert!(
                    code != "not_found" && code != "method_not_allowed",
                    "{method} {path} is documented but not routed: {status} {reply}"
                );
                checker.call(method, &concrete_path, None, None).await;
            } else {
                assert_eq!(
                    (status, code),
                    (405, "method_not_allowed"),
                    "{method} {path} is routed but not documented"
                );
            }
        }
    }
    // The check itself refuses a field the document does not list.
    let (_, _, bytes) = checker.raw("GET", "/api/catalogue", None, None).await;
    let mut catalogue: Value = serde_json::from_slice(&bytes).unwrap();
    catalogue["games"][0]["surprise"] = json!(1);
    let key = ("GET".to_string(), "/api/catalogue".to_string(), 200);
    let schema = checker.doc["paths"]["/api/catalogue"]["get"]["responses"]["200"]["content"]
        ["application/json"]["schema"]
        .clone();
    assert!(!checker.validator(key, &schema).is_valid(&catalogue));
    // Every error reply of the document is the one error shape.
    for (path, item) in checker.doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            for (status, reply) in operation["responses"].as_object().unwrap() {
                if status.starts_with('4') {
                    assert_eq!(
                        reply["content"]["application/json"]["schema"],
                        json!({"$ref": "#/components/schemas/Error"}),
                        "{method} {path} {status}"
                    );
                }
            }
        }
    }
}

/// The endpoints docs/api.md describes in its headings: `### \`GET /api/...\``.
fn endpoints_in_the_guide() -> BTreeSet<(String, String)> {
    let guide = include_str!("../../../docs/api.md");
    guide
        .lines()
        .filter_map(|line| line.strip_prefix("### `"))
        .filter_map(|rest| {
            let (method, rest) = rest.split_once(' ')?;
            let path = rest.split(['`', '?']).next()?;
            METHODS
                .contains(&method)
                .then(|| (method.to_string(), path.to_string()))
        })
        .collect()
}

#[tokio::test]
async fn the_guide_and_the_document_list_the_same_endpoints() {
    let checker = Checker::new("openapi-guide").await;
    assert_eq!(endpoints_in_the_guide(), checker.operations());
}

/// A reply's status must be one of `expected`.
fn expect(reply: &Reply, expected: &[u16], what: &str) {
    assert!(
        expected.contains(&reply.status),
        "{what}: {} {}",
        reply.status,
        reply.body
    );
}

#[tokio::test]
async fn every_reply_matches_the_document() {
    let mut c = Checker::new("openapi-replies").await;
    expect(
        &c.call("GET", "/api/catalogue", None, None).await,
        &[200],
        "catalogue",
    );
    for entry in GameSpec::CATALOGUE {
        let spec_text = concrete(entry.syntax);
        let game = spec_text.parse::<GameSpec>().unwrap().build().unwrap();
        let start = game
            .start_position()
            .unwrap_or_else(|| game.description().example.to_string());
        for convention in game.conventions() {
            let convention = convention.name();
            let analyze = json!({"game": spec_text, "position": start, "convention": convention});
            let r = c
                .call("POST", "/api/analyze", None, Some(&analyze.to_string()))
                .await;
            expect(&r, &[200, 422], spec_text);
        }
        // A game against the computer, a few moves into it.
        let convention = game.conventions()[0].name();
        let create = json!({"game": spec_text, "position": start, "convention": convention});
        let r = c
            .call("POST", "/api/games", None, Some(&create.to_string()))
            .await;
        expect(&r, &[201], spec_text);
        let id = r.body["game"]["id"].as_str().unwrap().to_string();
        let token = r.body["token"].as_str().unwrap().to_string();
        let mut game_view = r.body["game"].clone();
        for _ in 0..3 {
            let path = format!("/api/games/{id}/analysis");
            expect(&c.call("GET", &path, None, None).await, &[200, 422], &path);
            let analyze = json!({"game": spec_text, "position": game_view["position"], "convention": convention});
            let r = c
                .call("POST", "/api/analyze", None, Some(&analyze.to_string()))
                .await;
            expect(&r, &[200, 422], spec_text);
            if game_view["status"] != "playing" {
                break;
            }
            let mv = game_view["legal_moves"][0]["notation"].clone();
            let body = json!({"move": mv, "ply": game_view["ply"]}).to_string();
            let path = format!("/api/games/{id}/moves");
            let r = c.call("POST", &path, Some(&token), Some(&body)).await;
            expect(&r, &[200], &path);
            game_view = r.body["game"].clone();
        }
        // Every position of the record, drawn, and one past its end.
        let plies = game_view["ply"].as_u64().unwrap();
        for ply in 0..=plies {
            let path = format!("/api/games/{id}/positions/{ply}");
            expect(&c.call("GET", &path, None, None).await, &[200], &path);
        }
        let path = format!("/api/games/{id}/positions/{}", plies + 1);
        expect(&c.call("GET", &path, None, None).await, &[404], &path);
        let path = format!("/api/games/{id}/positions/first");
        expect(&c.call("GET", &path, None, None).await, &[400], &path);
        let path = format!("/api/games/{id}");
        expect(&c.call("GET", &path, None, None).await, &[200], &path);
        // The legal moves, a page at a time, and a page past their end.
        for query in ["", "?offset=1&limit=2", "?offset=100000"] {
            let path = format!("/api/games/{id}/legal-moves{query}");
            expect(&c.call("GET", &path, None, None).await, &[200], &path);
        }
        let path = format!("/api/games/{id}/legal-moves?limit=0");
        expect(&c.call("GET", &path, None, None).await, &[400], &path);
        let path = format!("/api/games/{id}/events");
        expect(&c.call("GET", &path, None, None).await, &[200], &path);
        if entry.syntax != "nim"
            && game
                .start()
                .is_some_and(|p| game.value(&p).is_ok_and(|v| v.heaps().is_some()))
        {
            let path = format!("/api/explore?game={spec_text}&to=20&heaps=2&max=6");
            expect(&c.call("GET", &path, None, None).await, &[200, 422], &path);
        }
    }
    // Explore, Nim and a refusal.
    for path in [
        "/api/explore",
        "/api/explore?game=kayles&to=30&heaps=3&max=5&convention=misere",
        "/api/explore?game=chomp:3x4",
        "/api/explore?to=100000",
        "/api/explore?surprise=1",
    ] {
        c.call("GET", path, None, None).await;
    }

    // Online games: the invite, the second seat, turns and refusals.
    let r = c
        .call(
            "POST",
            "/api/games",
            None,
            Some(r#"{"opponent":"online","position":"1 2"}"#),
        )
        .await;
    expect(&r, &[201], "online");
    let id = r.body["game"]["id"].as_str().unwrap().to_string();
    let token0 = r.body["token"].as_str().unwrap().to_string();
    let invite = r.body["invite"].as_str().unwrap().to_string();
    let moves = format!("/api/games/{id}/moves");
    let join = format!("/api/games/{id}/join");
    let waiting = c
        .call("POST", &moves, Some(&token0), Some(r#"{"move":"A 1"}"#))
        .await;
    expect(&waiting, &[409], "waiting");
    let wrong = c
        .call("POST", &join, None, Some(r#"{"invite":"nope"}"#))
        .await;
    expect(&wrong, &[403], "wrong invite");
    let body = json!({ "invite": invite }).to_string();
    let joined = c.call("POST", &join, None, Some(&body)).await;
    expect(&joined, &[200], "join");
    let token1 = joined.body["token"].as_str().unwrap().to_string();
    expect(
        &c.call("POST", &join, None, Some(&body)).await,
        &[409],
        "joined twice",
    );
    expect(
        &c.call("POST", &moves, Some(&token1), Some(r#"{"move":"A 1"}"#))
            .await,
        &[409],
        "not your turn",
    );
    expect(
        &c.call("POST", &moves, Some(&token0), Some(r#"{"move":"A 9"}"#))
            .await,
        &[422],
        "illegal",
    );
    expect(
        &c.call(
            "POST",
            &moves,
            Some(&token0),
            Some(r#"{"move":"A 1","ply":7}"#),
        )
        .await,
        &[409],
        "stale",
    );
    expect(
        &c.call("POST", &moves, None, Some(r#"{"move":"A 1"}"#))
            .await,
        &[401],
        "no token",
    );
    expect(
        &c.call("POST", &moves, Some("0000"), Some(r#"{"move":"A 1"}"#))
            .await,
        &[403],
        "wrong token",
    );
    // The analysis is shown only when both seats agree.
    let consent = format!("/api/games/{id}/analysis-consent");
    let analysis = format!("/api/games/{id}/analysis");
    expect(
        &c.call("GET", &analysis, None, None).await,
        &[403],
        "analysis",
    );
    let agree = r#"{"agree":true}"#;
    expect(
        &c.call("POST", &consent, Some(&token0), Some(agree)).await,
        &[200],
        "agree",
    );
    expect(
        &c.call("GET", &analysis, None, None).await,
        &[403],
        "one agreed",
    );
    expect(
        &c.call("POST", &consent, Some(&token1), Some(agree)).await,
        &[200],
        "agree",
    );
    expect(
        &c.call("GET", &analysis, None, None).await,
        &[200],
        "agreed",
    );
    expect(
        &c.call("POST", &consent, None, Some(agree)).await,
        &[401],
        "consent without a token",
    );
    let undo = format!("/api/games/{id}/undo");
    let resign = format!("/api/games/{id}/resign");
    let rematch = format!("/api/games/{id}/rematch");
    expect(
        &c.call("POST", &undo, Some(&token0), None).await,
        &[409],
        "no take-backs online",
    );
    expect(
        &c.call("POST", &rematch, Some(&token0), None).await,
        &[409],
        "rematch before the end",
    );
    expect(
        &c.call("POST", &moves, Some(&token0), Some(r#"{"move":"B 2"}"#))
            .await,
        &[200],
        "move",
    );
    expect(
        &c.call("POST", &moves, Some(&token1), Some(r#"{"move":"A 1"}"#))
            .await,
        &[200],
        "last move",
    );
    expect(
        &c.call("POST", &moves, Some(&token0), Some(r#"{"move":"A 1"}"#))
            .await,
        &[409],
        "over",
    );
    let analysis = c
        .call("GET", &format!("/api/games/{id}/analysis"), None, None)
        .await;
    assert!(analysis.body["current"].is_null());
    expect(
        &c.call("POST", &format!("/api/games/{id}/join"), None, Some(&body))
            .await,
        &[409],
        "join a finished game",
    );
    expect(
        &c.call("POST", &resign, Some(&token0), Some("{}")).await,
        &[409],
        "resign a finished game",
    );
    expect(
        &c.call("POST", &rematch, Some(&token1), None).await,
        &[202],
        "rematch offered",
    );
    let made = c.call("POST", &rematch, Some(&token0), Some("{}")).await;
    expect(&made, &[201], "rematch made");
    expect(
        &c.call("POST", &rematch, Some(&token1), None).await,
        &[200],
        "rematch asked again",
    );
    let again = made.body["rematch"]["game"]["id"].as_str().unwrap();
    let resign_again = format!("/api/games/{again}/resign");
    expect(
        &c.call("POST", &resign_again, Some(&token1), Some(r#"{"ply":0}"#))
            .await,
        &[200],
        "resign",
    );

    // Local games, and malformed requests.
    let local = c
        .call(
            "POST",
            "/api/games",
            None,
            Some(r#"{"opponent":"local","random":true}"#),
        )
        .await;
    expect(&local, &[201], "local");
    let local_id = local.body["game"]["id"].as_str().unwrap();
    let local_token = local.body["token"].as_str().unwrap();
    let mv = local.body["game"]["legal_moves"][0]["notation"].clone();
    let local_moves = format!("/api/games/{local_id}/moves");
    let body = json!({ "move": mv }).to_string();
    let r = c
        .call("POST", &local_moves, Some(local_token), Some(&body))
        .await;
    expect(&r, &[200], "local move");
    // The computer's move asked for on its own, and the games of this
    // browser listed by id.
    let r = c
        .call("POST", "/api/games", None, Some(r#"{"position":"3 4 5"}"#))
        .await;
    expect(&r, &[201], "computer game");
    let computer_id = r.body["game"]["id"].as_str().unwrap().to_string();
    let computer_token = r.body["token"].as_str().unwrap().to_string();
    let r = c
        .call(
            "POST",
            &format!("/api/games/{computer_id}/moves"),
            Some(&computer_token),
            Some(r#"{"move":"A 2","reply":false}"#),
        )
        .await;
    expect(&r, &[200], "a move without the computer's reply");
    let computer_move = format!("/api/games/{computer_id}/computer-move");
    let r = c
        .call("POST", &computer_move, Some(&computer_token), None)
        .await;
    expect(&r, &[200], "the computer's move");
    let r = c
        .call("POST", &computer_move, Some(&computer_token), Some("{}"))
        .await;
    expect(&r, &[409], "not the computer's turn");
    let path = format!("/api/games?ids={computer_id},{local_id}");
    expect(&c.call("GET", &path, None, None).await, &[200], &path);
    let local_undo = format!("/api/games/{local_id}/undo");
    let r = c.call("POST", &local_undo, Some(local_token), None).await;
    expect(&r, &[200], "undo");
    let r = c.call("POST", &local_undo, Some(local_token), None).await;
    expect(&r, &[409], "nothing to undo");
    let local_consent = format!("/api/games/{local_id}/analysis-consent");
    let r = c
        .call(
            "POST",
            &local_consent,
            Some(local_token),
            Some(r#"{"agree":1}"#),
        )
        .await;
    expect(&r, &[400], "consent that is not a boolean");
    let r = c
        .call(
            "POST",
            &local_consent,
            Some(local_token),
            Some(r#"{"agree":true}"#),
        )
        .await;
    expect(&r, &[409], "consent where none is needed");
    let big = format!(r#"{{"position":"{}"}}"#, "1 ".repeat(10_000));
    for (method, path, body) in [
        ("POST", "/api/games", ""),
        ("POST", "/api/games", "{"),
        ("POST", "/api/games", r#"{"game":"nonsense"}"#),
        ("POST", "/api/games", r#"{"game":"moore:0"}"#),
        ("POST", "/api/games", r#"{"position":"0 0"}"#),
        ("POST", "/api/games", r#"{"position":"x"}"#),
        ("POST", "/api/games", r#"{"level":"godlike"}"#),
        ("POST", "/api/games", r#"{"extra":1}"#),
        ("POST", "/api/games", big.as_str()),
        ("POST", "/api/analyze", r#"{"position":"3 4 5"}"#),
        (
            "POST",
            "/api/analyze",
            r#"{"game":"candy","position":"3 4 5"}"#,
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"position":"3 4 5","convention":"misere"}"#,
        ),
        (
            "POST",
            "/api/analyze",
            r#"{"game":"kayles","position":"3 4 5","convention":"misere"}"#,
        ),
        ("POST", "/api/analyze", r#"{"position":"200 200"}"#),
        ("POST", "/api/analyze", "[]"),
        ("GET", "/api/games?limit=2&offset=1", ""),
        ("GET", "/api/games?limit=-1", ""),
        ("GET", "/api/games/RANDOM", ""),
        ("GET", "/api/games/RANDOM/analysis", ""),
        ("GET", "/api/games/RANDOM/events", ""),
        ("POST", "/api/games/RANDOM/moves", r#"{"move":"A 1"}"#),
        ("POST", "/api/games/RANDOM/join", r#"{"invite":"x"}"#),
    ] {
        let body = (!body.is_empty() || method == "POST").then_some(body);
        let r = c.call(method, path, None, body).await;
        assert!(r.status < 500, "{method} {path}: {}", r.body);
    }

    // Every operation gave a success that matched.
    for (method, path) in c.operations() {
        assert!(
            c.seen
                .keys()
                .any(|(m, p, s)| *m == method && *p == path && *s < 300),
            "{method} {path}: no successful reply was checked"
        );
    }
    for ((method, path, status), n) in &c.seen {
        eprintln!("{method} {path} {status}: {n} replies checked");
    }
}

/// Found by schemathesis: `limit`, `offset` and `ply` are `u32`, but the
/// document called them `int32`, so 2^31 was "invalid" and yet accepted.
#[tokio::test]
async fn unsigned_fields_are_documented_with_their_whole_range() {
    let mut c = Checker::new("openapi-unsigned").await;
    let parameters = c.doc["paths"]["/api/games"]["get"]["parameters"].clone();
    for parameter in parameters.as_array().unwrap() {
        let schema = &parameter["schema"];
        if parameter["name"] == "ids" {
            continue;
        }
        assert_eq!(schema["minimum"], 0, "{parameter}");
        assert_eq!(schema["maximum"], u32::MAX, "{parameter}");
        assert_ne!(schema["format"], "int32", "{parameter}");
    }
    let ply = &c.doc["components"]["schemas"]["MoveRequest"]["properties"]["ply"];
    assert_eq!(ply["maximum"], u32::MAX, "{ply}");
    assert_ne!(ply["format"], "int32", "{ply}");
    let r = c
        .call("GET", "/api/games?offset=2147483648", None, None)
        .await;
    expect(&r, &[200], "an offset past i32");
    let r = c
        .call("GET", "/api/games?limit=4294967295", None, None)
        .await;
    expect(&r, &[200], "the largest limit");
    let r = c
        .call("GET", "/api/games?offset=4294967296", None, None)
        .await;
    expect(&r, &[400], "an offset past u32");
}

/// Found by schemathesis: the live-update stream was documented as one
/// string, but checkers of `text/event-stream` read the schema as that of
/// each event (`event`, `data`).
#[tokio::test]
async fn the_event_stream_is_documented_event_by_event() {
    let mut c = Checker::new("openapi-events").await;
    let stream = &c.doc["paths"]["/api/games/{id}/events"]["get"]["responses"]["200"]["content"]["text/event-stream"]
        ["schema"];
    assert_eq!(stream, &json!({"$ref": "#/components/schemas/StateEvent"}));
    let r = c.call("POST", "/api/games", None, Some("{}")).await;
    let id = r.body["game"]["id"].as_str().unwrap().to_string();
    let path = format!("/api/games/{id}/events");
    let event = c.call("GET", &path, None, None).await;
    assert_eq!(event.body["event"], "state");
    let game: Value = serde_json::from_str(event.body["data"].as_str().unwrap()).unwrap();
    assert_eq!(game["id"], id.as_str());
}

/// Found while probing the server by hand: a game id that percent-decodes to
/// bytes that are not UTF-8 got axum's plain-text 400, not the API's JSON.
#[tokio::test]
async fn a_game_id_that_is_not_utf8_is_refused_in_json() {
    let mut c = Checker::new("openapi-not-utf8").await;
    for (method, path, body) in [
        ("GET", "/api/games/%FF", None),
        ("GET", "/api/games/%C3%28/analysis", None),
        ("GET", "/api/games/%FF/events", None),
        ("GET", "/api/games/%FF/positions/0", None),
        ("POST", "/api/games/%FF/moves", Some(r#"{"move":"A 1"}"#)),
        ("POST", "/api/games/%FF/join", Some(r#"{"invite":"x"}"#)),
    ] {
        let r = c.call(method, path, None, body).await;
        expect(&r, &[404], path);
        assert_eq!(r.body["error"]["code"], "game_not_found", "{path}");
    }
}

/// The keys of a JSON object.
fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .cloned()
        .collect()
}

/// The documented fields of an object schema: (all, required).
fn fields(schema: &Value) -> (BTreeSet<String>, BTreeSet<String>) {
    let required = schema["required"]
        .as_array()
        .map(|r| r.iter().map(|f| f.as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    (keys(&schema["properties"]), required)
}

/// The variant of a schema tagged by `kind` (Board, Element, Ghost) that
/// documents `value`.
fn variant<'d>(doc: &'d Value, name: &str, value: &Value) -> &'d Value {
    let kind = &value["kind"];
    doc["components"]["schemas"][name]["oneOf"]
        .as_array()
        .unwrap_or_else(|| panic!("{name} is not a oneOf"))
        .iter()
        .find(|v| v["properties"]["kind"]["enum"][0] == *kind)
        .unwrap_or_else(|| panic!("{name} documents no kind {kind}"))
}

/// The board, its elements, a move and remoteness are documented by the
/// library's own schemas (its `openapi` feature), not by copies: the served
/// document holds exactly what the types say, and each field of the JSON
/// that real positions, moves and analyses of every catalogue game
/// serialise to is one the document lists (each tagged variant's fields
/// exactly; a move's every field met somewhere, the required ones always).
#[tokio::test]
async fn the_library_types_are_documented_with_their_real_fields() {
    use nimatron::{AnalyzeOptions, Board, Convention, Element, Ghost, MoveInfo, Remoteness};
    use utoipa::PartialSchema;

    let c = Checker::new("openapi-library-types").await;
    let schemas = &c.doc["components"]["schemas"];
    let own = |schema: utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>| {
        serde_json::to_value(schema).unwrap()
    };
    assert_eq!(schemas["Board"], own(Board::schema()));
    assert_eq!(schemas["Element"], own(Element::schema()));
    assert_eq!(schemas["Ghost"], own(Ghost::schema()));
    assert_eq!(schemas["Move"], own(MoveInfo::schema()));
    assert_eq!(schemas["Remoteness"], own(Remoteness::schema()));
    assert_eq!(schemas["Convention"], own(Convention::schema()));
    assert_eq!(schemas["Outcome"], own(nimatron::Outcome::schema()));
    assert_eq!(schemas["Regime"], own(nimatron::nim::Regime::schema()));
    assert_eq!(schemas["CandySplit"], own(nimatron::CandySplit::schema()));
    assert_eq!(schemas["MisereRace"], own(nimatron::MisereRace::schema()));
    assert_eq!(schemas["RaceRun"], own(nimatron::RaceRun::schema()));
    assert_eq!(schemas["RaceStatus"], own(nimatron::RaceStatus::schema()));
    assert_eq!(schemas["RaceMethod"], own(nimatron::RaceMethod::schema()));

    let (move_fields, move_required) = fields(&schemas["Move"]);
    let mut move_keys_seen = BTreeSet::new();
    let mut kinds_seen = BTreeSet::new();
    let mut remoteness_seen = 0;
    let mut check_tagged = |name: &str, value: &Value| {
        let (all, required) = fields(variant(&c.doc, name, value));
        assert_eq!(keys(value), all, "{name} {value}");
        assert_eq!(required, all, "{name}: every field is always written");
        kinds_seen.insert(format!("{name}:{}", value["kind"].as_str().unwrap()));
    };
    for entry in GameSpec::CATALOGUE {
        let spec_text = concrete(entry.syntax);
        let game = spec_text.parse::<GameSpec>().unwrap().build().unwrap();
        let position = game
            .start()
            .unwrap_or_else(|| game.parse(game.description().example).unwrap());
        check_tagged(
            "Board",
            &serde_json::to_value(game.board(&position).unwrap()).unwrap(),
        );
        let options = AnalyzeOptions {
            every_move: true,
            max_moves: 50,
            moves_limit: 50,
            ..AnalyzeOptions::default()
        };
        let Ok(analysis) = game.analyze_with(&position, Convention::Normal, &options) else {
            continue;
        };
        if let Some(r) = analysis.remoteness {
            let r = serde_json::to_value(r).unwrap();
            let (all, required) = fields(&schemas["Remoteness"]);
            assert_eq!((keys(&r), &required), (all.clone(), &all), "{r}");
            remoteness_seen += 1;
        }
        // Moves as a game lists them (no value) and as an analysis values them.
        let listed = game.legal_moves(&position).unwrap();
        for mv in listed
            .iter()
            .take(50)
            .chain(analysis.moves.iter().flatten())
        {
            let m = serde_json::to_value(mv).unwrap();
            let k = keys(&m);
            assert!(
                k.is_subset(&move_fields),
                "{spec_text}: {m} has fields the document lacks"
            );
            assert!(
                move_required.is_subset(&k),
                "{spec_text}: {m} lacks a required field"
            );
            move_keys_seen.extend(k);
            for e in m["touches"]
                .as_array()
                .unwrap()
                .iter()
                .chain(m["trace"]["added"].as_array().unwrap())
            {
                check_tagged("Element", e);
            }
            for g in m["trace"]["removed"].as_array().unwrap() {
                check_tagged("Ghost", g);
            }
        }
    }
    assert_eq!(
        move_keys_seen, move_fields,
        "every documented field of a move is met"
    );
    assert!(remoteness_seen > 10, "{remoteness_seen} remoteness values");
    for kind in [
        "Board:heaps",
        "Board:grid",
        "Board:graph",
        "Board:counter",
        "Element:objects",
        "Element:cell",
        "Ghost:objects",
    ] {
        assert!(kinds_seen.contains(kind), "{kind} not met: {kinds_seen:?}");
    }
}

/// The value a link's runtime expression (`$response.body#/pointer`)
/// names in a reply (None where it names nothing: the link does not apply
/// to this reply); other values are taken as they are.
fn evaluate(expression: &Value, reply: &Value) -> Option<Value> {
    match expression {
        Value::String(s) if s.starts_with("$response.body#") => {
            reply.pointer(&s["$response.body#".len()..]).cloned()
        }
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| Some((k.clone(), evaluate(v, reply)?)))
            .collect::<Option<Map<String, Value>>>()
            .map(Value::Object),
        other => Some(other.clone()),
    }
}

impl Checker {
    /// Follow every link of the document from a real reply of `operation`
    /// with `status`: each target, called with what the link takes from the
    /// reply, must succeed, or be refused for the game's state with one of
    /// the `excused` codes (an online game's analysis before both seats
    /// agree). The links that succeeded are noted in `followed`.
    async fn follow_links(
        &mut self,
        operation: &str,
        status: u16,
        reply: &Value,
        excused: &[&str],
        followed: &mut BTreeSet<(String, String)>,
    ) {
        let mut by_id = BTreeMap::new();
        for (template, item) in self.doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                if let Some(id) = op["operationId"].as_str() {
                    by_id.insert(id.to_string(), (method.to_uppercase(), template.clone()));
                }
            }
        }
        let (method, template) = by_id[operation].clone();
        let links = self.doc["paths"][&template][method.to_lowercase()]["responses"]
            [status.to_string()]["links"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        for (name, link) in links {
            let target = link["operationId"].as_str().unwrap();
            let (target_method, target_template) = by_id
                .get(target)
                .unwrap_or_else(|| panic!("{operation} {name}: no operation {target}"))
                .clone();
            let target_op = &self.doc["paths"][&target_template][target_method.to_lowercase()];
            let mut path = format!("/api{}", target_template.trim_start_matches("/api"));
            let mut applies = true;
            for (param, expression) in link["parameters"].as_object().unwrap() {
                let documented = target_op["parameters"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|p| p["name"] == *param && p["in"] == "path");
                assert!(documented, "{operation} {name}: {target} has no {param}");
                let Some(value) = evaluate(expression, reply) else {
                    applies = false;
                    continue;
                };
                let value = value.as_str().map_or(value.to_string(), str::to_string);
                path = path.replace(&format!("{{{param}}}"), &value);
            }
            let body = match link.get("requestBody") {
                None => None,
                Some(b) => match evaluate(b, reply) {
                    Some(b) => Some(b.to_string()),
                    None => {
                        applies = false;
                        None
                    }
                },
            };
            if !applies {
                continue;
            }
            assert!(!path.contains('{'), "{operation} {name}: {path}");
            let r = self
                .call(&target_method, &path, None, body.as_deref())
                .await;
            if r.status < 300 {
                followed.insert((operation.to_string(), name));
            } else {
                let code = r.body["error"]["code"].as_str().unwrap_or("");
                assert!(
                    r.status < 500 && excused.contains(&code),
                    "{operation} {status} → {name} ({target_method} {path}): {} {}",
                    r.status,
                    r.body
                );
            }
        }
    }
}

/// The document's links (from each reply that names a game to the
/// operations on that game) lead somewhere real: each one, followed from
/// real replies, reaches its operation with the ids it takes from the
/// reply, and gets a success.
#[tokio::test]
async fn every_link_followed_from_a_real_reply_succeeds() {
    let mut c = Checker::new("openapi-links").await;
    let mut documented = BTreeSet::new();
    for item in c.doc["paths"].as_object().unwrap().values() {
        for op in item.as_object().unwrap().values() {
            for reply in op["responses"].as_object().unwrap().values() {
                for name in reply["links"]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|l| l.0)
                {
                    documented.insert((
                        op["operationId"].as_str().unwrap().to_string(),
                        name.clone(),
                    ));
                }
            }
        }
    }
    assert!(documented.len() >= 40, "{documented:?}");
    let mut followed = BTreeSet::new();

    let hidden = &["analysis_not_agreed"][..];
    let create = async |c: &mut Checker, body: Value| {
        let r = c
            .call("POST", "/api/games", None, Some(&body.to_string()))
            .await;
        expect(&r, &[201], "a new game");
        let id = r.body["game"]["id"].as_str().unwrap().to_string();
        let token = r.body["token"].as_str().unwrap().to_string();
        (r, id, token)
    };

    // An online game: created (its analysis hidden until both seats agree);
    // another joined, whose analysis both seats then agree to show.
    let (r, _, _) = create(&mut c, json!({"opponent": "online"})).await;
    c.follow_links("create_game", 201, &r.body, hidden, &mut followed)
        .await;
    let (r, other, token0) = create(&mut c, json!({"opponent": "online"})).await;
    let body = json!({"invite": r.body["invite"]}).to_string();
    let r = c
        .call(
            "POST",
            &format!("/api/games/{other}/join"),
            None,
            Some(&body),
        )
        .await;
    expect(&r, &[200], "join");
    let token1 = r.body["token"].as_str().unwrap().to_string();
    let joined = r.body;
    c.follow_links("join_game", 200, &joined, hidden, &mut followed)
        .await;
    let body = json!({"agree": true}).to_string();
    let path = format!("/api/games/{other}/analysis-consent");
    for token in [&token0, &token1] {
        let r = c.call("POST", &path, Some(token), Some(&body)).await;
        expect(&r, &[200], "consent");
    }
    let r = c.call("POST", &path, Some(&token0), Some(&body)).await;
    c.follow_links("analysis_consent", 200, &r.body, &[], &mut followed)
        .await;
    // The join's links again, now that the analysis is shown.
    c.follow_links("join_game", 200, &joined, &[], &mut followed)
        .await;
    let r = c.call("GET", "/api/games", None, None).await;
    c.follow_links("list_games", 200, &r.body, &[], &mut followed)
        .await;

    // At one screen: created, a move, the game, a take-back, resigning, a
    // rematch.
    let (r, local, token) = create(&mut c, json!({"position": "3 4 5", "opponent": "local"})).await;
    c.follow_links("create_game", 201, &r.body, &[], &mut followed)
        .await;
    let body = json!({"move": "A 1"}).to_string();
    let r = c
        .call(
            "POST",
            &format!("/api/games/{local}/moves"),
            Some(&token),
            Some(&body),
        )
        .await;
    expect(&r, &[200], "move");
    c.follow_links("make_move", 200, &r.body, &[], &mut followed)
        .await;
    let r = c
        .call("GET", &format!("/api/games/{local}"), None, None)
        .await;
    c.follow_links("get_game", 200, &r.body, &[], &mut followed)
        .await;
    let r = c
        .call(
            "POST",
            &format!("/api/games/{local}/undo"),
            Some(&token),
            None,
        )
        .await;
    expect(&r, &[200], "undo");
    c.follow_links("undo", 200, &r.body, &[], &mut followed)
        .await;
    let r = c
        .call(
            "POST",
            &format!("/api/games/{local}/resign"),
            Some(&token),
            Some("{}"),
        )
        .await;
    expect(&r, &[200], "resign");
    c.follow_links("resign", 200, &r.body, &[], &mut followed)
        .await;
    let r = c
        .call(
            "POST",
            &format!("/api/games/{local}/rematch"),
            Some(&token),
            None,
        )
        .await;
    expect(&r, &[201], "rematch");
    c.follow_links("rematch", 201, &r.body, &[], &mut followed)
        .await;

    // Against the computer: a move without its reply, then the computer's.
    let (_, cid, ctoken) = create(&mut c, json!({"position": "3 4 5"})).await;
    let body = json!({"move": "A 1", "reply": false}).to_string();
    let r = c
        .call(
            "POST",
            &format!("/api/games/{cid}/moves"),
            Some(&ctoken),
            Some(&body),
        )
        .await;
    expect(&r, &[200], "move without reply");
    let r = c
        .call(
            "POST",
            &format!("/api/games/{cid}/computer-move"),
            Some(&ctoken),
            None,
        )
        .await;
    expect(&r, &[200], "computer move");
    c.follow_links("computer_move", 200, &r.body, &[], &mut followed)
        .await;

    let missed: Vec<_> = documented.difference(&followed).collect();
    assert!(
        missed.is_empty(),
        "links not followed to a success: {missed:?}"
    );
}
