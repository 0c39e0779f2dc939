mod bad_input;
mod files;
mod output;
mod rerun;
mod stonewall;
mod verify;
