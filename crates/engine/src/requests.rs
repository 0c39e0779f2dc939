//! What an object engine's requests were, for a phase's figures (`Engine::take_requests`):
//! how many of each S3 method, how many the server throttled, and the times to first byte of
//! the object GETs (warp's TTFB), as histogram buckets the workload merges into its own.

/// The methods counted, in [`RequestTally::counts`]' order. `LIST` is ListObjectsV2 (a GET of
/// the bucket); `POST` starts and completes multipart uploads.
pub const METHODS: [&str; 6] = ["GET", "PUT", "HEAD", "DELETE", "POST", "LIST"];

/// An object engine's requests since the last take.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestTally {
    /// Requests sent per method, in [`METHODS`]' order; a throttled request sent again counts
    /// each time it was sent.
    pub counts: [u64; 6],
    /// Requests the server throttled (503 `SlowDown`, 429).
    pub throttled: u64,
    /// Times to first byte of the object GETs: (nanoseconds, count) buckets.
    pub ttfb: Vec<(u64, u64)>,
}

impl RequestTally {
    /// The index of `method` in [`METHODS`].
    pub fn index(method: &str) -> Option<usize> {
        METHODS.iter().position(|m| *m == method)
    }
}
