//! The rows a document derives: one per phase, one per headline figure. Rewritten whole each
//! time the document is (a run has tens of phases, not millions), so they always agree with it.

use rusqlite::{params, Transaction};

use crate::figures::headline;
use crate::run::Source;
use results::RunResult;

/// Replaces run `id`'s phase and figure rows with those of `doc`.
pub fn write(tx: &Transaction, id: i64, doc: &RunResult) -> rusqlite::Result<()> {
    tx.execute("DELETE FROM phases WHERE run = ?1", [id])?;
    tx.execute("DELETE FROM figures WHERE run = ?1", [id])?;
    let mut phase = tx.prepare_cached(
        "INSERT INTO phases (run, seq, operation, io500_phase, iteration, bytes, ops, time_s,
                             bandwidth_mib_s, iops)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?;
    for (seq, p) in doc.phases.iter().enumerate() {
        phase.execute(params![
            id,
            seq as i64,
            p.operation.label(),
            p.io500_phase,
            p.iteration,
            // SQLite integers are signed: a count past i64::MAX is no real run.
            i64::try_from(p.bytes).unwrap_or(i64::MAX),
            i64::try_from(p.ops).unwrap_or(i64::MAX),
            p.times.total_s,
            p.bandwidth_mib_s,
            p.iops,
        ])?;
    }
    let mut figure = tx.prepare_cached(
        "INSERT INTO figures (run, seq, name, value, unit, valid) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for (seq, f) in headline(doc).iter().enumerate() {
        figure.execute(params![id, seq as i64, f.name, f.value, f.unit, f.valid])?;
    }
    Ok(())
}

/// Migration 2: the rows of every run stored before the tables existed. A document that does
/// not parse keeps its run without rows rather than failing the whole upgrade.
pub fn backfill(tx: &Transaction) -> rusqlite::Result<()> {
    let docs: Vec<(i64, String)> = tx
        .prepare("SELECT id, document FROM runs")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (id, text) in docs {
        if let Ok(doc) = results::from_json_str(&text) {
            write(tx, id, &doc)?;
        }
    }
    Ok(())
}

/// Migration 4: the content hash of every run stored before; an import that reached its end
/// (an IO500 `[SCORE]` without an end time among them) is complete, not a run that failed.
pub fn backfill_content(tx: &Transaction) -> rusqlite::Result<()> {
    let docs: Vec<(i64, String, String)> = tx
        .prepare("SELECT id, document, source FROM runs")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    for (id, text, source) in docs {
        // A document that does not parse keeps its run without a hash (it cannot be read
        // back, so nothing compares with it either).
        let Ok(doc) = results::from_json_str(&text) else {
            continue;
        };
        tx.execute(
            "UPDATE runs SET content_hash = ?2 WHERE id = ?1",
            params![id, results::content_hash(&doc)],
        )?;
        if source != Source::Run.as_str() && doc.reached_end() {
            tx.execute(
                "UPDATE runs SET complete = 1, exit_code = COALESCE(exit_code, ?2) WHERE id = ?1",
                params![id, doc.exit_code],
            )?;
        }
    }
    Ok(())
}
