//! `iogauge sweep`: a workload over a matrix of parameter values (`docs/sweep.md`). The plan
//! (names, values, repeats, order) is checked whole before the first point runs; the sweep
//! gets a row in the store and each point is a stored run labelled with the sweep's id and
//! its values; the table and the findings come from what was stored (`show.rs`), so
//! `iogauge sweep show ID` prints the same.

mod design;
pub mod names;
mod run;
mod show;

use std::time::Duration;

use store::Store;
use sweep::{expand, parse_vary, shuffle, Point};

use crate::cli::{Format, SweepAction as Action, SweepRun as RunArgs};
use crate::world::{usage, Global};
use design::Design;
use run::{Inherited, Outcome};

pub fn main(action: Option<Action>, args: RunArgs, global: &Global) -> u8 {
    // Under mpirun every task would run the whole sweep, and its points would inherit the
    // launcher's environment: it starts its runs itself, once.
    if let Some(l) = crate::launcher::detect(|k| std::env::var(k).ok()) {
        return usage(
            "sweep",
            format!(
                "started by {} as one of {} tasks: a sweep starts its runs itself; run it once, \
             without mpirun or srun",
                l.launcher, l.tasks
            ),
        );
    }
    match action {
        Some(Action::Show {
            id,
            format,
            threshold,
            html,
        }) => show_command(global, id, format, &threshold, html.as_deref()),
        None => run_command(args, global),
    }
}

fn percent(text: &str) -> Result<f64, String> {
    let number = text.trim().trim_end_matches('%').trim();
    match number.parse::<f64>() {
        Ok(p) if p.is_finite() && p > 0.0 => Ok(p),
        _ => Err(format!(
            "--threshold {text}: expected a percentage such as 5%"
        )),
    }
}

fn show_command(
    global: &Global,
    id: i64,
    format: Format,
    threshold: &str,
    html: Option<&std::path::Path>,
) -> u8 {
    match percent(threshold) {
        Ok(t) => show_stored(global, id, format, t, html),
        Err(e) => usage("sweep", e),
    }
}

/// Reads sweep `id` back from the store and prints it (and writes its page).
fn show_stored(
    global: &Global,
    id: i64,
    format: Format,
    threshold: f64,
    html: Option<&std::path::Path>,
) -> u8 {
    let store = match global.storing.open() {
        Ok(s) => s,
        Err(e) => return usage("sweep", e),
    };
    let loaded = match show::load(&store, id) {
        Ok(l) => l,
        Err(e) => return usage("sweep", e),
    };
    show::print(&loaded, format, threshold);
    if let Some(path) = html {
        if let Err(e) = show::write_html(&loaded, threshold, path) {
            eprintln!("iogauge sweep: {e}");
            return 1;
        }
        eprintln!("wrote {}", path.display());
    }
    0
}

/// The plan from the command line, checked whole: names, values, the workload's tool.
fn design_of(args: &RunArgs) -> Result<Design, String> {
    if args.command.is_empty() {
        return Err(
            "no workload: put its command line after --, e.g. `iogauge sweep --vary \
             tasks=1,2,4 -- ior -w -F -b 16m -o /tmp/d/f`"
                .into(),
        );
    }
    if args.repeat == 0 {
        return Err("--repeat 0 runs nothing; give 1 or more".into());
    }
    let tool_args = &args.command[1..];
    if let Some(a) = tool_args
        .iter()
        .find(|a| ["--db", "--no-store"].contains(&a.split('=').next().unwrap_or("")))
    {
        return Err(format!(
            "{a} after --: the sweep stores every point in its own store; give --db before --"
        ));
    }
    let axes = args
        .vary
        .iter()
        .map(|v| parse_vary(v, |p| std::fs::read_to_string(p).map_err(|e| e.to_string())))
        .collect::<Result<Vec<_>, _>>()?;
    let seed = args.shuffle.map(|s| s.unwrap_or_else(fresh_seed));
    let design = Design {
        command: args.command.clone(),
        axes,
        repeats: args.repeat,
        seed,
    };
    design.knobs()?;
    Ok(design)
}

/// A seed from the clock: only the order depends on it, and it is printed and stored.
fn fresh_seed() -> u64 {
    measure::now_ns() ^ u64::from(std::process::id()).rotate_left(32)
}

fn run_command(args: RunArgs, global: &Global) -> u8 {
    let mut design = match design_of(&args) {
        Ok(p) => p,
        Err(e) => return usage("sweep", e),
    };
    let threshold = match percent(&args.threshold) {
        Ok(t) => t,
        Err(e) => return usage("sweep", e),
    };
    let pause = match args.pause {
        None => Duration::ZERO,
        Some(s) if (0.0..1e7).contains(&s) => Duration::from_secs_f64(s),
        Some(s) => return usage("sweep", format!("--pause {s}: expected seconds, 0 or more")),
    };
    if global.storing.is_off() {
        return usage(
            "sweep",
            "--no-store: a sweep is its stored runs; give --db PATH for another store",
        );
    }
    let mut store = match global.storing.open() {
        Ok(s) => s,
        Err(e) => return usage("sweep", e),
    };
    let knobs = design.knobs().expect("checked in plan_of");
    // The sweep to continue, when --resume: its stored plan (and seed) rules.
    let resumed = match args.resume {
        None => None,
        Some(which) => match resume_target(&store, &design, which) {
            Ok(s) => Some(s),
            Err(e) => return usage("sweep", e),
        },
    };
    if let Some((_, stored)) = &resumed {
        design.seed = stored.seed;
    }
    let mut points = expand(&design.axes, design.repeats);
    if let Some(seed) = design.seed {
        shuffle(&mut points, seed);
    }
    let done: Vec<Point> = match &resumed {
        Some((id, _)) => match run::done(&store, *id, &design) {
            Ok(d) => d,
            Err(e) => return usage("sweep", e),
        },
        None => Vec::new(),
    };
    let todo: Vec<Point> = points
        .iter()
        .filter(|p| !done.contains(p))
        .cloned()
        .collect();
    if args.dry_run {
        print_plan(
            &store,
            &design,
            &points,
            &todo,
            pause,
            resumed.as_ref().map(|r| r.0),
        );
        return 0;
    }
    let id = match &resumed {
        Some((id, _)) => *id,
        None => {
            let text = serde_json::to_string(&design).expect("a plan serializes");
            match store.create_sweep(&measure::now_rfc3339(), &design.key(), &text) {
                Ok(id) => id,
                Err(e) => return usage("sweep", format!("cannot store the sweep: {e}")),
            }
        }
    };
    let order = match design.seed {
        Some(s) => format!(", shuffled with seed {s}"),
        None => String::new(),
    };
    crate::outln!(
        "sweep {id}: {} runs ({} combinations x {} repeats{order}){}",
        points.len(),
        points.len() / design.repeats as usize,
        design.repeats,
        if done.is_empty() {
            String::new()
        } else {
            format!(
                "; {} stored already, {} to run",
                points.len() - todo.len(),
                todo.len()
            )
        }
    );
    let opts = match crate::global_opts::extract(std::env::args().skip(1).collect()) {
        Ok((_, o)) => o,
        Err(e) => return usage("sweep", e),
    };
    let inherited = Inherited {
        db: match global.storing.path() {
            Ok(p) => p,
            Err(e) => return usage("sweep", e),
        },
        labels: global.storing.labels.clone(),
        drop_caches: opts.drop_caches,
        warn: opts.warn,
        tasks: global.setup.tasks,
        fake_nodes: global.setup.fake_nodes,
        show_output: args.show_output,
    };
    // The children write the store; this connection only reads it again at the end.
    drop(store);
    let outcome = run::run_points(id, &design, &knobs, &todo, points.len(), pause, &inherited);
    crate::outln!();
    let shown = show_stored(global, id, Format::Table, threshold, args.html.as_deref());
    if shown != 0 {
        return shown;
    }
    eprintln!("sweep {id}: `iogauge sweep show {id}` prints this again");
    match outcome {
        Outcome::Done { failed: 0 } => 0,
        Outcome::Done { failed } => {
            eprintln!("iogauge sweep: {failed} runs failed (exit status 1)");
            1
        }
        Outcome::Stopped(code) => code,
    }
}

/// The sweep `--resume` continues: the one named, or the newest of the same plan.
fn resume_target(
    store: &Store,
    design: &Design,
    which: Option<i64>,
) -> Result<(i64, Design), String> {
    let found = match which {
        Some(id) => store
            .sweep(id)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("--resume={id}: no sweep {id} in {}", store.path().display()))?,
        None => store
            .latest_sweep(&design.key())
            .map_err(|e| e.to_string())?
            .ok_or("--resume: no stored sweep of this command line and these --vary values")?,
    };
    let stored: Design = serde_json::from_str(&found.plan).map_err(|e| {
        format!(
            "sweep {}: its stored plan does not read back: {e}",
            found.id
        )
    })?;
    if stored.key() != design.key() {
        return Err(format!(
            "--resume={}: that sweep ran another plan: iogauge sweep {} -- {}",
            found.id,
            stored
                .axes
                .iter()
                .map(|a| format!("--vary {}={}", a.name, a.values.join(",")))
                .collect::<Vec<_>>()
                .join(" "),
            run::shell_line(&stored.command)
        ));
    }
    Ok((found.id, stored))
}

/// `--dry-run`: the points, their command lines and the time earlier runs of the same command
/// lines took.
fn print_plan(
    store: &Store,
    design: &Design,
    points: &[Point],
    todo: &[Point],
    pause: Duration,
    resumed: Option<i64>,
) {
    let knobs = design.knobs().expect("checked in plan_of");
    crate::outln!(
        "plan: {} runs ({} combinations x {} repeats){}{}",
        points.len(),
        points.len() / design.repeats as usize,
        design.repeats,
        design
            .seed
            .map(|s| format!(", shuffled with seed {s}"))
            .unwrap_or_default(),
        resumed
            .map(|id| format!("; resuming sweep {id}: {} to run", todo.len()))
            .unwrap_or_default()
    );
    for p in todo {
        let labels: Vec<String> = design
            .axes
            .iter()
            .zip(&p.values)
            .map(|(a, v)| format!("{}={v}", a.name))
            .collect();
        crate::outln!(
            "  {} repeat {}: iogauge {}",
            labels.join(" "),
            p.repeat,
            run::shell_line(&design.point_args(&knobs, &p.values))
        );
    }
    let est = estimate::of(store, design, &knobs, todo);
    let pauses = pause.as_secs_f64() * todo.len().saturating_sub(1) as f64;
    let n = todo.len();
    if est.known == 0 {
        crate::outln!(
            "estimated time: unknown, none of these {n} command lines has run on this host \
             before (pauses: {pauses:.0} s)"
        );
    } else {
        let rest = if est.known == n {
            String::new()
        } else {
            format!(
                "; unknown for the other {}, which never ran here",
                n - est.known
            )
        };
        crate::outln!(
            "estimated time: {} for {} of {n} runs (as long as earlier runs of the same \
             command line took on this host, start to end; each run's process start is not \
             counted), plus {pauses:.0} s of pauses{rest}",
            report::fmt::figure(est.seconds, "s"),
            est.known,
        );
    }
}

mod estimate;
