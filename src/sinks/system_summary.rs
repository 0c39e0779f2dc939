//! The summary's block of what the system did (`docs/system.md`): per phase, iozone's CPU
//! utilisation (CPU seconds over wall seconds, above 100 % on several CPUs), the node's busy
//! share, and the target device's bytes and dirty pages left, from each phase's `system`;
//! one line per node where several were read.

use results::warnings::phase_label;
use results::RunResult;

const MIB: f64 = 1_048_576.0;

/// One line per phase with system figures; empty without any (`--no-system`).
pub fn lines(doc: &RunResult) -> Vec<String> {
    doc.phases
        .iter()
        .filter_map(|p| p.system.as_ref().map(|s| (p, s)))
        .flat_map(|(p, all)| {
            let several = !all.other_nodes.is_empty();
            all.nodes().map(move |s| (p, s, several))
        })
        .map(|(p, s, several)| {
            let on = match several {
                true => format!(" on {}", s.host),
                false => String::new(),
            };
            let cpu = match s.cpu {
                Some(c) => format!(
                    "wall {:.3} s, CPU {:.3} s (user {:.3}, system {:.3}), utilization {:.2} %, \
                     node busy {:.0} %",
                    s.window_s,
                    c.user_s + c.system_s,
                    c.user_s,
                    c.system_s,
                    c.utilization_pct,
                    c.node_busy * 100.0
                ),
                None => format!("wall {:.3} s, CPU absent", s.window_s),
            };
            let device = match s.target_device() {
                Some(d) => format!(
                    "; {}: read {:.1} MiB, wrote {:.1} MiB",
                    d.name,
                    d.read_bytes as f64 / MIB,
                    d.write_bytes as f64 / MIB
                ),
                None => String::new(),
            };
            let dirty = s
                .page_cache
                .map(|c| format!(", dirty at end {:.1} MiB", c.dirty_end_bytes as f64 / MIB))
                .unwrap_or_default();
            format!("  {}{on}: {cpu}{device}{dirty}", phase_label(p))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use results::system::{CpuFigures, DeviceFigures, SystemFigures};
    use results::{Operation, Parameters, PhaseResult};

    #[test]
    fn cpu_utilisation_as_iozone_gives_it() {
        let mut doc = RunResult::new(Parameters::Ior(Default::default()), vec![], "x");
        let mut p = PhaseResult::new(Operation::Write, 0);
        p.system = Some(SystemFigures {
            window_s: 2.671,
            cpu: Some(CpuFigures {
                user_s: 0.5,
                system_s: 1.474,
                utilization_pct: 100.0 * 1.974 / 2.671,
                node_busy: 0.5,
                ..Default::default()
            }),
            devices: vec![DeviceFigures {
                name: "loop0".into(),
                role: "target".into(),
                write_bytes: 32 << 20,
                ..Default::default()
            }],
            ..Default::default()
        });
        doc.phases.push(p);
        doc.phases.push(PhaseResult::new(Operation::Read, 0));
        assert_eq!(
            lines(&doc),
            [
                "  write (iteration 0): wall 2.671 s, CPU 1.974 s (user 0.500, system 1.474), \
              utilization 73.90 %, node busy 50 %; loop0: read 0.0 MiB, wrote 32.0 MiB"
            ]
        );
    }
}
