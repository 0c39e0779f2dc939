//! `iogauge import PATH...`: IO500 result directories (official io500 or iogauge) and iogauge
//! JSON documents into the store, with the global `--label`s. Reading the files is the IO500
//! code's (`workload::io500::import`); this only stores and says what happened.

use std::path::PathBuf;

use store::{Source, StoreError};
use workload::io500::import::{self, Origin};

use super::open;
use crate::world::usage;
use crate::world::Global;

pub fn import(global: &Global, paths: &[PathBuf]) -> u8 {
    // Every path is read before anything is stored: a bad one stores nothing (exit 2).
    let mut read = Vec::with_capacity(paths.len());
    for p in paths {
        match import::read(p) {
            Ok(i) => read.push(i),
            // The reader's messages name the file they are about; others get the path.
            Err(e) if e.contains(&p.display().to_string()) => return usage("import", e),
            Err(e) => return usage("import", format!("{}: {e}", p.display())),
        }
    }
    let mut store = match open(global, "import") {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut code = 0;
    for imported in read {
        let (source, origin) = match &imported.origin {
            Origin::Document(p) => (Source::Json, p.clone()),
            Origin::Io500Dir { file, .. } => (Source::Io500Dir, file.clone()),
        };
        for note in &imported.notes {
            eprintln!("iogauge import: note: {}: {note}", origin.display());
        }
        // Kept whole, so that `show` can say where the run came from wherever it is asked.
        let origin_text = std::fs::canonicalize(&origin)
            .unwrap_or_else(|_| origin.clone())
            .display()
            .to_string();
        let labels = &global.storing.labels;
        match store.insert(&imported.doc, source, Some(&origin_text), labels) {
            Ok(id) => crate::outln!(
                "stored {} as run {}: iogauge show {}",
                origin.display(),
                id.0,
                id.0
            ),
            Err(StoreError::Duplicate(id)) => {
                crate::outln!("{} is stored already, as run {}", origin.display(), id.0);
            }
            Err(e) => {
                eprintln!("iogauge import: {}: {e}", origin.display());
                code = 1;
            }
        }
    }
    code
}
