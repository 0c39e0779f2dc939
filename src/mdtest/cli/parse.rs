//! The parser: mdtest's token rules (the same `option.c` as IOR) over `options.rs`.

use std::path::PathBuf;

use engine::{EngineInfo, EngineOption, OptValue};
use text::{parse_signed, parse_size};
use workload::ior::DataPacket;
use workload::mdtest::Phases;

use super::options::{self, Arg, OptSpec, Refused, Target};
use super::{MdtestCommand, UsageError};

fn usage(msg: impl Into<String>) -> UsageError {
    UsageError(format!("mdtest: {}", msg.into()))
}

fn refused(r: &Refused) -> UsageError {
    usage(format!(
        "{} is not supported: {}",
        options::display_refused(r),
        r.reason
    ))
}

/// Flags as given (the phase and file/directory rules are applied at the end).
#[derive(Default)]
struct Flags {
    create: u32,
    stat: u32,
    read: u32,
    remove: u32,
    rename: u32,
    files: u32,
    dirs: u32,
    random: u32,
}

#[derive(Default)]
struct Parser {
    cmd: MdtestCommand,
    flags: Flags,
}

/// Parses the arguments after `mdtest`.
pub fn parse(args: &[String]) -> Result<MdtestCommand, UsageError> {
    let mut p = Parser::default();
    let mut i = 0;
    while i < args.len() {
        let next = args.get(i + 1).map(String::as_str);
        let used_next = p.token(&args[i], next)?;
        i += 1 + usize::from(used_next);
    }
    p.finish()
}

/// A token that starts another option (but not a negative number such as `-1`).
fn is_option(token: &str) -> bool {
    let mut chars = token.chars();
    chars.next() == Some('-') && chars.next().is_some_and(|c| !c.is_ascii_digit())
}

/// The value of an option that takes one: attached to the token, or the next token unless
/// that starts another option (`-n -F`). Returns it and whether the next token was used.
fn value_of<'a>(
    shown: &str,
    inline: Option<&'a str>,
    next: Option<&'a str>,
) -> Result<(&'a str, bool), UsageError> {
    let (value, used) = match (inline, next) {
        (Some(v), _) => (v, false),
        (None, Some(n)) if !is_option(n) => (n, true),
        _ => return Err(usage(format!("{shown} needs a value"))),
    };
    if value.trim().is_empty() {
        return Err(usage(format!("{shown} needs a value")));
    }
    Ok((value, used))
}

/// A flag's explicit value (`-F=0`), negative counting as 0 as in mdtest; `None` when bare.
fn flag_value(shown: &str, explicit: Option<&str>) -> Result<Option<u32>, UsageError> {
    let Some(v) = explicit else { return Ok(None) };
    let n = parse_signed(v).map_err(|e| usage(format!("{shown}: {e}")))?;
    Ok(Some(n.clamp(0, i64::from(u32::MAX)) as u32))
}

/// The engine option `--<name>` if mdtest takes it (metadata workloads).
fn metadata_option(name: &str) -> Option<(&'static EngineInfo, &'static EngineOption)> {
    engine::find_option(name).filter(|(_, o)| o.metadata)
}

/// The long names of the engine options mdtest takes: `--dummy.delay-create`, ...
fn metadata_longs() -> Vec<String> {
    engine::all_options()
        .filter(|(_, o)| o.metadata)
        .map(|(e, o)| format!("--{}", e.full_name(o)))
        .collect()
}

impl Parser {
    fn token(&mut self, arg: &str, next: Option<&str>) -> Result<bool, UsageError> {
        if let Some(body) = arg.strip_prefix("--").filter(|b| !b.is_empty()) {
            self.long(body, next)
        } else if let Some(body) = arg.strip_prefix('-').filter(|b| !b.is_empty()) {
            self.short_group(arg, body, next)
        } else {
            Err(usage(format!(
                "unexpected argument \"{arg}\" (mdtest takes no operands; the directory goes to -d)"
            )))
        }
    }

    fn long(&mut self, body: &str, next: Option<&str>) -> Result<bool, UsageError> {
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        let shown = format!("--{name}");
        if let Some(spec) = options::by_long(name) {
            return self.apply(spec, &shown, inline, next);
        }
        if let Some((info, opt)) = metadata_option(name) {
            return self.engine_option(info, opt, &shown, inline, next);
        }
        if let Some(r) = options::refused_long(name) {
            return Err(refused(r));
        }
        Err(unknown_long(name, &shown))
    }

    fn short_group(
        &mut self,
        arg: &str,
        body: &str,
        next: Option<&str>,
    ) -> Result<bool, UsageError> {
        // A long option typed with one dash (`-verify-read`) would otherwise parse as a group.
        let named = body.split('=').next().unwrap_or(body);
        if named.chars().count() > 1
            && (options::by_long(named).is_some()
                || options::refused_long(named).is_some()
                || metadata_option(named).is_some())
        {
            return Err(usage(format!(
                "unknown option {arg}; did you mean --{body}?"
            )));
        }
        let mut rest = body;
        while let Some(c) = rest.chars().next() {
            let after = &rest[c.len_utf8()..];
            let shown = format!("-{c}");
            let Some(spec) = options::by_short(c) else {
                if let Some(r) = options::refused_short(c) {
                    return Err(refused(r));
                }
                return Err(unknown_short(c, arg, body));
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
                    // `-n5`, `-n=5`, or the value in the next token (`-n 5`).
                    let inline =
                        (!after.is_empty()).then(|| after.strip_prefix('=').unwrap_or(after));
                    return self.apply(spec, &shown, inline, next);
                }
            }
        }
        Ok(false)
    }

    /// Applies one option; returns whether `next` was taken as its value.
    fn apply(
        &mut self,
        spec: &OptSpec,
        shown: &str,
        inline: Option<&str>,
        next: Option<&str>,
    ) -> Result<bool, UsageError> {
        match spec.arg {
            Arg::Flag => {
                let n = flag_value(shown, inline)?;
                self.flag(spec.target, n);
                Ok(false)
            }
            Arg::Value => {
                let (value, used) = value_of(shown, inline, next)?;
                self.value(spec.target, shown, value)?;
                Ok(used)
            }
        }
    }

    /// An engine's option (`--dummy.delay-create=10`): a flag as mdtest's flags, or a number
    /// with the size suffixes.
    fn engine_option(
        &mut self,
        info: &EngineInfo,
        opt: &EngineOption,
        shown: &str,
        inline: Option<&str>,
        next: Option<&str>,
    ) -> Result<bool, UsageError> {
        let (value, used) = if opt.takes_value() {
            let (v, used) = value_of(shown, inline, next)?;
            let n = parse_size(v).map_err(|e| usage(format!("{shown}: {e}")))?;
            (OptValue::Number(n), used)
        } else {
            let on = flag_value(shown, inline)?.map_or(true, |n| n > 0);
            (OptValue::Flag(on), false)
        };
        self.cmd.params.engine.set(&info.full_name(opt), value);
        Ok(used)
    }

    /// A flag: counted, or set to an explicit value (`-F=0`; negative = 0, as mdtest).
    fn flag(&mut self, t: Target, explicit: Option<u32>) {
        let count = |c: &mut u32| *c = explicit.unwrap_or_else(|| c.saturating_add(1));
        let f = &mut self.flags;
        let p = &mut self.cmd.params;
        let b: &mut bool = match t {
            Target::Create => return count(&mut f.create),
            Target::Stat => return count(&mut f.stat),
            Target::ReadOnly => return count(&mut f.read),
            Target::Remove => return count(&mut f.remove),
            Target::Rename => return count(&mut f.rename),
            Target::FilesOnly => return count(&mut f.files),
            Target::DirsOnly => return count(&mut f.dirs),
            Target::Random => return count(&mut f.random),
            Target::Verbose => return count(&mut p.verbose),
            Target::LeafOnly => &mut p.leaf_only,
            Target::Unique => &mut p.unique_dir,
            Target::TimeUniqueDir => &mut p.time_unique_dir_overhead,
            Target::VerifyRead => &mut p.verify_read,
            Target::SyncFile => &mut p.sync_file,
            Target::CallSync => &mut p.call_sync,
            Target::RateAndTime => &mut p.print_rate_and_time,
            Target::PrintTime => &mut p.print_time,
            Target::RankStats => &mut p.show_rank_statistics,
            Target::Help => &mut self.cmd.help,
            v => unreachable!("{v:?} is not a flag in the option table"),
        };
        *b = explicit.map_or(true, |n| n > 0);
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
        let small = |v: &str| -> Result<u32, UsageError> {
            u32::try_from(size(v)?).map_err(|_| usage(format!("{shown} {v}: too large")))
        };
        let p = &mut self.cmd.params;
        match t {
            Target::Api => {
                let info = engine::lookup(v.trim())
                    .and_then(|i| i.for_metadata())
                    .map_err(|e| usage(e.to_string()))?;
                p.engine.api = info.name.to_string();
            }
            Target::Branch => p.branch = size(v)?,
            Target::Depth => p.depth = small(v)?,
            Target::Items => p.items = size(v)?,
            Target::ItemsPerDir => p.items_per_dir = size(v)?,
            Target::Dir => p.dirs = v.split('@').map(PathBuf::from).collect(),
            Target::ReadBytes => p.read_bytes = size(v)?,
            Target::WriteBytes => p.write_bytes = size(v)?,
            Target::Seed => p.seed = Some(signed(v)?).filter(|&s| s != -1),
            Target::Iterations => p.iterations = small(v)?,
            Target::Stride => p.nstride = size(v)?,
            Target::RandomSeed => p.random_seed = Some(size(v)?).filter(|&s| s != 0),
            Target::VerboseValue => p.verbose = small(v)?,
            Target::Stonewall => p.stonewall_s = size(v)?,
            Target::StatusFile => p.status_file = Some(PathBuf::from(v)),
            Target::DataPacket => p.data_packet = data_packet(shown, v)?,
            Target::RankCsv => p.rank_details_csv = Some(PathBuf::from(v)),
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
            flag => unreachable!("{flag:?} is a flag in the option table"),
        }
        Ok(())
    }

    fn finish(mut self) -> Result<MdtestCommand, UsageError> {
        let f = &self.flags;
        let p = &mut self.cmd.params;
        if f.files > 0 && f.dirs > 0 {
            return Err(usage(
                "-F and -D together: give -F (files only), -D (directories only) or neither (both)",
            ));
        }
        p.files = f.dirs == 0;
        p.dirs_too = f.files == 0;
        let given = Phases {
            create: f.create > 0,
            stat: f.stat > 0,
            read: f.read > 0,
            remove: f.remove > 0,
            rename: f.rename > 0,
        };
        // mdtest's rule: with none of -C -T -E -r -U, all five phases run.
        if given.any() {
            p.phases = given;
        }
        // mdtest shuffles whenever the seed is positive, -R or not.
        p.random = f.random > 0 || p.random_seed.is_some();
        Ok(self.cmd)
    }
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

fn unknown_short(c: char, arg: &str, body: &str) -> UsageError {
    let within = if body.chars().count() > 1 {
        format!(" (in {arg})")
    } else {
        String::new()
    };
    usage(format!(
        "unknown option -{c}{within}; see iogauge mdtest --help"
    ))
}

fn unknown_long(name: &str, shown: &str) -> UsageError {
    let engine_longs = metadata_longs();
    let all_engine: Vec<String> = engine::all_options()
        .map(|(e, o)| format!("--{}", e.full_name(o)))
        .collect();
    // The nearest of every engine option decides, so that a near miss of one mdtest does not
    // take (`--dummy.delay-xfr`) is not pointed at another that it does.
    let taken =
        |s: &&str| !all_engine.iter().any(|l| l == s) || engine_longs.iter().any(|l| l == s);
    if let Some(module) = engine::module_of(name) {
        let near = text::suggest(name, all_engine.iter().map(String::as_str));
        if let Some(s) = near.filter(taken) {
            return usage(format!("unknown option {shown}; did you mean {s}?"));
        }
        return usage(format!(
            "{shown} is not supported: back-end module options are not supported by iogauge \
             mdtest (only {}; module {module})",
            text::join_words(&engine_longs, "and")
        ));
    }
    // A short option typed with two dashes (`--n`) or a near miss of a long one.
    if let (Some(c), 1) = (name.chars().next(), name.chars().count()) {
        if options::by_short(c).is_some() {
            return usage(format!("unknown option {shown}; did you mean -{c}?"));
        }
    }
    let longs: Vec<String> = options::OPTIONS
        .iter()
        .filter_map(|o| o.long)
        .chain(options::REFUSED.iter().filter_map(|r| r.long))
        .map(|l| format!("--{l}"))
        .collect();
    let candidates = longs.iter().chain(&all_engine).map(String::as_str);
    // Nor is a near miss of a refused option pointed at an accepted one.
    let hint = text::suggest(name, candidates)
        .filter(taken)
        .filter(|s| options::refused_long(&s[2..]).is_none())
        .map_or(String::new(), |s| format!("; did you mean {s}?"));
    usage(format!("unknown option {shown}{hint}"))
}
