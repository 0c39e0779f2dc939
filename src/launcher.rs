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
    pub tasks: u64,
}

/// Variables that hold the number of tasks of a parallel job, by launcher. Slurm's
/// `SLURM_NTASKS` is not among them: it is also set inside a batch script that runs iogauge
/// once, without srun; `SLURM_STEP_NUM_TASKS` is set for srun's job steps only.
const SIZE_VARIABLES: &[(&str, &str)] = &[
    ("Open MPI", "OMPI_COMM_WORLD_SIZE"),
    ("MPICH/Hydra", "PMI_SIZE"),
    ("MVAPICH", "MV2_COMM_WORLD_SIZE"),
    ("Intel MPI", "MPI_LOCALNRANKS"),
    ("Slurm srun", "SLURM_STEP_NUM_TASKS"),
];

/// `lookup` reads one environment variable (a parameter so tests need no real environment).
pub fn detect(lookup: impl Fn(&str) -> Option<String>) -> Option<Launched> {
    SIZE_VARIABLES.iter().find_map(|&(launcher, variable)| {
        let tasks = lookup(variable)?.trim().parse::<u64>().ok()?;
        (tasks > 1).then_some(Launched {
            launcher,
            variable,
            tasks,
        })
    })
}

/// The refusal printed before exiting with status 2.
pub fn refusal(l: &Launched) -> String {
    format!(
        "iogauge: started by {} as one of {} tasks ({}={}), but this iogauge has no MPI support, \
         so every task would run its own independent benchmark on the same files. Run one \
         iogauge with thread ranks instead (`iogauge --tasks {} ...` on one node); running \
         under mpirun/srun across nodes needs an MPI build, which this version does not offer yet.",
        l.launcher, l.tasks, l.variable, l.tasks, l.tasks
    )
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
}
