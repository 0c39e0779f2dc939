//! `iogauge ior`'s option parser and its checks before any I/O: any command line is a plan or
//! a usage error, never a panic. Words can be the table's real option names (`src/argv.rs`).
#![no_main]

use std::sync::LazyLock;

use iogauge_fuzz::{argv, before_io};
use libfuzzer_sys::fuzz_target;

static VOCABULARY: LazyLock<Vec<String>> =
    LazyLock::new(|| argv::vocabulary(&cmdline::ior::options::TABLE));

fuzz_target!(|data: &[u8]| {
    before_io::ior(&argv::words(data, &VOCABULARY));
});
