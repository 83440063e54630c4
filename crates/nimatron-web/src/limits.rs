//! Every request's budget of time, memory and bytes, and admission control:
//! which requests run at once, how many wait, and how much of the server one
//! client may hold.
//!
//! - **Budget.** Each request that solves positions has the server's solver
//!   limits (`max_states` positions, `max_time` in all, across every position
//!   it values); a position is served only within `max_material` objects
//!   and `max_moves` legal moves; a reply lists at most `max_listed` moves
//!   (with their total and a `*_truncated` flag) and a paged endpoint gives
//!   the rest.
//! - **Fair shares.** Heavy work (analyses, Explore) runs `heavy_workers` at
//!   a time with at most `heavy_queue` waiting and `heavy_per_client` per
//!   client; beyond that the reply is `503`/`429` with `Retry-After`. Cheap
//!   requests (pages, game views, moves, the catalogue) never wait behind it.
//! - **The computer's search.** A move, a new game or a rematch in which
//!   the computer must reply searches within `quick_search` on the cheap
//!   side; a search that needs more stops, stores nothing, and runs again
//!   in a heavy turn, under the same queue and shares as analyses.
//! - **Caps.** Connections, requests in flight and event streams are counted
//!   in all and per client (its IP address); the server's connection loop
//!   closes a connection that sends its header too slowly, stays idle, or
//!   does not read what it is sent.
//! - **Clients behind a proxy.** A request from one of the
//!   [`TrustedProxies`] counts as its client's, named by `Forwarded` or
//!   `X-Forwarded-For`; the proxy's connections count in the server's total
//!   but not as one client's.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

/// The server's limits: every request's budget, and admission control. The
/// defaults are those of `nimatron serve --help` and docs/api.md.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerLimits {
    /// The most objects (heap sizes, cells, vertices...) a position may hold.
    pub max_material: u64,
    /// The most legal moves a position may have for the server to play,
    /// list or analyse it (a memory bound: moves are counted before they
    /// are made).
    pub max_moves: u64,
    /// The most moves one reply lists (legal moves, valued moves, moves of a
    /// record); the rest are counted and paged.
    pub max_listed: usize,
    /// How many heavy requests (analyses, Explore) run at once.
    pub heavy_workers: usize,
    /// How many heavy requests may wait for a worker; more are refused with
    /// `503` and `Retry-After`.
    pub heavy_queue: usize,
    /// How many heavy requests one client may have running or waiting.
    pub heavy_per_client: usize,
    /// How many requests one client may have in flight at once.
    pub requests_per_client: usize,
    /// How many connections the server holds open at once.
    pub max_connections: usize,
    /// How many connections one client may hold open.
    pub connections_per_client: usize,
    /// How many event streams the server holds open at once.
    pub max_streams: usize,
    /// How many event streams one game may have.
    pub streams_per_game: usize,
    /// How many event streams one client may hold.
    pub streams_per_client: usize,
    /// How long a client may take to send a request's header.
    pub header_timeout: Duration,
    /// How long a connection may sit with nothing read or written.
    pub idle_timeout: Duration,
    /// How long a write may wait for a client that does not read (an event
    /// stream's client among them) before the connection is dropped.
    pub write_timeout: Duration,
    /// How long a client may take to send a request's body.
    pub request_timeout: Duration,
    /// The most positions the solvers of every game keep in their tables
    /// between requests, in all.
    pub max_kept_states: usize,
    /// How long the computer's search may run inside a cheap request (a
    /// move, a new game, a rematch); beyond it the search waits for a heavy
    /// turn.
    pub quick_search: Duration,
}

impl Default for ServerLimits {
    fn default() -> ServerLimits {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        ServerLimits {
            max_material: 300,
            max_moves: 100_000,
            max_listed: 1000,
            heavy_workers: cores.saturating_sub(1).max(1),
            heavy_queue: 16,
            heavy_per_client: 2,
            requests_per_client: 64,
            max_connections: 4096,
            connections_per_client: 64,
            max_streams: 512,
            streams_per_game: 32,
            streams_per_client: 32,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            write_timeout: Duration::from_secs(20),
            request_timeout: Duration::from_secs(30),
            max_kept_states: 2_000_000,
            quick_search: Duration::from_millis(50),
        }
    }
}

/// Who sent a request: the peer's IP address, put in each request's
/// extensions by the server's connection loop. Requests made in process (the
/// tests) have none and count as one client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Client(pub IpAddr);

impl Client {
    /// The client of requests that came with no address.
    pub const UNKNOWN: Client = Client(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
}

/// A block of IP addresses: `10.0.0.0/8`, `::1/128`, or one address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl Cidr {
    /// Parse `ADDRESS/PREFIX` or a bare address (the block of one).
    pub fn parse(text: &str) -> Result<Cidr, String> {
        let t = text.trim();
        let (addr, prefix) = match t.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (t, None),
        };
        let addr: IpAddr = addr.parse().map_err(|_| {
            format!("'{t}' is not an IP address or block (e.g. 10.0.0.0/8, 192.0.2.7, fd00::/8)")
        })?;
        let bits = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => bits,
            Some(p) => match p.parse::<u8>() {
                Ok(n) if n <= bits => n,
                _ => {
                    return Err(format!(
                        "'{t}': the prefix length must be a number from 0 to {bits}"
                    ));
                }
            },
        };
        Ok(Cidr {
            addr: canonical(addr),
            prefix,
        })
    }

    /// Whether `ip` is in the block (an IPv4 address seen as IPv6,
    /// `::ffff:a.b.c.d`, as itself).
    pub fn contains(&self, ip: IpAddr) -> bool {
        fn masked(bits: u128, width: u32, prefix: u8) -> u128 {
            if prefix == 0 {
                0
            } else {
                bits >> (width - u32::from(prefix))
            }
        }
        match (self.addr, canonical(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                masked(u32::from(net).into(), 32, self.prefix)
                    == masked(u32::from(ip).into(), 32, self.prefix)
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                masked(u128::from(net), 128, self.prefix)
                    == masked(u128::from(ip), 128, self.prefix)
            }
            _ => false,
        }
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

/// The reverse proxies whose word on the client's address is taken
/// (`--trusted-proxy`). A request from any other peer is that peer's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<Cidr>);

impl TrustedProxies {
    /// Proxies in these blocks.
    pub fn new(blocks: Vec<Cidr>) -> TrustedProxies {
        TrustedProxies(blocks)
    }

    /// Whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `ip` is a trusted proxy's.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|b| b.contains(ip))
    }

    /// The client of a request that came from `peer`: `peer` itself unless
    /// it is a trusted proxy; then the address that the proxies' chain
    /// names, read from the right (the nearest hop) past every trusted
    /// proxy, from `Forwarded` if the request has one, else from
    /// `X-Forwarded-For`. A hop that names no address (`unknown`, an
    /// obfuscated name, garbage) ends the walk at the last known hop.
    pub fn client(&self, peer: IpAddr, headers: &axum::http::HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let values = |name: &str| -> Vec<String> {
            headers
                .get_all(name)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        };
        let forwarded = values("forwarded");
        let hops: Vec<Option<IpAddr>> = if !forwarded.is_empty() {
            forwarded
                .iter()
                .map(|element| {
                    element.split(';').find_map(|pair| {
                        let (k, v) = pair.split_once('=')?;
                        k.trim().eq_ignore_ascii_case("for").then(|| hop_address(v))
                    })?
                })
                .collect()
        } else {
            values("x-forwarded-for")
                .iter()
                .map(|v| hop_address(v))
                .collect()
        };
        let mut client = canonical(peer);
        for hop in hops.iter().rev() {
            match hop {
                Some(ip) => {
                    client = canonical(*ip);
                    if !self.trusts(client) {
                        break;
                    }
                }
                None => break,
            }
        }
        client
    }
}

/// The address of one hop of a forwarding header: `192.0.2.7`,
/// `192.0.2.7:4711`, `2001:db8::1`, `"[2001:db8::1]:4711"`.
fn hop_address(text: &str) -> Option<IpAddr> {
    let t = text.trim().trim_matches('"');
    if let Ok(ip) = t.parse() {
        return Some(ip);
    }
    if let Some(rest) = t.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok();
    }
    let (host, port) = t.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

/// A refusal because the server is full: `503` (or `429` when it is this
/// client's share that is used up) with `Retry-After`.
pub(crate) fn busy(status: StatusCode, code: &'static str, message: String) -> ApiError {
    ApiError::new(status, code, message).retry_after(RETRY_AFTER_SECS)
}

pub use crate::error::RETRY_AFTER_SECS;

/// How far the sequence engine computes a heap game's values to find (and
/// where the theory allows, prove) its period, by default
/// ([`Config::explore_to`](crate::Config::explore_to) sets it). The Explore
/// page shows the first N.
pub const SEQUENCE_TO: u64 = 10_000;

/// The moves a page lists: `limit` if given (at least 1), at most `max`.
pub(crate) fn page_limit(limit: Option<u64>, max: usize) -> Result<usize, ApiError> {
    match limit {
        Some(0) => Err(ApiError::bad_request(
            "bad_request",
            "a page's limit is at least 1",
        )),
        Some(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX).min(max)),
        None => Ok(max),
    }
}

/// Counts per key (a client, a game) with a cap per key and in all; a
/// [`Held`] gives its place back when dropped.
pub(crate) struct Counter<K: Eq + Hash + Clone> {
    per_key: usize,
    total_cap: usize,
    state: Mutex<(usize, HashMap<K, usize>)>,
}

/// Why a [`Counter`] refused: the key's share, or the total.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Full {
    Key,
    Total,
}

impl<K: Eq + Hash + Clone> Counter<K> {
    pub(crate) fn new(per_key: usize, total_cap: usize) -> Arc<Counter<K>> {
        Arc::new(Counter {
            per_key,
            total_cap,
            state: Mutex::new((0, HashMap::new())),
        })
    }

    /// Take a place for `key`, if its share and the total allow.
    pub(crate) fn try_hold(self: &Arc<Self>, key: K) -> Result<Held<K>, Full> {
        self.try_hold_shared(key, true)
    }

    /// Take a place for `key`, if the total allows, and its share too when
    /// `capped` (a trusted proxy's connections are many clients').
    pub(crate) fn try_hold_shared(self: &Arc<Self>, key: K, capped: bool) -> Result<Held<K>, Full> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.0 >= self.total_cap {
            return Err(Full::Total);
        }
        let n = state.1.entry(key.clone()).or_insert(0);
        if capped && *n >= self.per_key {
            return Err(Full::Key);
        }
        *n += 1;
        state.0 += 1;
        Ok(Held {
            counter: self.clone(),
            key: Some(key),
        })
    }

    /// Places held in all.
    pub(crate) fn total(&self) -> usize {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).0
    }

    fn release(&self, key: &K) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.0 = state.0.saturating_sub(1);
        if let Some(n) = state.1.get_mut(key) {
            *n -= 1;
            if *n == 0 {
                state.1.remove(key);
            }
        }
    }
}

/// A place in a [`Counter`], given back when dropped.
pub(crate) struct Held<K: Eq + Hash + Clone> {
    counter: Arc<Counter<K>>,
    key: Option<K>,
}

impl<K: Eq + Hash + Clone> Drop for Held<K> {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            self.counter.release(&key);
        }
    }
}

/// Admission control, shared by every request.
pub struct Admission {
    limits: ServerLimits,
    /// Heavy work: one permit per worker.
    workers: Arc<Semaphore>,
    /// Heavy requests running or waiting, per client and in all.
    heavy: Arc<Counter<Client>>,
    /// Requests in flight per client.
    requests: Arc<Counter<Client>>,
    /// Event streams per client and in all.
    streams: Arc<Counter<Client>>,
    /// Event streams per game.
    game_streams: Arc<Counter<String>>,
    waiting: AtomicUsize,
}

/// A heavy request's turn: a worker is its own until this is dropped.
pub(crate) struct HeavyTurn {
    _worker: OwnedSemaphorePermit,
    _place: Held<Client>,
}

/// An event stream's places, held while the stream is open.
pub(crate) struct StreamPlaces {
    _client: Held<Client>,
    _game: Held<String>,
}

impl Admission {
    /// Admission under these limits.
    pub fn new(limits: ServerLimits) -> Admission {
        let heavy_total = limits.heavy_workers + limits.heavy_queue;
        Admission {
            workers: Arc::new(Semaphore::new(limits.heavy_workers.max(1))),
            heavy: Counter::new(limits.heavy_per_client, heavy_total),
            requests: Counter::new(limits.requests_per_client, usize::MAX),
            streams: Counter::new(limits.streams_per_client, limits.max_streams),
            game_streams: Counter::new(limits.streams_per_game, usize::MAX),
            waiting: AtomicUsize::new(0),
            limits,
        }
    }

    /// The limits.
    pub fn limits(&self) -> &ServerLimits {
        &self.limits
    }

    /// Heavy requests running or waiting now.
    pub fn heavy_in_flight(&self) -> usize {
        self.heavy.total()
    }

    /// Event streams open now.
    pub fn open_streams(&self) -> usize {
        self.streams.total()
    }

    /// A place for one more request of `client`, held while it is served.
    pub(crate) fn request(&self, client: Client) -> Result<Held<Client>, ApiError> {
        self.requests.try_hold(client).map_err(|_| {
            busy(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_requests",
                format!(
                    "this client has {} requests in flight already, the most the server serves at once for one client",
                    self.limits.requests_per_client
                ),
            )
        })
    }

    /// Wait for a heavy worker, if the queue and the client's share allow;
    /// refused at once otherwise, and after `wait` at most.
    pub(crate) async fn heavy(
        &self,
        client: Client,
        wait: Duration,
    ) -> Result<HeavyTurn, ApiError> {
        let place = self.heavy.try_hold(client).map_err(|full| match full {
            Full::Key => busy(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_analyses",
                format!(
                    "this client has {} analyses running or waiting already, its share of the server; retry when one is done",
                    self.limits.heavy_per_client
                ),
            ),
            Full::Total => busy(
                StatusCode::SERVICE_UNAVAILABLE,
                "server_busy",
                format!(
                    "the server is busy: {} analyses are running or waiting (the most it queues); retry shortly",
                    self.limits.heavy_workers + self.limits.heavy_queue
                ),
            ),
        })?;
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let permit = tokio::time::timeout(wait, self.workers.clone().acquire_owned()).await;
        self.waiting.fetch_sub(1, Ordering::Relaxed);
        match permit {
            Ok(Ok(worker)) => Ok(HeavyTurn {
                _worker: worker,
                _place: place,
            }),
            _ => Err(busy(
                StatusCode::SERVICE_UNAVAILABLE,
                "server_busy",
                format!(
                    "the server is busy: no worker was free within {} s; retry shortly",
                    wait.as_secs()
                ),
            )),
        }
    }

    /// Places for an event stream of game `id` for `client`.
    pub(crate) fn stream(&self, client: Client, id: &str) -> Result<StreamPlaces, ApiError> {
        let client_place = self.streams.try_hold(client).map_err(|full| match full {
            Full::Key => busy(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_streams",
                format!(
                    "this client has {} event streams open already, the most for one client",
                    self.limits.streams_per_client
                ),
            ),
            Full::Total => busy(
                StatusCode::SERVICE_UNAVAILABLE,
                "too_many_streams",
                format!(
                    "the server has {} event streams open, the most it holds; retry shortly",
                    self.limits.max_streams
                ),
            ),
        })?;
        let game_place = self.game_streams.try_hold(id.to_string()).map_err(|_| {
            busy(
                StatusCode::SERVICE_UNAVAILABLE,
                "too_many_streams",
                format!(
                    "game '{id}' has {} event streams open, the most for one game",
                    self.limits.streams_per_game
                ),
            )
        })?;
        Ok(StreamPlaces {
            _client: client_place,
            _game: game_place,
        })
    }
}

/// Open connections, in all and per client, for the server's loop.
pub(crate) type Connections = Arc<Counter<IpAddr>>;

/// A counter of connections under these limits.
pub(crate) fn connections(limits: &ServerLimits) -> Connections {
    Counter::new(limits.connections_per_client, limits.max_connections)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_caps_each_key_and_the_total_and_gives_places_back() {
        let c: Arc<Counter<u8>> = Counter::new(2, 3);
        let a1 = c.try_hold(1).unwrap();
        let _a2 = c.try_hold(1).unwrap();
        assert_eq!(c.try_hold(1).err(), Some(Full::Key));
        let _b1 = c.try_hold(2).unwrap();
        assert_eq!(c.try_hold(3).err(), Some(Full::Total));
        drop(a1);
        assert_eq!(c.total(), 2);
        let _a3 = c.try_hold(1).unwrap();
        assert_eq!(c.try_hold(2).err(), Some(Full::Total));
    }

    #[test]
    fn address_blocks_hold_what_their_prefix_says() {
        let net = Cidr::parse("10.1.0.0/16").unwrap();
        assert!(net.contains("10.1.255.7".parse().unwrap()));
        assert!(!net.contains("10.2.0.1".parse().unwrap()));
        assert!(net.contains("::ffff:10.1.2.3".parse().unwrap()));
        let one = Cidr::parse("192.0.2.7").unwrap();
        assert!(one.contains("192.0.2.7".parse().unwrap()));
        assert!(!one.contains("192.0.2.8".parse().unwrap()));
        let all = Cidr::parse("0.0.0.0/0").unwrap();
        assert!(all.contains("203.0.113.9".parse().unwrap()));
        assert!(!all.contains("2001:db8::1".parse().unwrap()));
        let v6 = Cidr::parse("fd00::/8").unwrap();
        assert!(v6.contains("fd12:3456::1".parse().unwrap()));
        assert!(!v6.contains("fe80::1".parse().unwrap()));
        for bad in [
            "10.0.0.0/33",
            "fd00::/129",
            "nim.example",
            "10.0.0/8",
            "10.0.0.0/x",
        ] {
            assert!(Cidr::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_client_behind_a_trusted_proxy_is_the_nearest_untrusted_hop() {
        use axum::http::{HeaderMap, HeaderValue};
        let proxies = TrustedProxies::new(vec![
            Cidr::parse("127.0.0.1").unwrap(),
            Cidr::parse("10.0.0.0/8").unwrap(),
        ]);
        let headers = |pairs: &[(&'static str, &'static str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in pairs {
                h.append(*k, HeaderValue::from_static(v));
            }
            h
        };
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let stranger: IpAddr = "198.51.100.4".parse().unwrap();
        let xff = headers(&[("x-forwarded-for", "203.0.113.9")]);
        assert_eq!(
            proxies.client(proxy, &xff),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        // A stranger's header is ignored: it is the client.
        assert_eq!(proxies.client(stranger, &xff), stranger);
        // A client cannot choose its address by sending the header itself:
        // the proxy appends the real one, and the walk stops there.
        let spoofed = headers(&[("x-forwarded-for", "1.2.3.4, 203.0.113.9, 10.0.0.5")]);
        assert_eq!(
            proxies.client(proxy, &spoofed),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        let two_headers = headers(&[
            ("x-forwarded-for", "1.2.3.4"),
            ("x-forwarded-for", "203.0.113.10:5555"),
        ]);
        assert_eq!(
            proxies.client(proxy, &two_headers),
            "203.0.113.10".parse::<IpAddr>().unwrap()
        );
        let forwarded = headers(&[
            (
                "forwarded",
                "for=1.2.3.4;proto=https, for=\"[2001:db8::7]:4711\"",
            ),
            ("x-forwarded-for", "9.9.9.9"),
        ]);
        assert_eq!(
            proxies.client(proxy, &forwarded),
            "2001:db8::7".parse::<IpAddr>().unwrap()
        );
        let unknown = headers(&[("forwarded", "for=unknown, for=10.0.0.9")]);
        assert_eq!(
            proxies.client(proxy, &unknown),
            "10.0.0.9".parse::<IpAddr>().unwrap()
        );
        assert_eq!(proxies.client(proxy, &HeaderMap::new()), proxy);
    }

    #[tokio::test]
    async fn heavy_work_waits_its_turn_and_a_full_queue_is_refused_at_once() {
        let limits = ServerLimits {
            heavy_workers: 1,
            heavy_queue: 1,
            heavy_per_client: 5,
            ..ServerLimits::default()
        };
        let admission = Arc::new(Admission::new(limits));
        let me = Client::UNKNOWN;
        let first = admission.heavy(me, Duration::from_secs(5)).await.unwrap();
        // The second waits; the third finds the queue full.
        let waiter = {
            let admission = admission.clone();
            tokio::spawn(async move { admission.heavy(me, Duration::from_secs(5)).await.is_ok() })
        };
        while admission.waiting.load(Ordering::Relaxed) == 0 {
            tokio::task::yield_now().await;
        }
        let third = admission.heavy(me, Duration::from_secs(5)).await;
        let refusal = third.err().expect("refused");
        assert_eq!(refusal.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(refusal.retry_after, Some(RETRY_AFTER_SECS));
        drop(first);
        assert!(waiter.await.unwrap());
    }

    #[tokio::test]
    async fn a_client_beyond_its_share_is_told_to_retry() {
        let limits = ServerLimits {
            heavy_workers: 4,
            heavy_per_client: 1,
            ..ServerLimits::default()
        };
        let admission = Admission::new(limits);
        let a = Client("10.0.0.1".parse().unwrap());
        let b = Client("10.0.0.2".parse().unwrap());
        let _turn = admission.heavy(a, Duration::from_secs(1)).await.unwrap();
        let e = admission
            .heavy(a, Duration::from_secs(1))
            .await
            .err()
            .unwrap();
        assert_eq!(e.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(admission.heavy(b, Duration::from_secs(1)).await.is_ok());
    }
}
