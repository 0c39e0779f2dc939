//! Every IO500 `.ini` section and key, in `io500 --list` order (reference §6.2): one ordered
//! table of data, as `src/phase-definitions.h` and the per-phase `ini_option_t` tables are in
//! the IO500 itself (HEAD `02091cf`). Names, defaults, help texts (printed verbatim by
//! `--list`, including the doubled `%%` of `waitingTime`; the debug texts end in IO500's
//! `DEBUG_OPTION` suffix) and value types follow those tables.
//!
//! There is no `[run]` section here: `[run]` (procs, version, config-hash, ...) exists only in
//! the result.txt that IO500 writes, and the IO500 parser rejects it as an unknown section.

/// The value type of a key and the IO500 rule that checks it (reference §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Any text without `#` or `;`.
    Str,
    /// `^-?[0-9]+$` (IO500 `INI_INT`).
    Int,
    /// `^[0-9]+$` (IO500 `INI_UINT` and `INI_UINT64`).
    UInt,
    /// `^[0-9e.+-]+$` (IO500 `INI_FLOAT`).
    Float,
    /// `true`/`false` in any case, or `1`/`0`; stored as `TRUE`/`FALSE`.
    Bool,
}

/// One key of a section.
#[derive(Debug)]
pub struct KeySpec {
    /// The name as IO500 spells it (matched case-insensitively, hashed as spelled here).
    pub name: &'static str,
    /// The default value; `None` = unset (prints as `key = `, not hashed).
    pub default: Option<&'static str>,
    /// The `# help` line of `--list`.
    pub help: &'static str,
    pub kind: Kind,
}

/// One section: a phase, a parent carrying options for its phases, or `global`/`debug`.
#[derive(Debug)]
pub struct SectionSpec {
    pub name: &'static str,
    pub keys: &'static [KeySpec],
    /// Extended-mode-only (`IO500_PHASE_FLAG_OPTIONAL`); left out by `--list-mandatory`.
    pub optional: bool,
    /// The section whose `API` and `run` this phase inherits (`ior-easy-write` -> `ior-easy`).
    pub parent: Option<&'static str>,
}

const fn key(
    name: &'static str,
    default: Option<&'static str>,
    help: &'static str,
    kind: Kind,
) -> KeySpec {
    KeySpec {
        name,
        default,
        help,
        kind,
    }
}

const fn section(
    name: &'static str,
    keys: &'static [KeySpec],
    optional: bool,
    parent: Option<&'static str>,
) -> SectionSpec {
    SectionSpec {
        name,
        keys,
        optional,
        parent,
    }
}

use Kind::{Bool, Float, Int, Str, UInt};

const API: KeySpec = key("API", None, "The API to be used", Str);
const RUN: KeySpec = key("run", Some("TRUE"), "Run this phase", Bool);
const VERBOSITY: KeySpec = key("verbosity", None, "The verbosity level", Int);
const COLLECTIVE: KeySpec = key(
    "collective",
    None,
    "Collective operation (for supported backends)",
    Bool,
);
const FILES_PER_PROC: KeySpec = key("n", Some("1000000"), "Files per proc", UInt);

const API_RUN: &[KeySpec] = &[API, RUN];
const API_COLLECTIVE_RUN: &[KeySpec] = &[API, COLLECTIVE, RUN];
const RUN_ONLY: &[KeySpec] = &[RUN];

const GLOBAL: &[KeySpec] = &[
    key("datadir", Some("./datafiles"), "The directory where the IO500 runs", Str),
    key("timestamp-datadir", Some("TRUE"), "The data directory is suffixed by a timestamp. Useful for running several IO500 tests concurrently.", Bool),
    key("resultdir", Some("./results"), "The result directory.", Str),
    key("timestamp-resultdir", Some("TRUE"), "The result directory is suffixed by a timestamp. Useful for running several IO500 tests concurrently.", Bool),
    key("api", Some("POSIX"), "The general API for the tests (to create/delete the datadir, extra options will be passed to IOR/mdtest)", Str),
    key("drop-caches", Some("FALSE"), "Purge the caches, this is useful for testing and needed for single node runs", Bool),
    key("drop-caches-cmd", Some("sudo -n bash -c \"echo 3 > /proc/sys/vm/drop_caches\""), "Cache purging command, invoked before each I/O phase", Str),
    key("io-buffers-on-gpu", Some("FALSE"), "Allocate the I/O buffers on the GPU", Bool),
    key("verbosity", Some("1"), "The verbosity level between 1 and 10", UInt),
    key("scc", Some("FALSE"), "Use the rules for the Student Cluster Competition", Bool),
    key("dataPacketType", Some("timestamp"), "Type of packet that will be created [timestamp|offset|incompressible|random]", Str),
];

const DEBUG: &[KeySpec] = &[
    key("stonewall-time", Some("300"), "For a valid result, the stonewall timer must be set to the value according to the rules. If smaller INVALIDATES RUN; FOR DEBUGGING.", Int),
    key("pause-dir", None, "Pause between phases while in this directory lies a file with the phase name, e.g., easy-create. This can be useful for performance testing, e.g., of tiered storage. At the moment it INVALIDATES RUN; FOR DEBUGGING.", Str),
];

const IOR_EASY: &[KeySpec] = &[
    API,
    key("transferSize", Some("2m"), "Transfer size", Str),
    key(
        "blockSize",
        Some("9920000m"),
        "Block size; must be a multiple of transferSize",
        Str,
    ),
    key(
        "filePerProc",
        Some("TRUE"),
        "Create one file per process",
        Bool,
    ),
    key(
        "uniqueDir",
        Some("FALSE"),
        "Use unique directory per file per process",
        Bool,
    ),
    RUN,
    VERBOSITY,
];

const MDTEST_EASY: &[KeySpec] = &[API, FILES_PER_PROC, RUN];

const MDWORKBENCH: &[KeySpec] = &[
    API,
    key("waitingTime", Some("0.0"), "Waiting time of an IO operation relative to runtime (1.0 is 100%%)", Float),
    key("precreatePerSet", None, "Files to precreate per set (always 10 sets), this is normally dynamically determined", UInt),
    key("filesPerProc", None, "Files to run per iteration and set (always 10 sets), this is normally dynamically determined", UInt),
    RUN,
    VERBOSITY,
];

const FIND: &[KeySpec] = &[
    key(
        "external-script",
        None,
        "Set to an external script to perform the find phase",
        Str,
    ),
    key(
        "external-mpi-args",
        Some(""),
        "Startup arguments for external scripts, some MPI's may not support this!",
        Str,
    ),
    key(
        "external-extra-args",
        Some(""),
        "Extra arguments for the external scripts",
        Str,
    ),
    key(
        "nproc",
        None,
        "Set the number of processes for pfind/the external script",
        UInt,
    ),
    RUN,
    key(
        "pfind-queue-length",
        Some("10000"),
        "Pfind queue length",
        Int,
    ),
    key(
        "pfind-steal-next",
        Some("FALSE"),
        "Pfind Steal from next",
        Bool,
    ),
    key(
        "pfind-parallelize-single-dir-access-using-hashing",
        Some("FALSE"),
        "Parallelize the readdir by using hashing. Your system must support this!",
        Bool,
    ),
];

const IOR_HARD: &[KeySpec] = &[
    API,
    key("segmentCount", Some("10000000"), "Number of segments", Int),
    COLLECTIVE,
    RUN,
    VERBOSITY,
];

const MDTEST_HARD: &[KeySpec] = &[
    API,
    FILES_PER_PROC,
    key("files-per-dir", None, "File limit per directory (MDTest -I flag) to overcome file system limitations INVALIDATES RUN; FOR DEBUGGING.", UInt),
    RUN,
];

const NONE: &[KeySpec] = &[];

/// All 26 sections in IO500's phase-table order, which is also `--list` order.
pub static SECTIONS: &[SectionSpec] = &[
    section("global", GLOBAL, false, None),
    section("debug", DEBUG, false, None),
    section("ior-easy", IOR_EASY, false, None),
    section("ior-easy-write", API_RUN, false, Some("ior-easy")),
    section("mdtest-easy", MDTEST_EASY, false, None),
    section("mdtest-easy-write", API_RUN, false, Some("mdtest-easy")),
    section("mdworkbench", MDWORKBENCH, true, None),
    section("mdworkbench-create", RUN_ONLY, true, Some("mdworkbench")),
    section("timestamp", NONE, false, None),
    section("find-easy", FIND, true, None),
    section("ior-hard", IOR_HARD, false, None),
    section(
        "ior-hard-write",
        API_COLLECTIVE_RUN,
        false,
        Some("ior-hard"),
    ),
    section("mdtest-hard", MDTEST_HARD, false, None),
    section("mdtest-hard-write", API_RUN, false, Some("mdtest-hard")),
    section("find", FIND, false, None),
    section("find-hard", FIND, true, None),
    section("mdworkbench-bench", RUN_ONLY, true, Some("mdworkbench")),
    section("ior-easy-read", API_RUN, false, Some("ior-easy")),
    section("mdtest-easy-stat", API_RUN, false, Some("mdtest-easy")),
    section("ior-hard-read", API_COLLECTIVE_RUN, false, Some("ior-hard")),
    section("mdtest-hard-stat", API_RUN, false, Some("mdtest-hard")),
    section("mdworkbench-delete", RUN_ONLY, true, Some("mdworkbench")),
    section("mdtest-easy-delete", API_RUN, false, Some("mdtest-easy")),
    section("mdtest-hard-read", API_RUN, false, Some("mdtest-hard")),
    section("mdtest-hard-delete", API_RUN, false, Some("mdtest-hard")),
    section("ior-rnd4K-easy-read", API_RUN, false, Some("ior-easy")),
];

/// The index of a section, by case-insensitive name.
pub(super) fn section_index(name: &str) -> Option<usize> {
    SECTIONS
        .iter()
        .position(|s| s.name.eq_ignore_ascii_case(name))
}

/// The index of a key within a section, by case-insensitive name.
pub(super) fn key_index(section: usize, name: &str) -> Option<usize> {
    SECTIONS[section]
        .keys
        .iter()
        .position(|k| k.name.eq_ignore_ascii_case(name))
}
