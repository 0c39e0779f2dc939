//! A blocking S3 client: each request presigned by rusty-s3 (SigV4 in the query string, the
//! payload unsigned) and sent by ureq over its pool of kept-alive connections. One client per
//! rank (or per request slot); nothing here spawns a thread or links an async runtime. How one
//! request is sent and its reply read is `transport.rs`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use engine::RequestTally;
use measure::LatencyHistogram;

use rusty_s3::actions::{CompleteMultipartUpload, CreateMultipartUpload, ListObjectsV2, S3Action};
use rusty_s3::{Bucket as Names, UrlStyle};
use ureq::tls::TlsConfig;
use ureq::Agent;

use crate::credentials::Credentials;
use crate::endpoint::{Addressing, Endpoint};
use crate::error::S3Error;

/// How long a presigned request stays valid: enough for a slow part, short for a leaked URL.
const VALID: Duration = Duration::from_secs(15 * 60);

/// A connection pool and the credentials it signs with.
pub struct Client {
    pub(crate) agent: Agent,
    pub(crate) credentials: rusty_s3::Credentials,
    pub(crate) endpoint: Endpoint,
    pub(crate) retry: Retry,
    /// Requests the server throttled (503 `SlowDown`, 429), each retried.
    pub(crate) throttled: AtomicU64,
    /// Requests sent per method (`engine::requests::METHODS`' order), since the last take.
    pub(crate) sent: [AtomicU64; 6],
    /// Times to first byte of object GETs, since the last take.
    pub(crate) ttfb: Mutex<LatencyHistogram>,
}

/// How a throttled request is tried again: after `base`, doubling up to `cap`, at most
/// `attempts` times in all (then its error stands).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retry {
    pub attempts: u32,
    pub base: Duration,
    pub cap: Duration,
}

impl Default for Retry {
    /// AWS's SDKs' standard mode, longer: the gateway asked the client to slow down.
    fn default() -> Self {
        Retry {
            attempts: 10,
            base: Duration::from_millis(20),
            cap: Duration::from_secs(2),
        }
    }
}

/// One bucket of a [`Client`].
pub struct Bucket<'c> {
    pub(crate) client: &'c Client,
    pub(crate) names: Names,
}

/// Whether [`Bucket::create`] made the bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Created {
    Made,
    Existed,
}

/// One object of a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub key: String,
    pub size: u64,
}

impl Client {
    /// `connections`: how many kept-alive connections the pool holds (the requests a rank
    /// has in flight).
    pub fn new(endpoint: Endpoint, credentials: &Credentials, connections: usize) -> Client {
        let secret = credentials.secret.expose().unwrap_or_default();
        let credentials = match &credentials.session_token {
            Some(t) => rusty_s3::Credentials::new_with_token(
                credentials.access_key.clone(),
                secret,
                t.expose().unwrap_or_default(),
            ),
            None => rusty_s3::Credentials::new(credentials.access_key.clone(), secret),
        };
        let config = Agent::config_builder()
            .http_status_as_error(false)
            .max_idle_connections(connections.max(1))
            .max_idle_connections_per_host(connections.max(1))
            .timeout_connect(Some(Duration::from_secs(10)))
            .tls_config(
                TlsConfig::builder()
                    .disable_verification(!endpoint.tls_verify)
                    .build(),
            )
            .build();
        Client {
            agent: Agent::new_with_config(config),
            credentials,
            endpoint,
            retry: Retry::default(),
            throttled: AtomicU64::new(0),
            sent: Default::default(),
            ttfb: Mutex::new(LatencyHistogram::new()),
        }
    }

    /// The requests sent since the last take (per method, throttled, the GETs' times to first
    /// byte), counting anew from here.
    pub fn take_requests(&self) -> RequestTally {
        let mut tally = RequestTally {
            throttled: self.throttled.swap(0, Ordering::Relaxed),
            ..RequestTally::default()
        };
        for (count, sent) in tally.counts.iter_mut().zip(&self.sent) {
            *count = sent.swap(0, Ordering::Relaxed);
        }
        let ttfb = std::mem::take(&mut *self.ttfb.lock().unwrap_or_else(|e| e.into_inner()));
        tally.ttfb = ttfb.buckets().map(|b| (b.value, b.count)).collect();
        tally
    }

    /// With another retry policy.
    pub fn with_retry(mut self, retry: Retry) -> Client {
        self.retry = retry;
        self
    }

    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// Requests throttled since the last [`Client::take_requests`] (each was retried, or
    /// failed after the last attempt).
    pub fn throttled(&self) -> u64 {
        self.throttled.load(Ordering::Relaxed)
    }

    /// Bucket `name`; Err for a name the addressing cannot put in a URL.
    pub fn bucket(&self, name: &str) -> Result<Bucket<'_>, String> {
        let url = self
            .endpoint
            .url
            .parse()
            .map_err(|e| format!("--s3.endpoint {}: {e}", self.endpoint.url))?;
        let style = match self.endpoint.addressing {
            Addressing::Path => UrlStyle::Path,
            Addressing::Virtual => UrlStyle::VirtualHost,
        };
        let names = Names::new(url, style, name.to_string(), self.endpoint.region.clone())
            .map_err(|e| format!("--s3.bucket {name}: {e}"))?;
        Ok(Bucket {
            client: self,
            names,
        })
    }
}

impl Bucket<'_> {
    pub fn name(&self) -> &str {
        self.names.name()
    }

    /// Makes the bucket unless it exists: `Existed` then. Asked first, because S3 (in
    /// us-east-1) and RADOS Gateway answer 200 to the creation of a bucket one already owns,
    /// and a run removes only a bucket it made.
    pub fn create(&self) -> Result<Created, S3Error> {
        if self.exists()? {
            return Ok(Created::Existed);
        }
        let url = self
            .names
            .create_bucket(&self.client.credentials)
            .sign(VALID);
        let reply = self.send("PUT", "", url.as_str(), None, None, None)?;
        match reply.status {
            200..=299 => Ok(Created::Made),
            409 => {
                let e = self.status_error("PUT", "", &reply);
                if e.code() == Some("BucketAlreadyOwnedByYou") {
                    Ok(Created::Existed)
                } else {
                    Err(e)
                }
            }
            _ => Err(self.status_error("PUT", "", &reply)),
        }
    }

    /// Whether the bucket exists (and these credentials may use it: 403 is an error).
    pub fn exists(&self) -> Result<bool, S3Error> {
        let url = self.names.head_bucket(self.creds()).sign(VALID);
        let reply = self.send("HEAD", "", url.as_str(), None, None, None)?;
        match reply.status {
            200..=299 => Ok(true),
            404 => Ok(false),
            _ => Err(self.status_error("HEAD", "", &reply)),
        }
    }

    /// Removes the bucket, which must be empty.
    pub fn delete(&self) -> Result<(), S3Error> {
        let url = self
            .names
            .delete_bucket(&self.client.credentials)
            .sign(VALID);
        self.ok("DELETE", "", url.as_str(), None).map(drop)
    }

    /// One PUT of the whole object.
    pub fn put(&self, key: &str, data: &[u8]) -> Result<(), S3Error> {
        let url = self.names.put_object(self.creds(), key).sign(VALID);
        self.ok("PUT", key, url.as_str(), Some(data)).map(drop)
    }

    /// A ranged GET of `buf.len()` bytes from `offset` into `buf`; returns the bytes the
    /// object had there (fewer at its end, 0 beyond it).
    pub fn get_range(&self, key: &str, offset: u64, buf: &mut [u8]) -> Result<usize, S3Error> {
        if buf.is_empty() {
            return Ok(0);
        }
        let url = self.names.get_object(self.creds(), key).sign(VALID);
        let range = format!("bytes={}-{}", offset, offset + buf.len() as u64 - 1);
        let reply = self.send("GET", key, url.as_str(), None, Some(&range), Some(buf))?;
        match reply.status {
            416 => Ok(0),
            _ if reply.ok() => Ok(reply.into),
            _ => Err(self.status_error("GET", key, &reply)),
        }
    }

    /// The object's size (HEAD).
    pub fn size(&self, key: &str) -> Result<u64, S3Error> {
        let url = self.names.head_object(self.creds(), key).sign(VALID);
        let reply = self.ok("HEAD", key, url.as_str(), None)?;
        reply
            .length
            .ok_or_else(|| self.reply_error("HEAD", key, "no Content-Length"))
    }

    /// Removes the object (S3 answers 204 whether or not it existed).
    pub fn remove(&self, key: &str) -> Result<(), S3Error> {
        let url = self.names.delete_object(self.creds(), key).sign(VALID);
        self.ok("DELETE", key, url.as_str(), None).map(drop)
    }

    /// One page of the objects under `prefix` (ListObjectsV2), and the token of the next.
    pub fn list(
        &self,
        prefix: &str,
        token: Option<&str>,
    ) -> Result<(Vec<Listed>, Option<String>), S3Error> {
        self.list_page(prefix, token, None)
    }

    /// [`list`](Self::list) with pages of at most `max_keys` (the server's own, 1000, without).
    pub fn list_page(
        &self,
        prefix: &str,
        token: Option<&str>,
        max_keys: Option<usize>,
    ) -> Result<(Vec<Listed>, Option<String>), S3Error> {
        let mut action = ListObjectsV2::new(&self.names, self.creds());
        action.with_prefix(prefix);
        if let Some(n) = max_keys {
            action.with_max_keys(n);
        }
        if let Some(t) = token {
            action.with_continuation_token(t);
        }
        let url = action.sign(VALID);
        let reply = self.ok("GET", prefix, url.as_str(), None)?;
        let text = String::from_utf8_lossy(&reply.body);
        let parsed =
            ListObjectsV2::parse_response(&text).map_err(|e| self.reply_error("GET", prefix, e))?;
        let objects = parsed
            .contents
            .into_iter()
            .map(|c| Listed {
                key: c.key,
                size: c.size.unwrap_or(0),
            })
            .collect();
        Ok((objects, parsed.next_continuation_token))
    }

    /// One level under `prefix` (delimiter `/`), all pages: the keys of the objects there and
    /// the prefixes below it (each ending in `/`).
    pub fn list_level(&self, prefix: &str) -> Result<(Vec<String>, Vec<String>), S3Error> {
        let (mut keys, mut dirs) = (Vec::new(), Vec::new());
        let mut token: Option<String> = None;
        loop {
            let mut action = ListObjectsV2::new(&self.names, self.creds());
            action.with_prefix(prefix);
            action.with_delimiter("/");
            if let Some(t) = &token {
                action.with_continuation_token(t.as_str());
            }
            let url = action.sign(VALID);
            let reply = self.ok("GET", prefix, url.as_str(), None)?;
            let text = String::from_utf8_lossy(&reply.body);
            let page = ListObjectsV2::parse_response(&text)
                .map_err(|e| self.reply_error("GET", prefix, e))?;
            keys.extend(page.contents.into_iter().map(|c| c.key));
            dirs.extend(page.common_prefixes.into_iter().map(|p| p.prefix));
            match page.next_continuation_token {
                Some(t) => token = Some(t),
                None => return Ok((keys, dirs)),
            }
        }
    }

    /// Every object under `prefix`, all pages.
    pub fn list_all(&self, prefix: &str) -> Result<Vec<Listed>, S3Error> {
        self.list_all_paged(prefix, None)
    }

    /// [`list_all`](Self::list_all) in pages of at most `max_keys`.
    pub fn list_all_paged(
        &self,
        prefix: &str,
        max_keys: Option<usize>,
    ) -> Result<Vec<Listed>, S3Error> {
        let mut all = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let (page, next) = self.list_page(prefix, token.as_deref(), max_keys)?;
            all.extend(page);
            match next {
                Some(t) => token = Some(t),
                None => return Ok(all),
            }
        }
    }

    /// Starts a multipart upload of `key`; its upload ID.
    pub fn start_upload(&self, key: &str) -> Result<String, S3Error> {
        let url = CreateMultipartUpload::new(&self.names, self.creds(), key).sign(VALID);
        let reply = self.ok("POST", key, url.as_str(), None)?;
        let text = String::from_utf8_lossy(&reply.body);
        CreateMultipartUpload::parse_response(&text)
            .map(|r| r.upload_id().to_string())
            .map_err(|e| self.reply_error("POST", key, e))
    }

    /// Uploads part `part` (1 to 10,000); its ETag.
    pub fn upload_part(
        &self,
        key: &str,
        upload: &str,
        part: u16,
        data: &[u8],
    ) -> Result<String, S3Error> {
        let url = self
            .names
            .upload_part(self.creds(), key, part, upload)
            .sign(VALID);
        let reply = self.ok("PUT", key, url.as_str(), Some(data))?;
        reply
            .etag
            .ok_or_else(|| self.reply_error("PUT", key, "a part without an ETag"))
    }

    /// Completes the upload from its parts' ETags in part order.
    pub fn complete_upload(
        &self,
        key: &str,
        upload: &str,
        etags: &[String],
    ) -> Result<(), S3Error> {
        let action = CompleteMultipartUpload::new(
            &self.names,
            self.creds(),
            key,
            upload,
            etags.iter().map(String::as_str),
        );
        let url = action.sign(VALID);
        let body = action.body();
        self.ok("POST", key, url.as_str(), Some(body.as_bytes()))
            .map(drop)
    }

    /// Abandons the upload and the parts sent.
    pub fn abort_upload(&self, key: &str, upload: &str) -> Result<(), S3Error> {
        let url = self
            .names
            .abort_multipart_upload(self.creds(), key, upload)
            .sign(VALID);
        self.ok("DELETE", key, url.as_str(), None).map(drop)
    }
}
