//! The requests of each phase in the result document and the closing lines: per S3 method,
//! throttled, the GETs' times to first byte; throttling made by the fault-injecting proxy in
//! front of the gateway (two requests in three answered `SlowDown`), each retried and
//! counted in its phase.

use super::{proxy, run};
use crate::common::s3_server::Server;
use crate::common::{json, tmp};

fn counter(p: &serde_json::Value, name: &str) -> u64 {
    p["counters"][name].as_u64().unwrap_or(0)
}

fn phase<'a>(v: &'a serde_json::Value, op: &str) -> &'a serde_json::Value {
    let phases = v["phases"].as_array().unwrap();
    phases.iter().find(|p| p["operation"] == op).unwrap()
}

pub fn counted_per_phase(server: &Server) {
    let out = tmp();
    let doc = out.path().join("r.json");
    // 2 ranks, 2 parts each: per rank a start, 2 parts and a completion; reads: a HEAD at the
    // open and a ranged GET per transfer.
    let r = run(
        server,
        &format!(
            "--no-store ior -a S3 --s3.bucket iog-req -N 2 -t 5m -b 10m -F -e -w -r -o f --json {}",
            doc.display()
        ),
        &[],
    )
    .ok();
    let v = json(&doc);
    let write = phase(&v, "write");
    assert_eq!(counter(write, "requests.PUT"), 4, "{write}");
    assert_eq!(counter(write, "requests.POST"), 4, "{write}");
    assert_eq!(counter(write, "requests.GET"), 0, "{write}");
    let read = phase(&v, "read");
    assert_eq!(counter(read, "requests.GET"), 4, "{read}");
    assert_eq!(counter(read, "requests.HEAD"), 2, "{read}");
    assert_eq!(read["counters"]["requests.throttled"], 0);
    assert_eq!(read["latency_by_kind"]["ttfb"]["count"], 4, "{read}");
    assert!(
        r.stderr.contains("read (iteration 0): GET 4 (") && r.stderr.contains("TTFB p50"),
        "{}",
        r.stderr
    );

    // mdtest: one request of its method per item and phase.
    let doc = out.path().join("md.json");
    run(
        server,
        &format!(
            "--no-store --tasks 2 mdtest -a S3 --s3.bucket iog-req -F -n 10 -w 100 -e 100 -d md \
             --json {}",
            doc.display()
        ),
        &[],
    )
    .ok();
    let v = json(&doc);
    assert_eq!(counter(phase(&v, "file-create"), "requests.PUT"), 20);
    assert_eq!(counter(phase(&v, "file-read"), "requests.GET"), 20);
    assert!(counter(phase(&v, "file-stat"), "requests.HEAD") >= 20);
    assert_eq!(counter(phase(&v, "file-remove"), "requests.DELETE"), 20);

    // Through the proxy, two requests in three are throttled and retried: the run succeeds,
    // and its phases count them.
    let upstream: std::net::SocketAddr = server
        .var("AWS_ENDPOINT_URL")
        .trim_start_matches("http://")
        .parse()
        .unwrap();
    let addr = proxy::start(upstream, |n| n % 3 != 2);
    let doc = out.path().join("slow.json");
    run(
        server,
        &format!(
            "--no-store ior -a S3 --s3.bucket iog-req --s3.endpoint http://{addr} -t 1m -b 1m \
             -w -r -o slow --json {}",
            doc.display()
        ),
        &[],
    )
    .ok();
    let v = json(&doc);
    let throttled: u64 = v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| counter(p, "requests.throttled"))
        .sum();
    assert!(throttled >= 2, "{v}");
}
