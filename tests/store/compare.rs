//! `compare` leads with what differs: the parameters in the tool's own terms, and a mark on
//! runs that cannot be compared (where `--fail-if-slower` refuses with exit 2).

use std::path::Path;

use crate::common::{stored_id, tmp, with_db};

#[test]
fn compare_opens_with_the_parameters_that_differ() {
    let d = tmp();
    let db = d.path().join("s.sqlite");
    let dir = d.path().display();
    let ior = |t: &str| {
        stored_id(
            &with_db(
                &db,
                &format!("ior -a DUMMY -N 2 -t {t} -b 4m -w -r -o {dir}/f"),
            )
            .ok(),
        )
    };
    let (big, small) = (ior("1m"), ior("256k"));

    let out = with_db(&db, &format!("compare {big} {small}")).ok().stdout;
    let head: Vec<&str> = out.lines().take(6).collect();
    let head = head.join("\n");
    assert!(
        head.contains("What differs") && head.contains("│ -t ") && head.contains("1 MiB"),
        "{out}"
    );
    assert!(head.contains("256 KiB"), "{out}");
    assert!(
        !out.contains("│ -b ") && !out.contains("Not comparable"),
        "{out}"
    );

    let json: serde_json::Value = serde_json::from_str(
        &with_db(&db, &format!("compare {big} {small} --format json"))
            .ok()
            .stdout,
    )
    .unwrap();
    let differs = &json["differs"];
    assert_eq!(differs["comparable"], true);
    assert_eq!(differs["differences"][0]["parameter"], "-t", "{differs}");
    assert_eq!(differs["differences"][0]["values"][1], "256 KiB");

    let csv = with_db(&db, &format!("compare {big} {small} --format csv"))
        .ok()
        .stdout;
    let header = csv.lines().next().unwrap();
    assert!(header.ends_with(",comparable,-t"), "{header}");

    // Another workload: marked, and no regression verdict over it.
    let md = stored_id(&with_db(&db, &format!("mdtest -n 10 -d {dir}/md")).ok());
    let out = with_db(&db, &format!("compare {big} {md}")).ok().stdout;
    assert!(
        out.starts_with("Not comparable: run 2 is mdtest, the baseline is ior"),
        "{out}"
    );
    let r = with_db(&db, &format!("compare {big} {md} --fail-if-slower 5%")).code(2);
    assert!(r.stderr.contains("not comparable"), "{}", r.stderr);
}

fn testdata(name: &str) -> String {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("crates/workload/src/io500/testdata")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

/// Two IO500 submissions imported from their summaries: bandwidth phases have no IOPS.
fn imported_io500(root: &Path) -> std::path::PathBuf {
    let db = root.join("s.sqlite");
    for (site, file) in [
        ("siteA", "sc24-731-result_summary.txt"),
        ("siteB", "iogauge-quick-result_summary.txt"),
    ] {
        let dir = root.join(site);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("result_summary.txt"), testdata(file)).unwrap();
        with_db(&db, &format!("import {}", dir.display())).ok();
    }
    db
}

#[test]
fn rows_zero_in_every_run_are_dropped_and_figures_select() {
    let d = tmp();
    let db = imported_io500(d.path());
    let json: serde_json::Value =
        serde_json::from_str(&with_db(&db, "compare 1 2 --format json").ok().stdout).unwrap();
    let phases = json["phases"].as_array().unwrap();
    assert!(!phases.is_empty());
    for p in phases {
        for row in p["rows"].as_array().unwrap() {
            let zero = row["cells"].as_array().unwrap().iter().all(|c| {
                c["values"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|v| v.as_f64() == Some(0.0))
            });
            assert!(!zero, "{} {} is 0 in every run", p["phase"], row["metric"]);
        }
    }
    let table = with_db(&db, "compare 1 2").ok().stdout;
    assert!(!table.contains(" 0 ops/s "), "{table}");

    // --figures: only the figures named, on compare and on the page.
    let only = with_db(&db, "compare 1 2 --figures score --format json")
        .ok()
        .stdout;
    let only: serde_json::Value = serde_json::from_str(&only).unwrap();
    let metrics: Vec<&str> = only["phases"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["rows"].as_array().unwrap())
        .map(|r| r["metric"].as_str().unwrap())
        .collect();
    assert!(!metrics.is_empty());
    assert!(
        metrics.iter().all(|m| m.starts_with("score")),
        "{metrics:?}"
    );
    let r = with_db(&db, "compare 1 2 --figures bw,lat").code(2);
    assert!(
        r.stderr.contains("no figure lat")
            && r.stderr.contains("bw, iops, time, p50, p99 and score"),
        "{}",
        r.stderr
    );
    let page = d.path().join("cmp.html");
    with_db(
        &db,
        &format!("report 1 2 --figures score -o {}", page.display()),
    )
    .ok();
    assert!(std::fs::read_to_string(&page)
        .unwrap()
        .contains("What differs"));
    with_db(&db, "report 1 --figures bw -o x.html").code(2);
}
