//! The schema as an ordered list of migrations. `PRAGMA user_version` is the number of
//! migrations a file has had; opening applies the missing ones, each in its own transaction
//! with the version bump, so a file is always at one version. A migration, once released, is
//! never edited: a change is a new migration at the end (`docs/store.md`).

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior};

use crate::rows;

struct Migration {
    sql: &'static str,
    /// Rebuilds a table that others reference: SQLite's foreign keys are switched off around
    /// the transaction (they cannot be inside one) and checked before it commits.
    rebuilds: bool,
    /// Fills what the new tables derive from the documents already stored.
    backfill: Option<fn(&Transaction) -> rusqlite::Result<()>>,
}

static MIGRATIONS: [Migration; 4] = [
    // 1: runs with their documents and labels.
    Migration {
        sql: "
CREATE TABLE runs (
    id           INTEGER PRIMARY KEY,
    run_id       TEXT    NOT NULL,
    started      TEXT    NOT NULL,
    finished     TEXT    NOT NULL DEFAULT '',
    host         TEXT    NOT NULL,
    workload     TEXT    NOT NULL,
    command_line TEXT    NOT NULL,
    ranks        INTEGER NOT NULL,
    nodes        INTEGER NOT NULL,
    exit_code    INTEGER,
    complete     INTEGER NOT NULL DEFAULT 0,
    source       TEXT    NOT NULL,
    document     TEXT    NOT NULL,
    UNIQUE (run_id, host)
);
CREATE TABLE labels (
    run   INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    key   TEXT    NOT NULL,
    value TEXT    NOT NULL,
    PRIMARY KEY (run, key)
);
CREATE INDEX labels_by_pair ON labels (key, value);
",
        backfill: None,
        rebuilds: false,
    },
    // 2: queryable phases and headline figures, the file an import read, runs by time.
    Migration {
        sql: "
ALTER TABLE runs ADD COLUMN origin TEXT;
CREATE INDEX runs_by_start ON runs (started, id);
CREATE TABLE phases (
    run             INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,
    operation       TEXT    NOT NULL,
    io500_phase     TEXT,
    iteration       INTEGER NOT NULL,
    bytes           INTEGER NOT NULL,
    ops             INTEGER NOT NULL,
    time_s          REAL    NOT NULL,
    bandwidth_mib_s REAL    NOT NULL,
    iops            REAL    NOT NULL,
    PRIMARY KEY (run, seq)
);
CREATE TABLE figures (
    run   INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq   INTEGER NOT NULL,
    name  TEXT    NOT NULL,
    value REAL    NOT NULL,
    unit  TEXT    NOT NULL,
    valid INTEGER NOT NULL,
    PRIMARY KEY (run, seq)
);
",
        backfill: Some(rows::backfill),
        rebuilds: false,
    },
    // 3: parameter sweeps; their points are runs labelled sweep=ID (`docs/sweep.md`).
    Migration {
        sql: "
CREATE TABLE sweeps (
    id      INTEGER PRIMARY KEY,
    created TEXT    NOT NULL,
    key     TEXT    NOT NULL,
    plan    TEXT    NOT NULL
);
CREATE INDEX sweeps_by_key ON sweeps (key, id);
",
        backfill: None,
        rebuilds: false,
    },
    // 4: a duplicate is the same content (the content hash), not the same run id and host:
    // the table is rebuilt without UNIQUE (run_id, host), which judged every IO500 directory
    // without a start time a copy of the first.
    Migration {
        sql: "
CREATE TABLE runs_new (
    id           INTEGER PRIMARY KEY,
    run_id       TEXT    NOT NULL,
    started      TEXT    NOT NULL,
    finished     TEXT    NOT NULL DEFAULT '',
    host         TEXT    NOT NULL,
    workload     TEXT    NOT NULL,
    command_line TEXT    NOT NULL,
    ranks        INTEGER NOT NULL,
    nodes        INTEGER NOT NULL,
    exit_code    INTEGER,
    complete     INTEGER NOT NULL DEFAULT 0,
    source       TEXT    NOT NULL,
    document     TEXT    NOT NULL,
    origin       TEXT,
    content_hash TEXT
);
INSERT INTO runs_new (id, run_id, started, finished, host, workload, command_line, ranks, nodes,
                      exit_code, complete, source, document, origin)
    SELECT id, run_id, started, finished, host, workload, command_line, ranks, nodes,
           exit_code, complete, source, document, origin FROM runs;
DROP TABLE runs;
ALTER TABLE runs_new RENAME TO runs;
CREATE INDEX runs_by_start ON runs (started, id);
CREATE INDEX runs_by_run_id ON runs (run_id, host);
CREATE INDEX runs_by_content ON runs (content_hash);
",
        backfill: Some(rows::backfill_content),
        rebuilds: true,
    },
];

/// The schema version this build writes: the number of migrations.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// The file's `user_version`.
pub fn version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// Brings the file to [`SCHEMA_VERSION`]; returns the version it found when that is newer
/// (the file is then left as it is).
pub fn migrate(conn: &mut Connection) -> rusqlite::Result<Result<(), u32>> {
    loop {
        // IMMEDIATE: a second process opening the same new file waits here, then sees the
        // version the first one wrote instead of applying the migration twice.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let found = version(&tx)?;
        if found > SCHEMA_VERSION {
            return Ok(Err(found));
        }
        let Some(m) = MIGRATIONS.get(found as usize) else {
            return Ok(Ok(()));
        };
        if m.rebuilds {
            // SQLite's procedure for changing a table's schema: without it, dropping the old
            // table would cascade into the labels and rows that reference it.
            drop(tx);
            conn.pragma_update(None, "foreign_keys", false)?;
            let applied = apply(conn, m, found);
            conn.pragma_update(None, "foreign_keys", true)?;
            applied?;
            continue;
        }
        apply_in(&tx, m, found)?;
        tx.commit()?;
    }
}

/// Migration `m` on a file at version `found`, in a transaction of its own that checks the
/// foreign keys before it commits.
fn apply(conn: &mut Connection, m: &Migration, found: u32) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // Another process may have migrated the file between the two transactions.
    if version(&tx)? != found {
        return Ok(());
    }
    apply_in(&tx, m, found)?;
    let broken: Option<String> = tx
        .query_row("PRAGMA foreign_key_check", [], |r| r.get(0))
        .optional()?;
    if let Some(table) = broken {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY),
            Some(format!(
                "migration {} left rows of {table} without their run",
                found + 1
            )),
        ));
    }
    tx.commit()
}

fn apply_in(tx: &Transaction, m: &Migration, found: u32) -> rusqlite::Result<()> {
    tx.execute_batch(m.sql)?;
    if let Some(fill) = m.backfill {
        fill(tx)?;
    }
    tx.pragma_update(None, "user_version", found + 1)
}
