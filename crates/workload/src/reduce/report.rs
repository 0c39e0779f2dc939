//! The one report every rank sends rank 0 after a phase, whatever the workload: what it
//! measured (clock readings or seconds, counts), its data checks, its latency histograms and
//! interval series, and short texts. Each workload puts its own figures in, in an order of
//! its own, and takes them out on rank 0 with the checked accessors below (data from another
//! rank is never indexed blindly).

use measure::{IntervalSeries, LatencyHistogram};
use results::ior::{ErrorAt, VerifyOutcome};

use super::error::WireError;

/// One rank's report of one phase.
#[derive(Debug, Clone, Default)]
pub struct RankFigures {
    /// Readings of the process clock (`measure::now_ns`), sent as read: rank 0 converts them
    /// (`measure::secs`), as mdtest, md-workbench, mix and find always have.
    pub stamps_ns: Vec<u64>,
    /// Figures the rank already turned into seconds (IOR's six timestamps, a start-up reader's
    /// start and end), sent bit for bit.
    pub seconds: Vec<f64>,
    /// The workload's counts, in its own order.
    pub counts: Vec<u64>,
    pub verify: Verify,
    /// One histogram per operation kind, in the workload's order of kinds.
    pub latency: Vec<LatencyHistogram>,
    pub series: Option<IntervalSeries>,
    /// Short texts for rank 0's report (mix's notes, the directories find could not read).
    pub notes: Vec<String>,
}

/// A rank's data checks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verify {
    pub errors: u64,
    pub checked: u64,
    pub first_error: Option<FirstError>,
}

/// Where a rank's first bad data was (the rank is the report's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstError {
    pub file: String,
    pub offset: u64,
}

impl Verify {
    /// What a rank's checks found, for its report.
    pub fn of(v: VerifyOutcome) -> Verify {
        Verify {
            errors: v.errors,
            checked: v.checked,
            first_error: v.first_error.map(|e| FirstError {
                file: e.file,
                offset: e.offset,
            }),
        }
    }

    /// Adds rank `rank`'s checks to `total`: the counts summed, and the first error of the
    /// lowest rank that has one (reports are added in rank order).
    pub fn add_to(self, rank: usize, total: &mut VerifyOutcome) {
        total.errors += self.errors;
        total.checked += self.checked;
        if let (Some(e), None) = (self.first_error, &total.first_error) {
            total.first_error = Some(ErrorAt {
                rank: rank as u64,
                file: e.file,
                offset: e.offset,
            });
        }
    }
}

/// Exactly `N` values, or the report is not what the workload sends.
fn exactly<T: Copy + Default, const N: usize>(what: &str, v: &[T]) -> Result<[T; N], WireError> {
    let mut out = [T::default(); N];
    if v.len() != N {
        return Err(WireError::Shape(format!(
            "{} {what}, expected {N}",
            v.len()
        )));
    }
    out.copy_from_slice(v);
    Ok(out)
}

impl RankFigures {
    /// The `N` counts the workload sends.
    pub fn counts_n<const N: usize>(&self) -> Result<[u64; N], WireError> {
        exactly("counts", &self.counts)
    }

    /// The `N` clock readings the workload sends.
    pub fn stamps_n<const N: usize>(&self) -> Result<[u64; N], WireError> {
        exactly("clock readings", &self.stamps_ns)
    }

    /// The `N` figures in seconds the workload sends.
    pub fn seconds_n<const N: usize>(&self) -> Result<[f64; N], WireError> {
        exactly("figures in seconds", &self.seconds)
    }

    /// The interval series, which the workload always sends.
    pub fn series(&self) -> Result<&IntervalSeries, WireError> {
        self.series
            .as_ref()
            .ok_or_else(|| WireError::Shape("no interval series".into()))
    }

    /// Merges this report's histograms into `into`, kind by kind.
    pub fn merge_latency(&self, into: &mut [LatencyHistogram]) -> Result<(), WireError> {
        if self.latency.len() != into.len() {
            return Err(WireError::Shape(format!(
                "{} latency histograms, expected {}",
                self.latency.len(),
                into.len()
            )));
        }
        for (total, h) in into.iter_mut().zip(&self.latency) {
            total.merge(h);
        }
        Ok(())
    }
}
