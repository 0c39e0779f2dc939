//! What the system probe costs (`docs/system.md`, "Cost"): the wall time of its snapshot at a
//! phase's start and end and of one sampler interval, on a target directory, measured over many
//! calls. None of it runs inside a timed window; the per-interval figure is the work the sampler
//! thread adds once a second.
//!
//! `cargo run --release -p workload --example probe_cost -- [DIR] [CALLS]`

use std::path::Path;
use std::time::Instant;

use results::{Parameters, PhaseProbe, RunResult};
use workload::system::SystemProbe;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| ".".into());
    let calls: u32 = args.next().and_then(|n| n.parse().ok()).unwrap_or(2000);
    let mut doc = RunResult::new(Parameters::Ior(Default::default()), vec![], "probe_cost");
    // The target's facts as a run records them (its file system type, mount).
    let posix = engine::for_target(&engine::EngineConfig::default());
    doc.environment.target = Some(results::fs_info(posix.as_ref(), Path::new(&dir)));
    let mut probe = SystemProbe::new(&doc);
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        for _ in 0..calls {
            f();
        }
        t.elapsed().as_secs_f64() / f64::from(calls) * 1e6
    };
    let around = time(&mut || {
        probe.phase_start();
        probe.phase_end();
    });
    probe.phase_start();
    let interval = time(&mut || probe.interval());
    let devices = probe.phase_end().map_or(0, |f| f.devices.len());
    println!(
        "{dir}: {devices} device(s); phase start + end {around:.1} µs, one sampler interval \
         {interval:.1} µs ({calls} calls each)"
    );
}
