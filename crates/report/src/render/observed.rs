//! `show`'s sections on what happened around the workload: the run's marks with the figures
//! before, between and after them, and what the system did in each phase.

use super::table;
use crate::fmt;
use crate::marks::{change_text, span_text};
use crate::summary::RunSummary;
use crate::system::{self, DEVICE_HEADER, MAIN_HEADER};

/// "Marks": each mark, then a table of stretches per phase with marks inside.
pub(super) fn marks(out: &mut String, s: &RunSummary) {
    if s.marks.is_empty() {
        return;
    }
    let mut t = table::new(&["mark", "received", "elapsed", "phase"], &[2]);
    for m in &s.marks {
        let phase = match (&m.phase, m.phase_t_s) {
            (Some(p), Some(at)) => format!("{p}, at {at:.2} s"),
            (Some(p), None) => p.clone(),
            (None, _) => "between phases".to_string(),
        };
        t.add_row(vec![
            m.text.clone(),
            m.time.clone(),
            format!("{:.2} s", m.elapsed_s),
            phase,
        ]);
    }
    table::section(out, "Marks", &t);
    for p in &s.marked_phases {
        let mut t = table::new(
            &["stretch", "from–to", p.unit, "change vs before"],
            &[1, 2, 3],
        );
        for st in &p.stretches {
            t.add_row(vec![
                st.label.clone(),
                span_text(st),
                fmt::number(p.rate(st)),
                change_text(st),
            ]);
        }
        let title = format!("Marks in {}, iteration {}", p.phase, p.iteration);
        table::section(out, &title, &t);
    }
}

/// "System": a row per phase for CPU, dirty pages and process I/O, a row per phase and
/// device, then the client file system's counters and the absent sources.
pub(super) fn system(out: &mut String, s: &RunSummary) {
    if s.system.is_empty() {
        return;
    }
    let mut header = vec!["phase", "iter"];
    header.extend(MAIN_HEADER);
    let mut t = table::new(&header, &table::from(1, header.len()));
    for p in &s.system {
        let mut row = vec![p.phase.clone(), p.iteration.to_string()];
        row.extend(system::main_cells(&p.system));
        t.add_row(row);
    }
    let title = format!("System ({})", system::hosts_text(&s.system));
    table::section(out, &title, &t);
    if s.system.iter().any(|p| !p.system.devices.is_empty()) {
        let mut header = vec!["phase", "iter"];
        header.extend(DEVICE_HEADER);
        let mut right = vec![1];
        right.extend(table::from(3, header.len()));
        let mut t = table::new(&header, &right);
        for p in &s.system {
            for d in &p.system.devices {
                let mut row = vec![p.phase.clone(), p.iteration.to_string()];
                row.extend(system::device_cells(d));
                t.add_row(row);
            }
        }
        table::section(out, "System: block devices", &t);
    }
    let notes: Vec<String> = system::client_fs_notes(&s.system)
        .into_iter()
        .chain(system::absent_notes(&s.system))
        .collect();
    for n in &notes {
        out.push_str(&format!("  {n}\n"));
    }
    if !notes.is_empty() {
        out.push('\n');
    }
}
