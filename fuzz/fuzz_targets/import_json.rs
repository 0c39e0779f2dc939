//! `iogauge import` of a JSON document: any bytes are a result document or an error, never
//! a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let _ = results::from_json_str(s);
});
