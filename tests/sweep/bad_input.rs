//! Bad sweeps are refused by name, with status 2, before any point runs.

use crate::common::{iogauge, listing, tmp};

#[test]
fn refused_before_any_io() {
    let d = tmp();
    let db = d.path().join("r.sqlite");
    let db = db.to_str().unwrap();
    let o = d.path().join("f");
    let o = o.display();
    let cases = [
        (
            format!("sweep --vary transfersize=1k -- ior -w -o {o}"),
            "did you mean transferSize",
        ),
        (
            format!("sweep --vary F=maybe -- ior -w -o {o}"),
            "its values are on and off",
        ),
        (
            format!("sweep --vary tasks=8..1 -- ior -w -o {o}"),
            "starts above its end",
        ),
        (
            format!(
                "sweep --vary t=@{}/none -- ior -w -o {o}",
                d.path().display()
            ),
            "--vary t=@",
        ),
        ("sweep --vary tasks=1,2".to_string(), "no workload"),
        (
            format!("sweep --resume -- ior -w -o {o}"),
            "no stored sweep of this command line",
        ),
        (
            format!("sweep --vary n=1 -- find {o}"),
            "tasks and fake-nodes only",
        ),
        (
            format!("sweep -- ior -w --db /x -o {o}"),
            "give --db before --",
        ),
        (
            format!("--no-store sweep -- ior -w -o {o}"),
            "a sweep is its stored runs",
        ),
    ];
    for (args, said) in cases {
        let r = iogauge(&format!("--db {db} {args}")).code(2);
        assert!(r.stderr.contains(said), "{args}: {}", r.stderr);
        assert_eq!(
            r.stderr.lines().count(),
            1,
            "{args}: one line: {}",
            r.stderr
        );
    }
    let left = listing(d.path());
    assert!(left.iter().all(|n| n.starts_with("r.sqlite")), "{left:?}");
    let r = iogauge(&format!("--db {db} sweep show 7")).code(2);
    assert!(r.stderr.contains("no sweep 7"), "{}", r.stderr);
}
