//! What is wrong with bytes a rank sent: refused with a message, never a panic.

/// Why bytes received from a rank are not a report this build reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    #[error("not a rank report (it does not start with \"igrr\")")]
    Foreign,
    /// Another build's report.
    #[error("rank report version {got} (this build reads version {reads})")]
    Version { got: u8, reads: u8 },
    #[error("truncated rank report: it ends in its {0}")]
    Truncated(&'static str),
    #[error("{0} byte(s) after the end of the rank report")]
    Trailing(usize),
    #[error("rank report: bad {what}: {why}")]
    Invalid { what: &'static str, why: String },
    /// A well-formed report without the parts its workload sends.
    #[error("rank report: {0}")]
    Shape(String),
    #[error("rank {rank}: {error}")]
    Rank { rank: usize, error: Box<WireError> },
}
