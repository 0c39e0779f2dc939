//! Text forms that parsers and printers share: IOR's sizes and integers, durations, the one
//! "did you mean" rule, C's printf number forms, POSIX shell quoting and prose lists. Pure
//! functions over strings, so every command reads and writes them the same way.

mod duration;
mod list;
mod number;
mod printf;
mod quote;
mod suggest;

pub use duration::parse_duration;
pub use list::join_words;
pub use number::{human_size, parse_decimal, parse_signed, parse_size};
pub use printf::{c_exp, fixed};
pub use quote::shell_quote;
pub use suggest::suggest;
