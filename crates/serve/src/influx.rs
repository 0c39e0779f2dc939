//! `--influx URL`: a thread that pushes the figures in line protocol every interval. It reads
//! the board and the figures like a scrape does, so the ranks never wait for it. Points that
//! could not be written stay in the batch and go with the next push (a bounded backlog); the
//! first push that fails after its retries is reported once on standard error, and nothing is
//! fatal to the run.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::client;
use crate::exporter::Exporter;
use crate::line_protocol;
use crate::ticker::Ticker;

/// Where and how often.
#[derive(Clone, Debug, PartialEq)]
pub struct InfluxConfig {
    /// The write endpoint: `http://host:8086/write?db=NAME` (1.x) or
    /// `.../api/v2/write?org=O&bucket=B` (2.x).
    pub url: String,
    pub token: Option<String>,
    pub interval: Duration,
}

/// Tries of one push before it counts as failed.
const TRIES: u32 = 3;
/// Pushes kept while the server does not take them; older ones are dropped.
const BACKLOG: usize = 120;

/// The running pusher; [`Influx::finish`] makes the last push and waits for it.
pub struct Influx(Option<Ticker>);

fn now_ns() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

struct Pusher {
    cfg: InfluxConfig,
    agent: ureq::Agent,
    backlog: Vec<String>,
    reported: bool,
}

impl Pusher {
    /// Adds the figures now to the backlog and sends it all, retrying briefly.
    fn push(&mut self, exporter: &Exporter) {
        self.backlog
            .push(line_protocol::render(&exporter.view(), now_ns()));
        if self.backlog.len() > BACKLOG {
            self.backlog.remove(0);
        }
        let body = self.backlog.concat();
        let mut last = String::new();
        for attempt in 0..TRIES {
            if attempt > 0 {
                std::thread::sleep(Duration::from_millis(200 << attempt));
            }
            let token = self.cfg.token.as_deref();
            match client::post(
                &self.agent,
                &self.cfg.url,
                "text/plain; charset=utf-8",
                token,
                body.as_bytes(),
            ) {
                Ok(()) => {
                    self.backlog.clear();
                    return;
                }
                Err(e) => last = e,
            }
        }
        if !self.reported {
            self.reported = true;
            eprintln!(
                "iogauge: warning: --influx {}: a push failed after {TRIES} tries ({last}); the \
                 run goes on, its points are sent again with the next push (not reported again)",
                self.cfg.url
            );
        }
    }
}

impl Influx {
    /// Starts pushing `exporter`'s figures every `cfg.interval`.
    pub fn start(cfg: InfluxConfig, exporter: Arc<Exporter>) -> Influx {
        let interval = cfg.interval;
        let mut p = Pusher {
            agent: client::agent(Duration::from_secs(5)),
            cfg,
            backlog: Vec::new(),
            reported: false,
        };
        Influx(Ticker::start("iogauge-influx", interval, move || {
            p.push(&exporter)
        }))
    }

    /// Makes the last push and waits for it (bounded by the retries' time-outs).
    pub fn finish(&mut self) {
        if let Some(t) = &mut self.0 {
            t.finish();
        }
    }
}
