//! From `iogauge mix`'s options to a [`MixCommand`]: the field each table entry sets. The
//! token rules are `crate::optparse`'s.

use engine::EngineConfig;
use plan::mix::{Arrivals, LatencyLimit, Ramp};

use super::options::{Target, TABLE};
use super::{MixCommand, UsageError};
use crate::optparse::{Fields, Given, Slot};

#[derive(Default)]
struct Parser {
    cmd: MixCommand,
    dir: bool,
    mix: Option<String>,
}

/// Parses the arguments after `mix`; reads the mix file.
pub fn parse(args: &[String]) -> Result<MixCommand, UsageError> {
    let mut p = Parser::default();
    TABLE.parse(&mut p, args)?;
    let mut cmd = p.cmd;
    if cmd.launch.help {
        return Ok(cmd);
    }
    if !p.dir {
        return Err(UsageError(
            "mix: --dir DIR is required (where the ranks' trees go)".into(),
        ));
    }
    let mix = p.mix.as_deref().unwrap_or("build-like");
    cmd.params.mix = super::mixfile::load(mix).map_err(|e| UsageError(format!("mix: {e}")))?;
    Ok(cmd)
}

impl Fields<Target> for Parser {
    fn slot(&mut self, t: Target) -> Slot<'_> {
        match t {
            Target::DryRun => Slot::Bool(&mut self.cmd.dry_run),
            Target::Help => Slot::Bool(&mut self.cmd.launch.help),
            other => unreachable!("{other:?} is not a flag in the option table"),
        }
    }

    fn set(&mut self, t: Target, v: Given) -> Result<(), String> {
        let p = &mut self.cmd.params;
        let text = v.text.trim();
        match t {
            Target::Mix => self.mix = Some(text.to_string()),
            Target::Dir => {
                p.dir = v.path();
                self.dir = true;
            }
            Target::Ramp => p.ramp = Ramp::parse(text).map_err(|e| v.error(&e))?,
            // Seconds, or a duration with its unit (500ms), as --stagger and the limit take.
            Target::StepSeconds => {
                p.step_seconds = text::parse_duration(text).map_err(|e| v.error(&e))?
            }
            Target::LatencyLimit => {
                p.latency_limit = LatencyLimit::parse(text).map_err(|e| v.error(&e))?
            }
            Target::Arrivals => {
                p.arrivals = match text {
                    "fixed" => Arrivals::Fixed,
                    "poisson" => Arrivals::Poisson,
                    _ => return Err(v.error("expected fixed or poisson")),
                }
            }
            Target::Seed => p.seed = v.unsigned()?,
            Target::Api => {
                let info = engine::lookup(text)
                    .and_then(|i| i.for_metadata())
                    .map_err(|e| e.to_string())?;
                p.engine.api = info.name.to_string();
            }
            Target::Tasks => self.cmd.launch.tasks = Some(v.count()?),
            Target::FakeNodes => self.cmd.launch.fake_nodes = Some(v.count()?),
            Target::FakePlacement => self.cmd.launch.round_robin = v.round_robin()?,
            Target::Json => self.cmd.launch.json = Some(v.path()),
            flag => unreachable!("{flag:?} is a flag in the option table"),
        }
        Ok(())
    }

    fn engine(&mut self) -> &mut EngineConfig {
        &mut self.cmd.params.engine
    }
}
