//! The progress line under mpirun, which gives rank 0 a terminal on standard output only: it
//! is drawn there, and says that it holds rank 0's share alone.

use std::process::Command;

use super::LIMIT_S;
use crate::common::{bin, shm};

#[test]
fn rank_zero_draws_its_share_on_the_terminal() {
    let d = shm();
    let line = format!(
        "timeout --kill-after=10 {LIMIT_S} mpirun --oversubscribe -np 2 {} ior -a DUMMY \
         --dummy.delay-xfer=100000 -t 1m -b 12m -w -o {}/f --no-store",
        bin().display(),
        d.path().display()
    );
    let Ok(out) = Command::new("script")
        .args(["-q", "-e", "-c", &line, "/dev/null"])
        .env("COLUMNS", "200")
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
        .output()
    else {
        eprintln!("no `script` (util-linux): skipped");
        return;
    };
    assert!(out.status.success(), "{out:?}");
    let screen = String::from_utf8_lossy(&out.stdout);
    let drawn: Vec<&str> = screen
        .split("\r\x1b[2K")
        .filter(|l| l.starts_with("write #0  "))
        .collect();
    assert!(!drawn.is_empty(), "{screen:?}");
    assert!(
        drawn.iter().all(|l| l.contains("[rank 0's 1 of 2 ranks]")),
        "{drawn:?}"
    );
}

/// Open MPI gives rank 0 a pseudo-terminal also when mpirun's own output goes to a pipe or a
/// file: no line is drawn there, so the output holds only the tool's lines.
#[test]
fn nothing_is_drawn_into_mpiruns_redirected_output() {
    let d = shm();
    let r = super::mpirun_line(
        2,
        &format!(
            "ior -a DUMMY --dummy.delay-xfer=100000 -t 1m -b 12m -w -o {}/f --no-store",
            d.path().display()
        ),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        !r.stdout.contains('\x1b') && !r.stderr.contains('\x1b'),
        "{}",
        r.stdout
    );
}
