//! iogauge's own options that every command takes anywhere on its line: before the command,
//! after it, or among IOR- and mdtest-style flags (`iogauge ior -w -t 1m --label run=3 -o f`).
//! They are taken out of the arguments before anything else parses them; their names are no
//! option of IOR, mdtest, pfind or the IO500, so nothing is taken from a tool. A bare `--`
//! ends them: what follows belongs to another command line.

use std::path::PathBuf;

/// The options found, as given.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct GlobalOpts {
    /// `--db PATH`: the result store (default: in the user's data directory).
    pub db: Option<PathBuf>,
    /// `--no-store`: do not store the run.
    pub no_store: bool,
    /// `--label KEY=VALUE`, repeatable, in order.
    pub labels: Vec<String>,
    /// `--quiet`: no terminal output but errors.
    pub quiet: bool,
    /// `--drop-caches[=auto|system|files]`: the mode given (`auto` when bare).
    pub drop_caches: Option<String>,
    /// `--warn ID=VALUE`, repeatable, in order.
    pub warn: Vec<String>,
    /// `--allow-root-target`: a tree may be made and removed in `/`, `$HOME` or a mount's root.
    pub allow_root_target: bool,
    /// `--no-system`: do not read what the system did in each phase (docs/system.md).
    pub no_system: bool,
    /// `--metrics`, `--metrics-linger`, `--influx`, `--influx-interval`,
    /// `--influx-token-file`, `--opentsdb`, `--opentsdb-interval` (`monitoring.rs` checks them).
    pub monitoring: MonitoringOpts,
}

/// The live-metrics options, as given.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct MonitoringOpts {
    pub metrics: Option<String>,
    pub metrics_linger: Option<String>,
    pub influx: Option<String>,
    pub influx_interval: Option<String>,
    pub influx_token_file: Option<PathBuf>,
    pub opentsdb: Option<String>,
    pub opentsdb_interval: Option<String>,
}

impl GlobalOpts {
    /// The options given that only a run uses (a workload, a sweep's or a preset's runs): the
    /// commands that run nothing refuse them by name rather than ignore them.
    pub fn run_only(&self) -> Vec<&'static str> {
        let m = &self.monitoring;
        [
            ("--drop-caches", self.drop_caches.is_some()),
            ("--warn", !self.warn.is_empty()),
            ("--no-system", self.no_system),
            ("--allow-root-target", self.allow_root_target),
            ("--metrics", m.metrics.is_some()),
            ("--metrics-linger", m.metrics_linger.is_some()),
            ("--influx", m.influx.is_some()),
            ("--influx-interval", m.influx_interval.is_some()),
            ("--influx-token-file", m.influx_token_file.is_some()),
            ("--opentsdb", m.opentsdb.is_some()),
            ("--opentsdb-interval", m.opentsdb_interval.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }
}

/// Splits `args` (without the program name) into the rest and the global options. Err is
/// the message for bad usage.
pub fn extract(args: Vec<String>) -> Result<(Vec<String>, GlobalOpts), String> {
    let mut opts = GlobalOpts::default();
    let mut rest = Vec::with_capacity(args.len());
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        if arg == "--" {
            rest.push(arg);
            rest.extend(it.by_ref());
            break;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            match inline.clone().or_else(|| it.next()) {
                Some(v) if !v.is_empty() => Ok(v),
                _ => Err(format!("{name} needs {what}")),
            }
        };
        match name {
            "--db" => opts.db = Some(PathBuf::from(value("a file name")?)),
            "--label" => opts.labels.push(value("KEY=VALUE")?),
            "--no-store" | "--quiet" | "--allow-root-target" | "--no-system"
                if inline.is_some() =>
            {
                return Err(format!("{name} takes no value"));
            }
            "--no-store" => opts.no_store = true,
            "--no-system" => opts.no_system = true,
            "--metrics" => opts.monitoring.metrics = Some(value("ADDR:PORT")?),
            "--metrics-linger" => opts.monitoring.metrics_linger = Some(value("SECONDS")?),
            "--influx" => opts.monitoring.influx = Some(value("a URL")?),
            "--influx-interval" => opts.monitoring.influx_interval = Some(value("SECONDS")?),
            "--influx-token-file" => {
                opts.monitoring.influx_token_file = Some(PathBuf::from(value("a file name")?))
            }
            "--opentsdb" => opts.monitoring.opentsdb = Some(value("a URL")?),
            "--opentsdb-interval" => opts.monitoring.opentsdb_interval = Some(value("SECONDS")?),
            "--quiet" => opts.quiet = true,
            "--allow-root-target" => opts.allow_root_target = true,
            // The mode only inline: a separate word may be a tool's argument (find's path).
            "--drop-caches" => opts.drop_caches = Some(inline.unwrap_or("auto".into())),
            "--warn" => opts.warn.push(value("ID=VALUE")?),
            _ => rest.push(arg),
        }
    }
    Ok((rest, opts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(line: &str) -> Result<(Vec<String>, GlobalOpts), String> {
        extract(line.split_whitespace().map(String::from).collect())
    }

    #[test]
    fn found_anywhere_before_a_bare_double_dash() {
        let (rest, o) = split(
            "--label a=1 ior -w --db /tmp/x.db -t 1m --label=b=2 --quiet -o f --no-store \
             --warn short-phase=off --drop-caches --warn=straggler=2 -- --quiet",
        )
        .unwrap();
        assert_eq!(rest, ["ior", "-w", "-t", "1m", "-o", "f", "--", "--quiet"]);
        assert_eq!(o.db, Some(PathBuf::from("/tmp/x.db")));
        assert_eq!(o.labels, ["a=1", "b=2"]);
        assert!(o.quiet && o.no_store);
        assert_eq!(o.warn, ["short-phase=off", "straggler=2"]);
        assert_eq!(o.drop_caches.as_deref(), Some("auto"));
        let (rest, o) = split("find --drop-caches=files files -C").unwrap();
        assert_eq!(rest, ["find", "files", "-C"]);
        assert_eq!(o.drop_caches.as_deref(), Some("files"));
        let (rest, o) = split("mdtest -d / --allow-root-target -n 1").unwrap();
        assert_eq!(rest, ["mdtest", "-d", "/", "-n", "1"]);
        assert!(o.allow_root_target);
    }

    #[test]
    fn tool_options_stay() {
        let line = "mdtest -n 10 --json r.json -d /tmp/md --tasks 2 -O x=1";
        let (rest, o) = split(line).unwrap();
        assert_eq!(rest.join(" "), line);
        assert_eq!(o, GlobalOpts::default());
    }

    #[test]
    fn monitoring_options() {
        let (rest, o) = split(
            "mdtest -n 1 --metrics :9464 --metrics-linger=0 --influx http://h/write?db=x \
             --influx-interval 2 --influx-token-file /t --opentsdb=http://t:4242 \
             --opentsdb-interval 3 -d /tmp/md",
        )
        .unwrap();
        assert_eq!(rest.join(" "), "mdtest -n 1 -d /tmp/md");
        let m = &o.monitoring;
        assert_eq!(m.metrics.as_deref(), Some(":9464"));
        assert_eq!(m.metrics_linger.as_deref(), Some("0"));
        assert_eq!(m.influx.as_deref(), Some("http://h/write?db=x"));
        assert_eq!(m.influx_interval.as_deref(), Some("2"));
        assert_eq!(m.influx_token_file, Some(PathBuf::from("/t")));
        assert_eq!(m.opentsdb.as_deref(), Some("http://t:4242"));
        assert_eq!(m.opentsdb_interval.as_deref(), Some("3"));
        assert_eq!(
            split("ior --metrics").unwrap_err(),
            "--metrics needs ADDR:PORT"
        );
    }

    #[test]
    fn bad_usage() {
        assert_eq!(split("ior --db").unwrap_err(), "--db needs a file name");
        assert_eq!(split("ior --db=").unwrap_err(), "--db needs a file name");
        assert_eq!(split("ior --label").unwrap_err(), "--label needs KEY=VALUE");
        assert_eq!(split("ior --warn").unwrap_err(), "--warn needs ID=VALUE");
        assert_eq!(
            split("--quiet=1 ior").unwrap_err(),
            "--quiet takes no value"
        );
        assert_eq!(
            split("ior --allow-root-target=yes").unwrap_err(),
            "--allow-root-target takes no value"
        );
    }
}
