//! The figures of a run and the HTTP endpoint that serves them: `GET /metrics` (the Prometheus
//! text) and `POST /push` (the readings of MPI ranks in other processes). The endpoint's
//! threads read the live board themselves, so a scrape costs the ranks nothing but the cache
//! lines of the counters it loads.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use measure::LiveBoard;

use crate::exposition;
use crate::figures::{Figures, Reading, RunInfo, View};

/// The figures, the board of this process, shared by the sink, the endpoint and the pusher.
#[derive(Debug, Default)]
pub struct Exporter {
    figures: Mutex<Figures>,
    board: Mutex<Option<Arc<LiveBoard>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Exporter {
    pub fn new(info: RunInfo) -> Arc<Exporter> {
        Arc::new(Exporter {
            figures: Mutex::new(Figures::new(info)),
            board: Mutex::new(None),
        })
    }

    pub fn figures(&self) -> MutexGuard<'_, Figures> {
        lock(&self.figures)
    }

    pub fn set_board(&self, board: &Arc<LiveBoard>) {
        *lock(&self.board) = Some(Arc::clone(board));
    }

    /// This process's ranks now (slot i is rank i: the reporting process holds rank 0).
    pub fn local(&self) -> Vec<Reading> {
        let board = lock(&self.board).clone();
        board.map_or_else(Vec::new, |b| Reading::from_board(&b, 0))
    }

    /// The figures now; the board is read before the figures' lock is taken.
    pub fn view(&self) -> View {
        let local = self.local();
        self.figures().view(&local)
    }
}

/// The bound endpoint: bound before the run (a port in use is bad input), served by threads
/// of its own from [`Endpoint::serve`] on.
pub struct Endpoint {
    server: Arc<tiny_http::Server>,
    addr: SocketAddr,
}

impl Endpoint {
    /// Binds `addr` (port 0: one the system chooses).
    pub fn bind(addr: SocketAddr) -> Result<Endpoint, String> {
        let server = tiny_http::Server::http(addr).map_err(|e| e.to_string())?;
        let addr = server.server_addr().to_ip().ok_or("not an IP address")?;
        Ok(Endpoint {
            server: Arc::new(server),
            addr,
        })
    }

    /// The address bound (with the port the system chose for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Answers requests from `exporter` on two threads until the process ends.
    pub fn serve(self, exporter: Arc<Exporter>) {
        for _ in 0..2 {
            let (server, exporter) = (Arc::clone(&self.server), Arc::clone(&exporter));
            std::thread::Builder::new()
                .name("iogauge-metrics".into())
                .spawn(move || {
                    for req in server.incoming_requests() {
                        answer(req, &exporter);
                    }
                })
                .expect("a thread for the metrics endpoint");
        }
    }
}

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn answer(mut req: tiny_http::Request, exporter: &Exporter) {
    use tiny_http::{Method, Response};
    let path = req.url().split('?').next().unwrap_or("").to_string();
    let response = match (req.method(), path.as_str()) {
        (Method::Get, "/metrics") => {
            let text = exposition::render(&exporter.view());
            Response::from_string(text)
                .with_header(header("Content-Type", exposition::CONTENT_TYPE))
        }
        (Method::Post, "/push") => {
            let mut body = Vec::new();
            let parsed = std::io::Read::read_to_end(req.as_reader(), &mut body)
                .map_err(|e| e.to_string())
                .and_then(|_| {
                    serde_json::from_slice::<Vec<Reading>>(&body).map_err(|e| e.to_string())
                });
            match parsed {
                Ok(readings) => {
                    let mut f = exporter.figures();
                    for r in readings {
                        f.push(r);
                    }
                    Response::from_string("").with_status_code(204)
                }
                Err(e) => Response::from_string(format!("bad push: {e}\n")).with_status_code(400),
            }
        }
        (Method::Get, "/") => Response::from_string("iogauge: metrics at /metrics\n"),
        _ => Response::from_string("not found\n").with_status_code(404),
    };
    // A scraper that went away is its own problem.
    let _ = req.respond(response);
}
