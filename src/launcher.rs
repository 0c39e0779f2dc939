//! Was this process started by a parallel launcher (mpirun, mpiexec, srun)?
//!
//! A build without MPI that a launcher starts N times would run N independent single-rank
//! jobs that overwrite each other's files and report N unrelated results (hpc/ior#471). We
//! detect the launchers' environment and stop before any I/O instead.

/// A launcher that started more than one task, and the variable that says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launched {
    pub launcher: &'static str,
    pub variable: &'static str,
    /// Tasks started, or at least this many where `exact` is false.
    pub tasks: u64,
    pub exact: bool,
}

/// Variables that hold the number of tasks of a parallel job, by launcher. Slurm's
/// `SLURM_NTASKS` is not among them: it is also set inside a batch script that runs iogauge
/// once, without srun; `SLURM_STEP_NUM_TASKS` is set for srun's job steps only.
const SIZE_VARIABLES: &[(&str, &str)] = &[
    ("Open MPI", "OMPI_COMM_WORLD_SIZE"),
    ("MPICH/Hydra", "PMI_SIZE"),
    ("MVAPICH", "MV2_COMM_WORLD_SIZE"),
    // Ranks on this node only: a lower bound for the job (see `BOUND_VARIABLES`).
    ("Intel MPI", "MPI_LOCALNRANKS"),
    ("Slurm srun", "SLURM_STEP_NUM_TASKS"),
];

/// Variables that hold this task's rank where no size variable is set (PMIx without a
/// launcher-specific variable): a rank above 0 means more than one task.
const RANK_VARIABLES: &[(&str, &str)] = &[("PMIx", "PMIX_RANK")];

/// Size variables that count only part of the job.
const BOUND_VARIABLES: &[&str] = &["MPI_LOCALNRANKS"];

/// A launcher that started this process, with the number of tasks it started (for a
/// rank-only variable, at least rank + 1). `lookup` reads one environment variable (a
/// parameter so tests need no real environment).
pub fn launched(lookup: impl Fn(&str) -> Option<String>) -> Option<Launched> {
    let read = |v: &str| lookup(v)?.trim().parse::<u64>().ok();
    let by_size = SIZE_VARIABLES.iter().find_map(|&(launcher, variable)| {
        let tasks = read(variable)?;
        Some(Launched {
            launcher,
            variable,
            tasks,
            exact: !BOUND_VARIABLES.contains(&variable),
        })
    });
    by_size.or_else(|| {
        RANK_VARIABLES.iter().find_map(|&(launcher, variable)| {
            Some(Launched {
                launcher,
                variable,
                tasks: read(variable)? + 1,
                exact: false,
            })
        })
    })
}

/// A launcher that started more than one task.
#[cfg_attr(feature = "mpi", allow(dead_code))]
pub fn detect(lookup: impl Fn(&str) -> Option<String>) -> Option<Launched> {
    launched(lookup).filter(|l| l.tasks > 1)
}

/// The refusal a build without MPI prints before exiting with status 2.
#[cfg_attr(feature = "mpi", allow(dead_code))]
pub fn refusal(l: &Launched) -> String {
    format!(
        "iogauge: started by {} as one of {} tasks ({}), but this iogauge was built without MPI, \
         so every task would run its own independent benchmark on the same files. Build it with \
         MPI (`cargo build --release --features mpi`, needs Open MPI or MPICH and libclang; see \
         docs/mpi.md) and start that binary with mpirun/srun, or run one iogauge with thread \
         ranks on one node (`iogauge --tasks {} ...`).",
        l.launcher,
        if l.exact {
            l.tasks.to_string()
        } else {
            format!("at least {}", l.tasks)
        },
        if l.variable.ends_with("RANK") {
            format!("{}={}", l.variable, l.tasks - 1)
        } else {
            format!("{}={}", l.variable, l.tasks)
        },
        l.tasks
    )
}

/// An MPI world whose size differs from what the launcher started: the MPI library was not
/// wired to the launcher (e.g. srun without `--mpi=pmix`), so each task is a world of its own.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub fn size_mismatch(l: &Launched, mpi_size: usize) -> Option<String> {
    let wrong = if l.exact {
        mpi_size as u64 != l.tasks
    } else {
        (mpi_size as u64) < l.tasks
    };
    wrong.then(|| {
        format!(
            "iogauge: {} started {}{} tasks ({}), but MPI sees {mpi_size} rank(s): the MPI library \
             did not connect to the launcher (with Slurm try `srun --mpi=pmix` or `--mpi=pmi2`; \
             see `srun --mpi=list`), so the tasks would run independent benchmarks on the same files",
            l.launcher,
            if l.exact { "" } else { "at least " },
            l.tasks,
            l.variable
        )
    })
}

/// `srun -n N` (N > 1) that gave the tasks no process-management interface (`--mpi=none`, or
/// `MpiDefault=none` in slurm.conf): no PMIx nor PMI variable is set, so MPI cannot join
/// the tasks into one world. Open MPI then aborts inside `MPI_Init` with a page of text
/// and status 1; this says what to do, before MPI starts, with status 2.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub fn srun_without_pmi(lookup: impl Fn(&str) -> Option<String>) -> Option<String> {
    let tasks = lookup("SLURM_STEP_NUM_TASKS")?.trim().parse::<u64>().ok()?;
    let wired = ["PMIX_RANK", "PMI_RANK", "PMI_FD", "OMPI_COMM_WORLD_SIZE"]
        .iter()
        .any(|v| lookup(v).is_some());
    (tasks > 1 && !wired).then(|| {
        format!(
            "iogauge: srun started {tasks} tasks (SLURM_STEP_NUM_TASKS={tasks}) without a \
             process-management interface (srun --mpi=none, or MpiDefault=none in slurm.conf), \
             so MPI cannot join them into one job; use `srun --mpi=pmix` (see `srun --mpi=list` \
             and docs/mpi.md, \"Slurm\")"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn launchers_with_several_tasks_are_detected() {
        let l = detect(env(&[("OMPI_COMM_WORLD_SIZE", "4")])).unwrap();
        assert_eq!((l.launcher, l.tasks), ("Open MPI", 4));
        assert_eq!(
            detect(env(&[("PMI_SIZE", "2")])).unwrap().launcher,
            "MPICH/Hydra"
        );
        assert_eq!(
            detect(env(&[("SLURM_STEP_NUM_TASKS", "16")]))
                .unwrap()
                .tasks,
            16
        );
        assert!(refusal(&l).contains("OMPI_COMM_WORLD_SIZE=4"));
    }

    #[test]
    fn single_tasks_and_batch_scripts_run() {
        assert_eq!(detect(env(&[])), None);
        assert_eq!(detect(env(&[("OMPI_COMM_WORLD_SIZE", "1")])), None);
        assert_eq!(
            detect(env(&[("SLURM_NTASKS", "64")])),
            None,
            "a batch script, not srun"
        );
        assert_eq!(detect(env(&[("PMI_SIZE", "garbage")])), None);
    }

    #[test]
    fn any_launcher_is_seen_and_pmix_ranks_count() {
        let one = launched(env(&[("OMPI_COMM_WORLD_SIZE", "1")])).unwrap();
        assert_eq!((one.launcher, one.tasks), ("Open MPI", 1));
        assert_eq!(detect(env(&[("PMIX_RANK", "0")])), None);
        let p = detect(env(&[("PMIX_RANK", "3")])).unwrap();
        assert_eq!((p.launcher, p.tasks), ("PMIx", 4));
        assert!(
            refusal(&p).contains("at least 4 tasks (PMIX_RANK=3)"),
            "{}",
            refusal(&p)
        );
        assert!(refusal(&one).contains("--features mpi"));
    }

    #[test]
    fn an_mpi_world_that_does_not_match_the_launcher_is_caught() {
        let srun = launched(env(&[("SLURM_STEP_NUM_TASKS", "16")])).unwrap();
        assert!(size_mismatch(&srun, 1).unwrap().contains("--mpi=pmix"));
        assert_eq!(size_mismatch(&srun, 16), None);
        let pmix = launched(env(&[("PMIX_RANK", "3")])).unwrap();
        assert_eq!(size_mismatch(&pmix, 8), None);
        assert!(size_mismatch(&pmix, 1).is_some());
    }

    #[test]
    fn srun_without_a_pmi_is_named() {
        let none = env(&[("SLURM_STEP_NUM_TASKS", "4")]);
        assert!(srun_without_pmi(none).unwrap().contains("srun --mpi=pmix"));
        let pmix = env(&[("SLURM_STEP_NUM_TASKS", "4"), ("PMIX_RANK", "2")]);
        assert_eq!(srun_without_pmi(pmix), None);
        let pmi2 = env(&[("SLURM_STEP_NUM_TASKS", "4"), ("PMI_FD", "11")]);
        assert_eq!(srun_without_pmi(pmi2), None);
        assert_eq!(
            srun_without_pmi(env(&[("SLURM_STEP_NUM_TASKS", "1")])),
            None
        );
    }
}
