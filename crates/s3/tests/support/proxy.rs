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

/// Starts the proxy; its address. It runs until the test process ends.
pub fn start(upstream: SocketAddr, throttle: fn(u64) -> bool) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let count = Arc::new(AtomicU64::new(0));
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let count = Arc::clone(&count);
            std::thread::spawn(move || {
                let _ = serve(client, upstream, throttle, &count);
            });
        }
    });
    addr
}

fn serve(
    client: TcpStream,
    upstream: SocketAddr,
    throttle: fn(u64) -> bool,
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
        if throttle(count.fetch_add(1, Ordering::Relaxed)) {
            // A reply to HEAD has no body (its length is still said).
            let head_only = head.first().is_some_and(|l| l.starts_with("HEAD "));
            write!(
                out,
                "HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: {}\r\n\r\n{}",
                SLOW_DOWN.len(),
                if head_only { "" } else { SLOW_DOWN }
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
