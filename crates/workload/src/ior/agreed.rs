//! `-c` with `-D`: a collective transfer must be called by every rank of the file, as often
//! as the others, or the ranks wait for each other for ever. So, as IOR does (its
//! `hitStonewall` broadcast), rank 0 alone looks at the clock and the stop flag after every
//! transfer and tells the others whether to go on: every rank stops after the same
//! transfer. The cost (one broadcast per transfer) is paid only with both options, which
//! is when IOR pays it too; the plain mover is untouched.

use exec::interrupt::{self, Stop};
use exec::Comm;
use measure::{now_ns, Recorder};

use crate::ior::error::IorError;
use crate::ior::movers::Movers;
use crate::ior::pattern::AccessPattern;

const GO_ON: u64 = 0;
const DEADLINE: u64 = 1;
const INTERRUPTED: u64 = 2;

/// Transfers `from..to` in step with the other ranks, stopping all of them once rank 0 sees
/// `deadline_ns` after `start` pass or a signal; as [`Movers::drive`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn drive(
    mover: &mut Movers,
    pattern: &AccessPattern,
    rec: &mut Recorder,
    from: u64,
    to: u64,
    start: u64,
    deadline_ns: u64,
    comm: &dyn Comm,
) -> Result<(u64, Option<Stop>), IorError> {
    let mut k = from;
    while k < to {
        (k, _) = mover.drive(pattern, rec, k, k + 1, start, 0)?;
        let mine = if comm.rank() != 0 {
            GO_ON
        } else if interrupt::requested() {
            INTERRUPTED
        } else if now_ns().saturating_sub(start) >= deadline_ns {
            DEADLINE
        } else {
            GO_ON
        };
        match comm.broadcast_u64(mine, 0)? {
            DEADLINE => return Ok((k, Some(Stop::Deadline))),
            INTERRUPTED => return Ok((k, Some(Stop::Interrupted))),
            _ => {}
        }
    }
    Ok((k, None))
}
