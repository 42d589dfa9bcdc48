//! One file per subcommand. This is the only layer that prints or chooses exit codes.

mod ask;
mod bot;
mod check;
mod diff;
mod eval;
mod fetch;
mod graph;
mod impact;
mod index;
mod output;

use anyhow::{Context, Result};

pub use ask::run_ask_command;
pub use bot::run_bot_command;
pub use check::run_check_command;
pub use diff::run_diff_command;
pub use eval::run_eval_command;
pub use fetch::run_fetch_command;
pub use graph::run_graph_command;
pub use impact::run_impact_command;
pub use index::run_index_command;

/// The async runtime for LanceDB and HTTP clients; parsing keeps using rayon's pool.
fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the async runtime")
}
