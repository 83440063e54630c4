//! The browser app's pages and files, embedded in the binary.

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::assets;

/// The pages (each the app, which routes itself) and the files they load.
pub(crate) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(page))
        .route("/play/{id}", get(page))
        .route("/explore", get(page))
        .route("/history", get(page))
        .route("/assets/js/{name}", get(module))
        .route(
            "/assets/app.css",
            get(|headers: HeaderMap| async move {
                asset(
                    "text/css; charset=utf-8",
                    assets::APP_CSS.as_bytes(),
                    &headers,
                )
            }),
        )
        .route(
            "/favicon.svg",
            get(|headers: HeaderMap| async move {
                asset("image/svg+xml", assets::FAVICON_SVG.as_bytes(), &headers)
            }),
        )
}

/// An embedded file, with its ETag: a browser that has it gets `304 Not
/// Modified` and no body (every asset is `no-cache`: revalidated on each
/// visit, so a new build shows at once).
pub(crate) fn asset(
    content_type: &'static str,
    body: &'static [u8],
    headers: &HeaderMap,
) -> Response {
    let tag = assets::etag(body);
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    let mut r = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        body.into_response()
    };
    let h = r.headers_mut();
    if !fresh {
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(v) = HeaderValue::from_str(&tag) {
        h.insert(header::ETAG, v);
    }
    r
}

async fn page(headers: HeaderMap) -> Response {
    asset(
        "text/html; charset=utf-8",
        assets::INDEX_HTML.as_bytes(),
        &headers,
    )
}

async fn module(Path(name): Path<String>, uri: Uri, headers: HeaderMap) -> Response {
    match assets::module(&name) {
        Some(text) => asset("text/javascript; charset=utf-8", text.as_bytes(), &headers),
        None => page_not_found(uri).await,
    }
}

pub(crate) async fn page_not_found(uri: Uri) -> Response {
    (
        StatusCode::NOT_FOUND,
        format!("Nothing at {} — try /", uri.path()),
    )
        .into_response()
}
