//! Marks from outside the run: a control socket per run (`<dir>/<pid>.sock`, [`dir`]) that
//! rank 0's process serves while the run goes on ([`server`]), and `iogauge mark`, its
//! client ([`client`]). docs/marks.md; the facts behind it in docs/system-groundwork.md §5.

pub mod client;
pub mod dir;
pub mod proto;
pub mod server;

use std::os::unix::net::UnixStream;

use results::Mark;
use workload::session::Session;

use server::{Handler, Server};

/// Runs `f`, the run of `session`, with the control socket open on the reporting process:
/// marks land in `session`'s hub. When the socket cannot be opened the run goes on without
/// marks, and one line on stderr says why. The socket goes when `f` returns or panics.
pub fn during<R>(session: &Session, f: impl FnOnce() -> R) -> R {
    if !crate::world::is_root() {
        return f();
    }
    let opened = Server::open().and_then(|s| {
        let wake = UnixStream::pair().map_err(|e| format!("socketpair: {e}"))?;
        Ok((s, wake))
    });
    let (server, (wake_tx, wake_rx)) = match opened {
        Ok(o) => o,
        Err(reason) => {
            eprintln!("iogauge: marks are off for this run: {reason}");
            return f();
        }
    };
    let handler = SessionMarks::new(session);
    let (server, handler) = (&server, &handler);
    std::thread::scope(|scope| {
        scope.spawn(move || server.serve(&wake_rx, handler));
        let r = f();
        // Closing our end wakes the server, also when `f` unwinds (dropped with the scope).
        drop(wake_tx);
        r
    })
}

/// The session's hub as the server's [`Handler`].
struct SessionMarks<'a> {
    session: &'a Session,
    run_id: String,
    workload: &'static str,
}

impl<'a> SessionMarks<'a> {
    fn new(session: &'a Session) -> Self {
        let hub = session.hub();
        let doc = hub.doc();
        SessionMarks {
            session,
            run_id: doc.run_id.clone(),
            workload: doc.parameters.workload(),
        }
    }
}

impl Handler for SessionMarks<'_> {
    fn who(&self) -> (String, String) {
        (self.run_id.clone(), self.workload.to_string())
    }

    fn mark(&self, text: &str) -> Result<Mark, String> {
        let mut hub = self.session.hub();
        // After the run's end event the document is stored: a mark now would be lost.
        if !hub.doc().finished.is_empty() {
            return Err("the run has ended".into());
        }
        Ok(hub.mark(text))
    }
}
