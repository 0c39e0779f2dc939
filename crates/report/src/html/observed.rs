//! The run page's marks and system figures: the marks table, each phase's marks on its charts
//! with the stretches before, between and after them, and the phase's system block (the same
//! cells as `show`'s, `crate::system`).

use super::charts::{self, ChartMark};
use super::{Section, Table, Td};
use crate::fmt;
use crate::marks::{change_text, mark_lines, marked_phases, span_text};
use crate::phases::PhaseGroup;
use crate::system::{self, PhaseSystem, DEVICE_HEADER, MAIN_HEADER};
use results::{PhaseResult, RunResult};

/// Every mark of the run with the phase it fell in; none without marks.
pub(super) fn marks_table(doc: &RunResult) -> Option<Table> {
    let lines = mark_lines(doc);
    if lines.is_empty() {
        return None;
    }
    let mut t = Table::new("Marks", &["mark", "received", "elapsed", "phase", "at"]);
    t.note = "put into the run while it ran (iogauge mark); drawn on the phase's charts".into();
    for m in lines {
        t.rows.push(vec![
            Td::text(m.text),
            Td::text(m.time),
            Td::num(format!("{:.2} s", m.elapsed_s)),
            Td::text(m.phase.unwrap_or_else(|| "between phases".into())),
            Td::num(m.phase_t_s.map_or("—".into(), |t| format!("{t:.2} s"))),
        ]);
    }
    Some(t)
}

/// The marks that fell in the group's iterations, at seconds from their phase's start; the
/// iteration is named when the group has several.
pub(super) fn chart_marks(doc: &RunResult, g: &PhaseGroup<'_>) -> Vec<ChartMark> {
    let several = g.iterations.len() > 1;
    let mut out = Vec::new();
    for p in &g.iterations {
        let Some(i) = index_of(doc, p) else { continue };
        for m in doc.marks.iter().filter(|m| m.phase == Some(i)) {
            let Some(x) = m.phase_t_s else { continue };
            let text = match several {
                true => format!("{} (iteration {})", m.text, p.iteration),
                false => m.text.clone(),
            };
            out.push(ChartMark { x, text });
        }
    }
    out
}

fn index_of(doc: &RunResult, p: &PhaseResult) -> Option<usize> {
    doc.phases.iter().position(|q| std::ptr::eq(q, p))
}

/// Per marked iteration of the group: its stretches with the change against the first.
pub(super) fn stretch_tables(doc: &RunResult, g: &PhaseGroup<'_>) -> Vec<Table> {
    let ours: Vec<usize> = g
        .iterations
        .iter()
        .filter_map(|p| index_of(doc, p))
        .collect();
    marked_phases(doc)
        .into_iter()
        .filter(|m| ours.contains(&m.index))
        .map(|m| {
            let title = format!("Marks, iteration {}", m.iteration);
            let mut t = Table::new(&title, &["stretch", "from–to", m.unit, "change vs before"]);
            t.note = "each interval of the series counts in the stretch it starts in".into();
            for s in &m.stretches {
                let mut change = Td::num(change_text(s));
                change.class = match s.change_pct {
                    Some(c) if c < -crate::SAME_WITHIN_PERCENT => "num bad",
                    _ => "num",
                };
                t.rows.push(vec![
                    Td::text(&s.label),
                    Td::num(span_text(s)),
                    Td::num(fmt::number(m.rate(s))),
                    change,
                ]);
            }
            t
        })
        .collect()
}

/// The group's system figures: a table of CPU, dirty pages and process I/O per iteration, one
/// of the block devices, notes for the client file system and absent sources, and the chart
/// of device traffic and dirty pages where the phase has a system series.
pub(super) fn system_block(
    doc: &RunResult,
    g: &PhaseGroup<'_>,
    id: &str,
    s: &mut Section,
    all: &mut Vec<charts::Chart>,
) {
    let phases: Vec<PhaseSystem> = system::phase_systems(doc)
        .into_iter()
        .filter(|p| p.phase == g.key)
        .collect();
    if phases.is_empty() {
        return;
    }
    let several = g.iterations.len() > 1;
    let with_series: Vec<(String, &results::SystemFigures)> = g
        .iterations
        .iter()
        .filter_map(|p| {
            let f = p.system.as_ref().filter(|f| !f.series.is_empty())?;
            let label = match several {
                true => format!("iteration {}", p.iteration),
                false => String::new(),
            };
            Some((label, f))
        })
        .collect();
    let chart = charts::system(id, &g.key, &with_series).map(|c| c.with_marks(chart_marks(doc, g)));
    s.chart(chart, all, "");

    let mut header = vec!["iteration"];
    header.extend(MAIN_HEADER);
    let title = format!("System ({})", system::hosts_text(&phases));
    let mut t = Table::new(&title, &header);
    for p in &phases {
        let mut row = vec![Td::text(p.iteration.to_string())];
        row.extend(system::main_cells(&p.system).into_iter().map(Td::num));
        t.rows.push(row);
    }
    let notes: Vec<String> = system::client_fs_notes(&phases)
        .into_iter()
        .chain(system::absent_notes(&phases))
        .collect();
    t.note = notes.join(" · ");
    s.tables.push(t);
    if phases.iter().any(|p| !p.system.devices.is_empty()) {
        let mut header = vec!["iteration"];
        header.extend(DEVICE_HEADER);
        let mut t = Table::new("Block devices", &header);
        t.note = "the whole device's counters over the phase's window".into();
        for p in &phases {
            for d in &p.system.devices {
                let cells = system::device_cells(d);
                let mut row = vec![Td::text(p.iteration.to_string()), Td::text(&cells[0])];
                row.extend(cells[1..].iter().map(Td::num));
                t.rows.push(row);
            }
        }
        s.tables.push(t);
    }
}
