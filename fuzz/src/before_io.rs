//! What `iogauge ior`, `mdtest` and `md-workbench` do with a command line before any I/O
//! (their `main` up to the engine lookup): parse, `--help`'s text, the ranks, the rules across
//! options. Left out: the file-system preflight (it stats the test paths, a fuzz input's
//! random paths included) and the MPI agreement on bad input.

use iogauge::command::{Invocation, Workload};
use iogauge::world::RankSetup;
use iogauge::{ior, mdtest, mdworkbench};

/// Parse, help, ranks: the command path's start (`iogauge::command::run`) without printing
/// or MPI. `None`: stopped there.
fn start<W: Workload>(args: &[String]) -> Option<(W::Command, usize)> {
    let cmd = match W::parse(args) {
        Ok(c) => c,
        Err(message) => {
            assert!(!message.is_empty(), "a usage error without a message");
            return None;
        }
    };
    let launch = cmd.launch();
    if launch.help {
        let _ = W::help();
        return None;
    }
    let setup = launch.rank_setup().or(RankSetup::default());
    setup.check().ok()?;
    Some((cmd, setup.ranks()))
}

/// `iogauge ior ARGS` up to its preflight.
pub fn ior(args: &[String]) {
    let Some((cmd, tasks)) = start::<ior::Ior>(args) else {
        return;
    };
    if workload::ior::validate::validate(&cmd.params, tasks).is_ok() {
        let _ = engine::lookup(&cmd.params.engine.api);
    }
}

/// `iogauge mdtest ARGS` up to its preflight.
pub fn mdtest(args: &[String]) {
    let Some((cmd, tasks)) = start::<mdtest::Mdtest>(args) else {
        return;
    };
    let p = &cmd.params;
    if workload::mdtest::validate::validate(p, tasks).is_ok() {
        for dir in &p.dirs {
            let _ = workload::target::check_tree_root("-d", dir, false);
        }
        let _ = engine::lookup(&p.engine.api);
    }
}

/// `iogauge md-workbench ARGS` up to its preflight.
pub fn mdworkbench(args: &[String]) {
    let Some((cmd, tasks)) = start::<mdworkbench::MdWorkbench>(args) else {
        return;
    };
    let p = &cmd.params;
    if workload::mdworkbench::validate::validate(p, tasks).is_ok() {
        let _ = engine::lookup(&p.engine.api);
        let _ = workload::target::check_tree_root("-o", &p.dir, false);
    }
}
