//! The IO500 `.ini` parser: any text is a configuration or an error naming a line, never a
//! panic; a parsed configuration hashes and answers its keys.
#![no_main]

use libfuzzer_sys::fuzz_target;
use workload::io500::config::Config;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(c) = Config::parse(s) {
        let _ = c.hash();
        let _ = c.u64("global", "verbosity");
        let _ = c.bool("find", "run");
    }
});
