//! From md-workbench's options to an [`MdWorkbenchCommand`]: the field each table entry sets
//! and md-workbench's rule for the phases. The token rules are `crate::optparse`'s
//! (md-workbench shares IOR's `option.c`).

use engine::EngineConfig;
use workload::mdworkbench::Phases;

use super::options::{Target, TABLE};
use super::{MdWorkbenchCommand, UsageError};
use crate::optparse::{Fields, Given, Slot};

#[derive(Default)]
struct Parser {
    cmd: MdWorkbenchCommand,
    /// `-1 -2 -3` as given: none means all three.
    phases: [u32; 3],
}

/// Parses the arguments after `md-workbench`.
pub fn parse(args: &[String]) -> Result<MdWorkbenchCommand, UsageError> {
    let mut p = Parser::default();
    TABLE.parse(&mut p, args)?;
    Ok(p.finish())
}

impl Fields<Target> for Parser {
    fn slot(&mut self, t: Target) -> Slot<'_> {
        let p = &mut self.cmd.params;
        match t {
            Target::Precreate => Slot::Count(&mut self.phases[0]),
            Target::Benchmark => Slot::Count(&mut self.phases[1]),
            Target::Cleanup => Slot::Count(&mut self.phases[2]),
            Target::ReadOnly => Slot::Bool(&mut p.read_only),
            Target::IgnoreErrors => Slot::Bool(&mut p.ignore_precreate_errors),
            Target::VerifyRead => Slot::Bool(&mut p.verify_read),
            Target::WearOut => Slot::Bool(&mut p.wear_out),
            Target::AdaptiveWaiting => Slot::Bool(&mut p.adaptive_waiting),
            Target::Quiet => Slot::Bool(&mut p.quiet),
            Target::ProcessReports => Slot::Bool(&mut p.process_reports),
            Target::DetailedStats => Slot::Bool(&mut p.detailed_stats),
            Target::Verbose => Slot::Count(&mut p.verbose),
            Target::Help => Slot::Bool(&mut self.cmd.launch.help),
            Target::DryRun => Slot::Bool(&mut self.cmd.dry_run),
            other => unreachable!("{other:?} is not a flag in the option table"),
        }
    }

    fn set(&mut self, t: Target, v: Given) -> Result<(), String> {
        let p = &mut self.cmd.params;
        match t {
            Target::Api => {
                let info = engine::lookup(v.text.trim())
                    .and_then(|i| i.for_metadata())
                    .map_err(|e| e.to_string())?;
                p.engine.api = info.name.to_string();
            }
            Target::RunInfoFile => p.run_info_file = v.path(),
            Target::StartItem => p.start_item = Some(v.size()?),
            Target::Dir => p.dir = v.path(),
            Target::Offset => p.offset = v.size()?,
            Target::ObjectsPerSet => p.objects_per_set = v.size()?,
            Target::PrecreatePerSet => p.precreate_per_set = v.size()?,
            Target::DataSets => p.data_sets = v.size()?,
            Target::ObjectSize => p.object_size = v.size()?,
            Target::Seed => p.seed = Some(v.signed()?).filter(|&s| s != -1),
            Target::DataPacket => p.data_packet = v.data_packet()?,
            Target::Iterations => p.iterations = v.small()?,
            Target::Stonewall => p.stonewall_s = v.time()?,
            Target::Waiting => p.waiting_factor = v.time()?,
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

impl Parser {
    fn finish(mut self) -> MdWorkbenchCommand {
        let [pre, bench, clean] = self.phases.map(|n| n > 0);
        // md-workbench's rule: with none of -1 -2 -3, all three phases run.
        if pre || bench || clean {
            self.cmd.params.phases = Phases {
                precreate: pre,
                benchmark: bench,
                cleanup: clean,
            };
        }
        self.cmd
    }
}
