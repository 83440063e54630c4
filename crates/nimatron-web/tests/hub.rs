//! The live-update hub keeps a channel only while someone watches a game
//! that exists (it used to keep one for every id ever asked for, until a
//! move was published somewhere).

mod common;

use std::sync::Arc;

use axum::body::Body;
use axum::http::Request;
use axum::response::Response;
use common::fresh_db;
use futures_util::StreamExt;
use nimatron_web::api::{AppState, Hub, router};
use nimatron_web::service::Engine;
use serde_json::Value;
use tower::ServiceExt;

struct App {
    router: axum::Router,
    hub: Arc<Hub>,
    _stop: tokio::sync::watch::Sender<bool>,
}

impl App {
    fn new(name: &str) -> App {
        let config = nimatron_web::Config::new(fresh_db(name));
        let store = nimatron_web::store::open(&config.db, config.durability, 4).unwrap();
        let engine = Arc::new(Engine::new(store, Vec::new(), config.limits));
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let hub = Arc::new(Hub::new(stopped));
        App {
            router: router(AppState {
                engine,
                hub: hub.clone(),
                admission: Arc::new(nimatron_web::limits::Admission::new(
                    nimatron_web::ServerLimits::default(),
                )),
                site: Arc::new(nimatron_web::site::Site::default()),
            }),
            hub,
            _stop: stop,
        }
    }

    async fn send(&self, method: &str, path: &str, token: Option<&str>, body: &str) -> Response {
        let mut request = Request::builder().method(method).uri(path);
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let request = request.body(Body::from(body.to_string())).unwrap();
        self.router.clone().oneshot(request).await.unwrap()
    }

    async fn json(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> (u16, Value) {
        let response = self.send(method, path, token, body).await;
        let status = response.status().as_u16();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }
}

/// The next event of a live-update stream, as text.
async fn next_event(stream: &mut axum::body::BodyDataStream) -> String {
    let mut bytes = Vec::new();
    while !bytes.ends_with(b"\n\n") {
        let chunk = stream.next().await.expect("an event").expect("a chunk");
        bytes.extend_from_slice(&chunk);
    }
    String::from_utf8(bytes).unwrap()
}

#[tokio::test]
async fn watching_unknown_games_keeps_no_channel() {
    let app = App::new("hub-unknown");
    for i in 0..500u64 {
        let id = if i % 2 == 0 {
            format!("{:016x}", i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        } else {
            format!("RANDOM{i}")
        };
        let (status, reply) = app
            .json("GET", &format!("/api/games/{id}/events"), None, "")
            .await;
        assert_eq!(status, 404, "{reply}");
        assert_eq!(reply["error"]["code"], "game_not_found", "{reply}");
        assert_eq!(app.hub.watched_games(), 0, "after '{id}'");
    }
}

#[tokio::test]
async fn a_channel_is_dropped_when_its_last_watcher_leaves() {
    let app = App::new("hub-leave");
    let (status, created) = app
        .json(
            "POST",
            "/api/games",
            None,
            r#"{"opponent":"local","position":"2 3"}"#,
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let events = format!("/api/games/{id}/events");

    let first = app.send("GET", &events, None, "").await;
    let second = app.send("GET", &events, None, "").await;
    let mut first = first.into_body().into_data_stream();
    let mut second = second.into_body().into_data_stream();
    assert!(next_event(&mut first).await.starts_with("event: state\n"));
    assert!(next_event(&mut second).await.starts_with("event: state\n"));
    assert_eq!(app.hub.watched_games(), 1);

    // A move reaches the watchers that stay.
    let moves = format!("/api/games/{id}/moves");
    let (status, _) = app
        .json("POST", &moves, Some(&token), r#"{"move":"A 1"}"#)
        .await;
    assert_eq!(status, 200);
    assert!(next_event(&mut second).await.contains("\"ply\":1"));
    drop(first);
    assert_eq!(app.hub.watched_games(), 1, "one watcher is left");
    drop(second);
    assert_eq!(app.hub.watched_games(), 0, "nobody watches");

    // A move nobody watches makes no channel.
    let (status, _) = app
        .json("POST", &moves, Some(&token), r#"{"move":"B 1"}"#)
        .await;
    assert_eq!(status, 200);
    assert_eq!(app.hub.watched_games(), 0);
}
