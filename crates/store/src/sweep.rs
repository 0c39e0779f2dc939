//! Parameter sweeps: a row per sweep with its plan (JSON the sweep command writes and reads;
//! the store keeps it as text) and a key that names the plan, so `--resume` finds the sweep
//! a command line started. The points are ordinary runs labelled `sweep=ID`.

use rusqlite::{params, OptionalExtension};

use crate::error::StoreError;
use crate::store::Store;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSweep {
    pub id: i64,
    /// RFC 3339 UTC.
    pub created: String,
    pub key: String,
    pub plan: String,
}

impl Store {
    /// A new sweep; its id labels its points.
    pub fn create_sweep(
        &mut self,
        created: &str,
        key: &str,
        plan: &str,
    ) -> Result<i64, StoreError> {
        self.conn.execute(
            "INSERT INTO sweeps (created, key, plan) VALUES (?1, ?2, ?3)",
            params![created, key, plan],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    pub fn sweep(&self, id: i64) -> Result<Option<StoredSweep>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT id, created, key, plan FROM sweeps WHERE id = ?1",
                [id],
                row,
            )
            .optional()?)
    }

    /// The newest sweep of the plan named `key`.
    pub fn latest_sweep(&self, key: &str) -> Result<Option<StoredSweep>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT id, created, key, plan FROM sweeps WHERE key = ?1 ORDER BY id DESC LIMIT 1",
                [key],
                row,
            )
            .optional()?)
    }
}

impl Store {
    /// Every sweep of the plan named `key`, oldest first.
    pub fn sweeps_of(&self, key: &str) -> Result<Vec<StoredSweep>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, created, key, plan FROM sweeps WHERE key = ?1 ORDER BY id")?;
        let rows = stmt.query_map([key], row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

fn row(r: &rusqlite::Row) -> rusqlite::Result<StoredSweep> {
    Ok(StoredSweep {
        id: r.get(0)?,
        created: r.get(1)?,
        key: r.get(2)?,
        plan: r.get(3)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps_are_found_by_id_and_by_plan() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Store::open(&dir.path().join("r.sqlite")).unwrap();
        let a = s.create_sweep("2026-01-01T00:00:00Z", "k1", "{}").unwrap();
        let b = s
            .create_sweep("2026-01-02T00:00:00Z", "k1", "{\"x\":1}")
            .unwrap();
        s.create_sweep("2026-01-03T00:00:00Z", "k2", "{}").unwrap();
        assert_eq!(s.sweep(a).unwrap().unwrap().created, "2026-01-01T00:00:00Z");
        assert_eq!(s.latest_sweep("k1").unwrap().unwrap().id, b);
        assert!(s.latest_sweep("k3").unwrap().is_none());
        let ids: Vec<i64> = s.sweeps_of("k1").unwrap().iter().map(|w| w.id).collect();
        assert_eq!(ids, [a, b]);
        assert!(s.sweep(99).unwrap().is_none());
    }
}
