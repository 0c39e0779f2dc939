mod bad_input;
mod counts;
mod layout;
mod output;
mod rerun;
mod stonewall;
mod verify;
