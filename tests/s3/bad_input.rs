//! The refusals of `-a S3` that need the server to answer (the others, which need none, are
//! in the bad-input catalogue): each is exit 2 with one line naming the problem, before any
//! timed operation, nothing on standard output, and the server's buckets as they were.

use super::{objects, run};
use crate::common::s3_server::Server;

struct Case {
    args: &'static str,
    env: &'static [(&'static str, &'static str)],
    names: &'static str,
}

const IOR: &str = "--no-store ior -a S3 -t 1m -b 1m -w -r -o k";

/// A second user of the server that may make no bucket (`--max-buckets=-1`).
const NOB_KEY: &str = "IOGAUGENOBUCKETS000";
const NOB_SECRET: &str = "no-buckets-secret";

#[rustfmt::skip]
const CASES: &[Case] = &[
    Case { args: "", env: &[("AWS_SECRET_ACCESS_KEY", "wrong-secret")], names: "SignatureDoesNotMatch" },
    Case { args: "", env: &[("AWS_ACCESS_KEY_ID", "NOSUCHKEY0000000000")], names: "InvalidAccessKeyId" },
    Case { args: "--s3.bucket iog-nob", env: &[("AWS_ACCESS_KEY_ID", NOB_KEY), ("AWS_SECRET_ACCESS_KEY", NOB_SECRET)], names: "--s3.bucket iog-nob: does not exist, and creating it failed" },
    Case { args: "--s3.bucket iog-owned", env: &[("AWS_ACCESS_KEY_ID", NOB_KEY), ("AWS_SECRET_ACCESS_KEY", NOB_SECRET)], names: "AccessDenied" },
    Case { args: "--s3.bucket ab", env: &[], names: "--s3.bucket ab: does not exist, and creating it failed" },
];

pub fn refused_with_the_server(server: &Server) {
    server.admin(&[
        "user",
        "create",
        "--uid=nobuckets",
        "--display-name=nobuckets",
        &format!("--access-key={NOB_KEY}"),
        &format!("--secret-key={NOB_SECRET}"),
        "--max-buckets=-1",
    ]);
    // A bucket of the first user's, which the second may not use.
    run(
        server,
        "--no-store ior -a S3 --s3.bucket iog-owned -t 1m -b 1m -w -k -o keep",
        &[],
    )
    .ok();
    let before = server.admin(&["bucket", "list"]);
    let mut failures = Vec::new();
    for c in CASES {
        let r = run(server, &format!("{IOR} {}", c.args), c.env);
        let lines: Vec<&str> = r.stderr.lines().filter(|l| !l.trim().is_empty()).collect();
        let mut bad = Vec::new();
        if r.code != 2 {
            bad.push(format!("exit {}", r.code));
        }
        if lines.len() != 1 || !r.stderr.contains(c.names) {
            bad.push(format!("stderr does not name {:?} in one line", c.names));
        }
        if !r.stdout.is_empty() {
            bad.push("printed on stdout".into());
        }
        if server.admin(&["bucket", "list"]) != before {
            bad.push("changed the server's buckets".into());
        }
        if !bad.is_empty() {
            failures.push(format!(
                "{} {:?}: {}\n  {}",
                c.args,
                c.env,
                bad.join("; "),
                r.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        objects(server, "iog-owned").unwrap().len(),
        1,
        "the first user's object stays"
    );
}
