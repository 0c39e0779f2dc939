//! The io_uring engines: `-a IOURING` (iogauge's, with fio's io_uring choices) and IOR's
//! `-a AIO` (libaio in IOR; here the same queue on io_uring, `--aio.max-pending` requests in
//! flight, `--aio.granularity` of them per submission). Both move data only through the
//! queued model (`queue.rs`, `file.rs`); they have no metadata operations and no one-at-a-time
//! path, so only a workload with a queued mover (ior) takes them.
//!
//! A kernel without io_uring, one that refuses it (`kernel.io_uring_disabled`, a seccomp
//! filter) or a depth it will not set up is found by [`probe`] in the checks before any I/O.

mod file;
mod probe;

use std::io;
use std::path::Path;

use crate::options::{EngineOption, IoShape, Workload};
use crate::{
    Caps, DirEntry, Engine, EngineConfig, EngineFile, FileStat, OpenHints, OpenMode, OptKind,
    QueuedFile, SlotBuffers, Target, TargetInfo,
};

pub use probe::probe;

/// An option of the io_uring engines; `ior`: IOR's AIO has it by this name.
const fn option(
    name: &'static str,
    kind: OptKind,
    meta: &'static str,
    help: &'static str,
    ior: bool,
) -> EngineOption {
    EngineOption {
        ior,
        ..EngineOption::own(name, kind, meta, help)
    }
}

const fn flag(name: &'static str, help: &'static str) -> EngineOption {
    option(name, OptKind::Flag { default: false }, "", help, false)
}

/// The options of `-a IOURING`; fio's spellings (`fixedbufs`, `registerfiles`,
/// `sqthread_poll`) are aliases (`registry::ALIASES`).
#[rustfmt::skip]
pub const IOURING_OPTIONS: &[EngineOption] = &[
    option("depth", OptKind::Number { default: 32 }, "N", "requests in flight per rank (fio's iodepth)", false),
    flag("odirect", "open files with O_DIRECT (fio's direct=1; -t and -b multiples of the file system's alignment)"),
    flag("sqpoll", "a kernel thread polls the submission queue: no io_uring_enter per batch, one CPU busy (fio's sqthread_poll)"),
    flag("fixed-bufs", "register the buffers with the kernel once (fio's fixedbufs)"),
    flag("register-files", "register the file with the kernel once (fio's registerfiles)"),
    option("batch", OptKind::Number { default: 1 }, "N", "requests handed over per io_uring_enter, as fio's iodepth_batch_submit (default 1, fio's: each request reaches the device at once); 0: all that are pushed", false),
    option("complete-min", OptKind::Number { default: 0 }, "N", "completions a rank waits for at least when it waits, as fio's iodepth_batch_complete_min; 0 (default): depth / 8, but at least 4 or half the depth, whichever is less (a rank that woke for every completion slept far more often than fio's jobs; docs/engines.md)", false),
    option("taskrun", OptKind::Text { default: "defer" }, "defer|coop|plain", "when the kernel finishes completions: defer (COOP_TASKRUN, SINGLE_ISSUER, DEFER_TASKRUN: only while the rank waits), coop (COOP_TASKRUN, SINGLE_ISSUER), plain (no flags: they interrupt the rank)", false),
];

/// The ring's setup flags for completion work (`--iouring.taskrun`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taskrun {
    /// COOP_TASKRUN, SINGLE_ISSUER and DEFER_TASKRUN (Linux 6.1).
    Defer,
    /// COOP_TASKRUN and SINGLE_ISSUER (Linux 6.0).
    Coop,
    /// No flags.
    Plain,
}

impl Taskrun {
    fn parse(text: &str) -> Option<Taskrun> {
        match text.trim().to_ascii_lowercase().as_str() {
            "defer" => Some(Taskrun::Defer),
            "coop" => Some(Taskrun::Coop),
            "plain" => Some(Taskrun::Plain),
            _ => None,
        }
    }
}

/// The options of IOR's `-a AIO` (IOR's names and defaults); `--posix.odirect` too.
#[rustfmt::skip]
pub const AIO_OPTIONS: &[EngineOption] = &[
    option("max-pending", OptKind::Number { default: 128 }, "N", "requests in flight per rank (io_uring here, libaio in IOR)", true),
    option("granularity", OptKind::Number { default: 16 }, "N", "requests handed over per submission", true),
];

/// What one rank's engine runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UringOpts {
    pub api_name: &'static str,
    pub depth: u32,
    pub odirect: bool,
    pub sqpoll: bool,
    pub fixed_bufs: bool,
    pub register_files: bool,
    /// Requests per `io_uring_enter`; 0: all.
    pub batch: u32,
    /// Completions waited for at least, when waiting (fio's iodepth_batch_complete_min).
    pub complete_min: u32,
    pub taskrun: Taskrun,
}

impl UringOpts {
    pub fn iouring(cfg: &EngineConfig) -> Self {
        UringOpts {
            api_name: "IOURING",
            depth: cfg.number("iouring.depth").min(u32::MAX as u64) as u32,
            odirect: cfg.flag("iouring.odirect"),
            sqpoll: cfg.flag("iouring.sqpoll"),
            fixed_bufs: cfg.flag("iouring.fixed-bufs"),
            register_files: cfg.flag("iouring.register-files"),
            batch: cfg.number("iouring.batch").min(u32::MAX as u64) as u32,
            complete_min: complete_min(
                cfg.number("iouring.complete-min"),
                cfg.number("iouring.depth"),
            ),
            // Checked before any I/O (`check_iouring`); the default where it cannot parse.
            taskrun: cfg
                .text("iouring.taskrun")
                .and_then(|t| Taskrun::parse(&t))
                .unwrap_or(Taskrun::Defer),
        }
    }

    pub fn aio(cfg: &EngineConfig) -> Self {
        UringOpts {
            api_name: "AIO",
            depth: cfg.number("aio.max-pending").min(u32::MAX as u64) as u32,
            odirect: cfg.flag("posix.odirect"),
            sqpoll: false,
            fixed_bufs: false,
            register_files: false,
            batch: cfg.number("aio.granularity").min(u32::MAX as u64) as u32,
            complete_min: 1,
            taskrun: Taskrun::Defer,
        }
    }

    /// The option that sets the depth, and the one that sets O_DIRECT, for messages.
    fn names(&self) -> (&'static str, &'static str) {
        if self.api_name == "AIO" {
            ("--aio.max-pending", "--posix.odirect")
        } else {
            ("--iouring.depth", "--iouring.odirect")
        }
    }
}

/// The capabilities of an io_uring engine.
pub const fn caps(api_name: &'static str, odirect: bool) -> Caps {
    Caps {
        does_io: true,
        metadata: false,
        alignment: if odirect { crate::queue::SLOT_ALIGN } else { 1 },
        needs_file_size: false,
        page_cache: !odirect,
        api_name,
        collective: false,
        container: false,
        queued: true,
        object: None,
    }
}

pub fn check_iouring(cfg: &EngineConfig, workload: &Workload) -> Result<(), String> {
    if let Some(t) = cfg.text("iouring.taskrun") {
        if Taskrun::parse(&t).is_none() {
            return Err(format!(
                "--iouring.taskrun {t}: expected defer, coop or plain"
            ));
        }
    }
    if cfg.options.contains_key("iouring.taskrun") && cfg.flag("iouring.sqpoll") {
        return Err(
            "--iouring.taskrun applies to rings without --iouring.sqpoll (a polling \
                    ring's kernel thread does the completion work)"
                .to_string(),
        );
    }
    let o = UringOpts::iouring(cfg);
    let given = cfg.number("iouring.complete-min");
    if given > u64::from(o.depth) {
        return Err(format!(
            "--iouring.complete-min {given}: at most --iouring.depth ({}); 0 for the default",
            o.depth
        ));
    }
    check(o, workload)
}

/// `--iouring.complete-min`: as given, or for 0 an eighth of the depth, but at least 4 or half
/// the depth, whichever is less (at least 1). fio's default is 1, but its heavier loop finds
/// many completions ready when it waits (6.1 k waits for 262 k writes on tmpfs at depth 32); a
/// rank that waited for each one slept and woke five times as often, and at depth 8 on tmpfs
/// waiting for 1 or 2 stayed below fio where 4 did not (docs/performance.md).
fn complete_min(given: u64, depth: u64) -> u32 {
    let n = if given == 0 {
        (depth / 8).max((depth / 2).min(4)).max(1)
    } else {
        given
    };
    n.min(u64::from(u32::MAX)) as u32
}

pub fn check_aio(cfg: &EngineConfig, workload: &Workload) -> Result<(), String> {
    let o = UringOpts::aio(cfg);
    if o.batch as u64 > o.depth as u64 {
        return Err(format!(
            "--aio.granularity {} exceeds --aio.max-pending {}: a submission cannot hold more \
             requests than may be in flight",
            o.batch, o.depth
        ));
    }
    check(o, workload)
}

/// The depth, the alignment O_DIRECT needs, and what the kernel says: before any I/O.
fn check(o: UringOpts, workload: &Workload) -> Result<(), String> {
    let (depth_name, odirect_name) = o.names();
    if o.depth == 0 {
        return Err(format!(
            "{depth_name} 0: at least one request must be in flight"
        ));
    }
    if let Workload::Io(shape) = workload {
        if o.odirect {
            crate::posix::aligned_to(
                shape,
                crate::MIN_DIRECT_ALIGN,
                "any device's smallest",
                odirect_name,
            )?;
        }
    }
    probe(&o).map_err(|why| format!("-a {}: {why}", o.api_name))
}

/// With O_DIRECT, the transfers against the file system's alignment (as `-a POSIX`).
pub fn check_target(
    cfg: &EngineConfig,
    shape: &IoShape,
    file: &Path,
    dir: &Path,
) -> Result<(), String> {
    let o = if cfg.api.eq_ignore_ascii_case("AIO") {
        UringOpts::aio(cfg)
    } else {
        UringOpts::iouring(cfg)
    };
    if !o.odirect {
        return Ok(());
    }
    crate::posix::direct_target(shape, file, dir, o.names().1)
}

pub fn make_iouring(cfg: &EngineConfig, _rank: usize) -> Box<dyn Engine> {
    Box::new(UringEngine::new(UringOpts::iouring(cfg)))
}

pub fn make_aio(cfg: &EngineConfig, _rank: usize) -> Box<dyn Engine> {
    Box::new(UringEngine::new(UringOpts::aio(cfg)))
}

pub struct UringEngine {
    opts: UringOpts,
    files: crate::PosixEngine,
}

impl UringEngine {
    pub const fn new(opts: UringOpts) -> Self {
        UringEngine {
            opts,
            files: crate::PosixEngine::new(opts.odirect),
        }
    }

    fn no_sync_path(&self, what: &str) -> io::Error {
        io::Error::new(
            io::ErrorKind::Unsupported,
            format!(
                "the {} engine has no {what}: it moves data with many requests in flight (ior)",
                self.opts.api_name
            ),
        )
    }

    fn no_metadata(&self) -> io::Error {
        self.no_sync_path("metadata operations")
    }
}

fn path(target: Target<'_>) -> io::Result<&Path> {
    target.file_path("IOURING")
}

impl Engine for UringEngine {
    fn caps(&self) -> Caps {
        caps(self.opts.api_name, self.opts.odirect)
    }

    fn depth(&self) -> usize {
        self.opts.depth.max(1) as usize
    }

    fn open(
        &self,
        _target: Target<'_>,
        _mode: OpenMode,
        _hints: &OpenHints,
    ) -> io::Result<Box<dyn EngineFile>> {
        Err(self.no_sync_path("one-transfer-at-a-time open"))
    }

    fn open_queued(
        &self,
        target: Target<'_>,
        mode: OpenMode,
        _hints: &OpenHints,
        bufs: SlotBuffers,
    ) -> io::Result<Box<dyn QueuedFile>> {
        Ok(Box::new(file::UringFile::open(
            path(target)?,
            mode,
            bufs,
            &self.opts,
        )?))
    }

    // Names and facts of files are POSIX's calls: the queue is for the data only.
    fn remove(&self, target: Target<'_>) -> io::Result<()> {
        self.files.remove(target)
    }

    fn file_size(&self, target: Target<'_>) -> io::Result<u64> {
        self.files.file_size(target)
    }

    fn target_info(&self, target: Target<'_>) -> io::Result<TargetInfo> {
        self.files.target_info(target)
    }

    fn mkdir(&self, _target: Target<'_>) -> io::Result<()> {
        Err(self.no_metadata())
    }

    fn rmdir(&self, _target: Target<'_>) -> io::Result<()> {
        Err(self.no_metadata())
    }

    fn stat(&self, _target: Target<'_>) -> io::Result<FileStat> {
        Err(self.no_metadata())
    }

    fn lstat(&self, _target: Target<'_>) -> io::Result<FileStat> {
        Err(self.no_metadata())
    }

    fn create_file(&self, _target: Target<'_>, _data: &[u8]) -> io::Result<()> {
        Err(self.no_metadata())
    }

    fn create_file_synced(&self, _target: Target<'_>, _data: &[u8]) -> io::Result<()> {
        Err(self.no_metadata())
    }

    fn rename(&self, _from: Target<'_>, _to: Target<'_>) -> io::Result<()> {
        Err(self.no_metadata())
    }

    fn sync_all(&self) -> io::Result<()> {
        Err(self.no_metadata())
    }

    fn read_file(&self, _target: Target<'_>, _buf: &mut [u8]) -> io::Result<usize> {
        Err(self.no_metadata())
    }

    fn read_whole(&self, _target: Target<'_>, _buf: &mut [u8]) -> io::Result<u64> {
        Err(self.no_metadata())
    }

    fn read_dir(&self, _target: Target<'_>) -> io::Result<Vec<DirEntry>> {
        Err(self.no_metadata())
    }
}

#[cfg(test)]
mod complete_min_tests {
    use super::complete_min;

    #[test]
    fn zero_is_an_eighth_of_the_depth_at_least_four_or_half_the_depth() {
        assert_eq!(complete_min(0, 1), 1);
        assert_eq!(complete_min(0, 2), 1);
        assert_eq!(complete_min(0, 4), 2);
        assert_eq!(complete_min(0, 8), 4);
        assert_eq!(complete_min(0, 16), 4);
        assert_eq!(complete_min(0, 32), 4);
        assert_eq!(complete_min(0, 64), 8);
        assert_eq!(complete_min(0, 128), 16);
        assert_eq!(complete_min(3, 32), 3);
    }
}
