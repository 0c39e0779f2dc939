//! The run's end of the control socket: a listener on `<dir>/<pid>.sock`, served by a thread
//! of its own that answers one request per connection. It never touches the I/O path: a mark
//! takes the hub's lock, which rank 0 and the sampler hold only between phases and once a
//! second.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

use results::Mark;

use super::dir;
use super::proto::{self, Reply, Request, MAX_LINE};

/// A client gets this long to send its line and read the reply: a silent one cannot hold
/// the server (connections are served one at a time).
const CLIENT_TIMEOUT: Duration = Duration::from_secs(2);

/// What the server asks of the run.
pub trait Handler: Sync {
    /// The run's id and workload.
    fn who(&self) -> (String, String);
    /// Stores the mark; Err when the run can take none (it has ended).
    fn mark(&self, text: &str) -> Result<Mark, String>;
}

/// The bound socket; its file goes when this goes (also when the run fails or panics).
pub struct Server {
    listener: UnixListener,
    path: PathBuf,
}

impl Server {
    /// Binds `<dir>/<pid>.sock` in [`dir::base`], made and checked first; a socket left there
    /// by an earlier process with this pid (none listens) is removed.
    pub fn open() -> Result<Server, String> {
        let dir = dir::base();
        dir::ensure(&dir)?;
        let path = dir::socket_path(&dir, std::process::id())?;
        clear_stale(&path)?;
        let listener = UnixListener::bind(&path)
            .map_err(|e| format!("cannot bind {}: {e}", path.display()))?;
        let server = Server { listener, path };
        server
            .listener
            .set_nonblocking(true)
            .map_err(|e| format!("{}: {e}", server.path.display()))?;
        Ok(server)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Answers connections until `wake` is readable or closed (the run's end).
    pub fn serve(&self, wake: &UnixStream, handler: &dyn Handler) {
        let mut fds = [
            libc::pollfd {
                fd: self.listener.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: wake.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        loop {
            // SAFETY: `fds` holds two valid pollfd entries whose descriptors outlive the call.
            let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
            if n < 0 {
                if std::io::Error::last_os_error().kind() == ErrorKind::Interrupted {
                    continue;
                }
                eprintln!(
                    "iogauge: marks are off from here: poll: {}",
                    std::io::Error::last_os_error()
                );
                return;
            }
            if fds[1].revents != 0 {
                return;
            }
            if fds[0].revents != 0 {
                self.accept_all(handler);
            }
        }
    }

    fn accept_all(&self, handler: &dyn Handler) {
        loop {
            match self.listener.accept() {
                Ok((stream, _)) => answer(stream, handler),
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                // WouldBlock: none left. Anything else (EMFILE, ...) is the client's loss.
                Err(_) => return,
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A socket at `path` that nobody listens on (connect refused) is removed; a live one means
/// another process with our pid (another pid namespace sharing the directory).
fn clear_stale(path: &Path) -> Result<(), String> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(());
    };
    let p = path.display();
    if !meta.file_type().is_socket() {
        return Err(format!("{p} exists and is not a socket"));
    }
    match UnixStream::connect(path) {
        Ok(_) => Err(format!("another process listens on {p}")),
        Err(e) if e.kind() == ErrorKind::ConnectionRefused => {
            std::fs::remove_file(path).map_err(|e| format!("cannot remove stale {p}: {e}"))
        }
        Err(e) => Err(format!("{p}: {e}")),
    }
}

/// The uid of the process at the other end (`SO_PEERCRED`).
pub fn peer_uid(stream: &UnixStream) -> std::io::Result<u32> {
    // SAFETY: ucred is plain integers; all zero is a valid value.
    let mut cred: libc::ucred = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: `cred` and `len` are valid for writes of the sizes given.
    let rc = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    };
    if rc != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(cred.uid)
}

/// One connection: check the peer, read its line, act, reply, close. A client that
/// connected only to see that the run is alive sends nothing and gets nothing.
fn answer(stream: UnixStream, handler: &dyn Handler) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(CLIENT_TIMEOUT));
    let _ = stream.set_write_timeout(Some(CLIENT_TIMEOUT));
    let reply = match peer_uid(&stream) {
        Ok(uid) if uid == dir::euid() || uid == 0 => match read_line(&stream) {
            Ok(Some(line)) => respond(&line, handler),
            Ok(None) => return,
            Err(e) => Reply::error(e),
        },
        Ok(uid) => Reply::error(format!(
            "refused: uid {uid} may not mark a run of uid {}",
            dir::euid()
        )),
        Err(e) => Reply::error(format!("refused: cannot tell who connected: {e}")),
    };
    let mut line = serde_json::to_string(&reply).unwrap_or_else(|_| r#"{"ok":false}"#.into());
    line.push('\n');
    let _ = (&stream).write_all(line.as_bytes());
}

/// The request line, without its newline; None when the client sent nothing.
fn read_line(stream: &UnixStream) -> Result<Option<String>, String> {
    let mut line = String::new();
    let mut reader = BufReader::new(stream.take(MAX_LINE + 1));
    match reader.read_line(&mut line) {
        Ok(0) => Ok(None),
        Ok(n) if n as u64 > MAX_LINE => Err(format!("the request is over {MAX_LINE} bytes")),
        Ok(_) => Ok(Some(line.trim_end_matches(['\n', '\r']).to_string())),
        Err(e) => Err(format!("cannot read the request: {e}")),
    }
}

/// The reply to one request line.
pub fn respond(line: &str, handler: &dyn Handler) -> Reply {
    let request: Request = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => {
            return Reply::error(format!(
                "not a request ({e}); send {{\"mark\":\"TEXT\"}} or {{\"who\":true}}"
            ))
        }
    };
    let (run_id, workload) = handler.who();
    match (request.mark, request.who) {
        (Some(text), false) => match proto::check_text(&text).and_then(|()| handler.mark(&text)) {
            Ok(m) => Reply::who(&run_id, &workload).with_mark(&m),
            Err(e) => Reply::error(e),
        },
        (None, true) => Reply::who(&run_id, &workload),
        _ => Reply::error("send one of {\"mark\":\"TEXT\"} and {\"who\":true}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    struct Fake(Mutex<Vec<String>>);

    impl Handler for Fake {
        fn who(&self) -> (String, String) {
            ("ior-20260101T000000Z-7".into(), "ior".into())
        }
        fn mark(&self, text: &str) -> Result<Mark, String> {
            self.0.lock().unwrap().push(text.to_string());
            Ok(Mark {
                text: text.to_string(),
                time: "2026-01-01T00:00:01Z".into(),
                elapsed_s: 1.5,
                phase: Some(0),
                phase_t_s: Some(0.5),
            })
        }
    }

    #[test]
    fn marks_who_and_refusals() {
        let h = Fake(Mutex::new(Vec::new()));
        let r = respond(r#"{"mark":"pulled"}"#, &h);
        assert!(
            r.ok && r.phase == Some(0) && r.elapsed_s == Some(1.5),
            "{r:?}"
        );
        assert_eq!(r.run_id.as_deref(), Some("ior-20260101T000000Z-7"));
        let w = respond(r#"{"who":true}"#, &h);
        assert_eq!(w.workload.as_deref(), Some("ior"));
        assert_eq!(w.pid, Some(std::process::id()));
        assert!(respond(r#"{"mark":"a\nb"}"#, &h)
            .error
            .unwrap()
            .contains("control character"));
        assert!(respond("mark x", &h)
            .error
            .unwrap()
            .contains("not a request"));
        assert!(!respond(r#"{"mark":"x","who":true}"#, &h).ok);
        assert!(!respond("{}", &h).ok);
        assert_eq!(*h.0.lock().unwrap(), ["pulled"]);
    }

    #[test]
    fn a_stale_socket_goes_a_live_one_stays() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("1.sock");
        drop(UnixListener::bind(&path).unwrap());
        clear_stale(&path).unwrap();
        assert!(!path.exists());
        let live = UnixListener::bind(&path).unwrap();
        assert!(clear_stale(&path).unwrap_err().contains("listens"));
        drop(live);
        std::fs::write(t.path().join("2.sock"), "").unwrap();
        assert!(clear_stale(&t.path().join("2.sock"))
            .unwrap_err()
            .contains("not a socket"));
    }

    #[test]
    fn the_peer_is_this_user() {
        let (a, _b) = UnixStream::pair().unwrap();
        assert_eq!(peer_uid(&a).unwrap(), dir::euid());
    }
}
