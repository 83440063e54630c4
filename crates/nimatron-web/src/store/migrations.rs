//! The schema, as numbered migrations that both backends share: one text
//! each, in the SQL that SQLite and PostgreSQL both take (`BIGINT` and
//! `TEXT` columns, 0/1 for truth values), with the few words that differ
//! filled in per dialect. A database records the migrations it has had in
//! `nimatron_schema`; opening it applies the rest, in one transaction (on
//! PostgreSQL under an advisory lock, so that servers starting together
//! apply each once).

/// The database a statement is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite 3.
    Sqlite,
    /// PostgreSQL (13 or later).
    Postgres,
}

/// One step of the schema.
pub struct Migration {
    /// Its number: migrations run in this order, each once.
    pub version: i64,
    /// What it does.
    pub name: &'static str,
    /// Its statements, with `{without_rowid}` where SQLite's table option
    /// goes.
    sql: &'static str,
}

impl Migration {
    /// The statements for `dialect`.
    pub fn sql(&self, dialect: Dialect) -> String {
        let without_rowid = match dialect {
            Dialect::Sqlite => " WITHOUT ROWID",
            Dialect::Postgres => "",
        };
        self.sql.replace("{without_rowid}", without_rowid)
    }
}

/// The table that records which migrations a database has had.
pub const SCHEMA_TABLE: &str = "CREATE TABLE IF NOT EXISTS nimatron_schema (
    version    BIGINT PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at BIGINT NOT NULL
)";

/// Every migration, in order.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "games and moves",
        // `IF NOT EXISTS`: a SQLite database made before migrations were
        // recorded has these tables already (and gains the columns added
        // since in `sqlite.rs`).
        sql: "
CREATE TABLE IF NOT EXISTS games (
    id             TEXT PRIMARY KEY,
    spec           TEXT NOT NULL,
    convention     TEXT NOT NULL,
    mode           TEXT NOT NULL,
    level          TEXT,
    computer_seat  BIGINT,
    start          TEXT NOT NULL,
    first_seat     BIGINT NOT NULL,
    position       TEXT NOT NULL,
    to_move        BIGINT NOT NULL,
    ply            BIGINT NOT NULL,
    status         TEXT NOT NULL,
    winner         BIGINT,
    token0         TEXT NOT NULL,
    token1         TEXT,
    invite         TEXT,
    rng            BIGINT NOT NULL,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL,
    resigned       BIGINT,
    analysis_votes BIGINT NOT NULL DEFAULT 0,
    rematch_offers BIGINT NOT NULL DEFAULT 0,
    rematch        TEXT
);
CREATE INDEX IF NOT EXISTS games_by_time ON games(created_at);
CREATE TABLE IF NOT EXISTS moves (
    game_id     TEXT NOT NULL REFERENCES games(id),
    ply         BIGINT NOT NULL,
    seat        BIGINT NOT NULL,
    notation    TEXT NOT NULL,
    text        TEXT NOT NULL,
    before      TEXT NOT NULL,
    after       TEXT NOT NULL,
    by_computer BIGINT NOT NULL,
    random      BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
){without_rowid};
",
    },
    Migration {
        version: 2,
        name: "row revisions",
        sql: "ALTER TABLE games ADD COLUMN rev BIGINT NOT NULL DEFAULT 0;",
    },
];

/// The newest schema this build knows.
pub fn latest() -> i64 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_numbered_in_order_from_one() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1, "{}", m.name);
        }
        assert!(
            MIGRATIONS[0]
                .sql(Dialect::Sqlite)
                .contains(") WITHOUT ROWID;")
        );
        assert!(!MIGRATIONS[0].sql(Dialect::Postgres).contains("ROWID"));
    }
}
