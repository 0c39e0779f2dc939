//! iogauge: storage benchmark and analysis suite (IOR, mdtest, find and IO500 compatible).
//!
//! Only `fn main`: the modules are the library's (`lib.rs`).

#![deny(clippy::print_stdout)]

use std::process::ExitCode;

use iogauge::{
    cli, control, global_opts, launcher, monitoring, policy, preset, stored, storing, sweep, world,
};

fn main() -> ExitCode {
    measure::init();
    iogauge::register_engines();
    let (args, opts) = match global_opts::extract(std::env::args().skip(1).collect()) {
        Ok(split) => split,
        Err(e) => {
            eprintln!("iogauge: {e}");
            return ExitCode::from(2);
        }
    };
    let storing = match storing::Storing::from_opts(&opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("iogauge: {e}");
            return ExitCode::from(2);
        }
    };
    let monitoring = match monitoring::Monitoring::from_opts(&opts.monitoring, &opts.labels) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("iogauge: {e}");
            return ExitCode::from(2);
        }
    };
    match policy::from_opts(&opts) {
        Ok(c) => policy::set(c),
        Err(e) => {
            eprintln!("iogauge: {e}");
            return ExitCode::from(2);
        }
    }
    if opts.quiet {
        iogauge::stdout::to_null();
    }
    let (cli, parsed) =
        match cli::parse(std::iter::once("iogauge".to_string()).chain(args).collect()) {
            Ok(p) => p,
            Err(e) => return usage_error(e),
        };
    #[cfg(feature = "mpi")]
    let launched = launcher::launched(|k| std::env::var(k).ok());
    #[cfg(feature = "mpi")]
    if let Some(refusal) = launcher::srun_without_pmi(|k| std::env::var(k).ok()) {
        eprintln!("{refusal}");
        return ExitCode::from(2);
    }
    #[cfg(feature = "mpi")]
    let mpi = if cli.mpi || launched.is_some() {
        match start_mpi(launched.as_ref()) {
            Ok(m) => Some(m),
            Err(code) => return ExitCode::from(code),
        }
    } else {
        None
    };
    #[cfg(not(feature = "mpi"))]
    {
        if let Some(l) = launcher::detect(|k| std::env::var(k).ok()) {
            eprintln!("{}", launcher::refusal(&l));
            return ExitCode::from(2);
        }
        if cli.mpi {
            eprintln!(
                "iogauge: --mpi: this iogauge was built without MPI; build it with \
                 `cargo build --release --features mpi` (docs/mpi.md)"
            );
            return ExitCode::from(2);
        }
    }
    let global = world::Global {
        setup: world::RankSetup {
            tasks: cli.tasks,
            fake_nodes: cli.fake_nodes,
            round_robin: false,
        },
        events: cli.events,
        json: cli.json,
        storing,
        monitoring,
        quiet: opts.quiet,
        allow_root_target: opts.allow_root_target,
    };
    if let cli::Parsed::Other(command) = &parsed {
        if let (Some(name), [first, ..]) = (runs_nothing(command), opts.run_only().as_slice()) {
            eprintln!(
                "iogauge {name}: {first} applies to runs only (a workload, a sweep or a preset); \
                 {name} runs nothing"
            );
            return ExitCode::from(2);
        }
    }
    let code = match parsed {
        cli::Parsed::Workload(w, args) => (w.main)(&args, &global),
        cli::Parsed::Other(command) => other(command, &global),
    };
    global.storing.print_closing();
    global.monitoring.linger();
    #[cfg(feature = "mpi")]
    if let Some(mpi) = mpi {
        // Rank 0 failed in a run and has saved its results: the other ranks may be waiting
        // for it in a collective, so end them all.
        world::abort_if_root_failed(i32::from(code));
        drop(mpi);
    }
    ExitCode::from(code)
}

/// The commands that are no workload: the store's, sweeps, presets, the schema.
fn other(command: cli::Command, global: &world::Global) -> u8 {
    use cli::Command as C;
    if matches!(
        command,
        C::Schema | C::Runs { .. } | C::Show { .. } | C::Compare { .. } | C::Scaling { .. }
    ) {
        end_quietly_on_a_closed_pipe();
    }
    match command {
        C::Schema => {
            iogauge::out!("{}", results::json_schema_text());
            0
        }
        C::Runs {
            workload,
            host,
            format,
        } => stored::runs(global, workload, host, format),
        C::Show { id, format } => stored::show(global, id, format),
        C::Compare {
            ids,
            fail_if_slower,
            figures,
            format,
        } => stored::compare(
            global,
            &ids,
            fail_if_slower.as_deref(),
            figures.as_deref(),
            format,
        ),
        C::Scaling { ids, by, format } => stored::scaling(global, &ids, by, format),
        C::Report {
            ids,
            output,
            figures,
        } => stored::report(global, &ids, &output, figures.as_deref()),
        C::Import { paths } => stored::import(global, &paths),
        C::Sweep { action, run } => sweep::main(action, run, global),
        C::Preset { action } => preset::main(action, global),
        C::Mark { text, run } => control::client::main(&text, run.as_deref()),
    }
}

/// The name of a command that runs no workload (a view, the store's import, a mark), whose
/// line must not carry a run's options.
fn runs_nothing(command: &cli::Command) -> Option<&'static str> {
    use cli::Command as C;
    Some(match command {
        C::Schema => "schema",
        C::Runs { .. } => "runs",
        C::Show { .. } => "show",
        C::Compare { .. } => "compare",
        C::Scaling { .. } => "scaling",
        C::Report { .. } => "report",
        C::Import { .. } => "import",
        C::Mark { .. } => "mark",
        C::Sweep { .. } | C::Preset { .. } => return None,
    })
}

/// The views only print: when their reader goes (`iogauge compare 1 2 | head`), they end as
/// `cat` does, by SIGPIPE, instead of a panic on the failed write. Runs keep Rust's default
/// (SIGPIPE ignored), so that a run whose output pipe closes still finishes and cleans up.
fn end_quietly_on_a_closed_pipe() {
    // SAFETY: restoring a signal's default disposition has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// A command line clap refuses: help and version as clap prints them; an error as one line
/// (docs/errors.md), its tip included, exit status 2.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind as K;
    if matches!(
        e.kind(),
        K::DisplayHelp | K::DisplayVersion | K::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit();
    }
    eprintln!("iogauge: {}", cli::one_line(&e.render().to_string()));
    ExitCode::from(2)
}

/// Starts MPI and checks that it sees the tasks the launcher started; exit status 2 if not.
#[cfg(feature = "mpi")]
fn start_mpi(launched: Option<&launcher::Launched>) -> Result<exec::mpi::Mpi, u8> {
    let mpi = exec::mpi::init().map_err(|e| {
        eprintln!("iogauge: cannot start MPI: {e}");
        2
    })?;
    if let Some(msg) = launched.and_then(|l| launcher::size_mismatch(l, mpi.world().size())) {
        // Every task is a world of its own here, so each may say so and stop.
        eprintln!("{msg}");
        return Err(2);
    }
    world::use_mpi(mpi.world().clone());
    Ok(mpi)
}
