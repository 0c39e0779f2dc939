//! Opening the store and writing runs into it: a run is created incomplete, rewritten as its
//! phases end and marked complete at its end; an import is written whole.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{
    params, Connection, OpenFlags, OptionalExtension, Transaction, TransactionBehavior,
};

use crate::error::StoreError;
use crate::label::Label;
use crate::migrations::{self, SCHEMA_VERSION};
use crate::rows;
use crate::run::{RunId, Source};
use results::RunResult;

/// How long a writer waits for another process's transaction before giving up. Transactions
/// last milliseconds; the wait only matters when runs end at the same moment.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// An open store: one SQLite connection.
pub struct Store {
    pub(crate) conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens `path`, creating it and its parent directories if missing, and brings its schema
    /// up to date. Fails on a path that cannot be written, a file that is no database and a
    /// file written by a newer iogauge: a command calls this before its run starts.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let fail = |message: String| StoreError::Open {
            path: path.to_path_buf(),
            message,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| fail(format!("cannot create directory {}: {e}", dir.display())))?;
        }
        if path.is_dir() {
            return Err(fail("it is a directory".into()));
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE;
        let mut conn = Connection::open_with_flags(path, flags).map_err(|e| fail(e.to_string()))?;
        // SQLite opens a write-protected file read-only without saying so.
        if conn
            .is_readonly(rusqlite::MAIN_DB)
            .map_err(|e| fail(e.to_string()))?
        {
            return Err(fail("the file is not writable".into()));
        }
        let setup = |c: &Connection| -> rusqlite::Result<()> {
            c.busy_timeout(BUSY_TIMEOUT)?;
            c.pragma_update(None, "foreign_keys", true)?;
            // WAL: readers never block the writer, and two processes that finish at the same
            // time queue for the write lock instead of failing. The mode is kept in the file.
            wal(c)?;
            // In WAL mode NORMAL cannot corrupt the file; it only skips an fsync per commit.
            c.pragma_update(None, "synchronous", "NORMAL")
        };
        setup(&conn).map_err(|e| fail(e.to_string()))?;
        match migrations::migrate(&mut conn).map_err(|e| fail(e.to_string()))? {
            Ok(()) => Ok(Store {
                conn,
                path: path.to_path_buf(),
            }),
            Err(found) => Err(StoreError::TooNew {
                path: path.to_path_buf(),
                found,
                known: SCHEMA_VERSION,
            }),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A run that starts: stored incomplete, with what the document holds so far.
    pub fn start(
        &mut self,
        doc: &RunResult,
        source: Source,
        labels: &[Label],
    ) -> Result<RunId, StoreError> {
        let tx = self.write()?;
        let id = insert_row(&tx, doc, source, None, labels, false)?;
        tx.commit()?;
        Ok(id)
    }

    /// The document again, after a phase ended: the run stays incomplete.
    pub fn save(&mut self, id: RunId, doc: &RunResult) -> Result<(), StoreError> {
        self.update(id, doc, false)
    }

    /// The run's final document: the run is complete.
    pub fn finish(&mut self, id: RunId, doc: &RunResult) -> Result<(), StoreError> {
        self.update(id, doc, true)
    }

    /// A whole document at once (an import): complete when it reached its end
    /// ([`RunResult::reached_end`]). `origin` is the file or directory it was read from. A
    /// run with the same content ([`results::content_hash`]) already stored is
    /// [`StoreError::Duplicate`], whatever its run id, host or times.
    pub fn insert(
        &mut self,
        doc: &RunResult,
        source: Source,
        origin: Option<&str>,
        labels: &[Label],
    ) -> Result<RunId, StoreError> {
        let tx = self.write()?;
        let same: Option<i64> = tx
            .query_row(
                "SELECT id FROM runs WHERE content_hash = ?1 ORDER BY id LIMIT 1",
                [results::content_hash(doc)],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(id) = same {
            return Err(StoreError::Duplicate(RunId(id)));
        }
        let id = insert_row(&tx, doc, source, origin, labels, doc.reached_end())?;
        tx.commit()?;
        Ok(id)
    }

    /// Adds labels to a run; a key it already has gets the new value.
    pub fn add_labels(&mut self, id: RunId, labels: &[Label]) -> Result<(), StoreError> {
        let tx = self.write()?;
        if !exists(&tx, id)? {
            return Err(StoreError::NotFound(id));
        }
        put_labels(&tx, id, labels)?;
        tx.commit()?;
        Ok(())
    }

    fn update(&mut self, id: RunId, doc: &RunResult, complete: bool) -> Result<(), StoreError> {
        let tx = self.write()?;
        // A run once complete stays complete.
        let changed = tx.execute(
            "UPDATE runs SET finished = ?2, ranks = ?3, nodes = ?4,
                    exit_code = CASE WHEN ?5 THEN ?6 ELSE exit_code END,
                    complete = MAX(complete, ?5), document = ?7, content_hash = ?8
             WHERE id = ?1",
            params![
                id.0,
                doc.finished,
                saturate(doc.ranks.count),
                saturate(doc.ranks.nodes),
                complete,
                doc.exit_code,
                document(doc),
                results::content_hash(doc),
            ],
        )?;
        if changed == 0 {
            return Err(StoreError::NotFound(id));
        }
        rows::write(&tx, id.0, doc)?;
        tx.commit()?;
        Ok(())
    }

    /// A write transaction, taking the write lock at once (waiting up to the busy timeout),
    /// so it cannot fail halfway for want of it.
    fn write(&mut self) -> rusqlite::Result<Transaction<'_>> {
        self.conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
    }
}

/// Puts the file in WAL mode. Two connections that open a new file at once both ask for the
/// switch, which needs the file to themselves; SQLite then answers one of them "database is
/// locked" at once, without its busy handler (about one test run in ten), so that one waits
/// and asks again, up to the busy timeout.
fn wal(c: &Connection) -> rusqlite::Result<()> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    loop {
        match c.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())) {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            other => return other,
        }
    }
}

/// Inserts `doc` as a new run with its labels and rows.
fn insert_row(
    tx: &Transaction,
    doc: &RunResult,
    source: Source,
    origin: Option<&str>,
    labels: &[Label],
    complete: bool,
) -> Result<RunId, StoreError> {
    tx.execute(
        "INSERT INTO runs (run_id, started, finished, host, workload, command_line, ranks,
                           nodes, exit_code, complete, source, origin, document, content_hash)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        params![
            doc.run_id,
            doc.started,
            doc.finished,
            doc.environment.hostname,
            doc.workload(),
            doc.command_line.join(" "),
            saturate(doc.ranks.count),
            saturate(doc.ranks.nodes),
            complete.then_some(doc.exit_code),
            complete,
            source.as_str(),
            origin,
            document(doc),
            results::content_hash(doc),
        ],
    )?;
    let id = tx.last_insert_rowid();
    put_labels(tx, RunId(id), labels)?;
    rows::write(tx, id, doc)?;
    Ok(RunId(id))
}

/// The document as stored: compact JSON, which reads back equal (`float_roundtrip`).
fn document(doc: &RunResult) -> String {
    serde_json::to_string(doc).expect("a RunResult has string keys only and always serializes")
}

fn saturate(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn exists(tx: &Transaction, id: RunId) -> rusqlite::Result<bool> {
    tx.query_row("SELECT 1 FROM runs WHERE id = ?1", [id.0], |_| Ok(()))
        .optional()
        .map(|r| r.is_some())
}

fn put_labels(tx: &Transaction, id: RunId, labels: &[Label]) -> rusqlite::Result<()> {
    let mut put =
        tx.prepare_cached("INSERT OR REPLACE INTO labels (run, key, value) VALUES (?1, ?2, ?3)")?;
    for l in labels {
        put.execute(params![id.0, l.key, l.value])?;
    }
    Ok(())
}
