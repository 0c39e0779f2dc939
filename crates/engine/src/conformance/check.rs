//! What the contracts share: a failure is a line naming what the engine did.

use std::io;
use std::path::Path;

/// One contract's result: Err is what went wrong, in words.
pub type Outcome = Result<(), String>;

/// Err with `what()` unless `ok`.
pub fn ensure(ok: bool, what: impl FnOnce() -> String) -> Outcome {
    if ok {
        Ok(())
    } else {
        Err(what())
    }
}

/// The value, or a failure naming the call and its error.
pub fn done<T>(call: &str, r: io::Result<T>) -> Result<T, String> {
    r.map_err(|e| format!("{call}: {}", crate::errno::describe(&e)))
}

/// The call failed with `kind`.
pub fn fails_with<T>(call: &str, r: io::Result<T>, kind: io::ErrorKind) -> Outcome {
    match r {
        Err(e) if e.kind() == kind => Ok(()),
        Err(e) => Err(format!("{call}: expected {kind:?}, got {e}")),
        Ok(_) => Err(format!("{call}: expected {kind:?}, got success")),
    }
}

/// The call failed with errno `code`, and the message names it as `errno::describe` does.
pub fn fails_with_errno<T>(call: &str, r: io::Result<T>, code: i32) -> Outcome {
    let name = crate::errno::name(code).unwrap_or("?");
    match r {
        Err(e) if e.raw_os_error() == Some(code) => {
            let text = crate::errno::describe(&e);
            ensure(text.ends_with(&format!("({name})")), || {
                format!("{call}: the message does not name {name}: {text}")
            })
        }
        Err(e) => Err(format!("{call}: expected {name}, got {e}")),
        Ok(_) => Err(format!("{call}: expected {name}, got success")),
    }
}

/// The names in `dir` (the harness looks itself, without the engine).
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// `len` bytes that differ from offset to offset and from `seed` to `seed`.
pub fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed) | 1)
        .collect()
}
