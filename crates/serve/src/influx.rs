//! `--influx URL`: the figures in line protocol every interval ([`crate::pusher`]: backlog,
//! retries, one warning, nothing fatal to the run).

use std::sync::Arc;
use std::time::Duration;

use crate::exporter::Exporter;
use crate::figures::{MarkPoint, View};
use crate::line_protocol;
use crate::pusher::{Pushing, Target, Wire};

/// Where and how often.
#[derive(Clone, Debug, PartialEq)]
pub struct InfluxConfig {
    /// The write endpoint: `http://host:8086/write?db=NAME` (1.x) or
    /// `.../api/v2/write?org=O&bucket=B` (2.x).
    pub url: String,
    pub token: Option<String>,
    pub interval: Duration,
}

struct LineProtocol;

impl Wire for LineProtocol {
    const OPTION: &'static str = "--influx";
    const CONTENT_TYPE: &'static str = "text/plain; charset=utf-8";

    fn figures(v: &View, now: Duration) -> String {
        line_protocol::render(v, now.as_nanos())
    }

    fn marks(v: &View, marks: &[MarkPoint]) -> String {
        line_protocol::marks(v, marks)
    }

    /// One request: InfluxDB takes large bodies (25 MB by default in 1.x).
    fn bodies(parts: &[&str]) -> Vec<String> {
        (!parts.is_empty())
            .then(|| parts.concat())
            .into_iter()
            .collect()
    }
}

/// The running pusher; [`Influx::finish`] makes the last push and waits for it.
pub struct Influx(Pushing);

impl Influx {
    /// Starts pushing `exporter`'s figures every `cfg.interval`.
    pub fn start(cfg: InfluxConfig, exporter: Arc<Exporter>) -> Influx {
        let target = Target {
            url: cfg.url,
            token: cfg.token,
            interval: cfg.interval,
        };
        Influx(Pushing::start::<LineProtocol>(
            "iogauge-influx",
            target,
            exporter,
        ))
    }

    /// Makes the last push and waits for it (bounded by the retries' time-outs).
    pub fn finish(&mut self) {
        self.0.finish();
    }
}
