//! `--opentsdb URL`: the figures of the InfluxDB push as OpenTSDB data points, posted as JSON
//! arrays to `URL/api/put` every interval (the crate's pusher: backlog, retries, one warning,
//! nothing fatal to the run). OpenTSDB keeps one value per metric and tag set, so
//! each InfluxDB field is a metric of its own (`iogauge.bytes_total`); a mark's text cannot be
//! a tag value as it is (no spaces), so a mark is the metric `iogauge.mark`, value 1, with its
//! text sanitized into the tag `mark` (docs/monitoring.md).

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::buckets::BOUNDS_NS;
use crate::exporter::Exporter;
use crate::exposition::label_name;
use crate::figures::{MarkPoint, PhaseKey, View};
use crate::pusher::{Pushing, Target, Wire};

/// Where and how often.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenTsdbConfig {
    /// The server as given: `http://host:4242` (`/api/put` is added unless it is there).
    pub url: String,
    pub interval: Duration,
}

impl OpenTsdbConfig {
    /// The URL posted to: the path of `url` ending in `/api/put`, its query kept.
    pub fn put_url(&self) -> String {
        let (base, query) = match self.url.split_once('?') {
            Some((b, q)) => (b, Some(q)),
            None => (self.url.as_str(), None),
        };
        let base = base.trim_end_matches('/');
        let mut url = if base.ends_with("/api/put") {
            base.to_string()
        } else {
            format!("{base}/api/put")
        };
        if let Some(q) = query {
            url = format!("{url}?{q}");
        }
        url
    }
}

/// A metric name or tag value as OpenTSDB takes it: ASCII letters and digits, `-_./` and
/// Unicode letters stay, anything else (a space, a quote) becomes `_`; never empty.
pub fn sanitize(s: &str) -> String {
    let out: String = s
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() {
        "_".to_string()
    } else {
        out
    }
}

/// Bytes of one request's body at most: OpenTSDB's HTTP decoder (Netty's, 8192-byte chunks)
/// treats a larger body as a chunked request, which a default OpenTSDB refuses ("Chunked
/// request not supported", OpenTSDB issue 539).
const MAX_BODY: usize = 8000;

/// The data points of one push: JSON objects, one per line (JSON text holds no raw line
/// break), so that [`bodies`] can pack them into requests.
struct Points<'a> {
    run: &'a Map<String, Value>,
    out: String,
}

impl Points<'_> {
    /// One point; a value that is not finite is left out (JSON has no NaN).
    fn add(&mut self, metric: &str, time_s: u64, value: Value, tags: &[(&str, &str)]) {
        if value.is_null() {
            return;
        }
        let mut t = self.run.clone();
        for (k, v) in tags {
            t.insert(k.to_string(), Value::from(sanitize(v)));
        }
        let point = serde_json::json!({
            "metric": metric,
            "timestamp": time_s,
            "value": value,
            "tags": t,
        });
        self.out.push_str(&point.to_string());
        self.out.push('\n');
    }
}

fn float(f: f64) -> Value {
    serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
}

/// The tags every point of the run has: `host`, `workload`, `run_id` and the non-empty
/// `label_<key>`s (OpenTSDB takes no empty tag value).
fn run_tags(v: &View) -> Map<String, Value> {
    let i = &v.info;
    let mut t = Map::new();
    let labels = i.labels.iter().map(|(k, v)| (label_name(k), v.as_str()));
    let all = [
        ("host".to_string(), i.host.as_str()),
        ("workload".to_string(), i.workload.as_str()),
        ("run_id".to_string(), i.run_id.as_str()),
    ];
    for (k, val) in all.into_iter().chain(labels) {
        if !val.is_empty() {
            t.insert(k, Value::from(sanitize(val)));
        }
    }
    t
}

fn phase_tags(k: &PhaseKey) -> [(&str, &str); 2] {
    [
        ("phase", k.phase.as_str()),
        ("operation", k.operation.as_str()),
    ]
}

/// The figures of `v` as data points stamped `time_s` (Unix seconds: InfluxDB's listener
/// drops the milliseconds of a 13-digit stamp); nothing before the run has started.
pub fn render(v: &View, time_s: u64) -> String {
    let run = run_tags(v);
    let mut p = Points {
        run: &run,
        out: String::new(),
    };
    if v.info.run_id.is_empty() {
        return p.out;
    }
    let ts = time_s;
    for (k, t) in &v.phases {
        let pt = phase_tags(k);
        p.add("iogauge.bytes_total", ts, t.bytes.into(), &pt);
        p.add("iogauge.operations_total", ts, t.ops.into(), &pt);
        p.add("iogauge.errors_total", ts, t.errors.into(), &pt);
        if t.samples > 0 {
            p.add("iogauge.samples_total", ts, t.samples.into(), &pt);
            let busy = float(t.busy_ns as f64 / 1e9);
            p.add("iogauge.accelerator_busy_seconds_total", ts, busy, &pt);
        }
        let h = &t.latency;
        let m = "iogauge.operation_latency_seconds";
        p.add(&format!("{m}.count"), ts, h.count().into(), &pt);
        p.add(&format!("{m}.sum"), ts, float(h.sum_s), &pt);
        let mut cumulative = 0u64;
        for (i, c) in h.counts.iter().enumerate() {
            cumulative = cumulative.saturating_add(*c);
            // `+Inf` is no tag value: `Inf`.
            let le = BOUNDS_NS
                .get(i)
                .map_or("Inf".to_string(), |ns| (*ns as f64 / 1e9).to_string());
            let tags = [pt[0], pt[1], ("le", le.as_str())];
            p.add(&format!("{m}.bucket"), ts, cumulative.into(), &tags);
        }
    }
    for (k, s) in &v.starts {
        let pt = phase_tags(k);
        p.add("iogauge.phase_start_time_seconds", ts, float(*s), &pt);
    }
    if let Some(c) = &v.current {
        let it = c.iteration.to_string();
        let tags = [
            ("phase", c.key.phase.as_str()),
            ("operation", c.key.operation.as_str()),
            ("iteration", it.as_str()),
        ];
        p.add("iogauge.current_phase", ts, 1.into(), &tags);
        if let Some(au) = v.accelerator_utilization {
            let pt = phase_tags(&c.key);
            p.add("iogauge.accelerator_utilization", ts, float(au), &pt);
        }
    }
    for (node, counts) in &v.ranks {
        let node = node.to_string();
        for (state, n) in ["idle", "running", "done"].iter().zip(counts) {
            let tags = [("node", node.as_str()), ("state", *state)];
            p.add("iogauge.ranks", ts, (*n).into(), &tags);
        }
    }
    p.add("iogauge.in_flight", ts, v.in_flight.into(), &[]);
    let finished = u64::from(v.finished).into();
    let version = [("version", v.info.version.as_str())];
    p.add("iogauge.run_finished", ts, finished, &version);
    p.out
}

/// One point per mark at its own second: `iogauge.mark`, value 1, tags `index` (1 first) and
/// `mark` (the text, sanitized).
pub fn marks(v: &View, marks: &[MarkPoint]) -> String {
    let run = run_tags(v);
    let mut p = Points {
        run: &run,
        out: String::new(),
    };
    for m in marks {
        let index = m.index.to_string();
        let tags = [("index", index.as_str()), ("mark", m.text.as_str())];
        p.add("iogauge.mark", m.time_s.max(0.0) as u64, 1.into(), &tags);
    }
    p.out
}

/// The points of `parts` (one per line) as JSON arrays of at most [`MAX_BODY`] bytes each (a
/// single larger point alone).
pub fn bodies(parts: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut body = String::new();
    for point in parts.iter().flat_map(|p| p.lines()) {
        if !body.is_empty() && body.len() + point.len() + 2 > MAX_BODY {
            body.push(']');
            out.push(std::mem::take(&mut body));
        }
        body.push(if body.is_empty() { '[' } else { ',' });
        body.push_str(point);
    }
    if !body.is_empty() {
        body.push(']');
        out.push(body);
    }
    out
}

struct Json;

impl Wire for Json {
    const OPTION: &'static str = "--opentsdb";
    const CONTENT_TYPE: &'static str = "application/json";

    fn figures(v: &View, now: Duration) -> String {
        render(v, now.as_secs())
    }

    fn marks(v: &View, m: &[MarkPoint]) -> String {
        marks(v, m)
    }

    fn bodies(parts: &[&str]) -> Vec<String> {
        bodies(parts)
    }
}

/// The running pusher; [`OpenTsdb::finish`] makes the last push and waits for it.
pub struct OpenTsdb(Pushing);

impl OpenTsdb {
    /// Starts pushing `exporter`'s figures every `cfg.interval`.
    pub fn start(cfg: OpenTsdbConfig, exporter: Arc<Exporter>) -> OpenTsdb {
        let target = Target {
            url: cfg.put_url(),
            token: None,
            interval: cfg.interval,
        };
        OpenTsdb(Pushing::start::<Json>("iogauge-opentsdb", target, exporter))
    }

    /// Makes the last push and waits for it (bounded by the retries' time-outs).
    pub fn finish(&mut self) {
        self.0.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::{RunInfo, Totals};

    fn view() -> View {
        View {
            info: RunInfo {
                workload: "ior".into(),
                host: "node 1".into(),
                version: "0.1.0".into(),
                run_id: "20261127T120000Z-ior".into(),
                labels: vec![("site".into(), "lab a".into()), ("empty".into(), "".into())],
            },
            ..View::default()
        }
    }

    fn points(text: &str) -> Vec<Value> {
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    fn find<'a>(ps: &'a [Value], metric: &str, tag: (&str, &str)) -> &'a Value {
        ps.iter()
            .find(|p| p["metric"] == metric && p["tags"][tag.0] == tag.1)
            .unwrap_or_else(|| panic!("{metric} {tag:?} in {ps:?}"))
    }

    #[test]
    fn points_with_run_tags_in_seconds() {
        let mut v = view();
        let key = PhaseKey {
            phase: "write".into(),
            operation: "write".into(),
        };
        let t = Totals {
            ops: 2,
            bytes: 8,
            ..Totals::default()
        };
        v.phases.insert(key, t);
        v.ranks.insert(0, [0, 1, 3]);
        let ps = points(&render(&v, 1_795_809_300));
        let bytes = find(&ps, "iogauge.bytes_total", ("phase", "write"));
        assert_eq!(bytes["value"], 8);
        assert_eq!(bytes["timestamp"], 1_795_809_300u64);
        let tags = bytes["tags"].as_object().unwrap();
        assert_eq!(tags["host"], "node_1");
        assert_eq!(tags["label_site"], "lab_a");
        assert_eq!(tags["run_id"], "20261127T120000Z-ior");
        assert!(!tags.contains_key("label_empty"));
        let inf = find(
            &ps,
            "iogauge.operation_latency_seconds.bucket",
            ("le", "Inf"),
        );
        assert_eq!(inf["value"], 0);
        find(
            &ps,
            "iogauge.operation_latency_seconds.bucket",
            ("le", "0.000001"),
        );
        assert_eq!(find(&ps, "iogauge.ranks", ("state", "done"))["value"], 3);
        assert_eq!(
            find(&ps, "iogauge.run_finished", ("version", "0.1.0"))["value"],
            0
        );
        // Every name and tag value within OpenTSDB's characters, every point tagged.
        for p in &ps {
            assert_eq!(sanitize(p["metric"].as_str().unwrap()), p["metric"]);
            let tags = p["tags"].as_object().unwrap();
            assert!(tags.len() >= 3);
            assert!(tags.values().all(|t| sanitize(t.as_str().unwrap()) == *t));
        }
        // Nothing before the run has started (no tags to give).
        assert_eq!(render(&View::default(), 1), "");
    }

    #[test]
    fn marks_as_metric_with_sanitized_text() {
        let v = view();
        let m = MarkPoint {
            index: 2,
            text: "disk 3 \"pulled\", rebuild läuft".into(),
            time_s: 1_795_809_300.75,
            elapsed_s: 12.5,
        };
        let ps = points(&marks(&v, &[m]));
        assert_eq!(ps.len(), 1);
        assert_eq!(ps[0]["metric"], "iogauge.mark");
        assert_eq!(ps[0]["value"], 1);
        assert_eq!(ps[0]["timestamp"], 1_795_809_300u64);
        assert_eq!(ps[0]["tags"]["mark"], "disk_3__pulled___rebuild_läuft");
        assert_eq!(ps[0]["tags"]["index"], "2");
        assert_eq!(ps[0]["tags"]["workload"], "ior");
    }

    /// Requests of at most MAX_BODY bytes, every point in one of them, in order.
    #[test]
    fn pushes_split_into_small_requests() {
        let mut v = view();
        for p in ["write", "read", "stat"] {
            let key = PhaseKey {
                phase: p.into(),
                operation: p.into(),
            };
            v.phases.insert(key, Totals::default());
        }
        let a = render(&v, 1);
        let b = render(&v, 2);
        let all = points(&a).len() + points(&b).len();
        let sent = bodies(&[&a, &b]);
        assert!(sent.len() > 2, "{}", sent.len());
        let mut got = Vec::new();
        for body in &sent {
            assert!(body.len() <= MAX_BODY, "{}", body.len());
            got.extend(serde_json::from_str::<Vec<Value>>(body).unwrap());
        }
        assert_eq!(got.len(), all);
        assert_eq!(got[0]["timestamp"], 1);
        assert_eq!(got[all - 1]["timestamp"], 2);
        assert!(bodies(&[]).is_empty());
    }

    #[test]
    fn sanitized_names_and_put_urls() {
        assert_eq!(sanitize("a-z_A.Z/0 9+x"), "a-z_A.Z/0_9_x");
        assert_eq!(sanitize(""), "_");
        let put = |url: &str| {
            let c = OpenTsdbConfig {
                url: url.into(),
                interval: Duration::from_secs(1),
            };
            c.put_url()
        };
        assert_eq!(put("http://h:4242"), "http://h:4242/api/put");
        assert_eq!(put("http://h:4242/"), "http://h:4242/api/put");
        assert_eq!(put("http://h/tsdb/api/put"), "http://h/tsdb/api/put");
        assert_eq!(
            put("http://h:4242?details"),
            "http://h:4242/api/put?details"
        );
    }
}
