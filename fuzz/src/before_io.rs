//! What `iogauge ior`, `mdtest` and `md-workbench` do with a command line before any I/O
//! (their `main` up to the engine lookup): parse, `--help`'s text, the ranks, the rules across
//! options. Left out: the file-system preflight (it stats the test paths, a fuzz input's
//! random paths included) and the MPI agreement on bad input.

use cmdline::optparse::UsageError;
use cmdline::{ior, mdtest, mdworkbench, Launch};

/// Parse, help, ranks: the command path's start (`iogauge::command::run`) without printing
/// or MPI. `None`: stopped there.
fn start<C>(
    parsed: Result<C, UsageError>,
    launch: fn(&C) -> &Launch,
    help: fn() -> String,
) -> Option<(C, usize)> {
    let cmd = match parsed {
        Ok(c) => c,
        Err(UsageError(message)) => {
            assert!(!message.is_empty(), "a usage error without a message");
            return None;
        }
    };
    let l = launch(&cmd);
    if l.help {
        let _ = help();
        return None;
    }
    cmdline::check_ranks(l.tasks, l.fake_nodes, None).ok()?;
    let tasks = l.tasks.unwrap_or(1);
    Some((cmd, tasks))
}

/// `iogauge ior ARGS` up to its preflight.
pub fn ior(args: &[String]) {
    let Some((cmd, tasks)) = start(ior::parse(args), |c| &c.launch, ior::help_text) else {
        return;
    };
    if workload::ior::validate::validate(&cmd.params, tasks).is_ok() {
        let _ = engine::lookup(&cmd.params.engine.api);
    }
}

/// `iogauge mdtest ARGS` up to its preflight.
pub fn mdtest(args: &[String]) {
    let Some((cmd, tasks)) = start(mdtest::parse(args), |c| &c.launch, mdtest::help_text) else {
        return;
    };
    let p = &cmd.params;
    if workload::mdtest::validate::validate(p, tasks).is_ok() {
        for dir in &p.dirs {
            let _ = workload::target::check_tree_root(
                "-d",
                dir,
                false,
                &engine::PosixEngine::new(false),
            );
        }
        let _ = engine::lookup(&p.engine.api);
    }
}

/// `iogauge md-workbench ARGS` up to its preflight.
pub fn mdworkbench(args: &[String]) {
    let Some((cmd, tasks)) = start(
        mdworkbench::parse(args),
        |c| &c.launch,
        mdworkbench::help_text,
    ) else {
        return;
    };
    let p = &cmd.params;
    if workload::mdworkbench::validate::validate(p, tasks).is_ok() {
        let _ = engine::lookup(&p.engine.api);
        let _ = workload::target::check_tree_root(
            "-o",
            &p.dir,
            false,
            &engine::PosixEngine::new(false),
        );
    }
}
