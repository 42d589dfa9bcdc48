//! One file per subcommand. This is the only layer that prints or chooses exit codes.

mod ask;
mod bot;
mod check;
mod diff;
mod eval;
mod fetch;
mod fit;
mod graph;
mod impact;
mod index;
mod org;
pub mod output;
mod staged;

use anyhow::{Context, Result};

pub use ask::run_ask_command;
pub use bot::run_bot_command;
pub use check::run_check_command;
pub use diff::run_diff_command;
pub use eval::run_eval_command;
pub use fetch::run_fetch_command;
pub use fit::run_fit_command;
pub use graph::run_graph_command;
pub use impact::run_impact_command;
pub use index::run_index_command;

/// The graph of the commit `rev` (no search index is built) with the base index it is compared with,
/// for `impact` and `check`. A base index that cannot be used is an error, never a silent rebuild.
fn head_against_base(
    path: &std::path::Path,
    rev: &str,
    previous: Option<&strata_search::location::IndexLocation>,
    selection: &crate::cli::SelectionArgs,
) -> Result<strata_index::Head> {
    let staged = previous.map(|location| staged::stage(location, staged::BASE_FILES)).transpose()?;
    let options = selection.options();
    // The embedder is never called: it only names the vectors a full index would hold.
    let embedder = strata_search::embed::HashingEmbedder;
    let out_dir = std::env::temp_dir();
    let request = strata_index::IndexRequest {
        path,
        rev,
        out_dir: &out_dir,
        options: &options,
        embedder: &embedder,
        previous: staged.as_ref().map(staged::StagedIndex::dir),
        overlay: None,
        repository_url: None,
        graph_only: true,
        previous_without_table: previous.is_some_and(|location| location.local_dir().is_none()),
    };
    let head = runtime()?.block_on(strata_index::build_head(&request, &strata_index::Silent))?;
    if let (Some(location), None) = (previous, &head.previous) {
        anyhow::bail!(
            "the base index {location} cannot be used ({}); pass the default branch's index directory (`strata fetch` downloads it)",
            head.previous_status.trim_start_matches("rebuilt: ")
        );
    }
    Ok(head)
}

/// The async runtime for LanceDB and HTTP clients; parsing keeps using rayon's pool.
fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the async runtime")
}
