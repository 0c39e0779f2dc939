//! What a workload does with each global option: honoured (the command path applies it in
//! every phase where it means something, and a phase where it means nothing says so in its
//! record) or refused with exit 2, naming the option and the workload. Never accepted and
//! ignored.

use workload::session::DropCaches;

use crate::world::Global;

/// The global options a workload cannot take for granted. `--warn`, `--events`, `--json`,
/// `--metrics`/`--influx`, `--db`/`--no-store`/`--label`, `--quiet`, `--tasks` and
/// `--fake-nodes` are honoured by the command path for every workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Supports {
    /// `--drop-caches`: the page-cache step before each timed phase drops what the phase
    /// reads (`workload::cache::before_phase`).
    pub drop_caches: bool,
    /// `--allow-root-target`: the workload makes and removes a directory tree of its own,
    /// which `workload::target::check_tree_root` keeps out of `/`, `$HOME` and mount roots.
    pub root_target: bool,
    /// `--dry-run`: it can show what it would do without doing it.
    pub dry_run: bool,
}

/// The global options, by name, with what `supports` says of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GlobalOption {
    DropCaches,
    AllowRootTarget,
    Warn,
    Events,
    Json,
    Metrics,
    Store,
    Quiet,
    Tasks,
    FakeNodes,
}

impl GlobalOption {
    pub const ALL: [GlobalOption; 10] = [
        GlobalOption::DropCaches,
        GlobalOption::AllowRootTarget,
        GlobalOption::Warn,
        GlobalOption::Events,
        GlobalOption::Json,
        GlobalOption::Metrics,
        GlobalOption::Store,
        GlobalOption::Quiet,
        GlobalOption::Tasks,
        GlobalOption::FakeNodes,
    ];

    pub fn name(self) -> &'static str {
        match self {
            GlobalOption::DropCaches => "--drop-caches",
            GlobalOption::AllowRootTarget => "--allow-root-target",
            GlobalOption::Warn => "--warn",
            GlobalOption::Events => "--events",
            GlobalOption::Json => "--json",
            GlobalOption::Metrics => "--metrics",
            GlobalOption::Store => "--db",
            GlobalOption::Quiet => "--quiet",
            GlobalOption::Tasks => "--tasks",
            GlobalOption::FakeNodes => "--fake-nodes",
        }
    }
}

impl Supports {
    /// Ok when `workload` honours `option`; Err is the refusal (bad usage).
    pub fn verdict(&self, workload: &str, option: GlobalOption) -> Result<(), String> {
        let o = option.name();
        match option {
            GlobalOption::DropCaches if !self.drop_caches => Err(format!(
                "{o}: {workload} cannot drop the page cache before its phases; run without {o}"
            )),
            GlobalOption::AllowRootTarget if !self.root_target => Err(format!(
                "{o}: {workload} makes no directory tree of its own, so there is nothing to \
                 allow (docs/safety.md); run without {o}"
            )),
            _ => Ok(()),
        }
    }

    /// The first global option given that `workload` refuses, as the message of bad usage.
    pub fn check(&self, workload: &str, global: &Global) -> Result<(), String> {
        let given = |o: GlobalOption| match o {
            GlobalOption::DropCaches => crate::policy::get().drop_caches != DropCaches::Off,
            GlobalOption::AllowRootTarget => global.allow_root_target,
            _ => false,
        };
        GlobalOption::ALL
            .into_iter()
            .filter(|o| given(*o))
            .try_for_each(|o| self.verdict(workload, o))
    }
}
