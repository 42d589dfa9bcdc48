//! One file per subcommand. This is the only layer that prints or chooses exit codes.

mod index;
mod output;

pub use index::run_index_command;
