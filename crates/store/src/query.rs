//! Reading runs back: a listing with headline figures, filtered by labels, workload and host;
//! one run with its whole document.

use rusqlite::{params_from_iter, OptionalExtension, Row};

use crate::error::StoreError;
use crate::figures::Figure;
use crate::label::Label;
use crate::run::{RunId, Source};
use crate::store::Store;
use results::RunResult;

/// Which runs a listing shows: those that match every condition given.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// The run has each of these labels with this value.
    pub labels: Vec<Label>,
    pub workload: Option<String>,
    pub host: Option<String>,
}

/// One line of a listing.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    pub id: RunId,
    /// The document's `run_id`.
    pub run_id: String,
    /// RFC 3339 UTC.
    pub started: String,
    pub host: String,
    pub workload: String,
    pub labels: Vec<Label>,
    /// The run reached its end; false for a run that is going on or was interrupted.
    pub complete: bool,
    /// None until the run is complete.
    pub exit_code: Option<i32>,
    pub source: Source,
    /// The file or directory an import read.
    pub origin: Option<String>,
    pub figures: Vec<Figure>,
}

/// One run as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRun {
    pub id: RunId,
    pub labels: Vec<Label>,
    pub source: Source,
    /// The file or directory an import read.
    pub origin: Option<String>,
    pub complete: bool,
    pub doc: RunResult,
}

impl Store {
    /// The runs that match `filter`, oldest first.
    pub fn list(&self, filter: &Filter) -> Result<Vec<RunSummary>, StoreError> {
        let mut sql = String::from(
            "SELECT id, run_id, started, host, workload, complete, exit_code, source, origin FROM runs
             WHERE 1",
        );
        let mut args: Vec<&str> = Vec::new();
        if let Some(w) = &filter.workload {
            sql.push_str(" AND workload = ?");
            args.push(w);
        }
        if let Some(h) = &filter.host {
            sql.push_str(" AND host = ?");
            args.push(h);
        }
        for l in &filter.labels {
            sql.push_str(
                " AND EXISTS (SELECT 1 FROM labels
                              WHERE labels.run = runs.id AND key = ? AND value = ?)",
            );
            args.extend([l.key.as_str(), l.value.as_str()]);
        }
        sql.push_str(" ORDER BY started, id");
        // One read transaction: the rows, labels and figures of one moment, whatever other
        // processes store meanwhile.
        let _snapshot = self.conn.unchecked_transaction()?;
        let mut stmt = self.conn.prepare(&sql)?;
        let heads = stmt
            .query_map(params_from_iter(args), head)?
            .collect::<Result<Vec<_>, _>>()?;
        heads
            .into_iter()
            .map(|(mut s, source)| {
                s.source = source_of(s.id, &source)?;
                s.labels = self.labels(s.id)?;
                s.figures = self.figures(s.id)?;
                Ok(s)
            })
            .collect()
    }

    /// One run with its document.
    pub fn load(&self, id: RunId) -> Result<StoredRun, StoreError> {
        let _snapshot = self.conn.unchecked_transaction()?;
        let row = self
            .conn
            .query_row(
                "SELECT source, origin, complete, document FROM runs WHERE id = ?1",
                [id.0],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, Option<String>>(1)?,
                        r.get::<_, bool>(2)?,
                        r.get::<_, String>(3)?,
                    ))
                },
            )
            .optional()?;
        let Some((source, origin, complete, text)) = row else {
            return Err(StoreError::NotFound(id));
        };
        let doc = results::from_json_str(&text).map_err(|message| StoreError::Corrupt {
            id,
            message: format!("the stored document does not read back: {message}"),
        })?;
        Ok(StoredRun {
            id,
            labels: self.labels(id)?,
            source: source_of(id, &source)?,
            origin,
            complete,
            doc,
        })
    }

    fn labels(&self, id: RunId) -> Result<Vec<Label>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT key, value FROM labels WHERE run = ?1 ORDER BY key")?;
        let rows = stmt.query_map([id.0], |r| {
            Ok(Label {
                key: r.get(0)?,
                value: r.get(1)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn figures(&self, id: RunId) -> Result<Vec<Figure>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT name, value, unit, valid FROM figures WHERE run = ?1 ORDER BY seq",
        )?;
        let rows = stmt.query_map([id.0], |r| {
            Ok(Figure {
                name: r.get(0)?,
                value: r.get(1)?,
                unit: r.get(2)?,
                valid: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

fn source_of(id: RunId, name: &str) -> Result<Source, StoreError> {
    Source::parse(name).ok_or_else(|| StoreError::Corrupt {
        id,
        message: format!("unknown source '{name}'"),
    })
}

/// A listing row without its labels and figures, and its source as stored.
fn head(r: &Row) -> rusqlite::Result<(RunSummary, String)> {
    let summary = RunSummary {
        id: RunId(r.get(0)?),
        run_id: r.get(1)?,
        started: r.get(2)?,
        host: r.get(3)?,
        workload: r.get(4)?,
        labels: Vec::new(),
        complete: r.get(5)?,
        exit_code: r.get(6)?,
        source: Source::Run,
        origin: r.get(8)?,
        figures: Vec::new(),
    };
    Ok((summary, r.get(7)?))
}
