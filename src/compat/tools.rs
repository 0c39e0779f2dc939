//! The tools of docs/compat.md's option tables: how an example line is parsed, what the whole
//! command exits with, how a refused name is tried alone, and every option each parser knows.

use crate::world::Global;
use cmdline::optparse::{Refused, Spec};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Ior,
    Mdtest,
    MdWorkbench,
    Find,
    Io500,
}

pub const TOOLS: [Tool; 5] = [
    Tool::Ior,
    Tool::Mdtest,
    Tool::MdWorkbench,
    Tool::Find,
    Tool::Io500,
];

/// `-t`, `--transferSize`, `-O transferSize` for each entry of an option table.
fn names<T, G>(options: &[Spec<T, G>], refused: &[Refused]) -> Vec<String> {
    let rows = options.iter().map(|o| (o.short, o.long, o.keys));
    let rows = rows.chain(refused.iter().map(|r| (r.short, r.long, r.keys)));
    let mut out = Vec::new();
    for (short, long, keys) in rows {
        out.extend(short.map(|c| format!("-{c}")));
        out.extend(long.map(|l| format!("--{l}")));
        out.extend(keys.iter().map(|k| format!("-O {k}")));
    }
    out
}

impl Tool {
    /// The first cell of the tool's table header.
    pub fn table(self) -> &'static str {
        match self {
            Tool::Ior => "IOR option",
            Tool::Mdtest => "mdtest option",
            Tool::MdWorkbench => "md-workbench option",
            Tool::Find => "pfind option",
            Tool::Io500 => "io500 option",
        }
    }

    /// Parses a command line (the words after `iogauge <tool>`) without running anything;
    /// `Err` is the one-line message.
    pub fn parse(self, args: &[String]) -> Result<(), String> {
        match self {
            Tool::Ior => crate::ior::cli::parse(args).map(drop).map_err(|e| e.0),
            Tool::Mdtest => crate::mdtest::cli::parse(args).map(drop).map_err(|e| e.0),
            Tool::MdWorkbench => crate::mdworkbench::cli::parse(args)
                .map(drop)
                .map_err(|e| e.0),
            Tool::Find => crate::find::cli::parse(args).map(drop),
            Tool::Io500 => crate::io500::cli::parse(args).map(drop),
        }
    }

    /// The exit status of the whole command. Only for lines refused before any I/O: a line
    /// that parses would run.
    pub fn exit_status(self, args: &[String]) -> u8 {
        let g = Global::default();
        match self {
            Tool::Ior => crate::command::run::<crate::ior::Ior>(args, &g),
            Tool::Mdtest => crate::command::run::<crate::mdtest::Mdtest>(args, &g),
            Tool::MdWorkbench => crate::command::run::<crate::mdworkbench::MdWorkbench>(args, &g),
            Tool::Find => crate::command::run::<crate::find::Find>(args, &g),
            Tool::Io500 => crate::io500::main(args, &g),
        }
    }

    /// A line that gives `name` alone: `-c`, `--dryRun=1`, `-O numNodes=1`, `-a MPIIO`
    /// (pfind's with a path in front).
    pub fn probe(self, name: &str) -> Vec<String> {
        let mut args: Vec<String> = match self {
            Tool::Find => vec!["/data".into()],
            _ => Vec::new(),
        };
        if let Some(key) = name.strip_prefix("-O ") {
            args.extend(["-O".into(), format!("{key}=1")]);
        } else if name.contains(' ') {
            args.extend(name.split_whitespace().map(String::from));
        } else if name.starts_with("--") {
            args.push(format!("{name}=1"));
        } else {
            args.push(name.into());
        }
        args
    }

    /// Every option the tool's parser knows by name, spelled as the table spells it.
    pub fn known(self) -> Vec<String> {
        match self {
            Tool::Ior => {
                use crate::ior::cli::options::{OPTIONS, REFUSED};
                let mut v = names(OPTIONS, REFUSED);
                for (e, o) in engine::all_options() {
                    v.push(format!("--{}", e.full_name(o)));
                    v.extend(o.ior_keys.iter().map(|k| format!("-O {k}")));
                }
                // A refused API that a registered engine provides is an example of `-a`.
                v.extend(
                    engine::REFUSED_APIS
                        .iter()
                        .filter(|r| engine::lookup(r.name).is_err())
                        .map(|r| format!("-a {}", r.name)),
                );
                v
            }
            Tool::Mdtest => {
                use crate::mdtest::cli::options::{OPTIONS, REFUSED, TABLE};
                let mut v = names(OPTIONS, REFUSED);
                let taken = engine::all_options().filter(|(_, o)| TABLE.accepts(o));
                v.extend(taken.map(|(e, o)| format!("--{}", e.full_name(o))));
                v
            }
            Tool::MdWorkbench => {
                use crate::mdworkbench::cli::options::{OPTIONS, REFUSED, TABLE};
                let mut v = names(OPTIONS, REFUSED);
                let taken = engine::all_options().filter(|(_, o)| TABLE.accepts(o));
                v.extend(taken.map(|(e, o)| format!("--{}", e.full_name(o))));
                v
            }
            Tool::Find => {
                use crate::find::cli::{KNOWN, REFUSED};
                let refused = REFUSED.iter().map(|(n, _)| n);
                KNOWN.iter().chain(refused).map(|n| n.to_string()).collect()
            }
            Tool::Io500 => crate::io500::cli::KNOWN.map(String::from).to_vec(),
        }
    }
}
