//! How one request goes and comes back: the presigned URL sent with ureq (counted per method,
//! a GET's time to first byte recorded), the reply read (a ranged GET's body into the caller's
//! buffer, to its end so the connection goes back to the pool), a throttled request sent again
//! after a pause, and a failure turned into one line (`S3Error`) without the URL.

use std::io::Read;
use std::sync::atomic::Ordering;

use engine::RequestTally;

use crate::client::Bucket;
use crate::error::{code_and_message, S3Error};

/// A response: its status, its body (read whole unless it went into the caller's buffer), and
/// the headers the requests need.
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) body: Vec<u8>,
    /// Bytes read into the caller's buffer (a ranged GET).
    pub(crate) into: usize,
    pub(crate) etag: Option<String>,
    pub(crate) length: Option<u64>,
}

impl Reply {
    pub(crate) fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

impl Bucket<'_> {
    pub(crate) fn target(&self, key: &str) -> String {
        if key.is_empty() {
            self.name().to_string()
        } else {
            format!("{}/{key}", self.name())
        }
    }

    pub(crate) fn failed(&self, method: &'static str, key: &str, e: ureq::Error) -> S3Error {
        let detail = match e {
            ureq::Error::Io(io) => engine::errno::describe(&io),
            ureq::Error::Timeout(_) => "timed out".to_string(),
            ureq::Error::ConnectionFailed => "connection failed".to_string(),
            ureq::Error::HostNotFound => "host not found".to_string(),
            other => other.to_string(),
        };
        S3Error::Transport {
            method,
            target: self.target(key),
            detail,
            endpoint: self.client.endpoint.url.clone(),
        }
    }

    pub(crate) fn status_error(&self, method: &'static str, key: &str, reply: &Reply) -> S3Error {
        let (mut code, message) = code_and_message(&String::from_utf8_lossy(&reply.body));
        if code.is_empty() {
            code = reason(reply.status).to_string();
        }
        S3Error::Status {
            method,
            target: self.target(key),
            status: reply.status,
            code,
            message,
            endpoint: self.client.endpoint.url.clone(),
        }
    }

    pub(crate) fn reply_error(
        &self,
        method: &'static str,
        key: &str,
        detail: impl ToString,
    ) -> S3Error {
        S3Error::Reply {
            method,
            target: self.target(key),
            detail: detail.to_string(),
            endpoint: self.client.endpoint.url.clone(),
        }
    }

    /// One try of `method` on `url`: the reply whatever its status. A 2xx body goes into
    /// `into` when given (a ranged GET), else into the reply.
    pub(crate) fn attempt(
        &self,
        method: &'static str,
        url: &str,
        body: Option<&[u8]>,
        range: Option<&str>,
        into: Option<&mut [u8]>,
    ) -> Result<Reply, ureq::Error> {
        let agent = &self.client.agent;
        // A GET without a range lists the bucket (ListObjectsV2): every object GET is ranged.
        let label = match (method, range) {
            ("GET", None) => "LIST",
            _ => method,
        };
        if let Some(i) = RequestTally::index(label) {
            self.client.sent[i].fetch_add(1, Ordering::Relaxed);
        }
        let asked = measure::now_ns();
        let mut resp = match (method, body) {
            ("PUT", Some(b)) => agent.put(url).send(b),
            ("PUT", None) => agent.put(url).send_empty(),
            ("POST", Some(b)) => agent.post(url).send(b),
            ("POST", None) => agent.post(url).send_empty(),
            ("DELETE", _) => agent.delete(url).call(),
            ("HEAD", _) => agent.head(url).call(),
            _ => match range {
                Some(r) => agent.get(url).header("Range", r).call(),
                None => agent.get(url).call(),
            },
        }?;
        if label == "GET" {
            // The headers are in: the first byte of the answer came.
            let ttfb = measure::now_ns().saturating_sub(asked);
            self.client
                .ttfb
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .record(ttfb);
        }
        let status = resp.status().as_u16();
        let header = |name: &str| {
            resp.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let etag = header("etag");
        let length = header("content-length").and_then(|v| v.parse().ok());
        let mut reply = Reply {
            status,
            body: Vec::new(),
            into: 0,
            etag,
            length,
        };
        match into {
            Some(buf) if reply.ok() => {
                let mut reader = resp.body_mut().with_config().limit(u64::MAX).reader();
                while reply.into < buf.len() {
                    let n = reader.read(&mut buf[reply.into..])?;
                    if n == 0 {
                        break;
                    }
                    reply.into += n;
                }
                // To the body's end (nothing more, for a range that fits): only a body read to
                // its end gives the connection back to the pool, and a new connection per GET
                // cost the gateway a fifth of its small-GET rate (benches/s3_vs_raw.sh).
                std::io::copy(&mut reader, &mut std::io::sink())?;
            }
            _ if method == "HEAD" => {}
            _ => {
                reply.body = resp
                    .body_mut()
                    .with_config()
                    .limit(u64::MAX)
                    .read_to_vec()?
            }
        }
        Ok(reply)
    }

    /// Sends `url` with `method`, again after a pause while the server throttles (counted);
    /// the reply whatever its status.
    pub(crate) fn send(
        &self,
        method: &'static str,
        key: &str,
        url: &str,
        body: Option<&[u8]>,
        range: Option<&str>,
        mut into: Option<&mut [u8]>,
    ) -> Result<Reply, S3Error> {
        let retry = self.client.retry;
        let mut pause = retry.base;
        let mut tries = 0;
        loop {
            tries += 1;
            let reply = self
                .attempt(method, url, body, range, into.as_deref_mut())
                .map_err(|e| self.failed(method, key, e))?;
            let throttled = matches!(reply.status, 503 | 429);
            if !throttled {
                return Ok(reply);
            }
            self.client.throttled.fetch_add(1, Ordering::Relaxed);
            if tries >= retry.attempts.max(1) {
                return Ok(reply);
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(retry.cap);
        }
    }

    /// Sends and requires a 2xx status.
    pub(crate) fn ok(
        &self,
        method: &'static str,
        key: &str,
        url: &str,
        body: Option<&[u8]>,
    ) -> Result<Reply, S3Error> {
        let reply = self.send(method, key, url, body, None, None)?;
        if reply.ok() {
            Ok(reply)
        } else {
            Err(self.status_error(method, key, &reply))
        }
    }

    pub(crate) fn creds(&self) -> Option<&rusty_s3::Credentials> {
        Some(&self.client.credentials)
    }
}

/// The reason of a status, for replies without a body (HEAD).
pub(crate) fn reason(status: u16) -> &'static str {
    match status {
        400 => "BadRequest",
        403 => "Forbidden",
        404 => "NotFound",
        409 => "Conflict",
        416 => "InvalidRange",
        500 => "InternalError",
        503 => "ServiceUnavailable",
        _ => "Error",
    }
}
