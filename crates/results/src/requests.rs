//! An object store's requests in a phase, all ranks together: how many of each method, how
//! many the server throttled, and the GETs' times to first byte. The result document keeps
//! them in the phase's `counters` (`requests.GET`, ..., `requests.throttled`) and its
//! `latency_by_kind` (`ttfb`), so no schema change was needed; rates are counts over the
//! phase's total time.

use std::collections::BTreeMap;

use measure::LatencyHistogram;

use crate::PhaseResult;

/// The prefix of the request counters in a phase's `counters`.
pub const PREFIX: &str = "requests.";

/// The key of the throttled requests' counter.
pub const THROTTLED: &str = "requests.throttled";

/// The kind of the times to first byte in a phase's `latency_by_kind`.
pub const TTFB: &str = "ttfb";

#[derive(Debug, Clone, Default)]
pub struct RequestFigures {
    /// Requests sent per method (`GET`, `PUT`, `HEAD`, `DELETE`, `POST`, `LIST`); methods
    /// never sent are left out.
    pub counts: BTreeMap<String, u64>,
    pub throttled: u64,
    pub ttfb: LatencyHistogram,
}

impl RequestFigures {
    /// Into the phase's counters and latencies.
    pub fn apply(&self, p: &mut PhaseResult) {
        for (method, n) in &self.counts {
            p.counters.insert(format!("{PREFIX}{method}"), *n);
        }
        p.counters.insert(THROTTLED.to_string(), self.throttled);
        if !self.ttfb.is_empty() {
            p.latency_by_kind
                .insert(TTFB.to_string(), self.ttfb.summary());
        }
    }
}

/// One line of a phase's requests, or `None` when it has none: `PUT 32 (98.1/s), POST 2;
/// throttled 0; TTFB p50 1.21 ms, p99 3.40 ms`.
pub fn line(p: &PhaseResult) -> Option<String> {
    let counts: Vec<(&str, u64)> = p
        .counters
        .iter()
        .filter(|(k, _)| k.as_str() != THROTTLED)
        .filter_map(|(k, v)| k.strip_prefix(PREFIX).map(|m| (m, *v)))
        .collect();
    let throttled = *p.counters.get(THROTTLED)?;
    let secs = p.times.total_s;
    let mut parts: Vec<String> = counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(m, n)| match secs > 0.0 {
            true => format!("{m} {n} ({:.1}/s)", *n as f64 / secs),
            false => format!("{m} {n}"),
        })
        .collect();
    if parts.is_empty() {
        parts.push("none".to_string());
    }
    let mut out = format!("{}; throttled {throttled}", parts.join(", "));
    if let Some(t) = p.latency_by_kind.get(TTFB) {
        let at = |q: f64| {
            let v = t
                .percentiles
                .iter()
                .find(|x| x.p == q)
                .map_or(0, |x| x.value);
            v as f64 / 1e6
        };
        out += &format!("; TTFB p50 {:.2} ms, p99 {:.2} ms", at(50.0), at(99.0));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Operation;

    #[test]
    fn counters_and_the_line() {
        let mut ttfb = LatencyHistogram::new();
        for ns in [1_000_000, 2_000_000, 3_000_000] {
            ttfb.record(ns);
        }
        let f = RequestFigures {
            counts: [("GET".to_string(), 30), ("HEAD".to_string(), 3)].into(),
            throttled: 2,
            ttfb,
        };
        let mut p = PhaseResult::new(Operation::Read, 0);
        assert_eq!(line(&p), None, "a phase without requests has no line");
        p.times.total_s = 2.0;
        f.apply(&mut p);
        assert_eq!(p.counters["requests.GET"], 30);
        assert_eq!(p.counters["requests.throttled"], 2);
        let l = line(&p).unwrap();
        assert!(
            l.starts_with("GET 30 (15.0/s), HEAD 3 (1.5/s); throttled 2; TTFB p50 2.0"),
            "{l}"
        );
    }
}
