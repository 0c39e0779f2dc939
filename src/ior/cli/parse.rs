//! The parser: IOR's token rules over the table in `options.rs`.

use std::path::PathBuf;

use engine::{EngineInfo, EngineOption, OptValue};
use text::{parse_signed, parse_size};
use workload::ior::{DataPacket, SummaryFormat};

use super::options::{self, Arg, OptSpec, Refused, Target};
use super::{IorCommand, UsageError};

fn usage(msg: impl Into<String>) -> UsageError {
    UsageError(format!("ior: {}", msg.into()))
}

fn refused(r: &Refused, shown: Option<&str>) -> UsageError {
    let name = shown.map_or_else(|| options::display_refused(r), str::to_string);
    usage(format!("{name} is not supported: {}", r.reason))
}

/// A flag's storage: IOR flags are counters, most of them read as booleans.
enum Slot<'a> {
    Bool(&'a mut bool),
    Count(&'a mut u32),
}

#[derive(Default)]
struct Parser {
    cmd: IorCommand,
    repetitions: Option<i64>,
    inter_test_delay: Option<i64>,
}

/// Parses the arguments after `ior` (IOR's rules; see the module docs).
pub fn parse(args: &[String]) -> Result<IorCommand, UsageError> {
    let mut p = Parser::default();
    let mut i = 0;
    while i < args.len() {
        let next = args.get(i + 1).map(String::as_str);
        let used_next = p.token(&args[i], next, "")?;
        i += 1 + usize::from(used_next);
    }
    p.finish()
}

impl Parser {
    /// One command-line token; `ctx` is `"-O "` for options given inside `-O`.
    /// Returns whether the next token was taken as the value.
    fn token(&mut self, arg: &str, next: Option<&str>, ctx: &str) -> Result<bool, UsageError> {
        if let Some(body) = arg.strip_prefix("--").filter(|b| !b.is_empty()) {
            self.long(body, next, ctx)
        } else if let Some(body) = arg.strip_prefix('-').filter(|b| !b.is_empty()) {
            self.short_group(arg, body, next, ctx)
        } else {
            Err(usage(format!(
                "unexpected argument \"{arg}\" (IOR takes no operands; the file name goes to -o)"
            )))
        }
    }

    fn long(&mut self, body: &str, next: Option<&str>, ctx: &str) -> Result<bool, UsageError> {
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        let shown = format!("{ctx}--{name}");
        if let Some(spec) = options::by_long(name) {
            return self.apply(spec, &shown, inline, next);
        }
        if let Some((info, opt)) = engine::find_option(name) {
            return self.engine_option(info, opt, &shown, inline, next);
        }
        if let Some(r) = options::refused_long(name) {
            return Err(refused(r, None));
        }
        Err(unknown_long(name, &shown))
    }

    fn short_group(
        &mut self,
        arg: &str,
        body: &str,
        next: Option<&str>,
        ctx: &str,
    ) -> Result<bool, UsageError> {
        let mut rest = body;
        while let Some(c) = rest.chars().next() {
            let after = &rest[c.len_utf8()..];
            let shown = format!("{ctx}-{c}");
            let Some(spec) = options::by_short(c) else {
                if let Some(r) = options::refused_short(c) {
                    return Err(refused(r, None));
                }
                let within = if body.chars().count() > 1 {
                    format!(" (in {arg})")
                } else {
                    String::new()
                };
                return Err(usage(format!(
                    "unknown option {shown}{within}; see iogauge ior --help"
                )));
            };
            match spec.arg {
                Arg::Flag => {
                    if let Some(v) = after.strip_prefix('=') {
                        return self.apply(spec, &shown, Some(v), None);
                    }
                    self.apply(spec, &shown, None, None)?;
                    rest = after;
                }
                Arg::Value => {
                    // `-t1m`, `-t=1m`, or the value in the next token (`-t 1m`).
                    let inline =
                        (!after.is_empty()).then(|| after.strip_prefix('=').unwrap_or(after));
                    return self.apply(spec, &shown, inline, next);
                }
            }
        }
        Ok(false)
    }

    /// Applies one option. `inline` is a value attached to the token; `next` the following
    /// token, taken as the value when needed. Returns whether `next` was used.
    fn apply(
        &mut self,
        spec: &OptSpec,
        shown: &str,
        inline: Option<&str>,
        next: Option<&str>,
    ) -> Result<bool, UsageError> {
        match spec.arg {
            Arg::Flag => {
                let given = flag_value(shown, inline)?;
                self.flag(spec.target, given);
                Ok(false)
            }
            Arg::Value => {
                // `-O` values may carry dashes (`-O --posix.odirect=1`).
                let any = spec.target == Target::Directive;
                let (value, used) = value_of(shown, inline, next, any)?;
                self.value(spec.target, shown, value)?;
                Ok(used)
            }
        }
    }

    /// An engine's option (`--posix.odirect`, `-O useO_DIRECT=1`, `--dummy.delay-xfer=5`):
    /// a flag as IOR's flags, or a number with the size suffixes.
    fn engine_option(
        &mut self,
        info: &EngineInfo,
        opt: &EngineOption,
        shown: &str,
        inline: Option<&str>,
        next: Option<&str>,
    ) -> Result<bool, UsageError> {
        let (value, used) = if opt.takes_value() {
            let (v, used) = value_of(shown, inline, next, false)?;
            let n = parse_size(v).map_err(|e| usage(format!("{shown}: {e}")))?;
            (OptValue::Number(n), used)
        } else {
            let on = flag_value(shown, inline)?.map_or(true, |n| n > 0);
            (OptValue::Flag(on), false)
        };
        self.cmd.params.engine.set(&info.full_name(opt), value);
        Ok(used)
    }

    fn slot(&mut self, t: Target) -> Slot<'_> {
        let p = &mut self.cmd.params;
        match t {
            Target::FilePerProc => Slot::Bool(&mut p.file_per_proc),
            Target::ReorderTasks => Slot::Bool(&mut p.reorder_tasks),
            Target::ReorderTasksRandom => Slot::Count(&mut p.reorder_tasks_random),
            Target::RandomOffset => Slot::Count(&mut p.random_offset),
            Target::Fsync => Slot::Bool(&mut p.fsync),
            Target::FsyncPerWrite => Slot::Bool(&mut p.fsync_per_write),
            Target::IntraTestBarriers => Slot::Bool(&mut p.intra_test_barriers),
            Target::WriteFile => Slot::Bool(&mut p.write_file),
            Target::ReadFile => Slot::Bool(&mut p.read_file),
            Target::CheckWrite => Slot::Bool(&mut p.check_write),
            Target::CheckRead => Slot::Bool(&mut p.check_read),
            Target::KeepFile => Slot::Bool(&mut p.keep_file),
            Target::KeepFileWithError => Slot::Bool(&mut p.keep_file_with_error),
            Target::UseExistingTestFile => Slot::Bool(&mut p.use_existing_test_file),
            Target::UniqueDir => Slot::Bool(&mut p.unique_dir),
            Target::Verbose => Slot::Count(&mut p.verbose),
            Target::QuitOnError => Slot::Bool(&mut p.quit_on_error),
            Target::MultiFile => Slot::Bool(&mut p.multi_file),
            Target::SingleXferAttempt => Slot::Bool(&mut p.single_xfer_attempt),
            Target::Overwrite => Slot::Bool(&mut self.cmd.overwrite),
            Target::Help => Slot::Bool(&mut self.cmd.help),
            other => unreachable!("{other:?} is not a flag in the option table"),
        }
    }

    /// A flag: counted (`-z -z` = 2) or set to an explicit value (`-F=0`).
    fn flag(&mut self, t: Target, given: Option<u32>) {
        match self.slot(t) {
            Slot::Bool(b) => *b = given.map_or(true, |n| n > 0),
            Slot::Count(c) => *c = given.unwrap_or_else(|| c.saturating_add(1)),
        }
    }

    fn value(&mut self, t: Target, shown: &str, v: &str) -> Result<(), UsageError> {
        let size = |v: &str| parse_size(v).map_err(|e| usage(format!("{shown}: {e}")));
        let signed = |v: &str| parse_signed(v).map_err(|e| usage(format!("{shown}: {e}")));
        let count = |v: &str| -> Result<usize, UsageError> {
            let n = size(v)?;
            if n == 0 {
                return Err(usage(format!("{shown} 0: at least 1 is needed")));
            }
            usize::try_from(n).map_err(|_| usage(format!("{shown} {v}: too large")))
        };
        let p = &mut self.cmd.params;
        match t {
            Target::Api => {
                p.engine.api = engine::lookup(v.trim())
                    .map_err(|e| usage(e.to_string()))?
                    .name
                    .to_string();
            }
            Target::RefNum => p.ref_num = signed(v)?,
            Target::BlockSize => p.block_size = size(v)?,
            Target::TransferSize => p.transfer_size = size(v)?,
            Target::SegmentCount => p.segment_count = size(v)?,
            Target::TaskPerNodeOffset => p.task_per_node_offset = size(v)?,
            Target::ReorderTasksRandomSeed => p.reorder_tasks_random_seed = signed(v)?,
            Target::RandomOffsetSeed => {
                p.random_offset_seed = Some(signed(v)?).filter(|&s| s != -1);
            }
            Target::Repetitions => self.repetitions = Some(signed(v)?),
            Target::InterTestDelay => self.inter_test_delay = Some(signed(v)?),
            Target::TestFile => p.test_file = v.to_string(),
            Target::Deadline => p.deadline_for_stonewalling_s = size(v)?,
            Target::MaxTime => p.max_time_duration_min = size(v)?,
            Target::Signature => p.time_stamp_signature = Some(signed(v)?).filter(|&s| s != 0),
            Target::DataPacket => p.data_packet = data_packet(shown, v)?,
            Target::NumTasks => {
                self.cmd.tasks = match signed(v)? {
                    -1 => None,
                    n if n <= 0 => {
                        return Err(usage(format!("{shown} {v}: at least 1 task is needed")))
                    }
                    _ => Some(count(v)?),
                }
            }
            Target::Tasks => self.cmd.tasks = Some(count(v)?),
            Target::FakeNodes => self.cmd.fake_nodes = Some(count(v)?),
            Target::FakePlacement => {
                self.cmd.round_robin = match v.trim().to_ascii_lowercase().as_str() {
                    "block" => false,
                    "round-robin" | "roundrobin" => true,
                    _ => return Err(usage(format!("{shown} {v}: expected block or round-robin"))),
                }
            }
            Target::Json => self.cmd.json = Some(PathBuf::from(v)),
            Target::Directive => self.directive(v)?,
            Target::WearOut => p.stonewall_wear_out = signed(v)? != 0,
            Target::WearOutIterations => p.stonewall_wear_out_iterations = size(v)?,
            Target::StatusFile => p.stonewall_status_file = Some(PathBuf::from(v)),
            Target::SummaryFile => p.summary_file = Some(PathBuf::from(v)),
            Target::RankCsv => p.rank_details_csv = Some(PathBuf::from(v)),
            Target::SummaryFormat => {
                p.summary_format = match v.trim().to_ascii_lowercase().as_str() {
                    "default" => SummaryFormat::Default,
                    "json" => SummaryFormat::Json,
                    "csv" => SummaryFormat::Csv,
                    _ => return Err(usage(format!("{shown}={v}: expected default, JSON or CSV"))),
                }
            }
            flag => unreachable!("{flag:?} is a flag in the option table"),
        }
        Ok(())
    }

    /// `-O key=value[,key=value...]`: keys case-insensitive; dashed keys are options.
    fn directive(&mut self, text: &str) -> Result<(), UsageError> {
        for entry in text.split(',') {
            let entry = entry.trim();
            if entry.is_empty() {
                return Err(usage(format!(
                    "-O \"{text}\": empty entry (expected KEY=VALUE[,KEY=VALUE...])"
                )));
            }
            let Some((key, value)) = entry.split_once('=') else {
                return Err(usage(format!("-O {entry}: expected KEY=VALUE")));
            };
            let (key, value) = (key.trim(), value.trim());
            if key.starts_with('-') {
                // Module options keep their dashes: `-O --posix.odirect=1`.
                self.token(&format!("{key}={value}"), None, "-O ")?;
                continue;
            }
            let shown = format!("-O {key}");
            if let Some(spec) = options::by_key(key) {
                self.apply(spec, &shown, Some(value), None)?;
            } else if let Some((info, opt)) = engine::find_ior_key(key) {
                self.engine_option(info, opt, &shown, Some(value), None)?;
            } else if let Some(r) = options::refused_key(key) {
                return Err(refused(r, Some(&shown)));
            } else if key.to_ascii_lowercase().starts_with("ior_hint") {
                return Err(usage(format!(
                    "{shown} is not supported: {}",
                    options::HINT_REASON
                )));
            } else {
                let keys = options::OPTIONS.iter().flat_map(|o| o.keys.iter());
                let engine_keys = engine::all_options().flat_map(|(_, o)| o.ior_keys.iter());
                let no_keys = options::REFUSED.iter().flat_map(|r| r.keys.iter());
                let all = keys.chain(engine_keys).chain(no_keys).copied();
                // A near miss of a refused key gets no hint rather than another key.
                let hint = text::suggest(key, all)
                    .filter(|k| options::refused_key(k).is_none())
                    .map_or(String::new(), |k| format!("; did you mean {k}?"));
                return Err(usage(format!("unknown -O key {key}{hint}")));
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<IorCommand, UsageError> {
        let p = &mut self.cmd.params;
        if let Some(n) = self.repetitions {
            p.repetitions = if n <= 0 {
                self.cmd.warnings.push(format!(
                    "-i {n}: too few repetitions; using 1 (as IOR does)"
                ));
                1
            } else {
                u32::try_from(n).map_err(|_| usage(format!("-i {n}: too many repetitions")))?
            };
        }
        if let Some(d) = self.inter_test_delay {
            if d < 0 {
                self.cmd.warnings.push(format!(
                    "-d {d}: the delay must not be negative; using 0 (as IOR does)"
                ));
            }
            p.inter_test_delay_s = d.max(0) as u64;
        }
        // IOR refuses a status file without -k; the file is only useful if the data stays for
        // the later read, so iogauge keeps the files instead and says so.
        if p.stonewall_status_file.is_some() && !p.keep_file {
            p.keep_file = true;
            self.cmd.warnings.push(
                "-O stoneWallingStatusFile without -k: keeping the files for the later read \
                 (IOR refuses this; add -k to silence this warning)"
                    .to_string(),
            );
        }
        // IOR's rule: with none of -w, -r, -W, -R, both write and read run.
        if !(p.write_file || p.read_file || p.check_write || p.check_read) {
            p.write_file = true;
            p.read_file = true;
        }
        Ok(self.cmd)
    }
}

/// A token that starts another option (but not a negative number such as `-1`).
fn is_option(token: &str) -> bool {
    let mut chars = token.chars();
    chars.next() == Some('-') && chars.next().is_some_and(|c| !c.is_ascii_digit())
}

/// The value of an option that takes one: attached to the token, or the next token unless
/// that starts another option (`-o -F`; `any` takes it regardless). Returns the value and
/// whether the next token was used.
fn value_of<'a>(
    shown: &str,
    inline: Option<&'a str>,
    next: Option<&'a str>,
    any: bool,
) -> Result<(&'a str, bool), UsageError> {
    let missing = || usage(format!("{shown} needs a value"));
    let (value, used) = match (inline, next) {
        (Some(v), _) => (v, false),
        // A negative number is a value (`-X -1`).
        (None, Some(n)) if any || !is_option(n) => (n, true),
        _ => return Err(missing()),
    };
    if value.trim().is_empty() {
        return Err(missing());
    }
    Ok((value, used))
}

/// A flag's explicit value (`-F=0`), negative counting as 0 as in IOR; `None` when bare.
fn flag_value(shown: &str, explicit: Option<&str>) -> Result<Option<u32>, UsageError> {
    let Some(v) = explicit else { return Ok(None) };
    let n = parse_signed(v).map_err(|e| usage(format!("{shown}: {e}")))?;
    Ok(Some(n.clamp(0, i64::from(u32::MAX)) as u32))
}

fn data_packet(shown: &str, v: &str) -> Result<DataPacket, UsageError> {
    match v.trim().chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('t') => Ok(DataPacket::Timestamp),
        Some('o') => Ok(DataPacket::Offset),
        Some('i') | Some('r') => Ok(DataPacket::Incompressible),
        _ => Err(usage(format!(
            "{shown} {v}: unknown data packet type (expected timestamp, offset, incompressible or random)"
        ))),
    }
}

fn unknown_long(name: &str, shown: &str) -> UsageError {
    if let Some(spec) = options::by_key(name).filter(|s| s.long.is_none()) {
        let key = spec.keys[0];
        return usage(format!(
            "unknown option {shown}; {key} is an -O key: use -O {key}={}",
            spec.meta
        ));
    }
    let engine_longs: Vec<String> = engine::all_options()
        .map(|(e, o)| format!("--{}", e.full_name(o)))
        .collect();
    if let Some(module) = engine::module_of(name) {
        // A near miss of an engine's option gets a suggestion; IOR's other module options
        // are refused.
        if let Some(s) = text::suggest(name, engine_longs.iter().map(String::as_str)) {
            return usage(format!("unknown option {shown}; did you mean {s}?"));
        }
        let provided: Vec<String> = engine::ENGINES
            .iter()
            .filter_map(|e| e.options_pattern())
            .collect();
        return usage(format!(
            "{shown} is not supported: IOR's {module} module options are not supported by iogauge \
             (only {} are)",
            text::join_words(&provided, "and")
        ));
    }
    let longs: Vec<String> = options::OPTIONS
        .iter()
        .filter_map(|o| o.long)
        .chain(options::REFUSED.iter().filter_map(|r| r.long))
        .map(|l| format!("--{l}"))
        .chain(engine_longs)
        .collect();
    // A near miss of a refused option gets no hint rather than another option.
    let hint = text::suggest(name, longs.iter().map(String::as_str))
        .filter(|s| options::refused_long(&s[2..]).is_none())
        .map_or(String::new(), |s| format!("; did you mean {s}?"));
    usage(format!("unknown option {shown}{hint}"))
}
