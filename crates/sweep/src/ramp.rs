//! The knee of a load ramp, as the `mix` workload records it in its result: the offered load
//! past which latency climbs while throughput stops following. This is the seam the sweep's
//! advice takes it through: whoever reads a stored `mix` result builds a [`RampKnee`] from it
//! and adds [`knee_finding`] to the findings.

use serde::Serialize;

use crate::advice::{Finding, Kind};

/// A knee as measured: where it is on the ramp and what was measured there.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RampKnee {
    /// The stored run that measured it.
    pub run: i64,
    /// What the ramp raises: `offered load`, `clients`.
    pub load_name: String,
    pub load: f64,
    pub load_unit: String,
    /// The throughput at the knee.
    pub rate: f64,
    pub rate_unit: String,
    /// A latency percentile at the knee and below it, in nanoseconds, when the ramp records
    /// them: (name such as `p99`, at the knee, at the step below).
    pub latency_ns: Option<(String, f64, f64)>,
}

/// The knee as a finding with its numbers.
pub fn knee_finding(k: &RampKnee) -> Finding {
    let load = format!("{} {}", report::fmt::number(k.load), k.load_unit)
        .trim()
        .to_string();
    let mut text = format!(
        "run {}: the load ramp's knee is at {} = {load}, at {}",
        k.run,
        k.load_name,
        report::fmt::figure(k.rate, &k.rate_unit)
    );
    if let Some((name, at, below)) = &k.latency_ns {
        text.push_str(&format!(
            "; {name} latency {} there against {} one step below",
            report::fmt::duration_ns(*at),
            report::fmt::duration_ns(*below)
        ));
    }
    Finding {
        parameter: k.load_name.clone(),
        figure: k.rate_unit.clone(),
        context: Vec::new(),
        kind: Kind::Knee,
        value: load,
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn says_where_and_what() {
        let f = knee_finding(&RampKnee {
            run: 7,
            load_name: "offered load".into(),
            load: 4000.0,
            load_unit: "ops/s".into(),
            rate: 3900.0,
            rate_unit: "ops/s".into(),
            latency_ns: Some(("p99".into(), 8.0e6, 1.5e6)),
        });
        assert_eq!(f.kind, Kind::Knee);
        assert_eq!(
            f.text,
            "run 7: the load ramp's knee is at offered load = 4000 ops/s, at 3900 ops/s; \
             p99 latency 8.00 ms there against 1.50 ms one step below"
        );
    }
}
