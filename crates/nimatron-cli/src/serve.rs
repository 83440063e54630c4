//! `nimatron serve`: the browser app, from the `nimatron-web` crate.

use nimatron::solve::Limits;

use crate::args::ServeArgs;

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let mut config = nimatron_web::Config::new(args.db);
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
    };
    nimatron_web::run(args.addr, config)?;
    Ok(())
}
