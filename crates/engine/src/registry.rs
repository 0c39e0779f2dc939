//! The engine table: IOR's `-a` names mapped to constructors, plus the IOR APIs iogauge refuses
//! with a reason. Adding an engine is one row in [`ENGINES`].

use crate::{Caps, DummyDelays, DummyEngine, Engine, MmapEngine, PosixEngine};
use std::fmt;

/// What the plan resolved for the engine: the API and its module options.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineConfig {
    /// Canonical name as in [`EngineInfo::name`], e.g. `"POSIX"`.
    pub api: String,
    /// `--posix.odirect`.
    pub odirect: bool,
    /// `--dummy.delay-*`.
    pub dummy: DummyDelays,
}

impl Default for EngineConfig {
    /// The default API is the first row of [`ENGINES`] (POSIX), as in IOR.
    fn default() -> Self {
        EngineConfig {
            api: ENGINES[0].name.to_string(),
            odirect: false,
            dummy: DummyDelays::default(),
        }
    }
}

/// One row of the engine table.
#[derive(Debug)]
pub struct EngineInfo {
    pub name: &'static str,
    pub help: &'static str,
    /// Capabilities with default options (e.g. POSIX without O_DIRECT).
    pub caps: Caps,
    make: fn(&EngineConfig, usize) -> Box<dyn Engine>,
}

impl EngineInfo {
    pub fn make(&self, cfg: &EngineConfig, rank: usize) -> Box<dyn Engine> {
        (self.make)(cfg, rank)
    }
}

fn make_posix(cfg: &EngineConfig, _rank: usize) -> Box<dyn Engine> {
    Box::new(PosixEngine::new(cfg.odirect))
}

fn make_mmap(_cfg: &EngineConfig, _rank: usize) -> Box<dyn Engine> {
    Box::new(MmapEngine::new())
}

fn make_dummy(cfg: &EngineConfig, rank: usize) -> Box<dyn Engine> {
    Box::new(DummyEngine::new(cfg.dummy.clone(), rank))
}

/// Engines iogauge provides, in IOR's order; the first is the default.
pub static ENGINES: &[EngineInfo] = &[
    EngineInfo {
        name: "POSIX",
        help: "pread/pwrite on file descriptors; --posix.odirect adds O_DIRECT",
        caps: PosixEngine::CAPS,
        make: make_posix,
    },
    EngineInfo {
        name: "MMAP",
        help: "maps the whole file and copies transfers with memcpy; sync is msync",
        caps: MmapEngine::CAPS,
        make: make_mmap,
    },
    EngineInfo {
        name: "DUMMY",
        help: "no I/O, optional --dummy.delay-* sleeps; measures the harness itself",
        caps: DummyEngine::CAPS,
        make: make_dummy,
    },
];

const S3: &str = "S3 object storage is not implemented";

/// IOR APIs iogauge does not provide, each with the reason given to the user.
pub static REFUSED_APIS: &[(&str, &str)] = &[
    (
        "MPIIO",
        "MPI-IO is not implemented; -a POSIX under mpirun gives the same file layout",
    ),
    ("HDF5", "the HDF5 library is not linked"),
    ("NCMPI", "PnetCDF is not linked"),
    ("HDFS", "the Hadoop HDFS client is not implemented"),
    (
        "DFS",
        "the DAOS DFS client is not implemented; use -a POSIX on a dfuse mount",
    ),
    (
        "IME",
        "the DDN IME native client is not implemented; use -a POSIX on the IME mount",
    ),
    (
        "PMDK",
        "PMDK persistent memory is not implemented; use -a MMAP on a DAX mount",
    ),
    ("RADOS", "Ceph RADOS object I/O is not implemented"),
    (
        "CEPHFS",
        "libcephfs is not implemented; use -a POSIX on a CephFS mount",
    ),
    (
        "Gfarm",
        "the Gfarm native client is not implemented; use -a POSIX on a gfarm2fs mount",
    ),
    (
        "CHFS",
        "the CHFS ad hoc file system client is not implemented",
    ),
    (
        "FINCHFS",
        "the FINCHFS ad hoc file system client is not implemented",
    ),
    (
        "LIBNFS",
        "user-space NFS (libnfs) is not implemented; use -a POSIX on an NFS mount",
    ),
    ("S3-libs3", S3),
    ("S3-4c", S3),
    ("S3_plus", S3),
    ("S3_EMC", S3),
    ("S3-curl", S3),
    ("AIO", "Linux libaio is not implemented"),
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
        }
    }
}

impl std::error::Error for EngineError {}

/// Finds an engine by name, ignoring ASCII case (IOR compares exactly; being lenient costs
/// nothing since no two names differ only by case).
pub fn lookup(api: &str) -> Result<&'static EngineInfo, EngineError> {
    if let Some(info) = ENGINES.iter().find(|e| e.name.eq_ignore_ascii_case(api)) {
        return Ok(info);
    }
    if let Some((name, reason)) = REFUSED_APIS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(api))
    {
        return Err(EngineError::Refused {
            api: name.to_string(),
            reason: reason.to_string(),
        });
    }
    let typed = api.to_ascii_uppercase();
    let suggestion = ENGINES
        .iter()
        .map(|e| (edit_distance(&typed, &e.name.to_ascii_uppercase()), e.name))
        .min()
        .filter(|&(d, name)| d <= 2 && d < name.len())
        .map(|(_, name)| name.to_string());
    Err(EngineError::Unknown {
        api: api.to_string(),
        suggestion,
    })
}

/// Builds the engine `cfg.api` names for one rank.
pub fn build(cfg: &EngineConfig, rank: usize) -> Result<Box<dyn Engine>, EngineError> {
    Ok(lookup(&cfg.api)?.make(cfg, rank))
}

/// Levenshtein distance over chars; names are a few characters, so O(n·m) is nothing.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            let subst = prev[j] + usize::from(ca != cb);
            cur[j + 1] = subst.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_order_and_default() {
        let names: Vec<_> = ENGINES.iter().map(|e| e.name).collect();
        assert_eq!(names, ["POSIX", "MMAP", "DUMMY"]);
        assert_eq!(EngineConfig::default().api, "POSIX");
        for e in ENGINES {
            assert_eq!(e.caps.api_name, e.name);
            assert!(!REFUSED_APIS
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(e.name)));
        }
        assert_eq!(REFUSED_APIS.len(), 19);
    }

    #[test]
    fn lookup_ignores_case() {
        assert_eq!(lookup("posix").unwrap().name, "POSIX");
        assert_eq!(lookup("MmAp").unwrap().name, "MMAP");
        assert_eq!(lookup("DUMMY").unwrap().name, "DUMMY");
    }

    #[test]
    fn refused_api_message() {
        let err = lookup("mpiio").unwrap_err();
        assert!(matches!(&err, EngineError::Refused { api, .. } if api == "MPIIO"));
        let msg = err.to_string();
        assert!(
            msg.starts_with("-a MPIIO is not supported by iogauge: "),
            "{msg}"
        );
        assert!(msg.contains("MPI-IO"), "{msg}");
        assert!(matches!(
            lookup("s3-CURL"),
            Err(EngineError::Refused { .. })
        ));
        assert!(matches!(lookup("gfarm"), Err(EngineError::Refused { .. })));
    }

    #[test]
    fn unknown_api_suggestion() {
        let err = lookup("POSXI").unwrap_err();
        assert_eq!(
            err,
            EngineError::Unknown {
                api: "POSXI".into(),
                suggestion: Some("POSIX".into())
            }
        );
        assert_eq!(
            err.to_string(),
            "-a POSXI: unknown API; known: POSIX, MMAP, DUMMY; did you mean POSIX?"
        );
        assert_eq!(
            lookup("dumy").unwrap_err(),
            EngineError::Unknown {
                api: "dumy".into(),
                suggestion: Some("DUMMY".into())
            }
        );
        let far = lookup("FOO").unwrap_err();
        assert_eq!(
            far,
            EngineError::Unknown {
                api: "FOO".into(),
                suggestion: None
            }
        );
        assert_eq!(
            far.to_string(),
            "-a FOO: unknown API; known: POSIX, MMAP, DUMMY"
        );
        assert!(matches!(lookup(""), Err(EngineError::Unknown { .. })));
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("POSXI", "POSIX"), 2);
        assert_eq!(edit_distance("", "MMAP"), 4);
        assert_eq!(edit_distance("MAP", "MMAP"), 1);
        assert_eq!(edit_distance("DUMMY", "DUMMY"), 0);
    }

    #[test]
    fn build_passes_options() {
        let cfg = EngineConfig {
            odirect: true,
            ..EngineConfig::default()
        };
        let e = build(&cfg, 3).unwrap();
        assert_eq!(e.caps().alignment, 4096);
        assert_eq!(e.caps().api_name, "POSIX");
        let cfg = EngineConfig {
            api: "dummy".into(),
            ..EngineConfig::default()
        };
        assert!(!build(&cfg, 0).unwrap().caps().does_io);
        assert!(
            build(
                &EngineConfig {
                    api: "MMAP".into(),
                    ..cfg.clone()
                },
                0
            )
            .unwrap()
            .caps()
            .needs_file_size
        );
        assert!(matches!(
            build(
                &EngineConfig {
                    api: "HDF5".into(),
                    ..cfg
                },
                0
            ),
            Err(EngineError::Refused { .. })
        ));
    }
}
