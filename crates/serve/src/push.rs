//! MPI ranks outside rank 0's process: a sink that pushes this process's live readings to rank
//! 0's endpoint (`POST /push`) every interval from a thread of its own, and once more when the
//! run ends. Rank 0 serves every rank's figures from one endpoint (docs/monitoring.md, "Under
//! MPI").

use std::sync::Arc;
use std::time::Duration;

use measure::LiveBoard;
use results::sink::{Event, Sink};

use crate::client;
use crate::figures::Reading;
use crate::ticker::Ticker;

/// Where this process's readings go.
#[derive(Clone, Debug, PartialEq)]
pub struct PushTarget {
    /// `http://host:port/push` of rank 0's endpoint.
    pub url: String,
    /// The rank of this process's first slot.
    pub first_rank: u64,
    pub interval: Duration,
}

impl PushTarget {
    /// The push interval for a job of `ranks`: 1 s, longer past 1000 ranks, so rank 0 takes
    /// at most about a thousand pushes a second.
    pub fn interval_for(ranks: usize) -> Duration {
        Duration::from_millis(1000 * (ranks as u64).div_ceil(1000).max(1))
    }
}

/// The sink on the processes that do not report.
pub struct PushSink {
    target: PushTarget,
    ticker: Option<Ticker>,
}

impl PushSink {
    pub fn new(target: PushTarget) -> PushSink {
        PushSink {
            target,
            ticker: None,
        }
    }
}

fn push(agent: &ureq::Agent, target: &PushTarget, board: &LiveBoard) -> Result<(), String> {
    let readings = Reading::from_board(board, target.first_rank);
    let body = serde_json::to_vec(&readings).map_err(|e| e.to_string())?;
    client::post(agent, &target.url, "application/json", None, &body)
}

impl Sink for PushSink {
    fn event(&mut self, e: &Event<'_>) {
        if let (Event::RunEnd(_), Some(t)) = (e, &mut self.ticker) {
            t.finish();
        }
    }

    fn attach(&mut self, board: &Arc<LiveBoard>) {
        if self.ticker.is_some() {
            return;
        }
        let (target, board) = (self.target.clone(), Arc::clone(board));
        let agent = client::agent(Duration::from_secs(5));
        let mut reported = false;
        self.ticker = Ticker::start("iogauge-push", target.interval, move || {
            if let Err(e) = push(&agent, &target, &board) {
                if !reported {
                    reported = true;
                    eprintln!(
                        "iogauge: warning: rank {}: cannot push live figures to {}: {e} \
                         (not reported again)",
                        target.first_rank, target.url
                    );
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_grow_past_a_thousand_ranks() {
        assert_eq!(PushTarget::interval_for(4), Duration::from_secs(1));
        assert_eq!(PushTarget::interval_for(1000), Duration::from_secs(1));
        assert_eq!(PushTarget::interval_for(1001), Duration::from_secs(2));
        assert_eq!(PushTarget::interval_for(10_000), Duration::from_secs(10));
    }
}
