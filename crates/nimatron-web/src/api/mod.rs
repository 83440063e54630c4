//! HTTP: the JSON API (documented in `docs/api.md`, and described by
//! [`crate::openapi`]), live updates by server-sent events, and the
//! embedded UI.
//!
//! One job per module: [`hub`] carries live updates; `state` holds what
//! every handler shares and runs their work; `extract` reads requests;
//! `responses` names the refusals operations share; `games`, `seats`,
//! `analysis` and `events` are the operations; `pages` the browser app's
//! files. This module puts them together behind the server's checks.

mod analysis;
mod events;
mod extract;
mod games;
pub mod hub;
pub mod openapi;
mod pages;
pub(crate) mod responses;
mod seats;
mod state;

use axum::Router;
use axum::extract::{DefaultBodyLimit, OriginalUri, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::any;

use crate::error::ApiError;
use crate::limits::Client;

pub use extract::BODY_LIMIT;
pub use hub::{Hub, relay_changes};
pub use state::AppState;

async fn api_not_found(OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("no API endpoint at '{}' (see docs/api.md)", uri.path()),
    )
}

async fn method_not_allowed(OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!(
            "'{}' does not take that method (see docs/api.md)",
            uri.path()
        ),
    )
}

/// Hold a place for the request among its client's requests in flight.
async fn client_share(State(app): State<AppState>, req: Request, next: Next) -> Response {
    let client = req
        .extensions()
        .get::<Client>()
        .copied()
        .unwrap_or(Client::UNKNOWN);
    match app.admission.request(client) {
        Ok(_place) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

/// A panic in a handler: a 500 whose id is in the log, not a dropped
/// connection.
fn panic_reply(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let what = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("a panic");
    ApiError::internal(format!("a handler panicked: {what}")).into_response()
}

/// The whole application.
pub fn router(app: AppState) -> Router {
    let (api, _) = openapi::operations().split_for_parts();
    let api = api
        .fallback(api_not_found)
        .method_not_allowed_fallback(method_not_allowed);
    let limits = app.admission.limits().clone();
    let site = app.site.clone();
    let mut router = Router::new()
        .nest("/api", api)
        // The nested API does not match its own root with a slash (found by
        // the `web_api` fuzz target: '/api/' got the page's plain-text 404).
        .route("/api/", any(api_not_found))
        .merge(pages::routes())
        .fallback(pages::page_not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            limits.request_timeout,
        ))
        .layer(tower_http::compression::CompressionLayer::new().gzip(true))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            client_share,
        ))
        .layer(axum::middleware::from_fn_with_state(
            site,
            crate::site::check,
        ));
    for (name, value) in crate::site::security_headers() {
        router = router.layer(tower_http::set_header::SetResponseHeaderLayer::overriding(
            name, value,
        ));
    }
    router
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            panic_reply,
        ))
        .with_state(app)
}
