//! A failure during the run: the fault-injecting proxy answers one part's upload with 500
//! `InternalError` (not retried). The run ends with exit status 1 naming the request, and
//! leaves nothing behind: no test object, no unfinished upload (the server's own listing shows
//! those as `_multipart_` entries), the bucket, which existed, as it was; with `--s3.depth`
//! and with a shared object as well.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::{objects, proxy, run};
use crate::common::s3_server::Server;

pub fn nothing_left_behind(server: &Server) {
    run(
        server,
        "--no-store ior -a S3 --s3.bucket iog-fail -t 1m -b 1m -w -k -o keep",
        &[],
    )
    .ok();
    let upstream: std::net::SocketAddr = server
        .var("AWS_ENDPOINT_URL")
        .trim_start_matches("http://")
        .parse()
        .unwrap();
    for line in [
        "-N 2 -t 5m -b 15m -F",
        "-N 2 -t 5m -b 15m -F --s3.depth 4",
        "-N 3 -t 5m -b 5m -s 2",
    ] {
        // The first upload of a part 2, once.
        let fired = Arc::new(AtomicBool::new(false));
        let addr = proxy::start_faulty(upstream, move |_, request| {
            let part = request.starts_with("PUT ") && request.contains("partNumber=2&");
            (part && !fired.swap(true, Ordering::Relaxed)).then_some(500)
        });
        let r = run(
            server,
            &format!(
                "--no-store ior -a S3 --s3.bucket iog-fail --s3.endpoint http://{addr} {line} -w \
                 -o failing/f"
            ),
            &[],
        );
        assert_eq!(r.code, 1, "{line}\n{}\n{}", r.stdout, r.stderr);
        assert!(r.stderr.contains("InternalError"), "{line}: {}", r.stderr);
        let left: Vec<String> = objects(server, "iog-fail")
            .unwrap()
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(left, ["keep"], "{line}");
    }
}
