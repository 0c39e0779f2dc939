//! THE phase table: every IO500 phase in run order, as `src/phase-definitions.h` has them
//! (IO500 HEAD `02091cf`, 26 entries). A row says what the phase is (type bits, score group,
//! parent section) and how iogauge runs it; the runner walks this table and never branches
//! on a phase's name.

use results::Operation;

/// IO500's `io500_phase_type` bits.
pub const DUMMY: u32 = 1;
pub const WRITE: u32 = 2;
pub const READ: u32 = 4;
pub const UPDATE: u32 = 8;
pub const REMOVE: u32 = 16;
pub const OPTIONAL: u32 = 32;

/// Score groups, in IO500's enum order (MD before BW, which is why result.txt prints MD first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    None,
    Md,
    Bw,
}

/// `--mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    Standard,
    Extended,
}

impl Mode {
    pub fn label(self) -> &'static str {
        match self {
            Mode::Standard => "standard",
            Mode::Extended => "extended",
        }
    }
}

/// Which of the two IOR or mdtest setups a phase uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Easy,
    Hard,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IorStep {
    /// `-w -D $SW -O stoneWallingWearOut=1`
    Write,
    /// `-r -R`, as many transfers as the status file says.
    Read,
    /// `-r -D $SW -z -z` 4 KiB reads of the ior-easy files (ior-rnd4K-easy-read).
    Random4k,
}

/// mdtest's phase flag, and the operation whose rate is the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MdStep {
    /// `-C -Y -W $SW`: file creation.
    Create,
    /// `-T`: file stat.
    Stat,
    /// `-E -X`: file read with verification.
    Read,
    /// `-r`: file removal.
    Delete,
}

/// md-workbench's phase flags: `-1` (create), `-2 -R=2 -X` (bench), `-3` (delete).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MdwbStep {
    Create,
    Bench,
    Delete,
}

/// What pfind walks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindScope {
    /// The whole data directory, `-newer -size -name` (the scored `find`).
    All,
    /// `mdtest-easy/`, `-name` only (find-easy).
    Easy,
    /// `mdtest-hard/`, `-newer -size -name` (find-hard).
    Hard,
}

/// How a phase is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// A section that only carries options (global, debug, the parents).
    Options,
    /// Creates `$R/timestampfile`.
    Timestamp,
    Ior(Family, IorStep),
    Mdtest(Family, MdStep),
    Find(FindScope),
    /// md-workbench (extended mode only).
    MdWorkbench(MdwbStep),
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct Phase {
    pub name: &'static str,
    /// `DUMMY | WRITE | ... | OPTIONAL`
    pub kind: u32,
    pub group: Group,
    /// The section whose `API` and `run` the phase inherits.
    pub parent: Option<&'static str>,
    /// A write phase whose wall time must reach the stonewall (`verify_stonewall`).
    pub verify_stonewall: bool,
    pub how: How,
}

impl Phase {
    pub fn optional(&self) -> bool {
        self.kind & OPTIONAL != 0
    }
    pub fn dummy(&self) -> bool {
        self.kind & DUMMY != 0
    }
    /// Has a `run()` in the IO500 (the option-only sections do not).
    pub fn runnable(&self) -> bool {
        self.how != How::Options
    }
    /// IO500's `RUN_PHASE`: optional phases only in extended mode.
    pub fn in_mode(&self, mode: Mode) -> bool {
        !self.optional() || mode == Mode::Extended
    }
    pub fn scored(&self) -> bool {
        self.group != Group::None
    }
    /// The iogauge command that runs this phase's tool (`ior`, `mdtest`, `find`,
    /// `md-workbench`).
    pub fn tool(&self) -> Option<&'static str> {
        match self.how {
            How::Ior(..) => Some("ior"),
            How::Mdtest(..) => Some("mdtest"),
            How::Find(_) => Some("find"),
            How::MdWorkbench(_) => Some("md-workbench"),
            How::Options | How::Timestamp => None,
        }
    }

    /// The operation whose rate or bandwidth is the phase's score.
    pub fn operation(&self) -> Option<Operation> {
        Some(match self.how {
            How::Ior(_, IorStep::Write) => Operation::Write,
            How::Ior(..) => Operation::Read,
            How::Mdtest(_, MdStep::Create) => Operation::FileCreate,
            How::Mdtest(_, MdStep::Stat) => Operation::FileStat,
            How::Mdtest(_, MdStep::Read) => Operation::FileRead,
            How::Mdtest(_, MdStep::Delete) => Operation::FileRemove,
            How::Find(_) => Operation::Find,
            How::MdWorkbench(MdwbStep::Create) => Operation::Precreate,
            How::MdWorkbench(MdwbStep::Bench) => Operation::Benchmark,
            How::MdWorkbench(MdwbStep::Delete) => Operation::Cleanup,
            How::Options | How::Timestamp => return None,
        })
    }

    /// The summary unit, chosen by the first letter as the IO500 does (`find` prints kIOPS).
    pub fn unit(&self) -> &'static str {
        if self.name.starts_with('i') {
            "GiB/s"
        } else {
            "kIOPS"
        }
    }
}

const fn row(
    name: &'static str,
    kind: u32,
    group: Group,
    parent: Option<&'static str>,
    verify_stonewall: bool,
    how: How,
) -> Phase {
    Phase {
        name,
        kind,
        group,
        parent,
        verify_stonewall,
        how,
    }
}

use Family::{Easy, Hard};
use Group::{Bw, Md, None as NoScore};

/// Every phase in the IO500's order.
#[rustfmt::skip]
pub static PHASES: [Phase; 26] = [
    row("global", DUMMY, NoScore, None, false, How::Options),
    row("debug", DUMMY, NoScore, None, false, How::Options),
    row("ior-easy", DUMMY, NoScore, None, false, How::Options),
    row("ior-easy-write", WRITE, Bw, Some("ior-easy"), true, How::Ior(Easy, IorStep::Write)),
    row("mdtest-easy", DUMMY, NoScore, None, false, How::Options),
    row("mdtest-easy-write", WRITE, Md, Some("mdtest-easy"), true, How::Mdtest(Easy, MdStep::Create)),
    row("mdworkbench", DUMMY | OPTIONAL, NoScore, None, false, How::Options),
    row("mdworkbench-create", WRITE | OPTIONAL, NoScore, Some("mdworkbench"), false, How::MdWorkbench(MdwbStep::Create)),
    row("timestamp", DUMMY, NoScore, None, false, How::Timestamp),
    row("find-easy", READ | OPTIONAL, Md, None, false, How::Find(FindScope::Easy)),
    row("ior-hard", DUMMY, NoScore, None, false, How::Options),
    row("ior-hard-write", WRITE, Bw, Some("ior-hard"), true, How::Ior(Hard, IorStep::Write)),
    row("mdtest-hard", DUMMY, NoScore, None, false, How::Options),
    row("mdtest-hard-write", WRITE, Md, Some("mdtest-hard"), true, How::Mdtest(Hard, MdStep::Create)),
    row("find", READ, Md, None, false, How::Find(FindScope::All)),
    row("find-hard", READ | OPTIONAL, Md, None, false, How::Find(FindScope::Hard)),
    row("mdworkbench-bench", WRITE | OPTIONAL, Md, Some("mdworkbench"), false, How::MdWorkbench(MdwbStep::Bench)),
    row("ior-easy-read", READ, Bw, Some("ior-easy"), false, How::Ior(Easy, IorStep::Read)),
    row("mdtest-easy-stat", READ, Md, Some("mdtest-easy"), false, How::Mdtest(Easy, MdStep::Stat)),
    row("ior-hard-read", READ, Bw, Some("ior-hard"), false, How::Ior(Hard, IorStep::Read)),
    row("mdtest-hard-stat", READ, Md, Some("mdtest-hard"), false, How::Mdtest(Hard, MdStep::Stat)),
    row("mdworkbench-delete", REMOVE | OPTIONAL, NoScore, Some("mdworkbench"), false, How::MdWorkbench(MdwbStep::Delete)),
    row("mdtest-easy-delete", REMOVE, Md, Some("mdtest-easy"), false, How::Mdtest(Easy, MdStep::Delete)),
    row("mdtest-hard-read", READ, Md, Some("mdtest-hard"), false, How::Mdtest(Hard, MdStep::Read)),
    row("mdtest-hard-delete", REMOVE, Md, Some("mdtest-hard"), false, How::Mdtest(Hard, MdStep::Delete)),
    row("ior-rnd4K-easy-read", READ, NoScore, Some("ior-easy"), false, How::Ior(Easy, IorStep::Random4k)),
];

/// A phase by its exact name.
pub fn by_name(name: &str) -> Option<&'static Phase> {
    PHASES.iter().find(|p| p.name == name)
}

/// The phases whose `score` the score hash covers (IO500's `u_should_hash_phase`): scored and
/// not optional. Names that are no phase (a `[run]` section) count, as in the IO500.
pub fn should_hash(name: &str) -> bool {
    match by_name(name) {
        Some(p) => p.scored() && !p.optional(),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io500::config::SECTIONS;

    #[test]
    fn the_table_matches_the_ini_schema() {
        assert_eq!(PHASES.len(), SECTIONS.len());
        for (p, s) in PHASES.iter().zip(SECTIONS.iter()) {
            assert_eq!(p.name, s.name);
            assert_eq!(p.optional(), s.optional, "{}", p.name);
            assert_eq!(p.parent, s.parent, "{}", p.name);
        }
    }

    #[test]
    fn standard_order_and_groups() {
        let run: Vec<&str> = PHASES
            .iter()
            .filter(|p| p.runnable() && p.in_mode(Mode::Standard))
            .map(|p| p.name)
            .collect();
        assert_eq!(
            run,
            [
                "ior-easy-write",
                "mdtest-easy-write",
                "timestamp",
                "ior-hard-write",
                "mdtest-hard-write",
                "find",
                "ior-easy-read",
                "mdtest-easy-stat",
                "ior-hard-read",
                "mdtest-hard-stat",
                "mdtest-easy-delete",
                "mdtest-hard-read",
                "mdtest-hard-delete",
                "ior-rnd4K-easy-read",
            ]
        );
        let count = |g| {
            PHASES
                .iter()
                .filter(|p| p.group == g && !p.optional())
                .count()
        };
        assert_eq!((count(Group::Bw), count(Group::Md)), (4, 8));
        let ext: Vec<&str> = PHASES
            .iter()
            .filter(|p| p.runnable() && !p.in_mode(Mode::Standard))
            .map(|p| p.name)
            .collect();
        assert_eq!(
            ext,
            [
                "mdworkbench-create",
                "find-easy",
                "find-hard",
                "mdworkbench-bench",
                "mdworkbench-delete"
            ]
        );
    }

    #[test]
    fn hashing_and_units() {
        assert!(should_hash("find") && should_hash("ior-easy-write") && should_hash("run"));
        assert!(!should_hash("timestamp") && !should_hash("ior-rnd4K-easy-read"));
        assert!(!should_hash("find-easy") && !should_hash("mdworkbench-bench"));
        assert_eq!(by_name("find").unwrap().unit(), "kIOPS");
        assert_eq!(by_name("ior-rnd4K-easy-read").unwrap().unit(), "GiB/s");
        let writes: Vec<&str> = PHASES
            .iter()
            .filter(|p| p.verify_stonewall)
            .map(|p| p.name)
            .collect();
        assert_eq!(
            writes,
            [
                "ior-easy-write",
                "mdtest-easy-write",
                "ior-hard-write",
                "mdtest-hard-write"
            ]
        );
    }
}
