mod bad_input;
mod counts;
mod layout;
mod output;
mod stonewall;
mod verify;
