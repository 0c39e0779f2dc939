//! MPI ranks outside rank 0's process: a sink that pushes this process's live readings to rank
//! 0's endpoint (`POST /push`) every interval from a thread of its own, and once more when the
//! run ends. Rank 0 serves every rank's figures from one endpoint (docs/monitoring.md, "Under
//! MPI").

use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use measure::LiveBoard;
use results::sink::{Event, Sink};

use crate::client;
use crate::figures::Reading;

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
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl PushSink {
    pub fn new(target: PushTarget) -> PushSink {
        PushSink {
            target,
            stop: Arc::new((Mutex::new(false), Condvar::new())),
            thread: None,
        }
    }

    fn finish(&mut self) {
        *self.stop.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.stop.1.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
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
        if let Event::RunEnd(_) = e {
            self.finish();
        }
    }

    fn attach(&mut self, board: &Arc<LiveBoard>) {
        if self.thread.is_some() {
            return;
        }
        let (target, board, stop) = (
            self.target.clone(),
            Arc::clone(board),
            Arc::clone(&self.stop),
        );
        let spawned = std::thread::Builder::new()
            .name("iogauge-push".into())
            .spawn(move || {
                let agent = client::agent(Duration::from_secs(5));
                let mut reported = false;
                let mut stopped = stop.0.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    stopped = stop
                        .1
                        .wait_timeout(stopped, target.interval)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                    let last = *stopped;
                    drop(stopped);
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
                    if last {
                        return;
                    }
                    stopped = stop.0.lock().unwrap_or_else(|e| e.into_inner());
                }
            });
        self.thread = spawned.ok();
    }
}

impl Drop for PushSink {
    fn drop(&mut self) {
        self.finish();
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
