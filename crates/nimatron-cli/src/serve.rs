//! `nimatron serve`: the browser app, from the `nimatron-web` crate.

use crate::args::ServeArgs;

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let mut config = nimatron_web::Config::new(args.db);
    if args.sync_full {
        config.durability = nimatron_web::Durability::Disk;
    }
    nimatron_web::run(args.addr, config)?;
    Ok(())
}
