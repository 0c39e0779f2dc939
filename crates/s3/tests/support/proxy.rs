//! A fault-injecting proxy on the loopback in front of the real server: requests that
//! `throttle(n)` picks (n counts from 0) get S3's 503 `SlowDown` on a kept-alive connection;
//! the others go through to the server on a connection of their own (`Connection: close`),
//! their reply back to the client as it came. Neither RADOS Gateway nor any test server here
//! throttles by itself.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

const SLOW_DOWN: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>";

const INTERNAL: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
<Error><Code>InternalError</Code><Message>Injected by the test proxy.</Message></Error>";

/// What the proxy answers a request with instead of the server's answer: a fault's status
/// (503 `SlowDown`, retried by the client; 500 `InternalError`, not retried).
type Faults = Arc<dyn Fn(u64, &str) -> Option<u16> + Send + Sync>;

/// Starts the proxy; its address. It runs until the test process ends.
pub fn start(upstream: SocketAddr, throttle: fn(u64) -> bool) -> SocketAddr {
    start_faulty(upstream, move |n, _| throttle(n).then_some(503))
}

/// Starts a proxy that answers with `fault(n, request line)`'s status where it gives one
/// (n counts the requests from 0), else with the server's answer.
pub fn start_faulty(
    upstream: SocketAddr,
    fault: impl Fn(u64, &str) -> Option<u16> + Send + Sync + 'static,
) -> SocketAddr {
    let fault: Faults = Arc::new(fault);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let count = Arc::new(AtomicU64::new(0));
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let (count, fault) = (Arc::clone(&count), Arc::clone(&fault));
            std::thread::spawn(move || {
                let _ = serve(client, upstream, &*fault, &count);
            });
        }
    });
    addr
}

fn serve(
    client: TcpStream,
    upstream: SocketAddr,
    fault: &(dyn Fn(u64, &str) -> Option<u16> + Send + Sync),
    count: &AtomicU64,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(client.try_clone()?);
    let mut out = client;
    loop {
        let mut head = Vec::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line)? == 0 {
                return Ok(());
            }
            let end = line == "\r\n";
            if !line.to_ascii_lowercase().starts_with("connection:") {
                head.push(line);
            }
            if end {
                break;
            }
        }
        let length: usize = head
            .iter()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("content-length")
                    .then(|| v.trim().parse().ok())?
            })
            .unwrap_or(0);
        let mut body = vec![0u8; length];
        reader.read_exact(&mut body)?;
        let first = head.first().cloned().unwrap_or_default();
        if let Some(status) = fault(count.fetch_add(1, Ordering::Relaxed), &first) {
            let (reason, text) = match status {
                503 => ("Slow Down", SLOW_DOWN),
                _ => ("Internal Server Error", INTERNAL),
            };
            // A reply to HEAD has no body (its length is still said).
            let head_only = first.starts_with("HEAD ");
            write!(
                out,
                "HTTP/1.1 {status} {reason}\r\nContent-Type: application/xml\r\nContent-Length: {}\r\n\r\n{}",
                text.len(),
                if head_only { "" } else { text }
            )?;
            out.flush()?;
            continue;
        }
        let mut server = TcpStream::connect(upstream)?;
        let last = head.len() - 1;
        for (i, line) in head.iter().enumerate() {
            if i == last {
                server.write_all(b"Connection: close\r\n")?;
            }
            server.write_all(line.as_bytes())?;
        }
        server.write_all(&body)?;
        let mut reply = Vec::new();
        server.read_to_end(&mut reply)?;
        out.write_all(&reply)?;
        out.flush()?;
        // The reply says Connection: close; the client opens a new connection.
        return Ok(());
    }
}
