//! Every engine of the registry passes the conformance suite (`engine::conformance`), each
//! on a temporary directory of its own. A new row in `ENGINES` is tested here without an edit.

use std::io;

use engine::Target;

#[test]
fn every_engine_passes_the_contracts_its_capabilities_select() {
    assert!(!engine::ENGINES.is_empty());
    for info in engine::engines() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let report = engine::conformance::run(info, dir.path());
        assert!(!report.ran.is_empty(), "{}: no contract ran", info.name);
        assert!(
            report.failures.is_empty(),
            "{} fails {} of {} contracts:\n{}",
            info.name,
            report.failures.len(),
            report.ran.len(),
            report.failures.join("\n")
        );
    }
}

#[test]
fn capabilities_select_the_contracts() {
    let ran = |name: &str| {
        let info = engine::lookup(name).expect("a registered engine");
        let dir = tempfile::tempdir().expect("a temporary directory");
        engine::conformance::run(info, dir.path()).ran
    };
    for info in engine::engines() {
        let names = ran(info.name);
        let has = |c: &str| names.iter().any(|n| n.starts_with(c));
        let (io, queued) = (info.caps.does_io, info.caps.queued);
        assert_eq!(has("positional writes"), io && !queued, "{}", info.name);
        assert_eq!(has("queued: the depth"), queued, "{}", info.name);
        assert_eq!(
            has("queued: writes and reads"),
            queued && io,
            "{}",
            info.name
        );
        assert_eq!(has("no I/O"), !info.caps.does_io, "{}", info.name);
        assert_eq!(
            has("metadata operations"),
            info.caps.metadata && info.caps.does_io,
            "{}",
            info.name
        );
        assert_eq!(has("no metadata"), !info.caps.metadata, "{}", info.name);
        assert!(has("target_info") && has("alloc_buffer"), "{}", info.name);
    }
}

/// The dummy engine's queued mode passes the queued contracts while completing out of order
/// (and `--dummy.reorder` does reorder: `dummy_queue.rs` tests that).
#[test]
fn the_dummy_queue_passes_the_queued_contracts_reordered() {
    let info = engine::lookup("DUMMY").expect("registered");
    let mut cfg = engine::EngineConfig::new("DUMMY");
    cfg.set("dummy.depth", engine::OptValue::Number(8));
    cfg.set("dummy.complete-delay", engine::OptValue::Number(200_000));
    cfg.set("dummy.reorder", engine::OptValue::Flag(true));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let report = engine::conformance::run_with(info, &cfg, dir.path());
    assert!(
        report
            .ran
            .iter()
            .any(|n| n.starts_with("queued: the depth")),
        "{:?}",
        report.ran
    );
    assert!(report.failures.is_empty(), "{:?}", report.failures);
}

/// An engine that claims no metadata operations but has POSIX's: the suite must say so.
struct Claims(engine::PosixEngine);

impl engine::Engine for Claims {
    fn caps(&self) -> engine::Caps {
        engine::Caps {
            metadata: false,
            ..self.0.caps()
        }
    }
    fn open(
        &self,
        t: Target<'_>,
        mode: engine::OpenMode,
        hints: &engine::OpenHints,
    ) -> io::Result<Box<dyn engine::EngineFile>> {
        self.0.open(t, mode, hints)
    }
    fn remove(&self, t: Target<'_>) -> io::Result<()> {
        self.0.remove(t)
    }
    fn file_size(&self, t: Target<'_>) -> io::Result<u64> {
        self.0.file_size(t)
    }
    fn target_info(&self, t: Target<'_>) -> io::Result<engine::TargetInfo> {
        self.0.target_info(t)
    }
    fn mkdir(&self, t: Target<'_>) -> io::Result<()> {
        self.0.mkdir(t)
    }
    fn rmdir(&self, t: Target<'_>) -> io::Result<()> {
        self.0.rmdir(t)
    }
    fn stat(&self, t: Target<'_>) -> io::Result<engine::FileStat> {
        self.0.stat(t)
    }
    fn lstat(&self, t: Target<'_>) -> io::Result<engine::FileStat> {
        self.0.lstat(t)
    }
    fn create_file(&self, t: Target<'_>, data: &[u8]) -> io::Result<()> {
        self.0.create_file(t, data)
    }
    fn create_file_synced(&self, t: Target<'_>, data: &[u8]) -> io::Result<()> {
        self.0.create_file_synced(t, data)
    }
    fn rename(&self, from: Target<'_>, to: Target<'_>) -> io::Result<()> {
        self.0.rename(from, to)
    }
    fn sync_all(&self) -> io::Result<()> {
        Ok(())
    }
    fn read_file(&self, t: Target<'_>, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read_file(t, buf)
    }
    fn read_dir(&self, t: Target<'_>) -> io::Result<Vec<engine::DirEntry>> {
        self.0.read_dir(t)
    }
}

#[test]
fn an_engine_that_breaks_its_contract_fails() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let make = || Box::new(Claims(engine::PosixEngine::new(false))) as Box<dyn engine::Engine>;
    let report = engine::conformance::run_engine(&make, dir.path());
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    assert!(
        report.failures[0]
            .starts_with("no metadata operations: Unsupported: mkdir: expected Unsupported"),
        "{}",
        report.failures[0]
    );
}
