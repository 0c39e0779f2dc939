mod bad_input;
mod files;
mod output;
mod stonewall;
mod verify;
