mod bad_input;
mod files;
mod output;
mod queued;
mod rerun;
mod stonewall;
mod verify;
