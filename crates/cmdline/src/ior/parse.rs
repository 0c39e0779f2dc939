//! From IOR's options to an [`IorCommand`]: the field each table entry sets and IOR's rules
//! across options. The token rules are `crate::optparse`'s.

use engine::EngineConfig;
use workload::ior::SummaryFormat;

use super::options::{Target, TABLE};
use super::{IorCommand, UsageError};
use crate::optparse::{Fields, Given, Slot};

#[derive(Default)]
struct Parser {
    cmd: IorCommand,
    repetitions: Option<i64>,
    inter_test_delay: Option<f64>,
    /// `-U`: the hints file, for the module of `-a` once every option is in.
    hints_file: Option<String>,
}

/// Parses the arguments after `ior` (IOR's rules; see `crate::optparse`).
pub fn parse(args: &[String]) -> Result<IorCommand, UsageError> {
    let mut p = Parser::default();
    TABLE.parse(&mut p, args)?;
    p.finish().map_err(|e| TABLE.usage(e))
}

impl Fields<Target> for Parser {
    fn slot(&mut self, t: Target) -> Slot<'_> {
        let p = &mut self.cmd.params;
        match t {
            Target::FilePerProc => Slot::Bool(&mut p.file_per_proc),
            Target::ReorderTasks => Slot::Bool(&mut p.reorder_tasks),
            Target::ReorderTasksRandom => Slot::Count(&mut p.reorder_tasks_random),
            Target::RandomOffset => Slot::Count(&mut p.random_offset),
            Target::Fsync => Slot::Bool(&mut p.fsync),
            Target::FsyncPerWrite => Slot::Bool(&mut p.fsync_per_write),
            Target::Collective => Slot::Bool(&mut p.collective),
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
            Target::Help => Slot::Bool(&mut self.cmd.launch.help),
            other => unreachable!("{other:?} is not a flag in the option table"),
        }
    }

    fn set(&mut self, t: Target, v: Given) -> Result<(), String> {
        let p = &mut self.cmd.params;
        match t {
            Target::Api => {
                let info = engine::lookup(v.text.trim()).map_err(|e| e.to_string())?;
                p.engine.api = info.name.to_string();
            }
            Target::RefNum => p.ref_num = v.signed()?,
            Target::BlockSize => p.block_size = v.size()?,
            Target::TransferSize => p.transfer_size = v.size()?,
            Target::SegmentCount => p.segment_count = v.size()?,
            Target::TaskPerNodeOffset => p.task_per_node_offset = v.unsigned()?,
            Target::ReorderTasksRandomSeed => p.reorder_tasks_random_seed = v.signed()?,
            Target::RandomOffsetSeed => {
                p.random_offset_seed = Some(v.signed()?).filter(|&s| s != -1);
            }
            Target::Repetitions => self.repetitions = Some(v.signed()?),
            Target::InterTestDelay => self.inter_test_delay = Some(v.decimal()?),
            Target::TestFile => p.test_file = v.text.to_string(),
            Target::HintsFile => self.hints_file = Some(v.text.to_string()),
            Target::Deadline => p.deadline_for_stonewalling_s = v.time()?,
            Target::MaxTime => p.max_time_duration_min = v.time()?,
            Target::Signature => p.time_stamp_signature = Some(v.signed()?).filter(|&s| s != 0),
            Target::DataPacket => p.data_packet = v.data_packet()?,
            Target::NumTasks => {
                self.cmd.launch.tasks = match v.signed()? {
                    -1 => None,
                    n if n <= 0 => return Err(v.error("at least 1 task is needed")),
                    _ => Some(v.count()?),
                }
            }
            Target::Tasks => self.cmd.launch.tasks = Some(v.count()?),
            Target::FakeNodes => self.cmd.launch.fake_nodes = Some(v.count()?),
            Target::FakePlacement => self.cmd.launch.round_robin = v.round_robin()?,
            Target::Json => self.cmd.launch.json = Some(v.path()),
            Target::WearOut => p.stonewall_wear_out = v.signed()? != 0,
            Target::WearOutIterations => p.stonewall_wear_out_iterations = v.unsigned()?,
            Target::StatusFile => p.stonewall_status_file = Some(v.path()),
            Target::SummaryFile => p.summary_file = Some(v.path()),
            Target::RankCsv => p.rank_details_csv = Some(v.path()),
            Target::SummaryFormat => {
                p.summary_format = match v.text.trim().to_ascii_lowercase().as_str() {
                    "default" => SummaryFormat::Default,
                    "json" => SummaryFormat::Json,
                    "csv" => SummaryFormat::Csv,
                    _ => {
                        let (shown, text) = (v.shown, v.text);
                        return Err(format!("{shown}={text}: expected default, JSON or CSV"));
                    }
                }
            }
            // `-O` is the tokenizer's (TABLE.directive); the rest are flags.
            other => unreachable!("{other:?} is not a value option the parser sets"),
        }
        Ok(())
    }

    fn engine(&mut self) -> &mut EngineConfig {
        &mut self.cmd.params.engine
    }
}

impl Parser {
    /// IOR's rules across options, once every option is in.
    fn finish(mut self) -> Result<IorCommand, String> {
        let p = &mut self.cmd.params;
        if let Some(n) = self.repetitions {
            p.repetitions = if n <= 0 {
                self.cmd.warnings.push(format!(
                    "-i {n}: too few repetitions; using 1 (as IOR does)"
                ));
                1
            } else {
                u32::try_from(n).map_err(|_| format!("-i {n}: too many repetitions"))?
            };
        }
        if let Some(d) = self.inter_test_delay {
            if d < 0.0 {
                self.cmd.warnings.push(format!(
                    "-d {d}: the delay must not be negative; using 0 (as IOR does)"
                ));
            }
            p.inter_test_delay_s = d.max(0.0);
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
        // Old IOR's -U: the hints file of the MPI-IO or HDF5 module, whichever -a names (with
        // another engine the engine's checks refuse `--mpiio.hintsFileName`, naming it).
        if let Some(file) = self.hints_file {
            let module = if p.engine.api.eq_ignore_ascii_case("HDF5") {
                "hdf5"
            } else {
                "mpiio"
            };
            let name = format!("{module}.hintsFileName");
            if !p.engine.options.contains_key(&name) {
                p.engine.set(&name, engine::OptValue::Text(file));
            }
        }
        // IOR's rule: with none of -w, -r, -W, -R, both write and read run.
        if !(p.write_file || p.read_file || p.check_write || p.check_read) {
            p.write_file = true;
            p.read_file = true;
        }
        Ok(self.cmd)
    }
}
