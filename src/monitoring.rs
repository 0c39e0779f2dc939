//! Live metrics of a run (docs/monitoring.md): the options `--metrics ADDR:PORT`,
//! `--metrics-linger SECONDS`, `--influx URL`, `--influx-interval SECONDS`,
//! `--influx-token-file PATH`, `--opentsdb URL` and `--opentsdb-interval SECONDS` checked
//! before any I/O (bad input: exit 2), the endpoint bound
//! before the run (a port in use is bad input too), the sink each process gets, and the linger
//! after the run. The figures, formats and servers are the `serve` crate's.
//!
//! Under MPI rank 0 serves every rank: the other processes push their readings to its endpoint
//! (`serve::push`); rank 0 tells them where after the checks (one broadcast).

use std::net::{IpAddr, Ipv4Addr, SocketAddr, ToSocketAddrs};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use results::Sink;
use serve::{
    Endpoint, Exporter, Influx, InfluxConfig, MetricsSink, OpenTsdb, OpenTsdbConfig, PushSink,
    PushTarget, RunInfo,
};

use crate::global_opts::MonitoringOpts;

const DEFAULT_LINGER: Duration = Duration::from_secs(30);
const DEFAULT_INTERVAL: Duration = Duration::from_secs(1);

/// The checked options.
#[derive(Debug, Default)]
struct Config {
    metrics: Option<(String, SocketAddr)>,
    linger: Duration,
    influx: Option<InfluxConfig>,
    opentsdb: Option<OpenTsdbConfig>,
    labels: Vec<(String, String)>,
}

/// What runs on the reporting process once prepared.
struct Active {
    exporter: Arc<Exporter>,
    /// The endpoint's address, as bound.
    addr: Option<SocketAddr>,
    influx: Option<Influx>,
    opentsdb: Option<OpenTsdb>,
}

#[derive(Default)]
pub struct Monitoring {
    cfg: Option<Config>,
    active: Mutex<Option<Active>>,
}

impl std::fmt::Debug for Monitoring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Monitoring")
            .field("cfg", &self.cfg)
            .finish_non_exhaustive()
    }
}

/// The job as `world` sees it, handed in (this module does not reach into `world`).
pub struct Job<'a> {
    /// This process's MPI rank (0 with thread ranks).
    pub rank: usize,
    /// Every MPI rank's host, by rank; empty with thread ranks.
    pub hosts: Vec<String>,
    /// Rank 0's bytes on every rank (a collective under MPI).
    pub broadcast: &'a dyn Fn(&[u8]) -> Vec<u8>,
}

/// Where this process pushes its readings (MPI ranks outside rank 0's process).
static PUSH: OnceLock<PushTarget> = OnceLock::new();

/// Rank 0's endpoint address, once bound: what it tells the other ranks.
static PUBLISHED: OnceLock<String> = OnceLock::new();

/// Seconds as `5`, `0.5` or `5s`.
fn seconds(option: &str, text: &str, zero_ok: bool) -> Result<Duration, String> {
    let n = text.strip_suffix('s').unwrap_or(text);
    match n.parse::<f64>() {
        Ok(s) if s.is_finite() && (s > 0.0 || (zero_ok && s == 0.0)) && s < 1e9 => {
            Ok(Duration::from_secs_f64(s))
        }
        _ => Err(format!(
            "{option} {text}: expected a number of seconds{}",
            if zero_ok { " (0 or more)" } else { " above 0" }
        )),
    }
}

/// `ADDR:PORT`, `:PORT` (every interface) or `HOST:PORT`.
fn address(text: &str) -> Result<SocketAddr, String> {
    let full = match text.strip_prefix(':') {
        Some(port) => format!("0.0.0.0:{port}"),
        None => text.to_string(),
    };
    let bad = |why: String| {
        format!("--metrics {text}: {why}; expected ADDR:PORT, e.g. 0.0.0.0:9464, :9464 or 127.0.0.1:9464")
    };
    let Some((_, port)) = full.rsplit_once(':') else {
        return Err(bad("no port".to_string()));
    };
    if !port.parse::<u16>().is_ok_and(|p| p > 0) {
        return Err(bad(format!("'{port}' is not a port (1 to 65535)")));
    }
    full.to_socket_addrs()
        .map_err(|e| bad(e.to_string()))?
        .next()
        .ok_or_else(|| bad("the name has no address".to_string()))
}

fn token(file: Option<&std::path::Path>) -> Result<Option<String>, String> {
    let text = match file {
        Some(f) => std::fs::read_to_string(f)
            .map_err(|e| format!("--influx-token-file {}: {e}", f.display()))?,
        None => std::env::var("INFLUX_TOKEN").unwrap_or_default(),
    };
    let t = text.trim();
    Ok((!t.is_empty()).then(|| t.to_string()))
}

impl Monitoring {
    /// Checks the options; Err is the message for bad input.
    pub fn from_opts(o: &MonitoringOpts, labels: &[String]) -> Result<Monitoring, String> {
        if o.opentsdb.is_none() && o.opentsdb_interval.is_some() {
            return Err("--opentsdb-interval needs --opentsdb".to_string());
        }
        if o.metrics.is_none() && o.influx.is_none() && o.opentsdb.is_none() {
            if o.metrics_linger.is_some() {
                return Err("--metrics-linger needs --metrics".to_string());
            }
            if o.influx_interval.is_some() || o.influx_token_file.is_some() {
                return Err("--influx-interval and --influx-token-file need --influx".to_string());
            }
            return Ok(Monitoring::default());
        }
        let metrics = o
            .metrics
            .as_deref()
            .map(|t| address(t).map(|a| (t.to_string(), a)))
            .transpose()?;
        let linger = match (&o.metrics_linger, &metrics) {
            (Some(_), None) => return Err("--metrics-linger needs --metrics".to_string()),
            (Some(t), _) => seconds("--metrics-linger", t, true)?,
            (None, _) => DEFAULT_LINGER,
        };
        let influx = match &o.influx {
            None if o.influx_interval.is_some() || o.influx_token_file.is_some() => {
                return Err("--influx-interval and --influx-token-file need --influx".to_string())
            }
            None => None,
            Some(url) => {
                serve::client::check_url(url).map_err(|e| format!("--influx: {e}"))?;
                let interval = match &o.influx_interval {
                    Some(t) => seconds("--influx-interval", t, false)?,
                    None => DEFAULT_INTERVAL,
                };
                Some(InfluxConfig {
                    url: url.clone(),
                    token: token(o.influx_token_file.as_deref())?,
                    interval,
                })
            }
        };
        let opentsdb = match &o.opentsdb {
            None => None,
            Some(url) => {
                serve::client::check_url(url).map_err(|e| format!("--opentsdb: {e}"))?;
                let interval = match &o.opentsdb_interval {
                    Some(t) => seconds("--opentsdb-interval", t, false)?,
                    None => DEFAULT_INTERVAL,
                };
                Some(OpenTsdbConfig {
                    url: url.clone(),
                    interval,
                })
            }
        };
        let labels = labels
            .iter()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Ok(Monitoring {
            cfg: Some(Config {
                metrics,
                linger,
                influx,
                opentsdb,
                labels,
            }),
            active: Mutex::new(None),
        })
    }

    /// On the reporting process, before the run: binds the endpoint and starts serving and
    /// pushing. Err (a port in use, an address not on this host) is bad input.
    pub fn prepare(&self, job: &Job) -> Result<(), String> {
        let Some(cfg) = &self.cfg else { return Ok(()) };
        let hosts = &job.hosts;
        let elsewhere = hosts.iter().find(|h| Some(*h) != hosts.first());
        let listen = match &cfg.metrics {
            Some((text, addr)) => {
                if let (true, Some(h)) = (addr.ip().is_loopback(), elsewhere) {
                    return Err(format!(
                        "--metrics {text}: ranks on {h} cannot reach a loopback address; give \
                         this host's address or 0.0.0.0"
                    ));
                }
                Some((text.clone(), *addr))
            }
            // The other MPI processes push to rank 0, which then needs a port, any port.
            None if !hosts.is_empty() => Some((
                "(for the ranks' pushes)".to_string(),
                SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0),
            )),
            None => None,
        };
        let info = RunInfo {
            labels: cfg.labels.clone(),
            ..RunInfo::default()
        };
        let exporter = Exporter::new(info);
        let mut addr = None;
        if let Some((text, a)) = listen {
            let endpoint = Endpoint::bind(a).map_err(|e| format!("--metrics {text}: {e}"))?;
            addr = Some(endpoint.addr());
            if !hosts.is_empty() {
                let _ = PUBLISHED.set(endpoint.addr().to_string());
            }
            endpoint.serve(Arc::clone(&exporter));
        }
        let influx = cfg
            .influx
            .clone()
            .map(|c| Influx::start(c, Arc::clone(&exporter)));
        let opentsdb = cfg
            .opentsdb
            .clone()
            .map(|c| OpenTsdb::start(c, Arc::clone(&exporter)));
        *self.active.lock().unwrap_or_else(|e| e.into_inner()) = Some(Active {
            exporter,
            addr,
            influx,
            opentsdb,
        });
        Ok(())
    }

    /// After every rank passed its checks, under MPI: rank 0 tells the others where to push.
    pub fn connect(&self, job: &Job) {
        if self.cfg.is_none() || job.hosts.is_empty() {
            return;
        }
        let mine = published().unwrap_or_default();
        let theirs = (job.broadcast)(mine.as_bytes());
        if job.rank != 0 {
            follow(job, &String::from_utf8_lossy(&theirs));
        }
    }

    /// The sink of this process: the figures' on the reporting one, the push elsewhere.
    pub fn sink(&self) -> Option<Box<dyn Sink>> {
        let active = self.active.lock().unwrap_or_else(|e| e.into_inner());
        match active.as_ref() {
            Some(a) => Some(Box::new(MetricsSink::new(Arc::clone(&a.exporter)))),
            None => follower_sink(),
        }
    }

    /// After the command: the last InfluxDB and OpenTSDB pushes, then the endpoint serves the final figures
    /// for `--metrics-linger` seconds.
    pub fn linger(&self) {
        let Some(mut active) = self.active.lock().unwrap_or_else(|e| e.into_inner()).take() else {
            return;
        };
        if let Some(i) = &mut active.influx {
            i.finish();
        }
        if let Some(o) = &mut active.opentsdb {
            o.finish();
        }
        let (Some(cfg), Some(addr)) = (&self.cfg, active.addr) else {
            return;
        };
        if cfg.metrics.is_none() || cfg.linger.is_zero() {
            return;
        }
        eprintln!(
            "iogauge: serving the run's final figures at http://{addr}/metrics for {} s \
             (--metrics-linger 0 stops at once)",
            cfg.linger.as_secs_f64()
        );
        // A signal ends the linger (the run's results are complete and stored already).
        exec::interrupt::sleep(cfg.linger);
        drop(active);
    }
}

/// Rank 0's endpoint (`ADDR:PORT` as bound) for the other ranks' pushes, under MPI.
pub fn published() -> Option<String> {
    PUBLISHED.get().cloned()
}

/// An MPI rank other than 0 learns rank 0's endpoint `addr` (from [`published`]): from here on
/// its sessions push to it. The loopback when both share a host and rank 0 listens on every
/// interface, else rank 0's host name.
pub fn follow(job: &Job, addr: &str) {
    let Ok(addr) = addr.parse::<SocketAddr>() else {
        return;
    };
    let (me, hosts) = (job.rank, &job.hosts);
    let host = if !addr.ip().is_unspecified() {
        addr.ip().to_string()
    } else if hosts.get(me) == hosts.first() {
        "127.0.0.1".to_string()
    } else {
        hosts.first().cloned().unwrap_or_default()
    };
    let host = if host.contains(':') {
        format!("[{host}]")
    } else {
        host
    };
    let _ = PUSH.set(PushTarget {
        url: format!("http://{host}:{}/push", addr.port()),
        first_rank: me as u64,
        interval: PushTarget::interval_for(hosts.len()),
    });
}

/// The push sink of an MPI process other than rank 0's, once rank 0 said where to push.
pub fn follower_sink() -> Option<Box<dyn Sink>> {
    PUSH.get()
        .map(|t| Box::new(PushSink::new(t.clone())) as Box<dyn Sink>)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(line: &str) -> Result<Monitoring, String> {
        let args = line.split_whitespace().map(String::from).collect();
        let (_, o) = crate::global_opts::extract(args).unwrap();
        Monitoring::from_opts(&o.monitoring, &o.labels)
    }

    #[test]
    fn good_options() {
        let m = opts("--metrics :9464 --label a=1").unwrap();
        let cfg = m.cfg.unwrap();
        assert_eq!(cfg.metrics.unwrap().1, "0.0.0.0:9464".parse().unwrap());
        assert_eq!(cfg.linger, DEFAULT_LINGER);
        assert_eq!(cfg.labels, [("a".to_string(), "1".to_string())]);
        let m = opts("--metrics 127.0.0.1:1 --metrics-linger 0 --influx https://h:8086/write?db=x --influx-interval 0.5s").unwrap();
        let cfg = m.cfg.unwrap();
        assert!(cfg.linger.is_zero());
        assert_eq!(cfg.influx.unwrap().interval, Duration::from_millis(500));
        assert!(cfg.opentsdb.is_none());
        let cfg = opts("--opentsdb http://tsdb:4242 --opentsdb-interval 5")
            .unwrap()
            .cfg
            .unwrap();
        let o = cfg.opentsdb.unwrap();
        assert_eq!(
            (o.url.as_str(), o.interval),
            ("http://tsdb:4242", Duration::from_secs(5))
        );
        assert!(cfg.metrics.is_none() && cfg.influx.is_none());
        let o = opts("--opentsdb https://tsdb/")
            .unwrap()
            .cfg
            .unwrap()
            .opentsdb;
        assert_eq!(o.unwrap().interval, DEFAULT_INTERVAL);
        assert!(opts("").unwrap().cfg.is_none());
    }

    #[test]
    fn bad_options() {
        let err = |l: &str| opts(l).err().unwrap_or_else(|| panic!("{l} was taken"));
        assert!(err("--metrics 9464").contains("no port"));
        assert!(err("--metrics :99999").contains("'99999' is not a port"));
        assert!(err("--metrics 127.0.0.1:0").contains("'0' is not a port"));
        assert!(err("--metrics :1 --metrics-linger -1").contains("--metrics-linger -1"));
        assert!(err("--metrics-linger 3").contains("needs --metrics"));
        assert!(err("--influx ftp://x/").contains("not an http"));
        assert!(err("--influx-interval 2").contains("need --influx"));
        assert!(err("--influx http://h/write --influx-interval 0").contains("above 0"));
        assert!(err("--opentsdb tsdb:4242").contains("--opentsdb: 'tsdb:4242' is not an http"));
        assert!(err("--opentsdb http://:4242").contains("names no host"));
        assert!(err("--opentsdb-interval 2").contains("needs --opentsdb"));
        assert!(err("--metrics :1 --opentsdb-interval 2").contains("needs --opentsdb"));
        assert!(err("--opentsdb http://h --opentsdb-interval x").contains("--opentsdb-interval x"));
        assert!(
            err("--influx http://h/write --influx-token-file /nonexistent/t")
                .contains("--influx-token-file /nonexistent/t")
        );
    }
}
