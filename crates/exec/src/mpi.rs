//! MPI ranks (feature `mpi`): one rank per process, started by mpirun, mpiexec or srun.
//!
//! [`init`] starts MPI and learns every rank's host; [`MpiWorld::run`] runs a job on the first
//! `n` ranks of the world with an [`MpiComm`], the same [`Comm`] the workloads see with thread
//! ranks. Collectives map to MPI's own (barrier, allgather(v), gather(v), bcast, allreduce), so
//! their cost is what the MPI library makes of them, never a funnel through rank 0 unless the
//! operation is a gather to rank 0. Point-to-point messages travel on a duplicate of the job's
//! communicator, so they never match a collective.
//!
//! Failure: MPI offers no way to wake a rank that waits in a collective for a dead peer, so a
//! rank other than 0 that fails reports "rank N: error" on its own stderr and calls
//! `MPI_Abort`; the launcher then ends every process. Rank 0 gets its failure back like a
//! thread rank does, so the command can save what it has before it calls [`MpiWorld::abort`].

use std::cell::Cell;
use std::io::Write;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

use mpi::collective::SystemOperation;
use mpi::datatype::PartitionMut;
use mpi::environment::Universe;
use mpi::raw::AsRaw;
use mpi::topology::{Color, SimpleCommunicator};
use mpi::traits::*;
use mpi::Count;

/// MPI's C interface (mpi-sys), for the crates that call what rsmpi does not wrap (MPI-IO).
pub use mpi::ffi;

use crate::threads::{panic_text, RankFailure, RankOutcome};
use crate::{Comm, CommError, Message, NodeMap, ReduceOp};

/// The stderr a rank other than 0 reports failures on (its fd 1 and 2 go to /dev/null, so
/// N copies of every line do not reach the user).
static REPORT_FD: OnceLock<OwnedFd> = OnceLock::new();

/// MPI was started in this process ([`init`]).
static STARTED: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// The communicator of the job [`MpiWorld::run`] is running on this thread, for the
    /// engines of MPI's own I/O (MPI-IO, parallel HDF5), which open a shared file on it.
    static JOB_COMM: Cell<Option<mpi::ffi::MPI_Comm>> = const { Cell::new(None) };
}

/// Sets [`JOB_COMM`] for the life of a job's body.
struct JobComm;

impl JobComm {
    fn set(raw: mpi::ffi::MPI_Comm) -> JobComm {
        JOB_COMM.with(|c| c.set(Some(raw)));
        JobComm
    }
}

impl Drop for JobComm {
    fn drop(&mut self) {
        JOB_COMM.with(|c| c.set(None));
    }
}

/// Whether this process runs as an MPI rank (MPI started by [`init`]).
pub fn started() -> bool {
    STARTED.load(Ordering::Acquire)
}

/// The communicator of the job this rank is running (valid until the job's body returns);
/// `None` outside a job. MPI-IO's collective opens use it.
pub fn job_comm() -> Option<mpi::ffi::MPI_Comm> {
    JOB_COMM.with(Cell::get)
}

/// MPI for the life of the process; dropping it calls `MPI_Finalize`.
pub struct Mpi {
    _universe: Universe,
    world: MpiWorld,
}

impl Mpi {
    pub fn world(&self) -> &MpiWorld {
        &self.world
    }
}

/// Who this process is in `MPI_COMM_WORLD` and where every rank runs.
#[derive(Debug, Clone)]
pub struct MpiWorld {
    rank: usize,
    size: usize,
    /// `MPI_Get_processor_name` of every rank, by rank.
    hosts: Vec<String>,
}

/// Starts MPI (funneled: only the thread that started it makes MPI calls) and gathers the
/// ranks' host names. Ranks other than 0 get a quiet stdout and stderr.
pub fn init() -> Result<Mpi, String> {
    let (universe, _level) = mpi::initialize_with_threading(mpi::Threading::Funneled)
        .ok_or("MPI was already initialised")?;
    let world = SimpleCommunicator::world();
    let rank = world.rank() as usize;
    let size = world.size() as usize;
    let host = mpi::environment::processor_name().unwrap_or_else(|_| "unknown".to_string());
    let all = all_gather(&world, host.as_bytes());
    let hosts = all
        .iter()
        .map(|h| String::from_utf8_lossy(h).into_owned())
        .collect();
    if rank != 0 {
        quiet_stdio();
    }
    STARTED.store(true, Ordering::Release);
    Ok(Mpi {
        _universe: universe,
        world: MpiWorld { rank, size, hosts },
    })
}

/// Points fd 1 and 2 at /dev/null, keeping a copy of stderr for [`report`].
fn quiet_stdio() {
    let _ = std::io::stdout().flush();
    // SAFETY: dup/open/dup2 on descriptors this process owns; a failure leaves output as is.
    unsafe {
        let saved = libc::dup(2);
        if saved < 0 {
            return;
        }
        let _ = REPORT_FD.set(OwnedFd::from_raw_fd(saved));
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
        if null >= 0 {
            libc::dup2(null, 1);
            libc::dup2(null, 2);
            libc::close(null);
        }
    }
}

/// Writes a line to this rank's real stderr, also on ranks whose stderr is quiet.
pub fn report(line: &str) {
    let text = format!("{line}\n");
    match REPORT_FD.get() {
        Some(fd) => {
            // SAFETY: `fd` is a descriptor this process owns for its whole life.
            let _ = unsafe { libc::write(fd.as_raw_fd(), text.as_ptr().cast(), text.len()) };
        }
        None => {
            let _ = std::io::stderr().write_all(text.as_bytes());
        }
    }
}

impl MpiWorld {
    pub fn rank(&self) -> usize {
        self.rank
    }
    pub fn size(&self) -> usize {
        self.size
    }
    pub fn hosts(&self) -> &[String] {
        &self.hosts
    }

    /// The node map of the first `ranks` ranks from their host names.
    pub fn host_map(&self, ranks: usize) -> NodeMap {
        NodeMap::from_hosts(&self.hosts[..ranks.clamp(1, self.size)])
    }

    /// Runs `body` as this process's rank of a job made of world ranks `0..ranks`; a call every
    /// world rank makes (it splits the world). Returns this process's outcome, or nothing on a
    /// rank outside the job. A rank other than 0 that fails reports and aborts the job.
    pub fn run<T, E, F>(&self, ranks: usize, node_map: NodeMap, body: F) -> Vec<RankOutcome<T, E>>
    where
        E: std::fmt::Display,
        F: FnOnce(&MpiComm) -> Result<T, E>,
    {
        assert!((1..=self.size).contains(&ranks), "1..=size ranks");
        assert_eq!(node_map.ranks(), ranks, "node map covers every rank");
        let world = SimpleCommunicator::world();
        let inside = self.rank < ranks;
        let color = if inside {
            Color::with_value(0)
        } else {
            Color::undefined()
        };
        let Some(comm) = world.split_by_color(color) else {
            return Vec::new();
        };
        let p2p = comm.duplicate();
        let comm = MpiComm {
            rank: self.rank,
            size: ranks,
            comm,
            p2p,
            node_map,
            sent: (0..ranks).map(|_| AtomicU64::new(0)).collect(),
            received: (0..ranks).map(|_| AtomicU64::new(0)).collect(),
        };
        let _job = JobComm::set(comm.comm.as_raw());
        let outcome = match catch_unwind(AssertUnwindSafe(|| body(&comm))) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(RankFailure::Error(e)),
            Err(payload) => Err(RankFailure::Panic(panic_text(&payload))),
        };
        match &outcome {
            // Every rank of the job got here: a collective is safe.
            Ok(_) => comm.drain(),
            // Rank 0 saves its results first and then aborts (`abort`).
            Err(_) if self.rank == 0 => {}
            Err(RankFailure::Error(e)) => comm.fail(&e.to_string()),
            Err(RankFailure::Panic(m)) => comm.fail(&format!("panicked: {m}")),
        }
        vec![outcome]
    }

    /// Every world rank's `data`, by rank (a call every world rank makes).
    pub fn all_gather(&self, data: &[u8]) -> Vec<Vec<u8>> {
        all_gather(&SimpleCommunicator::world(), data)
    }

    /// World rank 0's `data` on every world rank (the others' argument is ignored).
    pub fn broadcast(&self, data: &[u8]) -> Vec<u8> {
        let world = SimpleCommunicator::world();
        let root = world.process_at_rank(0);
        let mut len = data.len() as u64;
        root.broadcast_into(&mut len);
        let mut buf = if self.rank == 0 {
            data.to_vec()
        } else {
            vec![0u8; len as usize]
        };
        if len > 0 {
            root.broadcast_into(&mut buf[..]);
        }
        buf
    }

    /// Ends every process of the job with `code` (after rank 0 saved what it had).
    pub fn abort(&self, code: i32) -> ! {
        let _ = std::io::stdout().flush();
        SimpleCommunicator::world().abort(code)
    }
}

/// One MPI rank's handle on a job.
pub struct MpiComm {
    rank: usize,
    size: usize,
    comm: SimpleCommunicator,
    /// A duplicate of `comm` for point-to-point messages.
    p2p: SimpleCommunicator,
    node_map: NodeMap,
    /// Point-to-point messages sent to / received from each rank, so that [`MpiComm::drain`]
    /// can take the leftovers of a protocol (find's unanswered steal requests) before the
    /// communicator is freed.
    sent: Vec<AtomicU64>,
    received: Vec<AtomicU64>,
}

impl MpiComm {
    /// Receives and drops the point-to-point messages sent to this rank that nobody took
    /// (MPI must not free a communicator with messages pending, and some transports warn).
    /// Collective: every rank tells every other how many messages it sent it.
    fn drain(&self) {
        let sent: Vec<u64> = self
            .sent
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .collect();
        let mut to_me = vec![0u64; self.size];
        self.comm.all_to_all_into(&sent[..], &mut to_me[..]);
        for (source, &expected) in to_me.iter().enumerate() {
            let at = self.p2p.process_at_rank(source as i32);
            while self.received[source].load(Ordering::Relaxed) < expected {
                let _ = at.matched_probe().matched_receive_vec::<u8>();
                self.received[source].fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

// SAFETY: MPI is initialised `Funneled`: a rank's handle is only ever used by the thread that
// started MPI (the process's one rank); the bounds exist because `Comm` is shared by reference
// with code written for thread ranks.
unsafe impl Send for MpiComm {}
unsafe impl Sync for MpiComm {}

/// A buffer address MPI cannot mistake for `MPI_IN_PLACE`. Open MPI defines that as
/// `(void *) 1`, which is exactly where Rust puts an empty `[u8]`; an empty slice of a real
/// array has a real address.
static EMPTY: [u8; 1] = [0];

fn send_buf(data: &[u8]) -> &[u8] {
    if data.is_empty() {
        &EMPTY[..0]
    } else {
        data
    }
}

/// A receive buffer of `len` bytes with a real address even when `len` is 0.
fn recv_buf(len: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(len.max(1));
    v.resize(len, 0);
    v
}

/// Every rank's `data`, by rank (MPI_Allgather of the lengths, then MPI_Allgatherv).
fn all_gather(comm: &SimpleCommunicator, data: &[u8]) -> Vec<Vec<u8>> {
    let size = comm.size() as usize;
    let mut counts: Vec<Count> = vec![0; size];
    comm.all_gather_into(&(data.len() as Count), &mut counts[..]);
    let (displs, total) = displacements(&counts);
    let mut buf = recv_buf(total);
    {
        let mut part = PartitionMut::new(&mut buf[..], &counts[..], &displs[..]);
        comm.all_gather_varcount_into(send_buf(data), &mut part);
    }
    split(&buf, &counts, &displs)
}

fn displacements(counts: &[Count]) -> (Vec<Count>, usize) {
    let mut displs = Vec::with_capacity(counts.len());
    let mut at: Count = 0;
    for &c in counts {
        displs.push(at);
        at += c;
    }
    (displs, at as usize)
}

fn split(buf: &[u8], counts: &[Count], displs: &[Count]) -> Vec<Vec<u8>> {
    counts
        .iter()
        .zip(displs)
        .map(|(&c, &d)| buf[d as usize..(d + c) as usize].to_vec())
        .collect()
}

fn system_op(op: ReduceOp) -> SystemOperation {
    match op {
        ReduceOp::Min => SystemOperation::min(),
        ReduceOp::Max => SystemOperation::max(),
        ReduceOp::Sum => SystemOperation::sum(),
    }
}

impl Comm for MpiComm {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.size
    }
    fn node_map(&self) -> &NodeMap {
        &self.node_map
    }

    fn barrier(&self) -> Result<(), CommError> {
        self.comm.barrier();
        Ok(())
    }

    fn all_gather_bytes(&self, data: &[u8]) -> Result<Vec<Vec<u8>>, CommError> {
        Ok(all_gather(&self.comm, data))
    }

    /// Reports and ends the whole job: MPI cannot release peers waiting in a collective.
    fn fail(&self, message: &str) {
        report(&format!("iogauge: rank {}: {message}", self.rank));
        SimpleCommunicator::world().abort(1)
    }

    fn send_to(&self, dest: usize, tag: u16, data: &[u8]) -> Result<(), CommError> {
        self.p2p
            .process_at_rank(dest as i32)
            .send_with_tag(send_buf(data), Count::from(tag));
        self.sent[dest].fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    fn try_receive(&self) -> Result<Option<Message>, CommError> {
        let Some(probed) = self.p2p.any_process().immediate_matched_probe() else {
            return Ok(None);
        };
        let (data, status) = probed.matched_receive_vec::<u8>();
        self.received[status.source_rank() as usize].fetch_add(1, Ordering::Relaxed);
        Ok(Some(Message {
            source: status.source_rank() as usize,
            tag: status.tag() as u16,
            data,
        }))
    }

    fn all_reduce_u64(&self, value: u64, op: ReduceOp) -> Result<u64, CommError> {
        let mut out = 0u64;
        self.comm.all_reduce_into(&value, &mut out, system_op(op));
        Ok(out)
    }

    fn all_reduce_f64(&self, value: f64, op: ReduceOp) -> Result<f64, CommError> {
        let mut out = 0f64;
        self.comm.all_reduce_into(&value, &mut out, system_op(op));
        Ok(out)
    }

    /// MPI_Gather of the lengths and MPI_Gatherv of the data: only `root` receives.
    fn gather_bytes(&self, data: &[u8], root: usize) -> Result<Option<Vec<Vec<u8>>>, CommError> {
        let at = self.comm.process_at_rank(root as i32);
        let len = data.len() as Count;
        if self.rank != root {
            at.gather_into(&len);
            at.gather_varcount_into(send_buf(data));
            return Ok(None);
        }
        let mut counts: Vec<Count> = vec![0; self.size];
        at.gather_into_root(&len, &mut counts[..]);
        let (displs, total) = displacements(&counts);
        let mut buf = recv_buf(total);
        {
            let mut part = PartitionMut::new(&mut buf[..], &counts[..], &displs[..]);
            at.gather_varcount_into_root(send_buf(data), &mut part);
        }
        Ok(Some(split(&buf, &counts, &displs)))
    }

    fn broadcast_bytes(&self, data: &[u8], root: usize) -> Result<Vec<u8>, CommError> {
        let at = self.comm.process_at_rank(root as i32);
        let mut len = data.len() as u64;
        at.broadcast_into(&mut len);
        let mut buf = if self.rank == root {
            data.to_vec()
        } else {
            vec![0u8; len as usize]
        };
        if len > 0 {
            at.broadcast_into(&mut buf[..]);
        }
        Ok(buf)
    }
}
