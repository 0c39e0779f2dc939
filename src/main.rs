//! iogauge: storage benchmark and analysis suite (IOR, mdtest, find and IO500 compatible).
//!
//! The binary is glue: parse the command line (`cli`), turn it into a validated plan, run it
//! on thread ranks (`world`), and hand results to the sinks. Each command lives in `commands/`.

mod cli;
mod commands;
mod find_cli;
mod find_result;
mod fs_line;
mod io500_cli;
mod io500_driver;
mod io500_quick;
mod ior_cli;
mod ior_output;
mod ior_result;
mod launcher;
mod mdtest_cli;
mod mdtest_output;
mod mdtest_result;
mod size;
mod world;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    measure::init();
    let cli = cli::Cli::parse();
    if let Some(l) = launcher::detect(|k| std::env::var(k).ok()) {
        eprintln!("{}", launcher::refusal(&l));
        return ExitCode::from(2);
    }
    let global = world::RankSetup {
        tasks: cli.tasks,
        fake_nodes: cli.fake_nodes,
        round_robin: false,
    };
    let code = match cli.command {
        cli::Command::Ior { args } => commands::ior::main(&args, global),
        cli::Command::Mdtest { args } => commands::mdtest::main(&args, global),
        cli::Command::Find { args } => commands::find::main(&args, global),
        cli::Command::Io500 { args } => commands::io500::main(&args, global),
    };
    ExitCode::from(code)
}
