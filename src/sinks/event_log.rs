//! `--events PATH`: every event of the run as one JSON line, in the order the sinks hear them
//! (a log for debugging, and the proof in the tests that every workload reports the same
//! events in the same order). Written and flushed line by line, so it survives a crash.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use results::sink::{Event, Io500Text, Notice, Sink};
use serde_json::{json, Value};

pub struct EventLog {
    path: PathBuf,
    out: Option<BufWriter<File>>,
}

impl EventLog {
    pub fn new(path: &Path) -> EventLog {
        EventLog {
            path: path.to_path_buf(),
            out: None,
        }
    }
}

fn notice(n: &Notice<'_>) -> Value {
    match n {
        Notice::Warning(w) => json!({"notice": "warning", "text": w}),
        Notice::Alert(a) => json!({"notice": "alert", "id": a.id, "text": a.message}),
        Notice::Workload(n) => {
            let mut v = json!({"notice": n.kind()});
            if let (Some(m), Value::Object(fields)) = (v.as_object_mut(), n.fields()) {
                m.extend(fields);
            }
            v
        }
        Notice::Io500(t) => match t {
            Io500Text::Result(_) => json!({"notice": "io500-result"}),
            Io500Text::Summary(_) => json!({"notice": "io500-summary"}),
            Io500Text::Invalid { context, .. } => {
                json!({"notice": "io500-invalid", "context": context})
            }
            Io500Text::Warning(_) => json!({"notice": "io500-warning"}),
        },
        Notice::Mark(m) => json!({"notice": "mark", "text": m.text, "time": m.time,
            "elapsed_s": m.elapsed_s}),
    }
}

fn line(e: &Event<'_>) -> Value {
    let body = match e {
        Event::RunStart(doc) => json!({"workload": doc.workload(), "run_id": doc.run_id}),
        Event::PhaseStart(p) => json!({
            "operation": p.operation, "iteration": p.iteration,
            "io500_phase": p.io500_phase, "ranks": p.ranks
        }),
        Event::Interval(s) => json!({
            "elapsed_s": s.elapsed_s, "ops": s.ops, "bytes": s.bytes,
            "ranks_running": s.ranks_running, "ranks_done": s.ranks_done
        }),
        Event::PhaseEnd(p) => json!({
            "operation": p.result.operation, "iteration": p.result.iteration,
            "io500_phase": p.result.io500_phase, "ops": p.result.ops, "bytes": p.result.bytes,
            "phases_in_document": p.run.phases.len()
        }),
        Event::Notice(n) => notice(n),
        Event::RunEnd(r) => json!({
            "exit_code": r.run.exit_code, "phases": r.run.phases.len(), "failure": r.failure
        }),
    };
    let mut v = json!({"event": e.kind()});
    if let (Some(m), Value::Object(b)) = (v.as_object_mut(), body) {
        m.extend(b);
    }
    v
}

impl Sink for EventLog {
    fn event(&mut self, e: &Event<'_>) {
        if self.out.is_none() {
            match File::create(&self.path) {
                Ok(f) => self.out = Some(BufWriter::new(f)),
                Err(err) => {
                    eprintln!("iogauge: warning: --events {}: {err}", self.path.display());
                    return;
                }
            }
        }
        if let Some(out) = &mut self.out {
            let _ = writeln!(out, "{}", line(e)).and_then(|_| out.flush());
        }
    }
}
