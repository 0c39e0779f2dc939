//! `compare` leads with what differs: the parameters in the tool's own terms, and a mark on
//! runs that cannot be compared (where `--fail-if-slower` refuses with exit 2).

use std::path::Path;

use crate::common::{iogauge_args, tmp, Run};

fn with_db(db: &Path, line: &str) -> Run {
    let mut args: Vec<String> = line.split_whitespace().map(String::from).collect();
    args.push("--db".into());
    args.push(db.display().to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    iogauge_args(&args)
}

/// The id in the closing `stored as run N: ...` line.
fn stored(r: Run) -> i64 {
    let line = r.stderr.lines().last().unwrap_or_default().to_string();
    let rest = line.strip_prefix("stored as run ").unwrap();
    rest.split_once(':').unwrap().0.parse().unwrap()
}

#[test]
fn compare_opens_with_the_parameters_that_differ() {
    let d = tmp();
    let db = d.path().join("s.sqlite");
    let dir = d.path().display();
    let ior = |t: &str| {
        stored(
            with_db(
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
    let md = stored(with_db(&db, &format!("mdtest -n 10 -d {dir}/md")).ok());
    let out = with_db(&db, &format!("compare {big} {md}")).ok().stdout;
    assert!(
        out.starts_with("Not comparable: run 2 is mdtest, the baseline is ior"),
        "{out}"
    );
    let r = with_db(&db, &format!("compare {big} {md} --fail-if-slower 5%")).code(2);
    assert!(r.stderr.contains("not comparable"), "{}", r.stderr);
}
