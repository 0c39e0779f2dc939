//! The raw loop `benches/s3_vs_raw.sh` sets iogauge's S3 rates against: THREADS threads, each
//! sending COUNT requests one at a time, every request presigned as iogauge's client signs it
//! (rusty-s3: SigV4 in the query string, the payload unsigned, valid 15 minutes) and sent by
//! ureq 3 over kept-alive connections. Nothing else: no clock read per request, no histogram,
//! no retry, no allocation of its own per request beyond what signing and ureq do.
//!
//! ```text
//! s3_raw_loop MODE SIZE THREADS COUNT BUCKET PREFIX [AGENTS]
//!   MODE     put | get | delete (the objects PREFIX/T.I, thread T, I below COUNT),
//!            mkbucket | rmbucket (BUCKET itself; SIZE, THREADS, COUNT unused)
//!   SIZE     bytes per object (put: the body; get: the bytes read, a ranged GET of them
//!            from 0 into a buffer allocated once per thread, as iogauge's GET, read on to
//!            the body's end so that the connection goes back to the pool)
//!   AGENTS   per-thread (default: one ureq Agent per thread with one kept-alive connection,
//!            as iogauge's mdtest ranks each have their own client) | shared (one Agent with
//!            a pool of THREADS connections, as ior's --s3.depth THREADS)
//! ```
//!
//! The endpoint, keys and region come from AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID,
//! AWS_SECRET_ACCESS_KEY and AWS_REGION (default us-east-1); path-style addressing. The time
//! is taken once before the threads leave a barrier and once after the last one has finished;
//! the result is one line on standard output:
//!
//! ```text
//! raw put size=4096 threads=8 requests=800 seconds=0.951 req_s=841.2 mib_s=3.29
//! ```
//!
//! Any failed request ends the program with status 1 and a line naming the method, key and
//! status (never the presigned URL). Built by `cargo build --release -p s3 --example
//! s3_raw_loop`.

use std::io::{self, Read};
use std::process::exit;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use rusty_s3::{Bucket, Credentials, S3Action, UrlStyle};
use ureq::Agent;

/// As iogauge's client: a presigned URL stays valid this long.
const VALID: Duration = Duration::from_secs(15 * 60);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Put,
    Get,
    Delete,
    MkBucket,
    RmBucket,
}

fn die(message: &str) -> ! {
    eprintln!("s3_raw_loop: {message}");
    exit(1)
}

fn usage() -> ! {
    eprintln!(
        "usage: s3_raw_loop put|get|delete|mkbucket|rmbucket SIZE THREADS COUNT BUCKET PREFIX \
         [per-thread|shared]"
    );
    exit(2)
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| die(&format!("{name} is not set")))
}

/// An agent as iogauge's client makes one: statuses are answers, not errors; `connections`
/// kept-alive connections.
fn agent(connections: usize) -> Agent {
    let config = Agent::config_builder()
        .http_status_as_error(false)
        .max_idle_connections(connections)
        .max_idle_connections_per_host(connections)
        .timeout_connect(Some(Duration::from_secs(10)))
        .build();
    Agent::new_with_config(config)
}

/// Reads a reply's body to its end without keeping it.
fn drain(resp: &mut ureq::http::Response<ureq::Body>) -> io::Result<()> {
    let mut reader = resp.body_mut().with_config().limit(u64::MAX).reader();
    io::copy(&mut reader, &mut io::sink()).map(drop)
}

fn check(method: &str, key: &str, resp: &mut ureq::http::Response<ureq::Body>) {
    let status = resp.status().as_u16();
    if !(200..300).contains(&status) {
        let mut text = Vec::new();
        let _ = resp
            .body_mut()
            .with_config()
            .limit(1 << 20)
            .reader()
            .read_to_end(&mut text);
        die(&format!(
            "{method} {key}: status {status}: {}",
            String::from_utf8_lossy(&text).trim()
        ));
    }
}

/// What every thread shares.
struct Job {
    mode: Mode,
    bucket: Bucket,
    creds: Credentials,
    prefix: String,
    count: usize,
    size: usize,
}

/// One thread's requests: `count` of `mode` on `prefix/thread.i`.
fn run(job: &Job, agent: &Agent, thread: usize) {
    let Job {
        mode,
        ref bucket,
        ref creds,
        ref prefix,
        count,
        size,
    } = *job;
    // The body (put) or the buffer (get), allocated and touched once.
    let mut buf = vec![0x5au8; size];
    let range = format!("bytes=0-{}", size.max(1) - 1);
    for i in 0..count {
        let key = format!("{prefix}/{thread}.{i}");
        let failed = |e: ureq::Error| -> ! { die(&format!("{} {key}: {e}", name(mode))) };
        match mode {
            Mode::Put => {
                let url = bucket.put_object(Some(creds), &key).sign(VALID);
                let mut resp = agent
                    .put(url.as_str())
                    .send(&buf[..])
                    .unwrap_or_else(|e| failed(e));
                check("PUT", &key, &mut resp);
                drain(&mut resp).unwrap_or_else(|e| die(&format!("PUT {key}: {e}")));
            }
            Mode::Get => {
                let url = bucket.get_object(Some(creds), &key).sign(VALID);
                let mut resp = agent
                    .get(url.as_str())
                    .header("Range", &range)
                    .call()
                    .unwrap_or_else(|e| failed(e));
                check("GET", &key, &mut resp);
                let mut reader = resp.body_mut().with_config().limit(u64::MAX).reader();
                let mut got = 0;
                while got < buf.len() {
                    match reader.read(&mut buf[got..]) {
                        Ok(0) => break,
                        Ok(n) => got += n,
                        Err(e) => die(&format!("GET {key}: {e}")),
                    }
                }
                // Read on to the body's end: only a body read to its end gives the
                // connection back to the agent's pool (else every GET connects anew).
                let mut extra = [0u8; 1];
                match reader.read(&mut extra) {
                    Ok(0) if got == size => {}
                    Ok(_) => die(&format!("GET {key}: more than {size} bytes")),
                    Err(e) => die(&format!("GET {key}: {e}")),
                }
                if got != size {
                    die(&format!("GET {key}: {got} bytes, expected {size}"));
                }
            }
            Mode::Delete => {
                let url = bucket.delete_object(Some(creds), &key).sign(VALID);
                let mut resp = agent
                    .delete(url.as_str())
                    .call()
                    .unwrap_or_else(|e| failed(e));
                check("DELETE", &key, &mut resp);
                drain(&mut resp).unwrap_or_else(|e| die(&format!("DELETE {key}: {e}")));
            }
            Mode::MkBucket | Mode::RmBucket => unreachable!(),
        }
    }
}

fn name(mode: Mode) -> &'static str {
    match mode {
        Mode::Put => "put",
        Mode::Get => "get",
        Mode::Delete => "delete",
        Mode::MkBucket => "mkbucket",
        Mode::RmBucket => "rmbucket",
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 6 && args.len() != 7 {
        usage();
    }
    let mode = match args[0].as_str() {
        "put" => Mode::Put,
        "get" => Mode::Get,
        "delete" => Mode::Delete,
        "mkbucket" => Mode::MkBucket,
        "rmbucket" => Mode::RmBucket,
        _ => usage(),
    };
    let number = |i: usize| -> usize {
        args[i]
            .parse()
            .unwrap_or_else(|_| die(&format!("{:?} is not a number", args[i])))
    };
    let (size, threads, count) = (number(1), number(2).max(1), number(3));
    let (bucket_name, prefix) = (args[4].clone(), args[5].trim_end_matches('/').to_string());
    let shared = match args.get(6).map(String::as_str) {
        None | Some("per-thread") => false,
        Some("shared") => true,
        Some(_) => usage(),
    };

    let endpoint = env("AWS_ENDPOINT_URL");
    let region = std::env::var("AWS_REGION").unwrap_or_else(|_| "us-east-1".to_string());
    let creds = Credentials::new(env("AWS_ACCESS_KEY_ID"), env("AWS_SECRET_ACCESS_KEY"));
    let url = endpoint
        .parse()
        .unwrap_or_else(|e| die(&format!("AWS_ENDPOINT_URL {endpoint}: {e}")));
    let bucket = Bucket::new(url, UrlStyle::Path, bucket_name.clone(), region)
        .unwrap_or_else(|e| die(&format!("bucket {bucket_name}: {e}")));

    if mode == Mode::MkBucket || mode == Mode::RmBucket {
        let a = agent(1);
        let (method, url) = if mode == Mode::MkBucket {
            ("PUT", bucket.create_bucket(&creds).sign(VALID))
        } else {
            ("DELETE", bucket.delete_bucket(&creds).sign(VALID))
        };
        let mut resp = if mode == Mode::MkBucket {
            a.put(url.as_str()).send_empty()
        } else {
            a.delete(url.as_str()).call()
        }
        .unwrap_or_else(|e| die(&format!("{method} {bucket_name}: {e}")));
        let status = resp.status().as_u16();
        // RADOS Gateway (as S3 in us-east-1) answers 200 to creating a bucket one owns; 409
        // BucketAlreadyOwnedByYou elsewhere.
        if mode == Mode::MkBucket && status == 409 {
            let _ = drain(&mut resp);
            return;
        }
        check(method, &bucket_name, &mut resp);
        return;
    }

    let shared_agent = shared.then(|| agent(threads));
    let job = Arc::new(Job {
        mode,
        bucket,
        creds,
        prefix,
        count,
        size,
    });
    let barrier = Arc::new(Barrier::new(threads + 1));
    let workers: Vec<_> = (0..threads)
        .map(|t| {
            let (job, barrier) = (job.clone(), barrier.clone());
            let a = shared_agent.clone().unwrap_or_else(|| agent(1));
            std::thread::spawn(move || {
                barrier.wait();
                run(&job, &a, t);
            })
        })
        .collect();
    barrier.wait();
    let start = Instant::now();
    for w in workers {
        if w.join().is_err() {
            die("a thread panicked");
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let requests = threads * count;
    let bytes = if mode == Mode::Delete {
        0
    } else {
        requests * size
    };
    println!(
        "raw {} size={size} threads={threads} requests={requests} seconds={seconds:.6} \
         req_s={:.1} mib_s={:.2}",
        name(mode),
        requests as f64 / seconds,
        bytes as f64 / seconds / f64::from(1 << 20),
    );
}
