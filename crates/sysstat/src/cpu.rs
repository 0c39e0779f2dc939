//! `/proc/stat`'s `cpu` line: the node's CPU time in USER_HZ ticks, all CPUs summed (proc(5)).
//! `guest` and `guest_nice` are already inside `user` and `nice`, so they are not kept.

/// The node's CPU time by kind, in ticks (`sysconf(_SC_CLK_TCK)` per second).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CpuTicks {
    pub user: u64,
    pub nice: u64,
    pub system: u64,
    pub idle: u64,
    pub iowait: u64,
    pub irq: u64,
    pub softirq: u64,
    /// Taken by the hypervisor from this virtual machine.
    pub steal: u64,
}

impl CpuTicks {
    /// Ticks spent running something.
    pub fn busy(&self) -> u64 {
        self.user + self.nice + self.system + self.irq + self.softirq
    }

    /// Every tick: busy, idle, waiting for I/O, stolen.
    pub fn total(&self) -> u64 {
        self.busy() + self.idle + self.iowait + self.steal
    }

    /// What happened from `earlier` to `self` (counters that went back count as 0).
    pub fn since(&self, earlier: &CpuTicks) -> CpuTicks {
        let d = |a: u64, b: u64| a.saturating_sub(b);
        CpuTicks {
            user: d(self.user, earlier.user),
            nice: d(self.nice, earlier.nice),
            system: d(self.system, earlier.system),
            idle: d(self.idle, earlier.idle),
            iowait: d(self.iowait, earlier.iowait),
            irq: d(self.irq, earlier.irq),
            softirq: d(self.softirq, earlier.softirq),
            steal: d(self.steal, earlier.steal),
        }
    }

    /// The busy fraction of the ticks (0 when there are none).
    pub fn busy_fraction(&self) -> f64 {
        match self.total() {
            0 => 0.0,
            t => self.busy() as f64 / t as f64,
        }
    }
}

/// The first `cpu ` line of `/proc/stat`'s text; `None` without one (or with fewer than the
/// four fields every kernel has: user, nice, system, idle). Later fields missing count 0.
pub fn parse(text: &str) -> Option<CpuTicks> {
    let line = text.lines().find(|l| l.starts_with("cpu "))?;
    let f: Vec<&str> = line.split_whitespace().collect();
    let n = |i| crate::field(&f, i);
    Some(CpuTicks {
        user: n(1)?,
        nice: n(2)?,
        system: n(3)?,
        idle: n(4)?,
        iowait: n(5).unwrap_or(0),
        irq: n(6).unwrap_or(0),
        softirq: n(7).unwrap_or(0),
        steal: n(8).unwrap_or(0),
    })
}

/// This node's counters now.
pub fn read() -> std::io::Result<CpuTicks> {
    let text = std::fs::read_to_string("/proc/stat")?;
    parse(&text).ok_or_else(|| std::io::Error::other("/proc/stat has no cpu line"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summed_line_and_a_delta() {
        let a = parse(include_str!("../tests/fixtures/stat")).unwrap();
        assert_eq!(
            (a.user, a.system, a.idle, a.steal),
            (5599535, 1648644, 3935037, 36239)
        );
        let mut b = a;
        b.user += 150;
        b.idle += 50;
        let d = b.since(&a);
        assert_eq!((d.busy(), d.total()), (150, 200));
        assert_eq!(d.busy_fraction(), 0.75);
        assert_eq!(a.since(&b).busy(), 0, "a counter that went back counts 0");
        assert_eq!(parse("cpu0 1 2 3 4\n"), None, "only the summed line");
        assert_eq!(parse("cpu  1 2 3\n"), None);
        assert_eq!(parse("cpu  1 2 3 4\n").unwrap().total(), 10);
    }

    #[test]
    fn this_machine_has_one() {
        assert!(read().unwrap().total() > 0);
    }
}
