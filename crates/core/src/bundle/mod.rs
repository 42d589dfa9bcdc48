//! The on-disk contract: what an index directory contains and how each file is written.
//!
//! `model` holds the bundle types and the schema version; `build` assembles a bundle from the graph
//! (pure); the writers turn it into `bundle.json`, Parquet tables, `graph.html`, `summary.md` and
//! `manifest.json` (with `answer_settings`: how `ask` ranks and declines with the index). Every writer is deterministic: the same input gives the same bytes.

mod answer_settings;
mod build;
mod diff;
mod facts_table;
mod html;
mod manifest;
mod model;
mod parquet_tables;
mod summary;

use std::path::Path;

use anyhow::{Context, Result};

pub use answer_settings::{
    AnswerSettings, DeclineSettings, RANKED_FIELDS, RankingSettings, fitted as fitted_answer_settings, fitted_decline,
    fitted_ranking,
};
pub use build::{BuildInput, build_bundle};
pub use diff::{CycleChange, EdgeRef, Rename, StructuralDiff, diff_bundles, render_diff_markdown};
pub use facts_table::{FACTS_FILE, FactsTable, parse_facts_table, read_facts_table, write_facts_table};
pub use html::{CodeLinks, render_graph_html};
pub use manifest::{EmbedderInfo, MANIFEST_SCHEMA_VERSION, Manifest, SelectionRecord, ToolInfo};
pub use model::*;
pub use parquet_tables::write_parquet_tables;
pub use summary::render_summary;

/// Serialises a value as JSON with every object's keys sorted, plus a trailing newline.
pub fn to_canonical_json<T: serde::Serialize>(value: &T, pretty: bool) -> Result<Vec<u8>> {
    let mut value = serde_json::to_value(value).context("cannot serialise to JSON")?;
    // Sorted explicitly because whether `serde_json::Map` keeps insertion order depends on a cargo
    // feature any dependency can switch on (lancedb's tree does); sorting in place rehashes nothing.
    value.sort_all_objects();
    let mut bytes = if pretty { serde_json::to_vec_pretty(&value)? } else { serde_json::to_vec(&value)? };
    bytes.push(b'\n');
    Ok(bytes)
}

/// Reads `dir/bundle.json`, refusing a bundle of another schema version.
pub fn read_bundle(dir: &Path) -> Result<Bundle> {
    let path = dir.join("bundle.json");
    let bytes =
        std::fs::read(&path).with_context(|| format!("cannot read {}; run `strata index` first", path.display()))?;
    parse_bundle(&bytes, &path.display().to_string())
}

/// Checks and parses the bytes of `bundle.json` read from `path` (a file or a URL, for the messages).
pub fn parse_bundle(bytes: &[u8], path: &str) -> Result<Bundle> {
    let bundle: Bundle = serde_json::from_slice(bytes)
        .with_context(|| format!("{path} is damaged or from another strata version; re-run `strata index`"))?;
    if bundle.schema_version != BUNDLE_SCHEMA_VERSION {
        anyhow::bail!(
            "{path} is {}, this strata reads {BUNDLE_SCHEMA_VERSION}; re-run `strata index`",
            bundle.schema_version
        );
    }
    Ok(bundle)
}

/// Writes `bytes` to `dir/name` through a temporary file and a rename, so a crash never leaves half a file.
pub fn write_atomically(dir: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    let final_path = dir.join(name);
    let temporary = dir.join(format!("{name}.partial"));
    std::fs::write(&temporary, bytes).with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, &final_path).with_context(|| format!("cannot write {}", final_path.display()))
}

#[cfg(test)]
mod schema_tests;
