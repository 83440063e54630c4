//! `nimatron serve`: the browser app, from the `nimatron-web` crate.

use std::io::ErrorKind;

use nimatron::solve::Limits;

use crate::args::ServeArgs;

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let mut config = nimatron_web::Config::new(args.db);
    config.db_connections = args.db_connections;
    config.trusted_proxies = nimatron_web::TrustedProxies::new(args.trusted_proxy);
    if args.sync_full {
        config.durability = nimatron_web::Durability::Disk;
    }
    config.public_url = args.public_url;
    config.limits = Limits::states(args.max_states).with_time(args.request_seconds);
    let defaults = nimatron_web::ServerLimits::default();
    config.server = nimatron_web::ServerLimits {
        max_material: args.max_material,
        max_moves: args.max_moves,
        max_listed: args.max_listed,
        heavy_workers: args.heavy_workers.unwrap_or(defaults.heavy_workers),
        heavy_queue: args.heavy_queue,
        heavy_per_client: args.heavy_per_client,
        requests_per_client: args.requests_per_client,
        max_connections: args.max_connections,
        connections_per_client: args.connections_per_client,
        max_streams: args.max_streams,
        streams_per_game: args.streams_per_game,
        streams_per_client: args.streams_per_client,
        header_timeout: args.header_timeout,
        idle_timeout: args.idle_timeout,
        write_timeout: args.write_timeout,
        request_timeout: args.body_timeout,
        max_kept_states: args.max_kept_states,
        quick_search: std::time::Duration::from_millis(args.quick_search_ms as u64),
    };
    let addr = args.addr;
    match nimatron_web::run(addr, config) {
        Ok(()) => Ok(()),
        // Listening failed: say why in words and how to choose another
        // address, rather than the bare OS error.
        Err(nimatron_web::ServeError::Io(e)) if listen_advice(&e).is_some() => {
            let advice = listen_advice(&e).unwrap_or_default();
            let other = std::net::SocketAddr::new(addr.ip(), addr.port().wrapping_add(1).max(1024));
            anyhow::bail!(
                "cannot listen on {addr}: {advice} ({e}). Choose another with --addr, e.g. --addr {other} or --addr {} (a bare port listens on loopback; port 0 picks a free one)",
                other.port()
            )
        }
        Err(e) => Err(e.into()),
    }
}

/// What to tell the user when binding `--addr` failed, for the failures
/// another address would cure.
fn listen_advice(e: &std::io::Error) -> Option<&'static str> {
    match e.kind() {
        ErrorKind::AddrInUse => Some(
            "the address is already in use (another nimatron serve, or another program, has that port)",
        ),
        ErrorKind::AddrNotAvailable => Some("that address does not belong to this machine"),
        ErrorKind::PermissionDenied => Some("permission denied (ports below 1024 need privileges)"),
        _ => None,
    }
}
