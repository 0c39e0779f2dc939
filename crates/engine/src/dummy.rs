//! DUMMY engine (IOR `-a DUMMY`): touches no storage and can inject delays, so the harness's own
//! overhead, stonewalling and rank imbalance can be measured without a file system.

use crate::dummy_queue::{DummyQueue, QueueTiming};
use crate::fault::{self, Faults};
use crate::options::{EngineOption, Workload};
use crate::{
    Caps, DirEntry, Engine, EngineConfig, EngineFile, FileKind, FileStat, OpenHints, OpenMode,
    OptKind, QueuedFile, SlotBuffers, Target, TargetInfo,
};
use std::io;
use std::time::Duration;

/// A delay in microseconds, IOR's `--dummy.delay-<name>`.
const fn delay(name: &'static str, help: &'static str, metadata: bool) -> EngineOption {
    EngineOption {
        name,
        kind: OptKind::Number { default: 0 },
        meta: "USEC",
        help,
        ior_keys: &[],
        metadata,
        ior: true,
    }
}

/// The options of `-a DUMMY`; mdtest takes those its operations have (no close, no transfers).
#[rustfmt::skip]
pub const OPTIONS: &[EngineOption] = &[
    delay("delay-create", "delay of each create, mkdir, rename and chmod", true),
    delay("delay-close", "delay of each close", false),
    delay("delay-sync", "delay of each fsync and sync (ior -e, -Y; mdtest -y, -Y)", true),
    delay("delay-xfer", "delay of each transfer", false),
    EngineOption {
        name: "delay-only-rank0",
        kind: OptKind::Flag { default: false },
        meta: "",
        help: "delay rank 0 only (a built-in straggler)",
        ior_keys: &[],
        metadata: true,
        ior: true,
    },
    EngineOption {
        name: "depth",
        kind: OptKind::Number { default: 0 },
        meta: "N",
        help: "queued mode: N requests in flight per rank, completed after --dummy.complete-delay (0: one transfer at a time)",
        ior_keys: &[],
        metadata: false,
        ior: false,
    },
    EngineOption {
        name: "complete-delay",
        kind: OptKind::Duration { default_ns: 0 },
        meta: "DURATION",
        help: "queued mode: time from a request's submission to its completion",
        ior_keys: &[],
        metadata: false,
        ior: false,
    },
    EngineOption {
        name: "reorder",
        kind: OptKind::Flag { default: false },
        meta: "",
        help: "queued mode: complete requests out of submission order (each waits one to two delays)",
        ior_keys: &[],
        metadata: false,
        ior: false,
    },
    fault::FAIL_AT,
    fault::FAIL_ERRNO,
    fault::SHORT_AT,
    fault::FAULT_RANK,
];

/// The queued mode's options go together: a delay or a reorder without a depth would change
/// nothing, and the per-transfer delay of the synchronous mode has no place in a queue.
pub fn check(cfg: &EngineConfig, _workload: &Workload) -> Result<(), String> {
    let depth = cfg.number("dummy.depth");
    if depth == 0 {
        let queued = [
            (
                "dummy.complete-delay",
                cfg.number("dummy.complete-delay") > 0,
            ),
            ("dummy.reorder", cfg.flag("dummy.reorder")),
        ];
        for (name, given) in queued {
            if given {
                return Err(format!(
                    "--{name} applies to the queued mode: give --dummy.depth N as well"
                ));
            }
        }
    } else if cfg.number("dummy.delay-xfer") > 0 {
        return Err(
            "--dummy.delay-xfer delays one transfer at a time; with --dummy.depth use \
                    --dummy.complete-delay"
                .to_string(),
        );
    }
    Ok(())
}

/// The registry's constructor.
pub fn make(cfg: &EngineConfig, rank: usize) -> Box<dyn Engine> {
    let delays = DummyDelays {
        create_us: cfg.number("dummy.delay-create"),
        close_us: cfg.number("dummy.delay-close"),
        sync_us: cfg.number("dummy.delay-sync"),
        xfer_us: cfg.number("dummy.delay-xfer"),
        only_rank0: cfg.flag("dummy.delay-only-rank0"),
    };
    let faults = Faults::new(
        cfg.number("dummy.fail-at"),
        cfg.number("dummy.fail-errno"),
        cfg.number("dummy.short-at"),
        cfg.number("dummy.fault-rank"),
        rank,
    );
    let timing = QueueTiming {
        depth: cfg.number("dummy.depth") as usize,
        complete_delay: Duration::from_nanos(cfg.number("dummy.complete-delay")),
        reorder: cfg.flag("dummy.reorder"),
    };
    Box::new(
        DummyEngine::new(delays, rank)
            .with_faults(faults)
            .with_queue(timing),
    )
}

/// Injected delays in microseconds (IOR's `--dummy.delay-*` options).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DummyDelays {
    pub create_us: u64,
    pub close_us: u64,
    pub sync_us: u64,
    pub xfer_us: u64,
    /// Only rank 0 sleeps (`--dummy.delay-only-rank0`): a built-in straggler.
    pub only_rank0: bool,
}

impl DummyDelays {
    fn applies_to(&self, rank: usize) -> bool {
        !self.only_rank0 || rank == 0
    }
}

/// `thread::sleep` is a nanosleep: accurate to the timer slack (~50 µs) and no syscall at all
/// for a zero delay, so an undelayed dummy measures only the harness.
fn pause(us: u64) {
    if us > 0 {
        std::thread::sleep(Duration::from_micros(us));
    }
}

pub struct DummyEngine {
    delays: DummyDelays,
    rank: usize,
    faults: Faults,
    queue: QueueTiming,
}

impl DummyEngine {
    pub const CAPS: Caps = Caps {
        does_io: false,
        metadata: true,
        alignment: 1,
        needs_file_size: false,
        page_cache: false,
        api_name: "DUMMY",
        collective: false,
        container: false,
        queued: false,
        object: None,
    };

    /// `rank` decides `only_rank0` for metadata operations; opens use `OpenHints::rank`.
    pub fn new(delays: DummyDelays, rank: usize) -> Self {
        DummyEngine {
            delays,
            rank,
            faults: Faults::default(),
            queue: QueueTiming::default(),
        }
    }

    /// The queued mode (`--dummy.depth`); a depth of 0 keeps the synchronous one.
    pub fn with_queue(mut self, timing: QueueTiming) -> Self {
        self.queue = timing;
        self
    }

    /// Injected errors and short transfers (`--dummy.fail-at`, `--dummy.short-at`).
    pub fn with_faults(mut self, faults: Faults) -> Self {
        self.faults = faults;
        self
    }

    fn create_pause(&self) {
        if self.delays.applies_to(self.rank) {
            pause(self.delays.create_us);
        }
    }

    fn sync_pause(&self) {
        if self.delays.applies_to(self.rank) {
            pause(self.delays.sync_us);
        }
    }
}

impl Engine for DummyEngine {
    fn caps(&self) -> Caps {
        Caps {
            collective: false,
            container: false,
            queued: self.queue.depth > 0,
            object: None,
            ..Self::CAPS
        }
    }

    fn depth(&self) -> usize {
        self.queue.depth.max(1)
    }

    fn open_queued(
        &self,
        _target: Target<'_>,
        mode: OpenMode,
        hints: &OpenHints,
        bufs: SlotBuffers,
    ) -> io::Result<Box<dyn QueuedFile>> {
        if self.queue.depth == 0 {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "the DUMMY engine queues with --dummy.depth N only",
            ));
        }
        self.faults.op()?;
        if self.delays.applies_to(hints.rank) && mode != OpenMode::ReadOnly {
            pause(self.delays.create_us);
        }
        Ok(Box::new(DummyQueue::new(
            bufs,
            self.queue,
            self.faults.clone(),
        )))
    }

    fn open(
        &self,
        _target: Target<'_>,
        mode: OpenMode,
        hints: &OpenHints,
    ) -> io::Result<Box<dyn EngineFile>> {
        self.faults.op()?;
        let active = self.delays.applies_to(hints.rank);
        // IOR delays its create, not a plain open.
        if active && mode != OpenMode::ReadOnly {
            pause(self.delays.create_us);
        }
        let d = if active {
            self.delays.clone()
        } else {
            DummyDelays::default()
        };
        Ok(Box::new(DummyFile {
            faults: self.faults.clone(),
            close_us: d.close_us,
            sync_us: d.sync_us,
            xfer_us: d.xfer_us,
        }))
    }

    fn remove(&self, _target: Target<'_>) -> io::Result<()> {
        self.faults.op()?;
        Ok(())
    }

    fn file_size(&self, _target: Target<'_>) -> io::Result<u64> {
        self.faults.op()?;
        Ok(0)
    }

    /// No namespace and no storage: nothing is there, and the file system is "dummy". Not an
    /// operation of the run (asked before it), so no fault counts it.
    fn target_info(&self, _target: Target<'_>) -> io::Result<TargetInfo> {
        Ok(TargetInfo {
            fs_type: Some("dummy".to_string()),
            ..TargetInfo::default()
        })
    }

    fn mkdir(&self, _target: Target<'_>) -> io::Result<()> {
        self.faults.op()?;
        self.create_pause();
        Ok(())
    }

    fn rmdir(&self, _target: Target<'_>) -> io::Result<()> {
        self.faults.op()?;
        Ok(())
    }

    fn stat(&self, _target: Target<'_>) -> io::Result<FileStat> {
        self.faults.op()?;
        Ok(FileStat {
            size: 0,
            is_dir: false,
            kind: FileKind::File,
            ctime_sec: 0,
            ctime_nsec: 0,
        })
    }

    fn lstat(&self, target: Target<'_>) -> io::Result<FileStat> {
        self.stat(target)
    }

    fn create_file(&self, _target: Target<'_>, _data: &[u8]) -> io::Result<()> {
        self.faults.op()?;
        self.create_pause();
        Ok(())
    }

    fn create_file_synced(&self, _target: Target<'_>, _data: &[u8]) -> io::Result<()> {
        self.faults.op()?;
        self.create_pause();
        self.sync_pause();
        Ok(())
    }

    /// A metadata mutation like mkdir, so it takes the create delay.
    fn rename(&self, _from: Target<'_>, _to: Target<'_>) -> io::Result<()> {
        self.faults.op()?;
        self.create_pause();
        Ok(())
    }

    fn sync_all(&self) -> io::Result<()> {
        self.faults.op()?;
        self.sync_pause();
        Ok(())
    }

    fn read_file(&self, _target: Target<'_>, buf: &mut [u8]) -> io::Result<usize> {
        self.faults.transfer(buf.len())
    }

    // Its files never end: one buffer's worth, as `read_file`.
    fn read_whole(&self, _target: Target<'_>, buf: &mut [u8]) -> io::Result<u64> {
        Ok(buf.len() as u64)
    }

    fn read_dir(&self, _target: Target<'_>) -> io::Result<Vec<DirEntry>> {
        self.faults.op()?;
        Ok(Vec::new())
    }

    /// A metadata mutation like rename, so it takes the create delay.
    fn chmod(&self, _target: Target<'_>, _mode: u32) -> io::Result<()> {
        self.create_pause();
        Ok(())
    }
}

/// Delays already resolved for this rank (zero when `only_rank0` excludes it).
struct DummyFile {
    faults: Faults,
    close_us: u64,
    sync_us: u64,
    xfer_us: u64,
}

impl EngineFile for DummyFile {
    fn write_at(&mut self, buf: &[u8], _offset: u64) -> io::Result<usize> {
        pause(self.xfer_us);
        self.faults.transfer(buf.len())
    }

    fn read_at(&mut self, buf: &mut [u8], _offset: u64) -> io::Result<usize> {
        // The buffer is left as it was: there is no data, which `Caps::does_io` tells callers.
        pause(self.xfer_us);
        self.faults.transfer(buf.len())
    }

    fn sync(&mut self) -> io::Result<()> {
        self.faults.op()?;
        pause(self.sync_us);
        Ok(())
    }

    fn close(self: Box<Self>) -> io::Result<()> {
        self.faults.op()?;
        pause(self.close_us);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::time::Instant;

    fn delays(xfer_us: u64, only_rank0: bool) -> DummyDelays {
        DummyDelays {
            create_us: 2000,
            close_us: 2000,
            sync_us: 2000,
            xfer_us,
            only_rank0,
        }
    }

    /// Runs open + 10 transfers + sync + close and returns the elapsed time.
    fn timed_run(e: &DummyEngine, rank: usize) -> Duration {
        let t = Instant::now();
        let mut f = e
            .open(
                Target::from(Path::new("/nonexistent/x")),
                OpenMode::CreateTruncate,
                &OpenHints {
                    file_size: 0,
                    rank,
                    layout: None,
                },
            )
            .unwrap();
        let mut buf = [0xAAu8; 64];
        for i in 0..5 {
            assert_eq!(f.write_at(&buf, i * 64).unwrap(), 64);
            assert_eq!(f.read_at(&mut buf, i * 64).unwrap(), 64);
        }
        assert!(
            buf.iter().all(|&b| b == 0xAA),
            "read leaves the buffer untouched"
        );
        f.sync().unwrap();
        f.close().unwrap();
        t.elapsed()
    }

    #[test]
    fn delays_are_slept() {
        let e = DummyEngine::new(delays(3000, false), 1);
        // 10 transfers x 3 ms + create, sync, close x 2 ms = 36 ms at least.
        let t = timed_run(&e, 1);
        assert!(t >= Duration::from_millis(36), "{t:?}");
    }

    #[test]
    fn only_rank0_sleeps() {
        let e0 = DummyEngine::new(delays(20_000, true), 0);
        let e1 = DummyEngine::new(delays(20_000, true), 1);
        let t0 = timed_run(&e0, 0);
        let t1 = timed_run(&e1, 1);
        assert!(t0 >= Duration::from_millis(206), "{t0:?}");
        assert!(
            t1 < Duration::from_millis(100),
            "rank 1 should not sleep: {t1:?}"
        );
        // Metadata ops follow the engine's rank; a 1 s create delay makes the gap unmistakable.
        let slow = DummyDelays {
            create_us: 1_000_000,
            only_rank0: true,
            ..DummyDelays::default()
        };
        let t = Instant::now();
        let e1 = DummyEngine::new(slow.clone(), 1);
        e1.mkdir(Target::from(Path::new("x"))).unwrap();
        e1.create_file(Target::from(Path::new("x/y")), b"z")
            .unwrap();
        assert!(
            t.elapsed() < Duration::from_millis(500),
            "{:?}",
            t.elapsed()
        );
        let e0 = DummyEngine::new(
            DummyDelays {
                create_us: 5000,
                ..slow
            },
            0,
        );
        let t = Instant::now();
        e0.create_file(Target::from(Path::new("x/y")), b"z")
            .unwrap();
        assert!(t.elapsed() >= Duration::from_millis(5));
    }

    #[test]
    fn no_io_and_metadata_succeeds() {
        let dir = tempfile::tempdir().unwrap();
        let e = DummyEngine::new(DummyDelays::default(), 0);
        assert!(!e.caps().does_io && e.caps().metadata);
        let p = dir.path().join("f");
        let mut f = e
            .open(
                Target::from(&p),
                OpenMode::CreateTruncate,
                &OpenHints::default(),
            )
            .unwrap();
        assert_eq!(f.write_at(&[1; 100], 0).unwrap(), 100);
        f.close().unwrap();
        e.mkdir(Target::from(&dir.path().join("d"))).unwrap();
        e.create_file(Target::from(&dir.path().join("g")), b"data")
            .unwrap();
        assert_eq!(e.read_file(Target::from(&p), &mut [0u8; 7]).unwrap(), 7);
        assert_eq!(e.read_whole(Target::from(&p), &mut [0u8; 7]).unwrap(), 7);
        assert_eq!(
            e.stat(Target::from(&p)).unwrap(),
            FileStat {
                size: 0,
                is_dir: false,
                kind: FileKind::File,
                ctime_sec: 0,
                ctime_nsec: 0
            }
        );
        assert_eq!(e.file_size(Target::from(&p)).unwrap(), 0);
        e.create_file_synced(Target::from(&dir.path().join("h")), b"data")
            .unwrap();
        e.rename(Target::from(&p), Target::from(&dir.path().join("r")))
            .unwrap();
        e.chmod(Target::from(&p), 0o600).unwrap();
        e.sync_all().unwrap();
        e.remove(Target::from(&p)).unwrap();
        e.rmdir(Target::from(dir.path())).unwrap();
        assert!(e.read_dir(Target::from(dir.path())).unwrap().is_empty());
        // Nothing reached the file system.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
