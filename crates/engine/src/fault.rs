//! Fault injection for `-a DUMMY` (a testing aid, docs/errors.md): operation N of one rank
//! fails with a chosen errno, or transfer N moves only half its bytes. The tests of the error
//! paths (what a rank reports, that short transfers are retried and never counted as whole)
//! need failures on demand; a real failing device is tested separately.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::options::{EngineOption, OptKind};

const fn number(name: &'static str, help: &'static str, meta: &'static str) -> EngineOption {
    EngineOption {
        name,
        kind: OptKind::Number { default: 0 },
        meta,
        help,
        ior_keys: &[],
        metadata: true,
        ior: false,
    }
}

/// The fault options of `-a DUMMY` (listed in `dummy::OPTIONS`).
pub const FAIL_AT: EngineOption = number("fail-at", "testing aid: operation N (1-based, every engine call of the rank: open, transfer, close, mkdir, stat, ...) fails with --dummy.fail-errno", "N");
pub const FAIL_ERRNO: EngineOption = number(
    "fail-errno",
    "the errno of --dummy.fail-at (default 5, EIO; 13 EACCES, 28 ENOSPC, 116 ESTALE)",
    "ERRNO",
);
pub const SHORT_AT: EngineOption = number("short-at", "testing aid: transfer N (1-based, reads and writes of the rank) moves half its bytes once, like a short write(2) or read(2)", "N");
pub const FAULT_RANK: EngineOption = number(
    "fault-rank",
    "the rank whose operations --dummy.fail-at and --dummy.short-at count",
    "RANK",
);

/// Refuses a `--dummy.fault-rank` that no rank of a run of `ranks` has: its faults would
/// never fire, and the run would pass as if the error path had been tested.
pub fn check_fault_rank(cfg: &crate::EngineConfig, ranks: usize) -> Result<(), String> {
    let name = "dummy.fault-rank";
    let rank = cfg.number(name);
    if cfg.api == "DUMMY" && rank >= ranks as u64 {
        return Err(format!(
            "--{name} {rank}: the run has {ranks} rank(s), numbered from 0; no fault would be injected"
        ));
    }
    Ok(())
}

/// The faults of one rank, shared by its engine and its open files.
#[derive(Debug, Clone, Default)]
pub struct Faults {
    fail_at: u64,
    errno: i32,
    short_at: u64,
    ops: Arc<AtomicU64>,
    transfers: Arc<AtomicU64>,
}

impl Faults {
    /// The faults for `rank`: none unless it is `--dummy.fault-rank`.
    pub fn new(fail_at: u64, errno: u64, short_at: u64, fault_rank: u64, rank: usize) -> Self {
        let mine = fault_rank == rank as u64;
        Faults {
            fail_at: if mine { fail_at } else { 0 },
            errno: if errno == 0 { libc::EIO } else { errno as i32 },
            short_at: if mine { short_at } else { 0 },
            ..Faults::default()
        }
    }

    /// Counts one operation: the injected error when it is operation `fail_at`.
    pub fn op(&self) -> io::Result<()> {
        if self.fail_at == 0 {
            return Ok(());
        }
        let n = self.ops.fetch_add(1, Ordering::Relaxed) + 1;
        if n == self.fail_at {
            return Err(io::Error::from_raw_os_error(self.errno));
        }
        Ok(())
    }

    /// Counts one transfer of `len` bytes (an operation too): the bytes it moves.
    pub fn transfer(&self, len: usize) -> io::Result<usize> {
        self.op()?;
        if self.short_at == 0 {
            return Ok(len);
        }
        let n = self.transfers.fetch_add(1, Ordering::Relaxed) + 1;
        Ok(if n == self.short_at { len / 2 } else { len })
    }
}

#[cfg(test)]
mod tests {
    use super::{check_fault_rank, Faults};
    use crate::{EngineConfig, OptValue};

    #[test]
    fn a_fault_rank_beyond_the_ranks_is_refused_for_dummy_only() {
        let mut cfg = EngineConfig::new("DUMMY");
        assert!(check_fault_rank(&cfg, 1).is_ok());
        cfg.set("dummy.fault-rank", OptValue::Number(3));
        assert!(check_fault_rank(&cfg, 4).is_ok());
        let e = check_fault_rank(&cfg, 3).unwrap_err();
        assert!(
            e.contains("--dummy.fault-rank 3") && e.contains("3 rank(s)"),
            "{e}"
        );
        cfg.api = "POSIX".into();
        assert!(check_fault_rank(&cfg, 1).is_ok());
    }

    #[test]
    fn the_nth_operation_fails_once_with_the_errno() {
        let f = Faults::new(3, 116, 0, 0, 0);
        assert!(f.op().is_ok() && f.op().is_ok());
        assert_eq!(f.op().unwrap_err().raw_os_error(), Some(116));
        assert!(f.op().is_ok());
    }

    #[test]
    fn the_nth_transfer_is_short_once_and_other_ranks_see_nothing() {
        let f = Faults::new(0, 0, 2, 1, 1);
        assert_eq!(f.transfer(4096).unwrap(), 4096);
        assert_eq!(f.transfer(4096).unwrap(), 2048);
        assert_eq!(f.transfer(4096).unwrap(), 4096);
        let other = Faults::new(1, 0, 1, 1, 0);
        assert_eq!(other.transfer(4096).unwrap(), 4096);
        assert_eq!(
            Faults::new(1, 0, 0, 0, 0).op().unwrap_err().raw_os_error(),
            Some(5)
        );
    }
}
