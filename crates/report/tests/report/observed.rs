//! Marks and system figures in `show` and the run page: the stretches before, between and
//! after two marks with their changes, the system block of a phase, the marks on the charts
//! (in Chromium too), and a run with neither shown as before.

use crate::docs::ior2;
use crate::html::{expected_run_charts, render_and_check, unescape};
use report::html::run_page;
use report::{render, summarize, Format, Run, RunInfo};
use results::mark::Mark;
use results::system::{
    CpuFigures, DeviceFigures, DirtyFigures, NfsFigures, ProcessIo, RpcFigures, SystemPoint,
};
use results::{RunResult, SystemFigures};
use serde_json::Value;

const MIB: u64 = 1 << 20;

/// One write phase of 30 s: 100 MiB/s for 10 s, 63 MiB/s while "disk failed" to "rebuild
/// done", then 98.2 MiB/s; a read phase without marks after it.
fn rebuild_run() -> RunResult {
    let mut doc = ior2();
    doc.phases.truncate(2);
    let p = &mut doc.phases[0];
    let template = p.series.buckets[0].clone();
    p.series.interval_s = 1.0;
    p.series.buckets = (0..30u64)
        .map(|i| {
            let mut b = template.clone();
            b.t_s = i as f64;
            b.bytes = match i {
                0..10 => 100 * MIB,
                10..20 => 63 * MIB,
                _ => 982 * MIB / 10,
            };
            b.ops = b.bytes / MIB;
            b
        })
        .collect();
    p.bytes = p.series.buckets.iter().map(|b| b.bytes).sum();
    p.times.total_s = 30.0;
    p.bandwidth_mib_s = p.bytes as f64 / MIB as f64 / 30.0;
    p.system = Some(system());
    doc.marks = vec![mark("disk failed", 10.2), mark("rebuild done", 19.9)];
    doc
}

fn mark(text: &str, t: f64) -> Mark {
    Mark {
        text: text.into(),
        time: format!("2025-03-01T10:00:{:02}Z", t as u32 + 1),
        elapsed_s: t + 1.0,
        phase: Some(0),
        phase_t_s: Some(t),
    }
}

fn system() -> SystemFigures {
    let device = |name: &str, role: &str| DeviceFigures {
        name: name.into(),
        dev: "253:0".into(),
        role: role.into(),
        writes: 1200,
        write_bytes: 600 * MIB,
        avg_write_request_bytes: Some(512.0 * 1024.0),
        write_await_ms: Some(3.2),
        queue_depth: 2.5,
        request_size_source: "diskstats average".into(),
        ..Default::default()
    };
    let mut nfs = NfsFigures {
        mount_point: "/mnt/nfs".into(),
        server: "filer:/export".into(),
        normal_write_bytes: 2000 * MIB,
        server_write_bytes: 2000 * MIB,
        ..Default::default()
    };
    nfs.ops.insert(
        "WRITE".into(),
        RpcFigures {
            calls: 2000,
            rtt_ms_mean: 1.5,
            ..Default::default()
        },
    );
    SystemFigures {
        host: "node7".into(),
        window_s: 30.05,
        cpu: Some(CpuFigures {
            user_s: 1.25,
            system_s: 9.5,
            utilization_pct: 35.8,
            node_busy: 0.23,
            node_iowait: 0.05,
            ..Default::default()
        }),
        process_io: Some(ProcessIo {
            write_bytes: 2000 * MIB,
            ..Default::default()
        }),
        devices: vec![device("dm-0", "target"), device("vdb", "slave")],
        page_cache: Some(DirtyFigures {
            dirty_start_bytes: 12 * MIB,
            dirty_end_bytes: 800 * MIB,
            dirty_peak_bytes: 900 * MIB,
            ..Default::default()
        }),
        nfs: Some(nfs),
        absent: [("lustre".to_string(), "not a Lustre mount".to_string())].into(),
        series: (0..30)
            .map(|i| SystemPoint {
                t_s: i as f64,
                width_s: 1.0,
                device_write_bytes: 20 * MIB,
                dirty_bytes: (i + 1) * 25 * MIB,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

fn show(doc: &RunResult, format: Format) -> String {
    render(&summarize(&Run::new(doc, &RunInfo::of(doc))), format)
}

#[test]
fn show_cuts_the_marked_phase_into_stretches_with_their_changes() {
    let text = show(&rebuild_run(), Format::Table);
    for want in [
        "Marks\n",
        "disk failed",
        "write, iteration 0, at 10.20 s",
        "Marks in write, iteration 0",
        "before \"disk failed\"",
        "between \"disk failed\" and \"rebuild done\"",
        "after \"rebuild done\"",
        "10–20 s",
        "-37.0 %",
        "-1.8 %",
        "63.00",
        "change vs before",
    ] {
        assert!(text.contains(want), "{want:?} not in\n{text}");
    }
    let between = text.lines().find(|l| l.contains("between")).unwrap();
    assert!(
        between.contains("63.00") && between.contains("-37.0 %"),
        "{between}"
    );
    // The read phase has no marks inside: no stretches of its own.
    assert!(!text.contains("Marks in read"), "{text}");
}

#[test]
fn show_has_a_compact_system_section() {
    let text = show(&rebuild_run(), Format::Table);
    for want in [
        "System (measured on rank 0's node node7)",
        "1.25 s + 9.50 s",
        "35.8 %",
        "23.0 % (iowait 5.0 %)",
        "12.0 MiB → 800.0 MiB (peak 900.0 MiB)",
        "0 B / 2.0 GiB",
        "System: block devices",
        "dm-0 (target)",
        "vdb (slave)",
        "0 B / 600.0 MiB",
        "— / 512.0 KiB",
        "— / 3.20 ms",
        "NFS filer:/export on /mnt/nfs",
        "WRITE 2000 × 1.50 ms",
        "absent: lustre (not a Lustre mount)",
    ] {
        assert!(text.contains(want), "{want:?} not in\n{text}");
    }
    // Only the write phase has figures: one row in the CPU table, two device rows.
    let system = text.split("System (").nth(1).unwrap();
    let system = &system[..system.find("System: block").unwrap()];
    assert_eq!(system.matches("│ write ").count(), 1, "{system}");
    assert!(!system.contains("│ read "), "{system}");
    let devices = text.split("System: block devices").nth(1).unwrap();
    assert_eq!(devices.matches("│ write ").count(), 2, "{devices}");
}

#[test]
fn show_json_carries_marks_stretches_and_system_figures() {
    let j: Value = serde_json::from_str(&show(&rebuild_run(), Format::Json)).unwrap();
    assert_eq!(j["marks"][1]["text"], "rebuild done");
    assert_eq!(j["marks"][0]["phase"], "write, iteration 0");
    let s = &j["marked_phases"][0];
    assert_eq!(s["unit"], "MiB/s");
    let change = s["stretches"][1]["change_pct"].as_f64().unwrap();
    assert!((change + 37.0).abs() < 1e-9, "{change}");
    assert!(s["stretches"][0]["change_pct"].is_null());
    let sys = &j["system"][0];
    assert_eq!(sys["phase"], "write");
    assert_eq!(sys["system"]["devices"][0]["name"], "dm-0");
    assert_eq!(sys["system"]["absent"]["lustre"], "not a Lustre mount");
    // The series stays in the document, not in show's summary.
    assert!(sys["system"].get("series").is_none());
}

#[test]
fn a_run_without_marks_or_system_figures_shows_as_before() {
    let doc = ior2();
    assert!(doc.marks.is_empty() && doc.phases.iter().all(|p| p.system.is_none()));
    let text = show(&doc, Format::Table);
    assert!(
        !text.contains("Marks") && !text.contains("System"),
        "{text}"
    );
    let j: Value = serde_json::from_str(&show(&doc, Format::Json)).unwrap();
    for key in ["marks", "marked_phases", "system"] {
        assert!(j.get(key).is_none(), "{key}");
    }
    let html = run_page(&Run::new(&doc, &RunInfo::of(&doc)));
    assert!(!html.contains("data-chart=\"system-") && !html.contains("\"marks\""));
}

fn page(doc: &RunResult) -> String {
    run_page(&Run::new(doc, &RunInfo::of(doc)))
}

#[test]
fn run_page_has_the_marks_their_stretches_and_the_system_block() {
    let doc = rebuild_run();
    let html = page(&doc);
    let data = html.split("id=\"report-data\">").nth(1).unwrap();
    assert!(
        data.contains(
            r#""marks":[{"x":10.2,"text":"disk failed"},{"x":19.9,"text":"rebuild done"}]"#
        ),
        "the series chart's marks"
    );
    let text = unescape(&html);
    for want in [
        "<h3>Marks</h3>",
        "Marks, iteration 0",
        "between \"disk failed\" and \"rebuild done\"",
        "-37.0 %",
        "System (measured on rank 0's node node7)",
        "12.0 MiB → 800.0 MiB (peak 900.0 MiB)",
        "dm-0 (target)",
        "absent: lustre (not a Lustre mount)",
        "data-chart=\"system-write\"",
    ] {
        assert!(text.contains(want), "{want:?} not in the page");
    }
    // A drop beyond the same-within threshold is coloured.
    assert!(html.contains("<td class=\"num bad\">-37.0 %</td>"));
}

#[test]
fn run_page_draws_the_marks_in_chromium() {
    let doc = rebuild_run();
    let html = page(&doc);
    let mut expected = expected_run_charts(&doc);
    // 30 device-write and 30 dirty points.
    expected.push(("system-write".to_string(), 60));
    let dom = render_and_check("run-marks", &html, &expected);
    for chart in ["series-write", "system-write"] {
        let at = dom.find(&format!("data-chart=\"{chart}\"")).unwrap();
        let tag = &dom[at..at + dom[at..].find('>').unwrap()];
        assert!(tag.contains("data-marks=\"2\""), "{chart}: {tag}");
    }
    assert_eq!(dom.matches("data-mark=\"disk failed\"").count(), 2);
    assert_eq!(dom.matches("data-mark=\"rebuild done\"").count(), 2);
    // Placed on the plot (a left offset), not left hidden.
    let at = dom.find("data-mark=\"disk failed\"").unwrap();
    let tag = &dom[at..at + dom[at..].find('>').unwrap()];
    assert!(
        tag.contains("left:") && !tag.contains("display: none"),
        "{tag}"
    );
}
