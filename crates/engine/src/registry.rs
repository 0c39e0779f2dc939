//! The engine table: the one list of back-end names. [`ENGINES`] maps IOR's `-a` names to the
//! engines iogauge provides (their options, checks and constructors live in each engine's
//! file); [`REFUSED_APIS`] lists IOR's other APIs with the reason they are refused. Option
//! module prefixes (`--posix.`, `--mpiio.`) come from both tables. Adding an engine is one
//! row in [`ENGINES`].

use std::fmt;
use std::path::Path;
use std::sync::RwLock;

use crate::config::EngineConfig;
use crate::options::{EngineOption, IoShape, Workload};
use crate::{dummy, mmap, posix, uring, Caps, Engine};

/// An engine's checks of its options against the workload; Err is one line for the user.
pub type Check = fn(&EngineConfig, &Workload) -> Result<(), String>;

/// An engine's checks of its options against where a run does its I/O (`file`, which may not
/// exist yet, in `dir`): what only the file system can answer.
pub type TargetCheck = fn(&EngineConfig, &IoShape, &Path, &Path) -> Result<(), String>;

/// One row of the engine table.
#[derive(Debug)]
pub struct EngineInfo {
    /// IOR's `-a` name, as IOR spells it.
    pub name: &'static str,
    /// Prefix of its options, lower case (`posix` for `--posix.odirect`).
    pub module: &'static str,
    pub help: &'static str,
    /// Capabilities with default options (e.g. POSIX without O_DIRECT).
    pub caps: Caps,
    pub options: &'static [EngineOption],
    /// Modules whose options it takes as well (IOR's AIO takes POSIX's `--posix.odirect`).
    pub shares: &'static [&'static str],
    /// Checks of the options against the workload, run before any I/O; `None`: nothing to check.
    check: Option<Check>,
    /// Checks against the target's file system, run before any I/O; `None`: nothing to ask.
    check_target: Option<TargetCheck>,
    make: fn(&EngineConfig, usize) -> Box<dyn Engine>,
    /// What the engine undoes once a run (or its checks) ended, on every process: the S3
    /// engine removes the bucket its checks made, if empty. `Some` is a warning.
    finish: Option<Finish>,
    /// Options of IOR's module for this engine that iogauge refuses by name, with the reason
    /// (`--S3-libs3.secret-key`: a secret is never an option's value).
    refused: &'static [(&'static str, &'static str)],
}

/// An engine's step at the end of a run ([`finish`]).
pub type Finish = fn(&EngineConfig) -> Option<String>;

impl EngineInfo {
    /// A row for an engine that lives in another crate (S3, MPI-IO), for [`register`].
    #[allow(clippy::too_many_arguments)]
    pub const fn new(
        name: &'static str,
        module: &'static str,
        help: &'static str,
        caps: Caps,
        options: &'static [EngineOption],
        shares: &'static [&'static str],
        check: Option<Check>,
        check_target: Option<TargetCheck>,
        make: fn(&EngineConfig, usize) -> Box<dyn Engine>,
    ) -> Self {
        EngineInfo {
            name,
            module,
            help,
            caps,
            options,
            shares,
            check,
            check_target,
            make,
            finish: None,
            refused: &[],
        }
    }

    /// With options of IOR's module refused by name (`name` without the module, the reason).
    pub const fn with_refused(mut self, refused: &'static [(&'static str, &'static str)]) -> Self {
        self.refused = refused;
        self
    }

    /// With a step at the end of every run ([`finish`]).
    pub const fn with_finish(mut self, finish: Finish) -> Self {
        self.finish = Some(finish);
        self
    }

    /// The engine for one rank.
    pub fn make(&self, cfg: &EngineConfig, rank: usize) -> Box<dyn Engine> {
        (self.make)(cfg, rank)
    }

    /// `option`'s full name, as given after `--` and stored in [`EngineConfig::options`].
    pub fn full_name(&self, option: &EngineOption) -> String {
        format!("{}.{}", self.module, option.name)
    }

    /// Its options in short, for messages: `--posix.odirect`, or for several the start their
    /// names share and `*` (`--dummy.delay-*`); `None` without options.
    pub fn options_pattern(&self) -> Option<String> {
        match self.options {
            [] => None,
            [one] => Some(format!("--{}", self.full_name(one))),
            [first, rest @ ..] => {
                let shared = rest.iter().fold(first.name, |acc, o| {
                    let same = acc.char_indices().zip(o.name.chars());
                    let end = same.take_while(|((_, a), b)| a == b).last();
                    &acc[..end.map_or(0, |((i, c), _)| i + c.len_utf8())]
                });
                Some(format!("--{}.{shared}*", self.module))
            }
        }
    }

    /// This engine, if it runs metadata workloads (mdtest).
    pub fn for_metadata(&'static self) -> Result<&'static Self, EngineError> {
        if self.caps.metadata {
            Ok(self)
        } else {
            Err(EngineError::NoMetadata { api: self.name })
        }
    }
}

/// Engines iogauge provides, in IOR's order; the first is the default.
pub static ENGINES: &[EngineInfo] = &[
    EngineInfo {
        name: "POSIX",
        module: "posix",
        help: "pread/pwrite and POSIX metadata calls; with ior, --posix.odirect adds O_DIRECT",
        caps: posix::PosixEngine::CAPS,
        options: posix::OPTIONS,
        shares: &[],
        check: Some(posix::check),
        check_target: Some(posix::check_target),
        make: posix::make,
        finish: None,
        refused: &[],
    },
    EngineInfo {
        name: "MMAP",
        module: "mmap",
        help: "maps the whole file and copies transfers with memcpy; sync is msync",
        caps: mmap::MmapEngine::CAPS,
        options: &[],
        shares: &[],
        check: Some(mmap::check),
        check_target: None,
        make: mmap::make,
        finish: None,
        refused: &[],
    },
    EngineInfo {
        name: "DUMMY",
        module: "dummy",
        help: "no I/O, optional --dummy.delay-* sleeps and --dummy.fail-at/short-at faults; measures the harness itself",
        caps: dummy::DummyEngine::CAPS,
        options: dummy::OPTIONS,
        shares: &[],
        check: Some(dummy::check),
        check_target: None,
        make: dummy::make,
        finish: None,
        refused: &[],
    },
    EngineInfo {
        name: "IOURING",
        module: "iouring",
        help: "Linux io_uring: --iouring.depth requests in flight per rank (ior only; fio's io_uring engine)",
        caps: uring::caps("IOURING", false),
        options: uring::IOURING_OPTIONS,
        shares: &[],
        check: Some(uring::check_iouring),
        check_target: Some(uring::check_target),
        make: uring::make_iouring,
        finish: None,
        refused: &[],
    },
    EngineInfo {
        name: "AIO",
        module: "aio",
        help: "IOR's asynchronous API: --aio.max-pending requests in flight per rank, run on io_uring (ior only)",
        caps: uring::caps("AIO", false),
        options: uring::AIO_OPTIONS,
        shares: &["posix"],
        check: Some(uring::check_aio),
        check_target: Some(uring::check_target),
        make: uring::make_aio,
        finish: None,
        refused: &[],
    },
];

/// Other spellings of options, as fio names them (`--iouring.fixedbufs`): full name, then
/// the option's own.
pub static ALIASES: &[(&str, &str)] = &[
    ("iouring.fixedbufs", "iouring.fixed-bufs"),
    ("iouring.registerfiles", "iouring.register-files"),
    ("iouring.sqthread_poll", "iouring.sqpoll"),
];

/// An IOR API iogauge does not provide.
#[derive(Debug)]
pub struct RefusedApi {
    /// IOR's `-a` name.
    pub name: &'static str,
    /// Prefixes of IOR's module options for it, lower case; refused by name when given.
    pub modules: &'static [&'static str],
    /// Why it is refused, told to the user.
    pub reason: &'static str,
}

const fn no(
    name: &'static str,
    modules: &'static [&'static str],
    reason: &'static str,
) -> RefusedApi {
    RefusedApi {
        name,
        modules,
        reason,
    }
}

const S3: &str = "IOR's S3 modules other than S3-libs3 are not provided: use -a S3 (iogauge's object layout) or -a S3-libs3 (IOR's)";

/// IOR APIs iogauge does not provide, each with the reason given to the user. `S3_plus` and
/// `S3_EMC` are variants of `S3-4c` and share its options (`s3` is their older prefix).
#[rustfmt::skip]
pub static REFUSED_APIS: &[RefusedApi] = &[
    no("MPIIO", &["mpiio"], "MPI-IO needs the MPI build (cargo build --release --features mpi, run under mpirun or srun; docs/pio.md); -a POSIX gives the same file layout"),
    no("HDF5", &["hdf5"], "parallel HDF5 needs the build with it (cargo build --release --features mpi,hdf5, run under mpirun or srun; README, docs/pio.md)"),
    no("NCMPI", &["ncmpi"], "PnetCDF is not linked"),
    no("HDFS", &["hdfs"], "the Hadoop HDFS client is not implemented"),
    no("DFS", &["dfs"], "the DAOS DFS client is not implemented; use -a POSIX on a dfuse mount"),
    no("IME", &["ime"], "the DDN IME native client is not implemented; use -a POSIX on the IME mount"),
    no("PMDK", &["pmdk"], "PMDK persistent memory is not implemented; use -a MMAP on a DAX mount"),
    no("RADOS", &["rados"], "Ceph RADOS object I/O is not implemented"),
    no("CEPHFS", &["cephfs"], "libcephfs is not implemented; use -a POSIX on a CephFS mount"),
    no("Gfarm", &["gfarm"], "the Gfarm native client is not implemented; use -a POSIX on a gfarm2fs mount"),
    no("CHFS", &["chfs"], "the CHFS ad hoc file system client is not implemented"),
    no("FINCHFS", &["finchfs"], "the FINCHFS ad hoc file system client is not implemented"),
    no("LIBNFS", &["libnfs"], "user-space NFS (libnfs) is not implemented; use -a POSIX on an NFS mount"),
    no("S3-libs3", &["s3-libs3"], S3),
    no("S3-4c", &["s3-4c", "s3"], S3),
    no("S3_plus", &[], S3),
    no("S3_EMC", &[], S3),
    no("S3-curl", &["s3-curl"], S3),
];

/// Why an `-a` name cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// An IOR API iogauge knows but does not provide; `api` is IOR's spelling.
    Refused { api: String, reason: String },
    /// Not an API name at all; `api` is what was typed.
    Unknown {
        api: String,
        suggestion: Option<String>,
    },
    /// A provided engine without metadata operations, asked for by a metadata workload.
    NoMetadata { api: &'static str },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Refused { api, reason } => {
                write!(f, "-a {api} is not supported by iogauge: {reason}")
            }
            EngineError::Unknown { api, suggestion } => {
                let known: Vec<&str> = ENGINES.iter().map(|e| e.name).collect();
                write!(f, "-a {api}: unknown API; known: {}", known.join(", "))?;
                if let Some(s) = suggestion {
                    write!(f, "; did you mean {s}?")?;
                }
                Ok(())
            }
            EngineError::NoMetadata { api } => {
                let able: Vec<&str> = metadata_engines().map(|e| e.name).collect();
                let object = engines().any(|e| e.name == *api && e.caps.object.is_some());
                if object {
                    return write!(
                        f,
                        "-a {api}: metadata workloads (mdtest, md-workbench) on object storage \
                         are not implemented yet; use {}",
                        text::join_words(&able, "or")
                    );
                }
                write!(
                    f,
                    "-a {api}: the {api} engine has no metadata operations (mdtest refuses it \
                     too); use {}",
                    text::join_words(&able, "or")
                )
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// The engines of other crates, registered by the binary at start-up ([`register`]).
static REGISTERED: RwLock<Vec<&'static EngineInfo>> = RwLock::new(Vec::new());

/// Adds an engine that lives in another crate (its HTTP stack or MPI library kept out of this
/// one), from the binary at start-up, before any lookup. A name of [`REFUSED_APIS`] it provides
/// is found from then on instead of refused. Registering a name twice, or one of [`ENGINES`],
/// is a programming error (panics).
pub fn register(info: &'static EngineInfo) {
    let mut all = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    let taken = ENGINES
        .iter()
        .chain(all.iter().copied())
        .any(|e| e.name.eq_ignore_ascii_case(info.name) || e.module == info.module);
    assert!(!taken, "engine {} registered twice", info.name);
    all.push(info);
}

/// Every engine: the table's in IOR's order, then the registered ones in their order.
pub fn engines() -> impl Iterator<Item = &'static EngineInfo> {
    let extra: Vec<&'static EngineInfo> =
        REGISTERED.read().unwrap_or_else(|e| e.into_inner()).clone();
    ENGINES.iter().chain(extra)
}

/// Finds an engine by name, ignoring ASCII case (IOR compares exactly; being lenient costs
/// nothing since no two names differ only by case).
pub fn lookup(api: &str) -> Result<&'static EngineInfo, EngineError> {
    if let Some(info) = engines().find(|e| e.name.eq_ignore_ascii_case(api)) {
        return Ok(info);
    }
    if let Some(r) = REFUSED_APIS
        .iter()
        .find(|r| r.name.eq_ignore_ascii_case(api))
    {
        return Err(EngineError::Refused {
            api: r.name.to_string(),
            reason: r.reason.to_string(),
        });
    }
    Err(EngineError::Unknown {
        api: api.to_string(),
        suggestion: text::suggest(api, engines().map(|e| e.name)).map(str::to_string),
    })
}

/// Builds the engine `cfg.api` names for one rank.
pub fn build(cfg: &EngineConfig, rank: usize) -> Result<Box<dyn Engine>, EngineError> {
    Ok(lookup(&cfg.api)?.make(cfg, rank))
}

/// Rank 0's engine of `cfg`, for what a command asks about its target outside the ranks
/// (the checks before a run, the file-system facts a result records). A plan gets here after
/// [`check`], so its API is known; one that is not gets the default engine, which answers
/// about the file system the target names.
pub fn for_target(cfg: &EngineConfig) -> Box<dyn Engine> {
    build(cfg, 0).unwrap_or_else(|_| ENGINES[0].make(cfg, 0))
}

/// Why the option of full name `name` (`S3-libs3.secret-key`) is refused, if an engine's
/// module refuses it by name.
pub fn refused_option(name: &str) -> Option<&'static str> {
    engines().find_map(|e| {
        let rest = name.strip_prefix(e.module)?.strip_prefix('.')?;
        e.refused
            .iter()
            .find(|(n, _)| *n == rest)
            .map(|(_, why)| *why)
    })
}

/// The end of a run with `cfg` (also one that stopped at its checks): the engine's own step,
/// if it has one; `Some` is a warning for the user.
pub fn finish(cfg: &EngineConfig) -> Option<String> {
    lookup(&cfg.api).ok()?.finish.and_then(|f| f(cfg))
}

/// The engines that run metadata workloads, in table order.
pub fn metadata_engines() -> impl Iterator<Item = &'static EngineInfo> {
    engines().filter(|e| e.caps.metadata)
}

/// Every declared option with its engine, in table order.
pub fn all_options() -> impl Iterator<Item = (&'static EngineInfo, &'static EngineOption)> {
    engines().flat_map(|e| e.options.iter().map(move |o| (e, o)))
}

/// The option with full name `name` (`posix.odirect`, matched exactly, as IOR's long names).
pub fn find_option(name: &str) -> Option<(&'static EngineInfo, &'static EngineOption)> {
    let name = ALIASES
        .iter()
        .find(|(alias, _)| *alias == name)
        .map_or(name, |(_, own)| own);
    all_options().find(|(e, o)| {
        let rest = name
            .strip_prefix(e.module)
            .and_then(|r| r.strip_prefix('.'));
        rest == Some(o.name)
    })
}

/// The option an IOR `-O` key sets (`useO_DIRECT`), ignoring ASCII case.
pub fn find_ior_key(key: &str) -> Option<(&'static EngineInfo, &'static EngineOption)> {
    all_options().find(|(_, o)| o.ior_keys.iter().any(|k| k.eq_ignore_ascii_case(key)))
}

/// The module of a dotted option name (`posix.rangelocks` -> `posix`), if it is one of IOR's:
/// a provided engine's or a refused API's.
pub fn module_of(name: &str) -> Option<&'static str> {
    let (prefix, _) = name.split_once('.')?;
    let provided = engines().map(|e| e.module);
    let refused = REFUSED_APIS.iter().flat_map(|r| r.modules.iter().copied());
    provided
        .chain(refused)
        .find(|m| m.eq_ignore_ascii_case(prefix))
}

/// The engine's checks of `cfg` against the file system where `shape`'s I/O goes (`file` in
/// `dir`); Ok for an engine with nothing to ask.
pub fn check_target(
    cfg: &EngineConfig,
    shape: &IoShape,
    file: &Path,
    dir: &Path,
) -> Result<(), String> {
    let info = lookup(&cfg.api).map_err(|e| e.to_string())?;
    info.check_target
        .map_or(Ok(()), |check| check(cfg, shape, file, dir))
}

/// Checks `cfg` for `workload` before any I/O: the API is provided (and runs metadata
/// workloads if asked to), every option is declared, of its kind, belongs to this engine and
/// suits the workload, and the engine's own checks pass. Err is one line naming the options.
pub fn check(cfg: &EngineConfig, workload: &Workload) -> Result<&'static EngineInfo, String> {
    let mut info = lookup(&cfg.api).map_err(|e| e.to_string())?;
    if *workload == Workload::Metadata {
        info = info.for_metadata().map_err(|e| e.to_string())?;
    }
    check_kinds(cfg, find_option)?;
    // In table order, the chosen engine's own checks at its place: the first error does not
    // depend on how the options are stored.
    for e in engines() {
        for opt in e.options {
            let name = e.full_name(opt);
            if cfg.options.get(&name).is_none_or(|v| opt.is_default(v)) {
                continue;
            }
            if !std::ptr::eq(e, info) && !info.shares.contains(&e.module) {
                return Err(not_owner(e, opt, info));
            }
            if *workload == Workload::Metadata && !opt.metadata {
                return Err(format!(
                    "--{name} applies to bandwidth workloads (ior), not to mdtest"
                ));
            }
        }
        if let Some(check) = e.check.filter(|_| std::ptr::eq(e, info)) {
            check(cfg, workload)?;
        }
    }
    Ok(info)
}

/// Every option given is declared (`lookup` finds it by full name) and of its declared kind.
/// The lookup is a parameter so that the kinds no engine declares yet are tested too.
pub(crate) fn check_kinds<'a>(
    cfg: &EngineConfig,
    lookup: impl Fn(&str) -> Option<(&'a EngineInfo, &'a EngineOption)>,
) -> Result<(), String> {
    for (name, value) in &cfg.options {
        let Some((_, opt)) = lookup(name) else {
            // An option of an IOR module this build refuses (old IOR's -U sets
            // `mpiio.hintsFileName`): say why the module is missing.
            let module = name.split('.').next().unwrap_or("");
            if let Some(r) = REFUSED_APIS.iter().find(|r| r.modules.contains(&module)) {
                return Err(format!(
                    "--{name} is an option of -a {}: {}",
                    r.name, r.reason
                ));
            }
            return Err(format!("--{name}: no engine has this option"));
        };
        if !opt.kind.accepts(value) {
            let want = opt.kind.what();
            return Err(format!("--{name}: expected {want}, got {value}"));
        }
    }
    Ok(())
}

/// `--posix.odirect applies to -a POSIX, not -a MMAP`; an engine with several options is
/// named by its prefix (`--dummy.* options apply to -a DUMMY, ...`).
fn not_owner(owner: &EngineInfo, opt: &EngineOption, api: &EngineInfo) -> String {
    let (owner_name, api_name) = (owner.name, api.name);
    if owner.options.len() == 1 {
        let name = owner.full_name(opt);
        format!("--{name} applies to -a {owner_name}, not -a {api_name}")
    } else {
        let module = owner.module;
        format!("--{module}.* options apply to -a {owner_name}, not -a {api_name}")
    }
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
