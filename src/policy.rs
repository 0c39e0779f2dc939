//! The global options `--warn ID=VALUE`, `--drop-caches[=MODE]` (`docs/warnings.md`) and
//! `--no-system` (`docs/system.md`): the thresholds of the warnings, the cache drops and the
//! system probe every run's session takes. Kept for the
//! process once parsed, because every MPI rank parses the same line and its sessions (an
//! IO500 phase's on the ranks that only take part, too) must drop alike: the drops are
//! collective.

use std::sync::OnceLock;

use results::Thresholds;
use workload::session::{DropCaches, RunPolicy};

use crate::global_opts::GlobalOpts;

static POLICY: OnceLock<RunPolicy> = OnceLock::new();

/// Reads the options; Err is the message for bad usage.
pub fn from_opts(o: &GlobalOpts) -> Result<RunPolicy, String> {
    let mut thresholds = Thresholds::default();
    for w in &o.warn {
        thresholds.set(w)?;
    }
    let drop_caches = match o.drop_caches.as_deref() {
        None => DropCaches::Off,
        Some("auto") => DropCaches::Auto,
        Some("files") => DropCaches::Files,
        Some("system") if !engine::cache::may_drop_system() => {
            return Err(
                "--drop-caches=system needs root (/proc/sys/vm/drop_caches); \
                        --drop-caches=files drops the files read, as any user"
                    .to_string(),
            )
        }
        Some("system") => DropCaches::System,
        Some(other) => {
            return Err(format!(
                "--drop-caches={other}: the mode is auto (the default), system or files"
            ))
        }
    };
    Ok(RunPolicy {
        thresholds,
        drop_caches,
        system: !o.no_system,
    })
}

/// Keeps the policy of this process's command line (once, in `main`).
pub fn set(c: RunPolicy) {
    let _ = POLICY.set(c);
}

/// The policy of this process's command line; the defaults before [`set`].
pub fn get() -> RunPolicy {
    POLICY.get().cloned().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(drop: Option<&str>, warn: &[&str]) -> GlobalOpts {
        GlobalOpts {
            drop_caches: drop.map(str::to_string),
            warn: warn.iter().map(|w| w.to_string()).collect(),
            ..GlobalOpts::default()
        }
    }

    #[test]
    fn modes_and_thresholds() {
        let c = from_opts(&opts(Some("files"), &["short-phase=1s"])).unwrap();
        assert_eq!(c.drop_caches, DropCaches::Files);
        assert_eq!(c.thresholds.get(results::AlertId::ShortPhase), Some(1.0));
        assert_eq!(
            from_opts(&opts(None, &[])).unwrap().drop_caches,
            DropCaches::Off
        );
        assert_eq!(
            from_opts(&opts(Some("auto"), &[])).unwrap().drop_caches,
            DropCaches::Auto
        );
        let e = from_opts(&opts(Some("all"), &[])).unwrap_err();
        assert!(e.starts_with("--drop-caches=all: the mode is"), "{e}");
        let e = from_opts(&opts(None, &["short-phase=x"])).unwrap_err();
        assert!(e.starts_with("--warn short-phase=x: "), "{e}");
    }
}
