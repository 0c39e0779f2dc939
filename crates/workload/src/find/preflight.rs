//! Checks before any directory is read, so bad input ends with exit code 2: every path is a
//! directory, and the `-newer` reference exists.

use engine::Engine;
use engine::Target;
use plan::find::FindParams;

/// Checks `p` through `engine` (a POSIX one: find reads real trees).
pub fn preflight(p: &FindParams, engine: &dyn Engine) -> Result<(), String> {
    for path in &p.paths {
        match engine.stat(Target::from(path)) {
            Ok(st) if st.is_dir => {}
            Ok(_) => return Err(format!("find: {}: not a directory", path.display())),
            Err(e) => return Err(format!("find: {}: {e}", path.display())),
        }
    }
    if let Some(r) = &p.newer {
        engine
            .lstat(Target::from(r))
            .map_err(|e| format!("find: -newer {}: {e}", r.display()))?;
    }
    Ok(())
}
