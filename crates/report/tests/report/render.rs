//! Renderers: JSON and CSV parse back to the model's figures; tables hold them as shown.

use crate::docs::{crafted, infos, ior2, ior4, mdtest, runs, writes};
use report::fmt::figure;
use report::{check, compare, render, scaling, summarize, Format, ListedRun, Run, RunInfo};
use serde_json::Value;

fn csv_rows(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r
        .records()
        .map(|rec| rec.unwrap().iter().map(str::to_string).collect())
        .collect();
    (header, rows)
}

fn col(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name}: {header:?}"))
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("renderer JSON parses")
}

#[test]
fn formats_parse() {
    assert_eq!("table".parse::<Format>(), Ok(Format::Table));
    assert_eq!("json".parse::<Format>(), Ok(Format::Json));
    assert_eq!("csv".parse::<Format>(), Ok(Format::Csv));
    assert_eq!("markdown".parse::<Format>(), Ok(Format::Markdown));
    assert_eq!("md".parse::<Format>(), Ok(Format::Markdown));
    let e = "xml".parse::<Format>().unwrap_err();
    assert!(
        e.contains("xml") && e.contains("table, markdown, json or csv"),
        "{e}"
    );
}

#[test]
fn run_list_in_every_format() {
    let docs = [ior4(), mdtest()];
    let mut infos: Vec<RunInfo> = docs.iter().map(RunInfo::of).collect();
    infos[1].labels.insert("fs".into(), "ext4, tuned".into());
    infos[1].complete = false;
    let listed: Vec<ListedRun> = docs
        .iter()
        .zip(&infos)
        .map(|(d, i)| ListedRun::of(&Run::new(d, i)))
        .collect();
    // The ior run's headline is the median bandwidth of each phase.
    let write = &listed[0].headline[0];
    assert_eq!(
        (write.name.as_str(), write.unit.as_str()),
        ("write", "MiB/s")
    );
    let mut bw: Vec<f64> = docs[0]
        .phases
        .iter()
        .filter(|p| p.operation.label() == "write")
        .map(|p| p.bandwidth_mib_s)
        .collect();
    bw.sort_by(f64::total_cmp);
    assert_eq!(write.value, bw[1]);

    let table = render(listed.as_slice(), Format::Table);
    for r in &listed {
        assert!(table.contains(&r.id) && table.contains(&r.host));
    }
    assert!(table.contains(&format!("write {}", figure(write.value, "MiB/s"))));
    assert!(table.contains("fs=ext4, tuned"));

    let j = json(&render(listed.as_slice(), Format::Json));
    assert_eq!(j[0]["id"], listed[0].id.as_str());
    assert_eq!(j[0]["headline"][0]["value"].as_f64(), Some(write.value));
    assert_eq!(j[1]["complete"], false);

    let (header, rows) = csv_rows(&render(listed.as_slice(), Format::Csv));
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1][col(&header, "labels")], "fs=ext4, tuned");
    assert_eq!(rows[1][col(&header, "complete")], "false");
    let w: f64 = rows[0][col(&header, "write (MiB/s)")].parse().unwrap();
    assert_eq!(w, write.value, "full precision");
    assert_eq!(
        rows[1][col(&header, "write (MiB/s)")],
        "",
        "mdtest has no write"
    );
    let fc: f64 = rows[1][col(&header, "file-create (ops/s)")]
        .parse()
        .unwrap();
    assert_eq!(
        fc,
        listed[1]
            .headline
            .iter()
            .find(|f| f.name == "file-create")
            .unwrap()
            .value
    );
}

#[test]
fn show_in_every_format() {
    let doc = mdtest();
    let info = RunInfo::of(&doc);
    let s = summarize(&Run::new(&doc, &info));
    let table = render(&s, Format::Table);
    for needle in [
        &doc.run_id,
        &doc.environment.hostname,
        &doc.environment.kernel,
    ] {
        assert!(table.contains(needle.as_str()), "{needle}");
    }
    for w in &doc.warnings {
        assert!(table.contains(w.as_str()));
    }
    assert!(table.contains("Parameters") && table.contains("resolved.items_per_task"));
    assert!(
        table.contains("Iterations"),
        "two iterations give a spread table"
    );

    // Sizes read in binary units beside the exact number.
    let ior = ior2();
    let info = RunInfo::of(&ior);
    let ior_table = render(&summarize(&Run::new(&ior, &info)), Format::Table);
    let params = serde_json::to_value(&ior.parameters).unwrap();
    let block = params["parameters"]["block_size"].as_u64().unwrap();
    let shown = format!("{block} ({})", report::fmt::bytes(block));
    assert!(ior_table.contains(&shown), "{shown} not in\n{ior_table}");

    let j = json(&render(&s, Format::Json));
    assert_eq!(j["phases"].as_array().unwrap().len(), doc.phases.len());
    assert_eq!(j["phases"][1]["iops"].as_f64(), Some(doc.phases[1].iops));

    let (header, rows) = csv_rows(&render(&s, Format::Csv));
    assert_eq!(rows.len(), doc.phases.len());
    for (row, p) in rows.iter().zip(&doc.phases) {
        assert_eq!(row[col(&header, "phase")], p.operation.label());
        assert_eq!(row[col(&header, "iops")].parse::<f64>().unwrap(), p.iops);
        let p99 = p
            .latency
            .percentiles
            .iter()
            .find(|q| q.p == 99.0)
            .unwrap()
            .value;
        assert_eq!(
            row[col(&header, "latency_p99_ns")].parse::<u64>().unwrap(),
            p99
        );
        assert_eq!(
            row[col(&header, "bandwidth_mib_s")],
            "",
            "mdtest moved no bytes"
        );
    }
}

#[test]
fn show_names_the_straggler() {
    let doc = ior4();
    let info = RunInfo::of(&doc);
    let s = summarize(&Run::new(&doc, &info));
    let (header, rows) = csv_rows(&render(&s, Format::Csv));
    for (row, p) in rows.iter().zip(&doc.phases) {
        let slowest = p
            .per_rank
            .iter()
            .max_by(|a, b| a.close_stop_s.total_cmp(&b.close_stop_s))
            .unwrap();
        assert_eq!(row[col(&header, "slowest_rank")], slowest.rank.to_string());
        assert_eq!(
            row[col(&header, "slowest_rank_s")].parse::<f64>().unwrap(),
            slowest.close_stop_s
        );
    }
}

#[test]
fn comparison_in_every_format() {
    let docs = vec![ior4(), ior2()];
    let infos = infos(2);
    let c = compare(&runs(&docs, &infos));
    let median = |d: &results::RunResult, op: &str| {
        let mut v: Vec<f64> = d
            .phases
            .iter()
            .filter(|p| p.operation.label() == op)
            .map(|p| p.bandwidth_mib_s)
            .collect();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        }
    };
    let (a, b) = (median(&docs[0], "write"), median(&docs[1], "write"));
    let percent = (b - a) / a * 100.0;

    let (header, rows) = csv_rows(&render(&c, Format::Csv));
    let cells: usize = c.phases.iter().map(|p| p.rows.len() * 2).sum();
    assert_eq!(rows.len(), cells);
    let bw_b = rows
        .iter()
        .find(|r| {
            r[0] == "write"
                && r[col(&header, "metric")] == "bandwidth_mib_s"
                && r[col(&header, "run")] == "b"
        })
        .unwrap();
    assert_eq!(bw_b[col(&header, "median")].parse::<f64>().unwrap(), b);
    assert_eq!(
        bw_b[col(&header, "percent")].parse::<f64>().unwrap(),
        percent
    );
    assert_eq!(
        bw_b[col(&header, "verdict")],
        if percent < 0.0 { "worse" } else { "better" }
    );
    assert_eq!(bw_b[col(&header, "baseline")], "false");

    let j = json(&render(&c, Format::Json));
    let row = j["phases"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metric"] == "bandwidth_mib_s")
        .unwrap();
    assert_eq!(row["cells"][1]["delta"]["percent"].as_f64(), Some(percent));
    assert_eq!(row["cells"][0]["spread"]["median"].as_f64(), Some(a));

    let table = render(&c, Format::Table);
    assert!(table.contains(&format!("{:+.1}% ", percent)));
    assert!(table.contains("a (baseline)"));
    assert!(table.contains(&figure(a, "MiB/s")) && table.contains(&figure(b, "MiB/s")));
}

#[test]
fn trends_are_noted_in_the_table() {
    let docs = vec![crafted(2, 1, writes(&[164.0, 150.0, 120.0, 94.0]))];
    let infos = infos(1);
    let table = render(&compare(&runs(&docs, &infos)), Format::Table);
    assert!(
        table.contains("Trends over iterations") && table.contains("degrading"),
        "{table}"
    );
}

#[test]
fn scaling_and_regression_in_every_format() {
    let docs = vec![
        crafted(1, 1, writes(&[100.0])),
        crafted(4, 1, writes(&[300.0])),
    ];
    let infos = infos(2);
    let r = runs(&docs, &infos);
    let s = scaling(&r, None).unwrap();
    let (header, rows) = csv_rows(&render(&s, Format::Csv));
    assert_eq!(
        rows[1][col(&header, "efficiency")].parse::<f64>().unwrap(),
        300.0 / (4.0 * 100.0)
    );
    assert_eq!(rows[1][col(&header, "by")], "ranks");
    let table = render(&s, Format::Table);
    assert!(
        table.contains(&format!("{:.1}%", 300.0 / 4.0)) && table.contains("per rank"),
        "{table}"
    );
    assert_eq!(
        json(&render(&s, Format::Json))["phases"][0]["points"][1]["count"],
        4
    );

    let v = check(&r[1], &r[0], 10.0);
    let table = render(&v, Format::Table);
    assert!(
        table.contains("REGRESSION") && table.contains("failed: 1 phase"),
        "{table}"
    );
    let (header, rows) = csv_rows(&render(&v, Format::Csv));
    assert_eq!(rows[0][col(&header, "regressed")], "true");
    assert_eq!(
        rows[0][col(&header, "slower_percent")]
            .parse::<f64>()
            .unwrap(),
        (300.0 - 100.0) / 300.0 * 100.0
    );
    assert_eq!(
        json(&render(&v, Format::Json))["phases"][0]["regressed"],
        true
    );
}

/// Each GFM table: its header line, then a `|---|` line with one `---` per column, then rows
/// of as many cells; returns the tables' column counts.
fn gfm_tables(md: &str) -> Vec<usize> {
    let lines: Vec<&str> = md.lines().collect();
    let mut found = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if !l.starts_with("|---") {
            continue;
        }
        let columns = l.matches("---|").count();
        // An escaped pipe is no column border.
        let cells = |row: &str| row.replace("\\|", "").matches('|').count() - 1;
        assert_eq!(cells(lines[i - 1]), columns, "header of {l}:\n{md}");
        assert!(
            i < 2 || !lines[i - 2].starts_with('|'),
            "one header row:\n{md}"
        );
        for row in lines[i + 1..].iter().take_while(|r| r.starts_with('|')) {
            assert_eq!(cells(row), columns, "row {row}:\n{md}");
        }
        found.push(columns);
    }
    assert!(!md.contains(['\u{E000}', '\u{E001}', '\u{E002}']), "{md}");
    found
}

#[test]
fn markdown_draws_each_table_with_a_header_separator() {
    // show: one GFM table per terminal table, titles as headings, no box drawing left.
    let doc = ior4();
    let info = RunInfo::of(&doc);
    let s = summarize(&Run::new(&doc, &info));
    let md = render(&s, Format::Markdown);
    let terminal_tables = render(&s, Format::Table).matches("╞").count()
        + render(&s, Format::Table).matches("\n┌").count();
    assert!(gfm_tables(&md).len() >= 4, "{md}");
    assert!(md.contains("### Parameters\n"), "{md}");
    assert!(!md.contains(['┌', '│', '╞', '└']), "{md}");
    assert!(terminal_tables >= gfm_tables(&md).len(), "{md}");
    // A blank line before and after every table, or the next text becomes a row.
    let lines: Vec<&str> = md.lines().collect();
    for w in lines.windows(2) {
        assert!(
            w[0].starts_with('|') == w[1].starts_with('|') || w[0].is_empty() || w[1].is_empty(),
            "{w:?}"
        );
    }

    // runs: a label with a pipe stays in its cell.
    let mut info = RunInfo::of(&doc);
    info.labels.insert("fs".into(), "a|b".into());
    let listed = vec![ListedRun::of(&Run::new(&doc, &info))];
    let md = render(listed.as_slice(), Format::Markdown);
    assert_eq!(gfm_tables(&md), vec![7], "{md}");
    assert!(md.contains("a\\|b"), "{md}");

    // compare: the runs table and the figures; scaling: one table per phase.
    let docs = vec![ior4(), ior2()];
    let infos = infos(2);
    let md = render(&compare(&runs(&docs, &infos)), Format::Markdown);
    assert!(gfm_tables(&md).len() >= 2, "{md}");
    let docs = vec![
        crafted(1, 1, writes(&[100.0])),
        crafted(4, 1, writes(&[300.0])),
    ];
    let md = render(
        &scaling(&runs(&docs, &infos), None).unwrap(),
        Format::Markdown,
    );
    assert_eq!(gfm_tables(&md), vec![5], "{md}");
    // The free text after the table is a paragraph of its own.
    assert!(md.contains("|\n\nefficiency = "), "{md}");
    // The terminal tables are unchanged afterwards.
    assert!(render(&s, Format::Table).contains('│'));
}

#[test]
fn markdown_cells_escape_pipes_and_join_lines() {
    let md = report::markdown(|| {
        let mut t = report::table::new(&["name\nunit", "value"], &[1]);
        t.add_row(vec!["a|b", "1\n2"]);
        t.add_row(vec!["c", "3"]);
        let mut out = "title\n".to_string();
        out += &t.to_string();
        out += "\nnote\n  - item\n";
        out
    });
    assert_eq!(
        md,
        "title\n\n| name<br>unit | value |\n|---|---|\n| a\\|b | 1<br>2 |\n| c | 3 |\n\nnote\n- item\n"
    );
}
