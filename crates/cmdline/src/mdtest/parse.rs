//! From mdtest's options to an [`MdtestCommand`]: the field each table entry sets and mdtest's
//! rules across options. The token rules are `crate::optparse`'s (mdtest shares IOR's
//! `option.c`).

use engine::EngineConfig;
use workload::mdtest::Phases;

use super::options::{Target, TABLE};
use super::{MdtestCommand, UsageError};
use crate::optparse::{Fields, Given, Slot};

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
    TABLE.parse(&mut p, args)?;
    p.finish().map_err(|e| TABLE.usage(e))
}

impl Fields<Target> for Parser {
    fn slot(&mut self, t: Target) -> Slot<'_> {
        let f = &mut self.flags;
        let p = &mut self.cmd.params;
        match t {
            Target::Create => Slot::Count(&mut f.create),
            Target::Stat => Slot::Count(&mut f.stat),
            Target::ReadOnly => Slot::Count(&mut f.read),
            Target::Remove => Slot::Count(&mut f.remove),
            Target::Rename => Slot::Count(&mut f.rename),
            Target::FilesOnly => Slot::Count(&mut f.files),
            Target::DirsOnly => Slot::Count(&mut f.dirs),
            Target::Random => Slot::Count(&mut f.random),
            Target::Verbose => Slot::Count(&mut p.verbose),
            Target::LeafOnly => Slot::Bool(&mut p.leaf_only),
            Target::Unique => Slot::Bool(&mut p.unique_dir),
            Target::TimeUniqueDir => Slot::Bool(&mut p.time_unique_dir_overhead),
            Target::VerifyRead => Slot::Bool(&mut p.verify_read),
            Target::SyncFile => Slot::Bool(&mut p.sync_file),
            Target::CallSync => Slot::Bool(&mut p.call_sync),
            Target::RateAndTime => Slot::Bool(&mut p.print_rate_and_time),
            Target::PrintTime => Slot::Bool(&mut p.print_time),
            Target::RankStats => Slot::Bool(&mut p.show_rank_statistics),
            Target::Help => Slot::Bool(&mut self.cmd.launch.help),
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
            Target::Branch => p.branch = v.size()?,
            Target::Depth => p.depth = v.small()?,
            Target::Items => p.items = v.size()?,
            Target::ItemsPerDir => p.items_per_dir = v.size()?,
            Target::Dir => p.dirs = v.text.split('@').map(Into::into).collect(),
            Target::ReadBytes => p.read_bytes = v.size()?,
            Target::WriteBytes => p.write_bytes = v.size()?,
            Target::Seed => p.seed = Some(v.signed()?).filter(|&s| s != -1),
            Target::Iterations => p.iterations = v.small()?,
            Target::Stride => p.nstride = v.size()?,
            Target::RandomSeed => p.random_seed = Some(v.size()?).filter(|&s| s != 0),
            Target::VerboseValue => p.verbose = v.small()?,
            Target::Stonewall => p.stonewall_s = v.time()?,
            Target::StatusFile => p.status_file = Some(v.path()),
            Target::DataPacket => p.data_packet = v.data_packet()?,
            Target::RankCsv => p.rank_details_csv = Some(v.path()),
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
    /// mdtest's rules across options, once every option is in.
    fn finish(mut self) -> Result<MdtestCommand, String> {
        let f = &self.flags;
        let p = &mut self.cmd.params;
        if f.files > 0 && f.dirs > 0 {
            return Err(
                "-F and -D together: give -F (files only), -D (directories only) or neither (both)"
                    .to_string(),
            );
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
