//! `/proc/meminfo`'s page-cache state of the node: `Dirty` (written, not yet on its way to the
//! device) and `Writeback` (on its way), in kB in the file, in bytes here.

/// The node's dirty and write-back bytes at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DirtyBytes {
    pub dirty: u64,
    pub writeback: u64,
}

/// `/proc/meminfo`'s text; `None` without a `Dirty:` line.
pub fn parse(text: &str) -> Option<DirtyBytes> {
    let kib = |key: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(key))?;
        let n: u64 = line[key.len()..].split_whitespace().next()?.parse().ok()?;
        Some(n * 1024)
    };
    Some(DirtyBytes {
        dirty: kib("Dirty:")?,
        writeback: kib("Writeback:").unwrap_or(0),
    })
}

/// The node's state now.
pub fn read() -> std::io::Result<DirtyBytes> {
    let text = std::fs::read_to_string("/proc/meminfo")?;
    parse(&text).ok_or_else(|| std::io::Error::other("/proc/meminfo has no Dirty line"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn dirty_and_writeback_in_bytes() {
        let text = "MemTotal:       24681012 kB\nDirty:               200 kB\nWriteback:            16 kB\nWritebackTmp:          0 kB\n";
        let d = super::parse(text).unwrap();
        assert_eq!((d.dirty, d.writeback), (200 * 1024, 16 * 1024));
        assert_eq!(super::parse("MemTotal: 1 kB\n"), None);
        super::read().unwrap();
    }
}
