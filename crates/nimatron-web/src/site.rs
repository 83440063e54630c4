//! Which site the server answers for: the `Host` a request names, the
//! `Origin` it comes from and the type of its body, checked before any
//! handler runs; and the security headers every reply carries.
//!
//! - `Host` must be the listening address (an IP literal, or `localhost` on
//!   loopback, with the listening port) or the `--public-url`'s host: a name
//!   that an attacker's DNS points at this machine (DNS rebinding) is refused.
//! - `Origin`, when a browser sends one, must be this site's: a page
//!   elsewhere cannot act here with the visitor's browser.
//! - A `POST` with a body must say `Content-Type: application/json`: the
//!   body types a page elsewhere may send without asking (`text/plain`,
//!   forms) are refused.

use std::net::{IpAddr, SocketAddr};

use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The public address of a server behind a proxy (`--public-url`): its
/// scheme and authority.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicUrl {
    scheme: String,
    host: String,
    port: Option<u16>,
}

impl PublicUrl {
    /// Parse `http://host[:port][/]` or `https://…`.
    pub fn parse(text: &str) -> Result<PublicUrl, String> {
        let uri: axum::http::Uri = text
            .parse()
            .map_err(|e| format!("'{text}' is not a URL: {e}"))?;
        let scheme = match uri.scheme_str() {
            Some(s @ ("http" | "https")) => s.to_string(),
            _ => {
                return Err(format!("'{text}' must start with http:// or https://"));
            }
        };
        let authority = uri
            .authority()
            .ok_or_else(|| format!("'{text}' names no host"))?;
        if authority.as_str().contains('@') {
            return Err(format!("'{text}' must not hold a user name"));
        }
        if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
            return Err(format!(
                "'{text}' must be the site's root (the app is served from /)"
            ));
        }
        Ok(PublicUrl {
            host: authority.host().to_ascii_lowercase(),
            port: authority.port_u16(),
            scheme,
        })
    }

    fn default_port(&self) -> u16 {
        if self.scheme == "https" { 443 } else { 80 }
    }

    /// Whether `host` (and `port`, or the scheme's default) is this URL's.
    fn names(&self, host: &str, port: Option<u16>) -> bool {
        host == self.host
            && port.unwrap_or(self.default_port()) == self.port.unwrap_or(self.default_port())
    }

    /// The origin, as browsers send it.
    fn origin(&self) -> String {
        match self.port {
            Some(p) if p != self.default_port() => format!("{}://{}:{p}", self.scheme, self.host),
            _ => format!("{}://{}", self.scheme, self.host),
        }
    }
}

impl std::fmt::Display for PublicUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/", self.origin())
    }
}

/// The site the server answers for.
#[derive(Clone, Debug, Default)]
pub struct Site {
    /// The listening address, once bound (unknown for an app called in
    /// process).
    pub listen: Option<SocketAddr>,
    /// The public address behind a proxy.
    pub public: Option<PublicUrl>,
}

impl Site {
    /// Whether a `Host` header names this site.
    pub fn host_allowed(&self, value: &str) -> bool {
        let value = value.trim().to_ascii_lowercase();
        let Ok(authority) = value.parse::<axum::http::uri::Authority>() else {
            return false;
        };
        if authority.as_str().contains('@') {
            return false;
        }
        let host = authority.host();
        let port = authority.port_u16();
        if self.public.as_ref().is_some_and(|p| p.names(host, port)) {
            return true;
        }
        let listen_port = self.listen.map(|a| a.port());
        if let Some(lp) = listen_port
            && port.unwrap_or(80) != lp
        {
            return false;
        }
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        let listen_ip = self.listen.map(|a| a.ip());
        if host == "localhost" {
            return listen_ip.is_none_or(|ip| ip.is_loopback() || ip.is_unspecified());
        }
        match bare.parse::<IpAddr>() {
            Ok(ip) => listen_ip.is_none_or(|l| l.is_unspecified() || l == ip),
            Err(_) => false,
        }
    }

    /// Whether an `Origin` header is this site's: the host the request
    /// named (already checked), or the public URL.
    pub fn origin_allowed(&self, origin: &str, host: Option<&str>) -> bool {
        let origin = origin.trim().to_ascii_lowercase();
        if self.public.as_ref().is_some_and(|p| origin == p.origin()) {
            return true;
        }
        let Some(host) = host else {
            return false;
        };
        let host = host.trim().to_ascii_lowercase();
        origin == format!("http://{host}") || origin == format!("https://{host}")
    }
}

/// Refuse a request for another site, from another site's page, or with a
/// body that is not JSON.
pub(crate) async fn check(
    site: axum::extract::State<std::sync::Arc<Site>>,
    req: Request,
    next: Next,
) -> Response {
    match refusal(&site, &req) {
        Some(e) => e.into_response(),
        None => next.run(req).await,
    }
}

fn refusal(site: &Site, req: &Request) -> Option<ApiError> {
    let headers = req.headers();
    let host = match headers.get(header::HOST).map(|v| v.to_str()) {
        None => None,
        Some(Ok(h)) if site.host_allowed(h) => Some(h),
        Some(h) => {
            return Some(ApiError::new(
                StatusCode::MISDIRECTED_REQUEST,
                "wrong_host",
                format!(
                    "this server does not answer for host '{}': use the address it listens on{}",
                    h.unwrap_or("?"),
                    match &site.public {
                        Some(p) => format!(" or {p}"),
                        None => " (or start it with --public-url)".to_string(),
                    }
                ),
            ));
        }
    };
    if let Some(origin) = headers.get(header::ORIGIN) {
        let text = origin.to_str().unwrap_or("?");
        if !site.origin_allowed(text, host) {
            return Some(ApiError::new(
                StatusCode::FORBIDDEN,
                "foreign_origin",
                format!(
                    "requests from pages of '{text}' are refused: only this site's pages may call its API"
                ),
            ));
        }
    }
    if req.method() == Method::POST {
        let content_type = headers.get(header::CONTENT_TYPE);
        let has_body = headers.contains_key(header::TRANSFER_ENCODING)
            || headers
                .get(header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.trim() != "0");
        let json = content_type.is_some_and(is_json);
        if (content_type.is_some() || has_body) && !json {
            return Some(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                format!(
                    "a POST body must be sent as 'Content-Type: application/json' (this one is {})",
                    content_type
                        .and_then(|v| v.to_str().ok())
                        .map_or("untyped".to_string(), |t| format!("'{t}'"))
                ),
            ));
        }
    }
    None
}

/// `application/json`, with parameters or none.
fn is_json(value: &HeaderValue) -> bool {
    value.to_str().is_ok_and(|v| {
        v.split(';')
            .next()
            .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
    })
}

/// The Content-Security-Policy of every reply: scripts, styles and
/// connections from this site alone, no inline script, no framing.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
form-action 'self'; frame-ancestors 'none'";

/// The security headers every reply carries.
pub(crate) fn security_headers() -> [(header::HeaderName, HeaderValue); 6] {
    [
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        ),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        // Invite links carry their code in the query: no page they lead
        // to learns it from the referrer.
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ),
        (
            header::HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        ),
        (
            header::HeaderName::from_static("cross-origin-resource-policy"),
            HeaderValue::from_static("same-origin"),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(listen: &str, public: Option<&str>) -> Site {
        Site {
            listen: Some(listen.parse().unwrap()),
            public: public.map(|p| PublicUrl::parse(p).unwrap()),
        }
    }

    #[test]
    fn hosts_are_the_listening_address_or_the_public_url() {
        let s = site("127.0.0.1:8080", None);
        assert!(s.host_allowed("127.0.0.1:8080"));
        assert!(s.host_allowed("localhost:8080"));
        assert!(s.host_allowed("LOCALHOST:8080"));
        assert!(!s.host_allowed("evil.example:8080"));
        assert!(!s.host_allowed("evil.example"));
        assert!(!s.host_allowed("127.0.0.1:9999"));
        assert!(!s.host_allowed("127.0.0.2:8080"));
        assert!(!s.host_allowed("user@127.0.0.1:8080"));
        let any = site("0.0.0.0:8080", None);
        assert!(any.host_allowed("192.0.2.7:8080"));
        assert!(any.host_allowed("[::1]:8080"));
        assert!(!any.host_allowed("rebind.example:8080"));
        let v6 = site("[::1]:8080", None);
        assert!(v6.host_allowed("[::1]:8080"));
        assert!(v6.host_allowed("localhost:8080"));
        let proxied = site("127.0.0.1:8080", Some("https://nim.example.org"));
        assert!(proxied.host_allowed("nim.example.org"));
        assert!(proxied.host_allowed("nim.example.org:443"));
        assert!(!proxied.host_allowed("nim.example.org:8443"));
        assert!(!proxied.host_allowed("other.example.org"));
    }

    #[test]
    fn origins_are_this_site() {
        let s = site("127.0.0.1:8080", Some("https://nim.example.org"));
        assert!(s.origin_allowed("http://127.0.0.1:8080", Some("127.0.0.1:8080")));
        assert!(s.origin_allowed("https://nim.example.org", Some("127.0.0.1:8080")));
        assert!(!s.origin_allowed("http://evil.example", Some("127.0.0.1:8080")));
        assert!(!s.origin_allowed("null", Some("127.0.0.1:8080")));
        assert!(!s.origin_allowed("http://127.0.0.1:8080", None));
    }

    #[test]
    fn public_urls_are_a_site_root() {
        assert!(PublicUrl::parse("https://nim.example.org/").is_ok());
        assert_eq!(
            PublicUrl::parse("http://nim.example.org:8000")
                .unwrap()
                .to_string(),
            "http://nim.example.org:8000/"
        );
        assert!(PublicUrl::parse("ftp://nim.example.org").is_err());
        assert!(PublicUrl::parse("nim.example.org").is_err());
        assert!(PublicUrl::parse("https://nim.example.org/app").is_err());
        assert!(PublicUrl::parse("https://a@nim.example.org").is_err());
    }
}
