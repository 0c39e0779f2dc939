//! I/O errors and short transfers (issue 18 item 5, docs/errors.md): injected by `-a DUMMY`'s
//! fault options (`injected.rs`) and, where the kernel lets us, a real device-mapper `error`
//! target (`dm_error.rs`).

mod dm_error;
mod injected;
mod rank_agreement;
