//! The on-disk contract: what an index directory contains and how each file is written.
//!
//! `model` holds the bundle types and the schema version; `build` assembles a bundle from the graph
//! (pure); the writers turn it into `bundle.json`, Parquet tables, `graph.html`, `summary.md` and
//! `manifest.json`. Every writer is deterministic: the same input gives the same bytes.

mod build;
mod html;
mod manifest;
mod model;
mod parquet_tables;
mod summary;

use std::path::Path;

use anyhow::{Context, Result};

pub use build::{BuildInput, build_bundle};
pub use html::render_graph_html;
pub use manifest::{MANIFEST_SCHEMA_VERSION, Manifest, ToolInfo};
pub use model::*;
pub use parquet_tables::write_parquet_tables;
pub use summary::render_summary;

/// Serialises a value as JSON with every object's keys sorted, plus a trailing newline.
pub fn to_canonical_json<T: serde::Serialize>(value: &T, pretty: bool) -> Result<Vec<u8>> {
    // serde_json's `Value` keeps object keys in a BTreeMap, so a round trip through it sorts them.
    let value = serde_json::to_value(value).context("cannot serialise to JSON")?;
    let mut bytes = if pretty {
        serde_json::to_vec_pretty(&value)?
    } else {
        serde_json::to_vec(&value)?
    };
    bytes.push(b'\n');
    Ok(bytes)
}

/// Writes `bytes` to `dir/name` through a temporary file and a rename, so a crash never leaves half a file.
pub fn write_atomically(dir: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    let final_path = dir.join(name);
    let temporary = dir.join(format!("{name}.partial"));
    std::fs::write(&temporary, bytes)
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, &final_path)
        .with_context(|| format!("cannot write {}", final_path.display()))
}

#[cfg(test)]
mod schema_tests;
