//! The `iogauge mix` option table: every accepted option. The parser and the help text read
//! it; nothing else lists options. Engine options (`--dummy.delay-create`) are the engines'
//! own, those marked for metadata workloads.

pub use crate::optparse::{Arg, Origin};
use crate::optparse::{Spec, Table};

pub use crate::optparse::help::Section as Group;

pub const GROUPS: [(Group, &str); 4] = [
    (Group::Layout, "The mix, its tree and the load"),
    (Group::Output, "Output"),
    (Group::Backend, "Back end (-a) and back-end module options"),
    (Group::Iogauge, "Ranks and iogauge's own options"),
];

/// What an option sets; the parser maps each to a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Mix,
    Dir,
    Ramp,
    StepSeconds,
    LatencyLimit,
    Arrivals,
    Seed,
    DryRun,
    Api,
    Tasks,
    FakeNodes,
    FakePlacement,
    Json,
    Help,
}

pub type OptSpec = Spec<Target, Group>;

use crate::optparse::opt as o;

use Arg::{Flag, Value};
use Group as G;
use Origin::Iogauge as New;
use Target as T;

#[rustfmt::skip]
pub const OPTIONS: &[OptSpec] = &[
    o(' ', "mix", Value, T::Mix, G::Layout, New, "FILE|NAME", "build-like", "the operations' percentages and the tree, a TOML file (docs/mix.md) or a shipped mix's name"),
    o(' ', "dir", Value, T::Dir, G::Layout, New, "DIR", "", "where the ranks' trees go (DIR/r<rank>); made and removed when it does not exist (required)"),
    o(' ', "ramp", Value, T::Ramp, G::Layout, New, "START:STEP:MAX", "1000:1000:10000", "target rates of the steps, operations per second for the whole run"),
    o(' ', "step-seconds", Value, T::StepSeconds, G::Layout, New, "SECONDS", "10", "how long each step issues operations (seconds, or with a unit: 500ms)"),
    o(' ', "latency-limit", Value, T::LatencyLimit, G::Layout, New, "[STAT=]TIME", "10ms", "the ramp stops after the first step whose latency exceeds this: the mean (10ms, mean=10ms) or a percentile (p99=10ms)"),
    o(' ', "arrivals", Value, T::Arrivals, G::Layout, New, "fixed|poisson", "fixed", "evenly spaced operations, or exponential gaps of the same mean"),
    o(' ', "seed", Value, T::Seed, G::Layout, New, "N", "1", "the operation choices, targets and Poisson gaps follow from it"),
    o(' ', "dry-run", Flag, T::DryRun, G::Output, New, "", "", "print the plan (steps, tree, files) and exit without any I/O"),
    o('a', "api", Value, T::Api, G::Backend, New, "API", "POSIX", "back end: {engines} (case-insensitive)"),
    o(' ', "tasks", Value, T::Tasks, G::Iogauge, New, "N", "1", "number of ranks, run as threads"),
    o(' ', "fake-nodes", Value, T::FakeNodes, G::Iogauge, New, "K", "", "pretend the ranks run on K nodes"),
    o(' ', "fake-placement", Value, T::FakePlacement, G::Iogauge, New, "block|round-robin", "block", "how ranks map to the fake nodes"),
    o(' ', "json", Value, T::Json, G::Iogauge, New, "PATH", "", "write iogauge's full result document to PATH (after every phase)"),
    o('h', "help", Flag, T::Help, G::Iogauge, New, "", "", "this help"),
];

pub const TABLE: Table<Target, Group> = Table {
    tool: "mix",
    options: OPTIONS,
    refused: &[],
    directive: None,
    refused_key_prefix: None,
    operands: "mix takes no operands; the directory goes to --dir",
    metadata_only: true,
    dash_hints: true,
    module_refusal,
};

/// Back-end module options other than those of the metadata engines.
fn module_refusal(module: &str) -> String {
    crate::optparse::metadata_module_refusal("mix", module)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        crate::optparse::check_unique_names(OPTIONS, &[]);
    }
}
