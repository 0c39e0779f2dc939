//! `/proc/diskstats`: per block device, three id columns and up to 17 counters
//! (`Documentation/admin-guide/iostats.rst`). Sectors are always 512 bytes; the millisecond
//! counters are 32-bit in the kernel and wrap, which a delta undoes. Kernels before 4.18 have
//! 11 counters (no discards), before 5.5 15 (no flushes): missing ones read as 0.

/// One device's counters (cumulative since boot, or a delta from [`DiskStats::since`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DiskStats {
    pub major: u32,
    pub minor: u32,
    pub name: String,
    pub reads: u64,
    pub reads_merged: u64,
    pub sectors_read: u64,
    pub read_ms: u64,
    pub writes: u64,
    pub writes_merged: u64,
    pub sectors_written: u64,
    pub write_ms: u64,
    /// Requests in flight when read (not a counter: a delta keeps the later value).
    pub in_flight: u64,
    /// Milliseconds with at least one request in flight (`%util`).
    pub io_ms: u64,
    /// Σ requests in flight × time, milliseconds (the mean queue depth over a window).
    pub weighted_ms: u64,
    pub discards: u64,
    pub flushes: u64,
    pub flush_ms: u64,
}

/// The sector of `/proc/diskstats`, whatever the device's own.
pub const SECTOR: u64 = 512;

impl DiskStats {
    pub fn bytes_read(&self) -> u64 {
        self.sectors_read * SECTOR
    }

    pub fn bytes_written(&self) -> u64 {
        self.sectors_written * SECTOR
    }

    /// Mean bytes per completed write request (0 without one).
    pub fn write_request_bytes(&self) -> u64 {
        self.bytes_written().checked_div(self.writes).unwrap_or(0)
    }

    /// Mean bytes per completed read request (0 without one).
    pub fn read_request_bytes(&self) -> u64 {
        self.bytes_read().checked_div(self.reads).unwrap_or(0)
    }

    /// What happened from `earlier` to `self` on the same device. The millisecond counters
    /// are taken modulo 2³² (the kernel's wrap); a counter that went back otherwise (a device
    /// re-made with the same numbers) counts 0.
    pub fn since(&self, earlier: &DiskStats) -> DiskStats {
        let d = |a: u64, b: u64| a.saturating_sub(b);
        let ms = |a: u64, b: u64| a.wrapping_sub(b) & u64::from(u32::MAX);
        DiskStats {
            major: self.major,
            minor: self.minor,
            name: self.name.clone(),
            reads: d(self.reads, earlier.reads),
            reads_merged: d(self.reads_merged, earlier.reads_merged),
            sectors_read: d(self.sectors_read, earlier.sectors_read),
            read_ms: ms(self.read_ms, earlier.read_ms),
            writes: d(self.writes, earlier.writes),
            writes_merged: d(self.writes_merged, earlier.writes_merged),
            sectors_written: d(self.sectors_written, earlier.sectors_written),
            write_ms: ms(self.write_ms, earlier.write_ms),
            in_flight: self.in_flight,
            io_ms: ms(self.io_ms, earlier.io_ms),
            weighted_ms: ms(self.weighted_ms, earlier.weighted_ms),
            discards: d(self.discards, earlier.discards),
            flushes: d(self.flushes, earlier.flushes),
            flush_ms: ms(self.flush_ms, earlier.flush_ms),
        }
    }
}

/// One line of `/proc/diskstats`; `None` for a line without the ids and the 11 counters
/// every kernel since 2.6 has.
pub fn parse_line(line: &str) -> Option<DiskStats> {
    let f: Vec<&str> = line.split_whitespace().collect();
    let n = |i| crate::field(&f, i);
    let opt = |i| crate::field(&f, i).unwrap_or(0);
    Some(DiskStats {
        major: f.first()?.parse().ok()?,
        minor: f.get(1)?.parse().ok()?,
        name: f.get(2)?.to_string(),
        reads: n(3)?,
        reads_merged: n(4)?,
        sectors_read: n(5)?,
        read_ms: n(6)?,
        writes: n(7)?,
        writes_merged: n(8)?,
        sectors_written: n(9)?,
        write_ms: n(10)?,
        in_flight: n(11)?,
        io_ms: n(12)?,
        weighted_ms: n(13)?,
        discards: opt(14),
        flushes: opt(18),
        flush_ms: opt(19),
    })
}

/// Every device of `/proc/diskstats`'s text, in its order (lines it cannot read are left out).
pub fn parse(text: &str) -> Vec<DiskStats> {
    text.lines().filter_map(parse_line).collect()
}

/// The device `major:minor` of the live file.
pub fn read(major: u32, minor: u32) -> std::io::Result<Option<DiskStats>> {
    let text = std::fs::read_to_string("/proc/diskstats")?;
    Ok(parse(&text)
        .into_iter()
        .find(|d| d.major == major && d.minor == minor))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn lines_of_three_kernels() {
        let all = parse(include_str!("../tests/fixtures/diskstats"));
        let names: Vec<&str> = all.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["loop0", "vda", "sda", "sda1"]);
        let vda = &all[1];
        assert_eq!((vda.major, vda.minor), (254, 0));
        assert_eq!(vda.writes, 47160738);
        assert_eq!(vda.bytes_written(), 2416659400 * 512);
        assert_eq!((vda.flushes, vda.flush_ms), (348717, 50112));
        // 4.18 to 5.4: discards, no flushes; before 4.18: neither.
        assert_eq!((all[2].discards, all[2].flushes), (7, 0));
        assert_eq!((all[3].discards, all[3].writes), (0, 3));
        assert_eq!(parse_line("8 0 sdb 1 2 3"), None);
    }

    #[test]
    fn deltas_undo_the_millisecond_wrap() {
        let a = DiskStats {
            writes: 10,
            sectors_written: 100,
            write_ms: u64::from(u32::MAX) - 5,
            in_flight: 3,
            ..DiskStats::default()
        };
        let b = DiskStats {
            writes: 14,
            sectors_written: 2148,
            write_ms: 10,
            in_flight: 1,
            ..a.clone()
        };
        let d = b.since(&a);
        assert_eq!((d.writes, d.write_ms, d.in_flight), (4, 16, 1));
        assert_eq!(d.write_request_bytes(), 2048 * 512 / 4);
        assert_eq!(DiskStats::default().write_request_bytes(), 0);
    }

    proptest! {
        /// A snapshot minus itself is all zeros but the in-flight count; a later one minus
        /// an earlier one gives back the increments.
        #[test]
        fn since_gives_back_the_increments(base in 0u64..1 << 40, inc in 0u64..1 << 30) {
            let a = DiskStats { reads: base, sectors_written: base, read_ms: base, ..DiskStats::default() };
            let b = DiskStats { reads: base + inc, sectors_written: base + inc, read_ms: base + inc, ..a.clone() };
            let d = b.since(&a);
            prop_assert_eq!((d.reads, d.sectors_written, d.read_ms), (inc, inc, inc));
            prop_assert_eq!(a.since(&a).reads, 0);
        }
    }
}
