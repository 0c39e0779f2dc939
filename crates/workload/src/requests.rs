//! An object engine's requests per phase (`Engine::take_requests`): what each rank sends to
//! rank 0 (seven counts and its times to first byte) and what rank 0 makes of them all
//! (`results::requests::RequestFigures`). Taken before a phase's first request and after its
//! last, outside the timed window.

use engine::requests::METHODS;
use engine::RequestTally;
use measure::LatencyHistogram;
use results::requests::RequestFigures;

/// The counts a rank sends: one per method in `METHODS`' order, then the throttled ones
/// (zeros for an engine that sends no requests).
pub const COUNTS: usize = 7;

pub fn counts(t: Option<&RequestTally>) -> [u64; COUNTS] {
    let mut out = [0; COUNTS];
    if let Some(t) = t {
        out[..6].copy_from_slice(&t.counts);
        out[6] = t.throttled;
    }
    out
}

/// The times to first byte a rank sends (empty for an engine without requests).
pub fn ttfb(t: Option<&RequestTally>) -> LatencyHistogram {
    let mut h = LatencyHistogram::new();
    for &(ns, n) in t.map_or(&[][..], |t| &t.ttfb[..]) {
        h.record_n(ns, n);
    }
    h
}

/// Rank 0's figures from every rank's counts summed and times merged.
pub fn figures(counts: &[u64; COUNTS], ttfb: LatencyHistogram) -> RequestFigures {
    RequestFigures {
        counts: METHODS
            .iter()
            .zip(counts)
            .filter(|(_, n)| **n > 0)
            .map(|(m, n)| (m.to_string(), *n))
            .collect(),
        throttled: counts[6],
        ttfb,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rank_tally_travels_and_sums() {
        let t = RequestTally {
            counts: [3, 2, 1, 0, 0, 0],
            throttled: 1,
            ttfb: vec![(1_000_000, 3)],
        };
        let c = counts(Some(&t));
        assert_eq!(c, [3, 2, 1, 0, 0, 0, 1]);
        assert_eq!(counts(None), [0; COUNTS]);
        let h = ttfb(Some(&t));
        assert_eq!(h.count(), 3);
        let f = figures(&c, h);
        assert_eq!(f.counts.len(), 3, "methods never sent are left out");
        assert_eq!((f.counts["GET"], f.throttled), (3, 1));
    }
}
