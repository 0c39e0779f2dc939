//! An S3 request that failed, in one line: the method, the bucket and key, the HTTP status and
//! S3's error code and message (or the transport's failure), and the endpoint. Never a URL:
//! presigned URLs carry the access key's signature, and no secret is in any of the parts.

use std::io;

#[derive(Debug, thiserror::Error)]
pub enum S3Error {
    /// The server answered with an error status.
    #[error("{method} {target}: HTTP {status} {code}{}{} ({endpoint})", if message.is_empty() { "" } else { ": " }, message)]
    Status {
        method: &'static str,
        target: String,
        status: u16,
        /// S3's error code (`NoSuchBucket`, `SignatureDoesNotMatch`, `SlowDown`), or the
        /// status's reason where the response has no body (HEAD).
        code: String,
        message: String,
        endpoint: String,
    },
    /// No answer: connection refused, a timeout, TLS.
    #[error("{method} {target}: {detail} ({endpoint})")]
    Transport {
        method: &'static str,
        target: String,
        detail: String,
        endpoint: String,
    },
    /// An answer iogauge cannot read (a listing or an upload's reply).
    #[error("{method} {target}: unexpected reply: {detail} ({endpoint})")]
    Reply {
        method: &'static str,
        target: String,
        detail: String,
        endpoint: String,
    },
}

impl S3Error {
    pub fn status(&self) -> Option<u16> {
        match self {
            S3Error::Status { status, .. } => Some(*status),
            _ => None,
        }
    }

    pub fn code(&self) -> Option<&str> {
        match self {
            S3Error::Status { code, .. } => Some(code),
            _ => None,
        }
    }

    /// The server asks the client to slow down (503 `SlowDown`, or 429): a retry may pass.
    pub fn is_throttled(&self) -> bool {
        matches!(self.status(), Some(503) | Some(429)) || self.code() == Some("SlowDown")
    }

    /// The errno an engine reports for it: 404 ENOENT, 403 EACCES, 507 ENOSPC, 416 EINVAL,
    /// a transport failure ECONNREFUSED or ETIMEDOUT, the rest EIO.
    pub fn errno(&self) -> i32 {
        match self {
            S3Error::Status { status, .. } => match status {
                404 => libc::ENOENT,
                403 => libc::EACCES,
                507 => libc::ENOSPC,
                416 | 400 => libc::EINVAL,
                _ => libc::EIO,
            },
            S3Error::Transport { detail, .. } if detail.contains("timed out") => libc::ETIMEDOUT,
            S3Error::Transport { .. } => libc::ECONNREFUSED,
            S3Error::Reply { .. } => libc::EIO,
        }
    }

    /// As an `io::Error` of [`errno`](Self::errno)'s kind, its message this error's line.
    pub fn into_io(self) -> io::Error {
        let kind = io::Error::from_raw_os_error(self.errno()).kind();
        io::Error::new(kind, self.to_string())
    }
}

/// S3's `<Code>` and `<Message>` from an error body (empty where absent).
pub(crate) fn code_and_message(body: &str) -> (String, String) {
    let tag = |t: &str| {
        let open = format!("<{t}>");
        let close = format!("</{t}>");
        body.find(&open)
            .and_then(|i| {
                let rest = &body[i + open.len()..];
                rest.find(&close).map(|j| rest[..j].trim().to_string())
            })
            .unwrap_or_default()
    };
    (tag("Code"), tag("Message"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_one_line_with_status_code_target_and_endpoint() {
        let (code, message) = code_and_message(
            "<?xml version=\"1.0\"?><Error><Code>NoSuchBucket</Code><Message>none</Message></Error>",
        );
        let e = S3Error::Status {
            method: "PUT",
            target: "b/k".into(),
            status: 404,
            code,
            message,
            endpoint: "http://127.0.0.1:7480".into(),
        };
        assert_eq!(
            e.to_string(),
            "PUT b/k: HTTP 404 NoSuchBucket: none (http://127.0.0.1:7480)"
        );
        assert_eq!(e.into_io().kind(), io::ErrorKind::NotFound);
        let slow = S3Error::Status {
            method: "GET",
            target: "b/k".into(),
            status: 503,
            code: "SlowDown".into(),
            message: String::new(),
            endpoint: "e".into(),
        };
        assert!(slow.is_throttled());
        assert_eq!(slow.to_string(), "GET b/k: HTTP 503 SlowDown (e)");
    }
}
