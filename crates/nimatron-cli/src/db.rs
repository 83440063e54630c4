//! `nimatron db`: the game records' database.

use crate::args::{DbArgs, DbCommand};

pub fn run(args: DbArgs) -> anyhow::Result<()> {
    match args.command {
        DbCommand::Migrate { from, to } => migrate(&from, &to),
    }
}

/// Copy every game from `from` into `to`, saying how far it got.
fn migrate(from: &nimatron_web::Database, to: &nimatron_web::Database) -> anyhow::Result<()> {
    if from == to {
        return Err(crate::bad_input(format!(
            "--from and --to are the same database ({from}): give the one to copy into as --to"
        )));
    }
    if let nimatron_web::Database::Sqlite(path) = from
        && !path.exists()
    {
        return Err(crate::bad_input(format!(
            "--from {}: no such file (give the SQLite file that `nimatron serve --db` used)",
            path.display()
        )));
    }
    let durability = nimatron_web::Durability::default();
    let source = nimatron_web::store::open(from, durability, 2)
        .map_err(|e| anyhow::anyhow!("cannot open --from: {}", e.message))?;
    let target = nimatron_web::store::open(to, durability, 4)
        .map_err(|e| anyhow::anyhow!("cannot open --to: {}", e.message))?;
    let total = source
        .count()
        .map_err(|e| anyhow::anyhow!("reading --from: {}", e.message))?;
    eprintln!(
        "copying {total} games from {} to {}",
        source.describe(),
        target.describe()
    );
    let mut last_said = std::time::Instant::now();
    let report = nimatron_web::store::copy_games(source.as_ref(), target.as_ref(), |r| {
        if last_said.elapsed() >= std::time::Duration::from_secs(2) {
            eprintln!("  {} of {total} games", r.games + r.skipped);
            last_said = std::time::Instant::now();
        }
    })
    .map_err(|e| anyhow::anyhow!("copying: {}", e.message))?;
    println!(
        "copied {} games ({} moves); {} already there, left as they were",
        report.games, report.moves, report.skipped
    );
    Ok(())
}
