//! What can go wrong with the store, each error naming the file or the run.

use std::path::PathBuf;

use crate::run::RunId;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file cannot be created, opened, written or is no SQLite database.
    #[error("cannot open the result store {}: {message}", path.display())]
    Open { path: PathBuf, message: String },
    /// Written by a newer iogauge, whose tables this one does not know.
    #[error(
        "the result store {} has schema version {found}, newer than this iogauge understands ({known})",
        path.display()
    )]
    TooNew {
        path: PathBuf,
        found: u32,
        known: u32,
    },
    #[error("no run {0} in the result store")]
    NotFound(RunId),
    /// A run with the same content (`results::content_hash`) is already there, as this id.
    #[error("the run is already stored as run {0}")]
    Duplicate(RunId),
    /// A stored document that no longer parses (or a column with an unknown value).
    #[error("run {id}: {message}")]
    Corrupt { id: RunId, message: String },
    #[error("result store: {0}")]
    Sql(#[from] rusqlite::Error),
}
