//! The size and number parsers every option goes through (`-t 1m`, `-n 1e3`): any text gives
//! a value or an error, never a panic; a value prints back and parses to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(n) = text::parse_size(s) {
        assert_eq!(text::parse_size(&n.to_string()), Ok(n));
    }
    let _ = text::parse_signed(s);
    let _ = text::parse_decimal(s);
});
