//! What the InfluxDB and the OpenTSDB push share: a thread that renders the figures every
//! interval and posts them, reading the board and the figures like a scrape does, so the ranks
//! never wait for it. Figures that could not be written stay in a bounded backlog and go with
//! the next push; marks not yet written go with every push until one succeeds. The first push
//! that fails after its retries is reported once on standard error; nothing is fatal to the
//! run.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::client;
use crate::exporter::Exporter;
use crate::figures::{MarkPoint, View};
use crate::ticker::Ticker;

/// One server's wire format.
pub(crate) trait Wire: Send + 'static {
    /// The option, for the warning (`--influx`).
    const OPTION: &'static str;
    const CONTENT_TYPE: &'static str;
    /// The figures of `v` at `now` (since the Unix epoch): one push's part of the body.
    fn figures(v: &View, now: Duration) -> String;
    /// The points of `marks`, each at its own time.
    fn marks(v: &View, marks: &[MarkPoint]) -> String;
    /// The bodies of the requests that carry the non-empty `parts`, in order; none when
    /// there is nothing to send.
    fn bodies(parts: &[&str]) -> Vec<String>;
}

/// Tries of one push before it counts as failed.
const TRIES: u32 = 3;
/// Pushes kept while the server does not take them; older ones are dropped.
const BACKLOG: usize = 120;

/// Where, how often, and with what credentials.
pub(crate) struct Target {
    pub url: String,
    pub token: Option<String>,
    pub interval: Duration,
}

struct Pusher<W> {
    target: Target,
    agent: ureq::Agent,
    backlog: Vec<String>,
    /// Marks written so far (the first ones of the view's).
    marks_sent: usize,
    reported: bool,
    wire: std::marker::PhantomData<W>,
}

impl<W: Wire> Pusher<W> {
    /// Adds the figures now to the backlog and sends it all with the unsent marks, retrying
    /// briefly.
    fn push(&mut self, exporter: &Exporter) {
        let view = exporter.view();
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        self.backlog.push(W::figures(&view, now));
        if self.backlog.len() > BACKLOG {
            self.backlog.remove(0);
        }
        let unsent = view.marks.get(self.marks_sent..).unwrap_or_default();
        let marks = W::marks(&view, unsent);
        let parts: Vec<&str> = self
            .backlog
            .iter()
            .map(String::as_str)
            .chain([marks.as_str()])
            .filter(|p| !p.is_empty())
            .collect();
        // After a failure every request goes again: a point written twice is written once.
        let sent = W::bodies(&parts).iter().try_for_each(|b| self.post(b));
        let Err(last) = sent else {
            self.backlog.clear();
            self.marks_sent = view.marks.len();
            return;
        };
        if !self.reported {
            self.reported = true;
            eprintln!(
                "iogauge: warning: {} {}: a push failed after {TRIES} tries ({last}); the run \
                 goes on, its points are sent again with the next push (not reported again)",
                W::OPTION,
                self.target.url
            );
        }
    }

    /// Posts `body`, retrying briefly; Err is the last failure.
    fn post(&self, body: &str) -> Result<(), String> {
        let t = &self.target;
        let mut last = Ok(());
        for attempt in 0..TRIES {
            if attempt > 0 {
                std::thread::sleep(Duration::from_millis(200 << attempt));
            }
            let token = t.token.as_deref();
            last = client::post(&self.agent, &t.url, W::CONTENT_TYPE, token, body.as_bytes());
            if last.is_ok() {
                break;
            }
        }
        last
    }
}

/// A running pusher; [`Pushing::finish`] makes the last push and waits for it.
pub(crate) struct Pushing(Option<Ticker>);

impl Pushing {
    /// Starts pushing `exporter`'s figures to `target` every `target.interval`.
    pub fn start<W: Wire>(name: &str, target: Target, exporter: Arc<Exporter>) -> Pushing {
        let interval = target.interval;
        let mut p = Pusher::<W> {
            agent: client::agent(Duration::from_secs(5)),
            target,
            backlog: Vec::new(),
            marks_sent: 0,
            reported: false,
            wire: std::marker::PhantomData,
        };
        Pushing(Ticker::start(name, interval, move || p.push(&exporter)))
    }

    /// Makes the last push and waits for it (bounded by the retries' time-outs).
    pub fn finish(&mut self) {
        if let Some(t) = &mut self.0 {
            t.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::RunInfo;
    use std::sync::Mutex;

    struct Plain;

    impl Wire for Plain {
        const OPTION: &'static str = "--test";
        const CONTENT_TYPE: &'static str = "text/plain";
        fn figures(_: &View, _: Duration) -> String {
            "F\n".into()
        }
        fn marks(_: &View, marks: &[MarkPoint]) -> String {
            marks.iter().map(|m| format!("M{}\n", m.index)).collect()
        }
        fn bodies(parts: &[&str]) -> Vec<String> {
            (!parts.is_empty())
                .then(|| parts.concat())
                .into_iter()
                .collect()
        }
    }

    /// A server that refuses while `refuse` is set and keeps the bodies it took.
    fn server(refuse: Arc<Mutex<bool>>, took: Arc<Mutex<Vec<String>>>) -> String {
        let s = tiny_http::Server::http("127.0.0.1:0").unwrap();
        let url = format!("http://{}/write", s.server_addr().to_ip().unwrap());
        std::thread::spawn(move || {
            for mut req in s.incoming_requests() {
                let mut body = String::new();
                let _ = req.as_reader().read_to_string(&mut body);
                let code = if *refuse.lock().unwrap() {
                    500
                } else {
                    took.lock().unwrap().push(body);
                    204
                };
                let _ = req.respond(tiny_http::Response::empty(code));
            }
        });
        url
    }

    /// A refused push keeps its figures and marks for the next; once written, a mark is not
    /// sent again.
    #[test]
    fn marks_go_until_written_once_and_figures_wait_in_the_backlog() {
        let (refuse, took) = (Arc::new(Mutex::new(true)), Arc::default());
        let url = server(Arc::clone(&refuse), Arc::clone(&took));
        let exporter = Exporter::new(RunInfo::default());
        let mut p = Pusher::<Plain> {
            target: Target {
                url,
                token: None,
                interval: Duration::from_secs(1),
            },
            agent: client::agent(Duration::from_secs(5)),
            backlog: Vec::new(),
            marks_sent: 0,
            reported: false,
            wire: std::marker::PhantomData,
        };
        exporter.figures().mark("a", 1.0, 0.5);
        p.push(&exporter);
        assert!(p.reported && took.lock().unwrap().is_empty());
        *refuse.lock().unwrap() = false;
        exporter.figures().mark("b", 2.0, 1.5);
        p.push(&exporter);
        p.push(&exporter);
        exporter.figures().mark("c", 3.0, 2.5);
        p.push(&exporter);
        let took = took.lock().unwrap();
        assert_eq!(*took, ["F\nF\nM1\nM2\n", "F\n", "F\nM3\n"]);
    }
}
