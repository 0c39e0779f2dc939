//! md-workbench's rules across options, and iogauge's refusals of the combinations that
//! would break the object FIFO (files left behind, or reads of objects not written yet).
//! Checked before any I/O; errors are bad input (exit status 2).

use plan::mdworkbench::MdWorkbenchParams;

/// The warnings md-workbench prints for a plan that runs, or why it cannot run on `ranks`.
pub fn validate(p: &MdWorkbenchParams, ranks: usize) -> Result<Vec<String>, String> {
    let mut warnings = Vec::new();
    if p.data_sets == 0 {
        return Err("-D 0: at least one data set per rank is needed".into());
    }
    let ph = &p.phases;
    if !(ph.precreate || ph.benchmark || ph.cleanup) {
        return Err("no phase to run (none of -1, -2, -3 means all three)".into());
    }
    // Every index the run may reach: the start, the precreate, the benchmark's appends.
    let reach = p
        .start_item
        .unwrap_or(0)
        .checked_add(p.precreate_per_set)
        .and_then(|n| {
            let per = p.objects_per_set.checked_mul(u64::from(p.iterations))?;
            n.checked_add(per.checked_mul(p.waiting_factors().len() as u64)?)
        })
        .and_then(|n| n.checked_mul(p.data_sets));
    if reach.is_none() {
        return Err("-P, -I, -R and -D together number more objects than iogauge can count".into());
    }
    if p.verify_read && ph.benchmark && !ph.precreate && p.seed.is_none() {
        warnings.push(
            "-X without -G in a run without the precreate: the data seed comes from the clock, \
             so objects written by an earlier run fail their check; pass that run's -G"
                .to_string(),
        );
    }
    let several = ranks > 1;
    if ph.benchmark && p.stonewall_s > 0.0 && !p.wear_out && several {
        return Err(format!(
            "-w {} without -W on {ranks} ranks: each rank would stop at its own count, so the \
             data sets no longer hold the objects the next iteration and the cleanup expect \
             (md-workbench leaves files it cannot clean up); add -W",
            p.stonewall_s
        ));
    }
    let more = p.objects_per_set > p.precreate_per_set;
    if ph.benchmark && more && p.read_only {
        return Err(format!(
            "--read-only with -I {} > -P {}: an iteration would read objects that do not exist \
             (nothing replaces what it reads); make -I at most -P",
            p.objects_per_set, p.precreate_per_set
        ));
    }
    if ph.benchmark && more {
        if several {
            return Err(format!(
                "-I {} > -P {}: with more than one rank an iteration would read objects that \
                 another rank writes in the same iteration, and may not have written yet \
                 (md-workbench warns and fails on the missing ones); make -I at most -P",
                p.objects_per_set, p.precreate_per_set
            ));
        }
        warnings.push(
            "num > precreate, this may cause the situation that no objects are available to read"
                .to_string(),
        );
    }
    // The engine's options and its own checks (S3: the endpoint and credentials resolve).
    engine::check(&p.engine, &engine::Workload::Metadata)?;
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan::mdworkbench::Phases;

    fn plan(f: impl Fn(&mut MdWorkbenchParams)) -> MdWorkbenchParams {
        let mut p = MdWorkbenchParams::default();
        f(&mut p);
        p
    }

    #[test]
    fn fifo_breaking_combinations_are_refused() {
        assert_eq!(validate(&MdWorkbenchParams::default(), 4), Ok(vec![]));
        let no_wear_out = plan(|p| p.stonewall_s = 5.0);
        assert!(validate(&no_wear_out, 2).unwrap_err().contains("add -W"));
        assert_eq!(validate(&no_wear_out, 1), Ok(vec![]));
        let with = plan(|p| {
            p.stonewall_s = 5.0;
            p.wear_out = true;
        });
        assert_eq!(validate(&with, 8), Ok(vec![]));
        let more = plan(|p| p.objects_per_set = 4000);
        assert!(validate(&more, 2)
            .unwrap_err()
            .starts_with("-I 4000 > -P 3000"));
        assert_eq!(validate(&more, 1).unwrap().len(), 1);
        let ro = plan(|p| {
            p.objects_per_set = 4000;
            p.read_only = true;
        });
        assert!(validate(&ro, 1)
            .unwrap_err()
            .starts_with("--read-only with -I 4000"));
        let only_clean = plan(|p| {
            p.objects_per_set = 4000;
            p.phases = Phases {
                precreate: false,
                benchmark: false,
                cleanup: true,
            };
        });
        assert_eq!(validate(&only_clean, 2), Ok(vec![]));
        assert!(validate(&plan(|p| p.data_sets = 0), 1).is_err());
        let unseeded = plan(|p| {
            p.verify_read = true;
            p.phases = Phases {
                precreate: false,
                benchmark: true,
                cleanup: false,
            };
        });
        assert!(validate(&unseeded, 1).unwrap()[0].starts_with("-X without -G"));
        let seeded = plan(|p| {
            p.seed = Some(3);
            p.verify_read = true;
        });
        assert_eq!(validate(&seeded, 1), Ok(vec![]));
        assert!(validate(&plan(|p| p.precreate_per_set = u64::MAX), 1).is_err());
    }
}
