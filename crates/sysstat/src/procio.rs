//! `/proc/<pid>/io` (proc(5)): a process's I/O. `rchar`/`wchar` are the bytes its read and
//! write calls asked for (page cache included); `read_bytes` is what it caused to be fetched
//! from storage; `write_bytes` is counted when a page is dirtied, not when it reaches the
//! device (so it cannot tell whether a write phase's data left the page cache: the device's
//! counters can), and `cancelled_write_bytes` what truncation then undid.

/// One process's counters (cumulative, or a delta from [`ProcIo::since`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProcIo {
    pub rchar: u64,
    pub wchar: u64,
    pub syscr: u64,
    pub syscw: u64,
    pub read_bytes: u64,
    pub write_bytes: u64,
    pub cancelled_write_bytes: u64,
}

impl ProcIo {
    pub fn since(&self, earlier: &ProcIo) -> ProcIo {
        let d = |a: u64, b: u64| a.saturating_sub(b);
        ProcIo {
            rchar: d(self.rchar, earlier.rchar),
            wchar: d(self.wchar, earlier.wchar),
            syscr: d(self.syscr, earlier.syscr),
            syscw: d(self.syscw, earlier.syscw),
            read_bytes: d(self.read_bytes, earlier.read_bytes),
            write_bytes: d(self.write_bytes, earlier.write_bytes),
            cancelled_write_bytes: d(self.cancelled_write_bytes, earlier.cancelled_write_bytes),
        }
    }
}

/// The file's `key: value` lines; `None` when one of the seven is missing.
pub fn parse(text: &str) -> Option<ProcIo> {
    let get = |key: &str| -> Option<u64> {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))?
            .trim()
            .parse()
            .ok()
    };
    Some(ProcIo {
        rchar: get("rchar")?,
        wchar: get("wchar")?,
        syscr: get("syscr")?,
        syscw: get("syscw")?,
        read_bytes: get("read_bytes")?,
        write_bytes: get("write_bytes")?,
        cancelled_write_bytes: get("cancelled_write_bytes")?,
    })
}

/// This process's counters now.
pub fn read_self() -> std::io::Result<ProcIo> {
    let text = std::fs::read_to_string("/proc/self/io")?;
    parse(&text).ok_or_else(|| std::io::Error::other("/proc/self/io: unexpected format"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seven_counters_and_a_delta() {
        let text = "rchar: 6976\nwchar: 100\nsyscr: 10\nsyscw: 1\nread_bytes: 0\nwrite_bytes: 4096\ncancelled_write_bytes: 0\n";
        let a = parse(text).unwrap();
        assert_eq!((a.rchar, a.write_bytes), (6976, 4096));
        assert_eq!(parse("rchar: 1\n"), None);
        let before = read_self().unwrap();
        std::fs::read("/proc/self/io").unwrap();
        assert!(
            read_self().unwrap().since(&before).rchar > 0,
            "the read above counts"
        );
    }
}
