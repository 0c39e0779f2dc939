//! `iogauge ior --help`, generated from the option table and the engines' declarations.

use std::fmt::Write;

use engine::{EngineInfo, EngineOption};

use super::options::{self, Arg, Group, OptSpec, Origin, Target, GROUPS, OPTIONS, REFUSED};

const WIDTH: usize = 100;
const COLUMN: usize = 36;

const INTRO: &str = "\
Usage: iogauge ior [OPTIONS]

IOR-compatible bandwidth benchmark: paste an IOR command line after `iogauge ior` and get the same
files, the same access pattern and comparable numbers. Tasks are threads on this machine (set their
number with -N or --tasks; default 1, like IOR without mpirun), or MPI ranks in an MPI build.
Sizes take k, m, g, t, p (powers of 1024) or plain bytes, for integer options too (-s 1k = 1024);
4KiB and 4kB are 4k, as in IOR; fractions are refused (IOR reads -t 1.5m as 1 byte). Times (-d,
-D, -T) take fractions: -d 0.5 waits half a second (IOR's parser cuts it to 0).
Short options: -t 1m, -t1m, -t=1m; flags group and count (-wr, -vvv, -z -z) and take explicit
values (-F=0). Long options: --name=value or --name value. With none of -w, -r, -W, -R, both
write and read run (as in IOR).
Origin marks: [IOR] as in IOR; [IOR*] IOR's option, behaviour noted below; [iogauge] new.";

const NOTES: &str = "\
Where iogauge differs from IOR:
  - -Y fsyncs once per write transfer (IOR's POSIX back end fsyncs twice).
  - -e fsyncs after the last write transfer of write phases only, as IOR's code does (its help
    says read/write).
  - The default data pattern (-l) is incompressible: pseudo-random words with a 16-byte offset
    stamp in every 4 KiB; -l incompressible and -l random both select it. IOR's default is
    timestamp (-l timestamp), which writes identical, compressible transfers; IOR's own
    incompressible pattern compresses about 1000x.
  - As IOR, a write without -E removes the test files named by -o and creates them anew, and
    without -k they are removed after each repetition (also after a read-only run); iogauge
    says on stderr when it replaces files from before the run, and refuses a directory, a
    symbolic link or a device at a test-file name instead of removing or writing through it.
  - -C warns when the reordering maps every task to itself (one node); IOR silently does nothing.
  - -z -z (random blocks with replacement) is for reads only; IOR divides by zero with -w.
  - --posix.odirect needs -t and -b multiples of 4096 (aligned buffers need aligned sizes).
  - -N sets the number of tasks, run as threads of one process.
  - A stonewall status file without -k keeps the files (IOR refuses the combination).
  - -u requires -F. -q (quitOnError) is an iogauge option; IOR dropped it.
  - IOR_FAKE_NODES is not read; use --fake-nodes. IOR_HINT__MPI__* variables are read by
    -a MPIIO (MPI build) on each rank, not broadcast from rank 0 as IOR does.
  - -O keys and flag values (-v=3) that IOR reads as plain integers refuse a k..p suffix
    (-O repetitions=1k is 1 in IOR but -i 1k is 1024); -O blockSize, transferSize and
    segmentCount take suffixes.
  - Bad input exits with status 2 before any file is touched. docs/compat.md lists every IOR
    option and what iogauge does with it.";

const EXAMPLES: &[(&str, &str)] = &[
    ("file per process with reordered read-back, all checks",
     "-N 4 -a POSIX -t 1m -b 64m -s 4 -F -C -e -w -r -W -R -k -o /tmp/x/testfile"),
    ("ior-hard: 47008-byte transfers, strided shared file",
     "-N 2 -t 47008 -b 47008 -s 20000 -C -Q 1 -g -e -w -r -R -o /dev/shm/y/file"),
    ("O_DIRECT, three repetitions",
     "-N 2 -a POSIX --posix.odirect -t 16m -b 256m -i 3 -e -F -o /tmp/z/out.dat"),
    ("memory-mapped files", "-N 2 -a MMAP -t 4m -b 64m -F -w -r -o /dev/shm/m/f"),
    ("stonewalled write with wear-out, count stored for a later read",
     "-N 2 -t 1m -b 100g -F -w -D 5 -O stoneWallingWearOut=1 -O stoneWallingStatusFile=/tmp/sw -o /tmp/s/f"),
    ("read back after that stonewalled write: each task stops at the stored count",
     "-N 2 -t 1m -b 100g -F -r -k -O stoneWallingStatusFile=/tmp/sw -o /tmp/s/f"),
    ("the IO500 ior-easy write",
     "--dataPacketType=timestamp -g -G=27 -k -e -o x -C -Q 1 -O stoneWallingStatusFile=y -t 2m -b 9920000m -F -w -D 300 -O stoneWallingWearOut=1 -a POSIX -O saveRankPerformanceDetailsCSV=z"),
];

fn names(o: &OptSpec) -> String {
    let mut s = match (o.short, o.long) {
        (Some(c), Some(l)) => format!("-{c}, --{l}"),
        (Some(c), None) => format!("-{c}"),
        (None, Some(l)) => format!("    --{l}"),
        (None, None) => format!("-O {}=", o.keys[0]),
    };
    if o.arg == Arg::Value {
        if !s.ends_with('=') {
            s.push(' ');
        }
        s.push_str(o.meta);
    }
    s
}

/// Appends `text` wrapped to WIDTH, first line after `head` padded to `indent`.
fn wrapped(out: &mut String, head: &str, indent: usize, text: &str) {
    let mut line = format!("{head:indent$}");
    if head.len() >= indent {
        // The names fill the column: the description starts on the next line.
        out.push_str(head);
        out.push('\n');
        line = " ".repeat(indent);
    }
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.len() + 1 + word.len() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = " ".repeat(indent);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

/// The engines `-a` takes, in prose: `POSIX, MMAP or DUMMY`.
fn engine_names() -> String {
    let names: Vec<&str> = engine::engines().map(|e| e.name).collect();
    text::join_words(&names, "or")
}

fn option_line(out: &mut String, o: &OptSpec) {
    let mark = match o.origin {
        Origin::Tool => "[IOR]",
        Origin::Differs => "[IOR*]",
        Origin::Iogauge => "[iogauge]",
    };
    let default = if o.default.is_empty() {
        String::new()
    } else {
        format!(" (default {})", o.default)
    };
    let help = o.help.replace("{engines}", &engine_names());
    wrapped(
        out,
        &format!("  {}", names(o)),
        COLUMN,
        &format!("{help}{default} {mark}"),
    );
}

/// An engine's option, as IOR's module options: `--posix.odirect`, `--dummy.delay-xfer USEC`.
fn engine_line(out: &mut String, e: &EngineInfo, o: &EngineOption) {
    let mut head = format!("      --{}", e.full_name(o));
    let mut default = String::new();
    if o.takes_value() {
        let _ = write!(head, " {}", o.placeholder());
    }
    if let Some(d) = o.default_text() {
        default = format!(" (default {d})");
    }
    let mark = if o.ior { " [IOR]" } else { "" };
    wrapped(
        out,
        &head,
        COLUMN,
        &format!("{}: {}{default}{mark}", e.name, o.help),
    );
}

/// How module options go into `-O`, and the engines' `-O` aliases.
fn module_note() -> String {
    let mut note = String::from("Module options keep their dashes");
    let first_flag = engine::all_options().find(|(_, o)| !o.takes_value());
    if let Some((e, o)) = first_flag {
        let _ = write!(note, ": -O --{}=1", e.full_name(o));
    }
    note.push('.');
    let mut aliases: Vec<String> = engine::all_options()
        .flat_map(|(e, o)| {
            let name = e.full_name(o);
            o.ior_keys
                .iter()
                .map(move |k| format!("{k} is an alias of --{name}"))
        })
        .collect();
    aliases.push("reorderTasksConstant of reorderTasks.".to_string());
    format!("{note} {}", aliases.join("; "))
}

/// The full `iogauge ior --help` text.
pub fn help_text() -> String {
    let mut out = String::new();
    out.push_str(INTRO);
    out.push('\n');
    for (group, title) in GROUPS {
        let _ = write!(out, "\n{title}:\n");
        for o in OPTIONS.iter().filter(|o| o.group == group) {
            option_line(&mut out, o);
        }
        if group == Group::Backend {
            // After -a: what each engine does, then the engines' options.
            for e in engine::engines() {
                wrapped(&mut out, &format!("        -a {}", e.name), COLUMN, e.help);
            }
            for (e, o) in engine::all_options() {
                engine_line(&mut out, e, o);
            }
        }
    }
    out.push_str(
        "\n-O keys (case-insensitive; several per -O separated by commas; -O may repeat):\n",
    );
    let mut keys: Vec<&str> = Vec::new();
    for o in OPTIONS {
        keys.extend(o.keys);
        // The engines' keys follow -a, where their options are listed.
        if o.target == Target::Api {
            keys.extend(engine::all_options().flat_map(|(_, e)| e.ior_keys.iter().copied()));
        }
    }
    wrapped(&mut out, "", 2, &keys.join(" "));
    wrapped(&mut out, "", 2, &module_note());
    out.push_str("\nIOR options refused by iogauge (named in the error, never ignored):\n");
    for r in REFUSED {
        wrapped(
            &mut out,
            &format!("  {}", options::display_refused(r)),
            COLUMN,
            r.reason,
        );
    }
    wrapped(
        &mut out,
        "  --<module>.*",
        COLUMN,
        "other back-end module options (--posix.rangelocks, --posix.lustre.*, --posix.gpfs.*, \
         --posix.beegfs.*, --mmap.*, --mpiio.* outside the MPI build, --hdf5.*, ...) and -O IOR_HINT__* keys",
    );
    out.push('\n');
    out.push_str(NOTES);
    out.push_str("\n\nExamples:\n");
    for (what, line) in EXAMPLES {
        let _ = writeln!(out, "  # {what}\n  iogauge ior {line}\n");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lists_every_option_key_and_refusal() {
        let h = help_text();
        assert!(h.starts_with("Usage: iogauge ior [OPTIONS]"));
        for o in OPTIONS {
            if let Some(l) = o.long {
                assert!(h.contains(&format!("--{l}")), "--{l} missing");
            }
            if let Some(c) = o.short {
                assert!(h.contains(&format!("-{c}")), "-{c} missing");
            }
            for k in o.keys {
                assert!(h.contains(k), "-O key {k} missing");
            }
        }
        for (e, o) in engine::all_options() {
            assert!(h.contains(&format!("--{}", e.full_name(o))), "{}", o.name);
            for k in o.ior_keys {
                assert!(h.contains(k), "-O key {k} missing");
            }
        }
        let flat = h.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("I/O back end: POSIX, MMAP, DUMMY, IOURING or AIO (case-insensitive)")
        );
        assert!(flat.contains("useO_DIRECT is an alias of --posix.odirect;"));
        for r in REFUSED {
            assert!(h.contains(&options::display_refused(r)));
        }
        assert!(h.contains("--overwrite") && h.contains("incompressible"));
    }

    #[test]
    fn examples_parse() {
        let h = help_text();
        for (_, line) in EXAMPLES {
            assert!(h.contains(&format!("iogauge ior {line}")));
            let args: Vec<String> = line.split_whitespace().map(String::from).collect();
            let c = super::super::parse(&args).unwrap_or_else(|e| panic!("{line}: {e}"));
            let tasks = c.launch.tasks.unwrap_or(1);
            workload::ior::validate::validate(&c.params, tasks)
                .unwrap_or_else(|e| panic!("{line}: {e}"));
        }
    }

    #[test]
    fn lines_are_not_too_long() {
        for line in help_text()
            .lines()
            .filter(|l| !l.starts_with("  iogauge ior "))
        {
            assert!(line.len() <= WIDTH, "{line}");
        }
    }
}
