//! Page-cache facts of a phase, measured outside its timed window: how much of the data a
//! read phase was about to read was already in the readers' page cache, and what
//! `--drop-caches` did before it (`docs/warnings.md`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What the page cache held when a phase started.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct PageCache {
    pub status: CacheStatus,
    /// `resident_bytes / checked_bytes`, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resident_fraction: Option<f64>,
    /// Bytes (whole pages) found resident, over all ranks' nodes.
    pub resident_bytes: u64,
    /// Bytes (whole pages) checked: all the data to be read, or a sample of it.
    pub checked_bytes: u64,
    /// Bytes the phase was to read.
    pub data_bytes: u64,
    /// Whether `checked_bytes` is a sample of `data_bytes`.
    pub sampled: bool,
    /// Why it was not measured, or what limits the figure (data in memory on tmpfs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// What `--drop-caches` did before the phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drop: Option<CacheDrop>,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CacheStatus {
    /// `resident_fraction` holds the share found resident.
    Measured,
    /// The engine reads around the page cache (O_DIRECT) or moves no data.
    NotApplicable,
    /// A phase whose cache is not file data (metadata phases): only a drop is recorded.
    NotMeasured,
    /// The check failed on some rank (`note` says why).
    Failed,
}

/// A drop of the page cache before the phase (`--drop-caches`).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct CacheDrop {
    pub method: DropMethod,
    /// The resident share just before the drop, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resident_fraction_before: Option<f64>,
    /// What the drop could not do (a failed write to drop_caches, tmpfs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DropMethod {
    /// `sync`, then `3` into `/proc/sys/vm/drop_caches` on every node (root).
    System,
    /// Per file read: `fsync`, then `posix_fadvise(POSIX_FADV_DONTNEED)`.
    Files,
    /// Nothing could be dropped for this phase.
    None,
}

impl DropMethod {
    pub fn label(self) -> &'static str {
        match self {
            DropMethod::System => "system",
            DropMethod::Files => "files",
            DropMethod::None => "none",
        }
    }
}

impl PageCache {
    /// A phase whose engine does not use the page cache.
    pub fn not_applicable(data_bytes: u64) -> PageCache {
        PageCache {
            status: CacheStatus::NotApplicable,
            resident_fraction: None,
            resident_bytes: 0,
            checked_bytes: 0,
            data_bytes,
            sampled: false,
            note: Some("the engine does not use the page cache".to_string()),
            drop: None,
        }
    }

    /// Whether the engine used the page cache (anything but [`CacheStatus::NotApplicable`]).
    pub fn applies(&self) -> bool {
        self.status != CacheStatus::NotApplicable
    }
}
