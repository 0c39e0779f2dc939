//! `iogauge import` of an IO500 result directory's result.txt and result_summary.txt: any
//! content is a run or an error, never a panic. The importer reads files, so each input is
//! written to a scratch directory of this process.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use workload::io500::import;

fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("iogauge-fuzz-import-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    })
}

fuzz_target!(|data: &[u8]| {
    for name in ["result.txt", "result_summary.txt"] {
        let f = scratch().join(name);
        std::fs::write(&f, data).unwrap();
        let _ = import::read(&f);
        std::fs::remove_file(&f).unwrap();
    }
});
