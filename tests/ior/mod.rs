mod bad_input;
mod files;
mod output;
mod queued;
mod rerun;
mod stonewall;
mod uring_refusals;
mod verify;
