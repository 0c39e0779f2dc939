//! Stonewalling with wear-out, deterministic through the dummy engine's delays.

use crate::common::{iogauge, json, tmp};

#[test]
fn wear_out_brings_every_rank_to_the_max_and_reads_honour_the_status_file() {
    let d = tmp();
    let sw = d.path().join("sw");
    let j = d.path().join("w.json");
    // 2 ms per transfer, 1 s deadline: ~500 transfers of the 100000 planned.
    let r = iogauge(&format!(
        "ior -N 3 -a DUMMY --dummy.delay-xfer=2000 -t 1m -b 100g -F -w -D 1 -k \
         -O stoneWallingWearOut=1 -O stoneWallingStatusFile={} -o {}/f --json {}",
        sw.display(),
        d.path().display(),
        j.display()
    ))
    .ok();
    assert!(
        r.stdout.contains("stonewalling pairs accessed min:"),
        "{}",
        r.stdout
    );
    let doc = json(&j);
    let w = &doc["phases"][0];
    let pairs_max = w["stonewall"]["pairs_max"].as_u64().unwrap();
    let pairs_min = w["stonewall"]["pairs_min"].as_u64().unwrap();
    assert!(
        pairs_min <= pairs_max && pairs_max > 100 && pairs_max < 100_000,
        "{pairs_min} {pairs_max}"
    );
    for rank in w["per_rank"].as_array().unwrap() {
        assert_eq!(
            rank["ops"].as_u64().unwrap(),
            pairs_max,
            "every rank wears out to the max"
        );
    }
    assert_eq!(w["ops"].as_u64().unwrap(), 3 * pairs_max);
    assert_eq!(
        std::fs::read_to_string(&sw).unwrap(),
        pairs_max.to_string(),
        "bare decimal, no newline"
    );
    assert!(w["times"]["total_s"].as_f64().unwrap() >= 1.0);

    // A later read stops after exactly that many transfers per rank.
    let j2 = d.path().join("r.json");
    iogauge(&format!(
        "ior -N 3 -a DUMMY -t 1m -b 100g -F -r -k -O stoneWallingStatusFile={} -o {}/f --json {}",
        sw.display(),
        d.path().display(),
        j2.display()
    ))
    .ok();
    let r = &json(&j2)["phases"][0];
    assert_eq!(r["operation"], "read");
    for rank in r["per_rank"].as_array().unwrap() {
        assert_eq!(rank["ops"].as_u64().unwrap(), pairs_max);
    }
}

#[test]
fn deadline_without_wear_out_lets_ranks_differ() {
    let d = tmp();
    let j = d.path().join("w.json");
    iogauge(&format!(
        "ior -N 2 -a DUMMY --dummy.delay-xfer=1000 --dummy.delay-only-rank0 -t 8 -b 8 -s 2000000 -w -D 1 -k -o {}/f --json {}",
        d.path().display(),
        j.display()
    ))
    .ok();
    let doc = json(&j);
    let ranks = doc["phases"][0]["per_rank"].as_array().unwrap().clone();
    let (slow, fast) = (
        ranks[0]["ops"].as_u64().unwrap(),
        ranks[1]["ops"].as_u64().unwrap(),
    );
    assert!(
        slow < fast,
        "the delayed rank 0 does fewer transfers: {slow} vs {fast}"
    );
    assert!(slow < 2000);
}
