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
pub use manifest::{
    CHUNK_HASHES_FILE, EmbedderInfo, MANIFEST_SCHEMA_VERSION, Manifest, SelectionRecord, ToolInfo, chunk_hashes_json,
};
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

/// Reads `dir/bundle.json` (or [`BUNDLE_ZST_FILE`] when only that was fetched from object storage),
/// refusing a bundle of another schema version.
pub fn read_bundle(dir: &Path) -> Result<Bundle> {
    let path = dir.join("bundle.json");
    let compressed = dir.join(BUNDLE_ZST_FILE);
    if !path.is_file() && compressed.is_file() {
        let bytes = std::fs::read(&compressed).with_context(|| format!("cannot read {}", compressed.display()))?;
        return parse_compressed_bundle(&bytes, &compressed.display().to_string());
    }
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

/// `bundle.json` compressed with zstd, written beside it: what a reader on object storage fetches
/// instead (django's 8.1 MB bundle is 0.8 MB), the same bytes once decompressed. `bundle.json` stays
/// the artifact's contract; an index without this file is read from `bundle.json`.
pub const BUNDLE_ZST_FILE: &str = "bundle.json.zst";
/// zstd's level 9: a tenth of the JSON in a tenth of a second for django; the same input and level
/// give the same bytes.
const BUNDLE_ZST_LEVEL: i32 = 9;
/// The most a compressed bundle may expand to: a damaged or hostile file is refused, not unpacked
/// until memory runs out.
const MAX_BUNDLE_BYTES: u64 = 1 << 30;

/// The canonical JSON of `bundle.json` compressed as [`BUNDLE_ZST_FILE`].
pub fn compress_bundle_json(json: &[u8]) -> Result<Vec<u8>> {
    zstd::bulk::compress(json, BUNDLE_ZST_LEVEL).context("cannot compress bundle.json")
}

/// Parses [`BUNDLE_ZST_FILE`]'s bytes read from `path`, as [`parse_bundle`] does `bundle.json`'s.
pub fn parse_compressed_bundle(bytes: &[u8], path: &str) -> Result<Bundle> {
    parse_bundle(&decompress(bytes, path, MAX_BUNDLE_BYTES)?, path)
}

/// `bytes` decompressed, refused past `limit` bytes without reading further.
fn decompress(bytes: &[u8], path: &str, limit: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let damaged = || format!("{path} is damaged; re-run `strata index`");
    let decoder = zstd::stream::read::Decoder::new(bytes).with_context(damaged)?;
    let mut json = Vec::new();
    decoder.take(limit + 1).read_to_end(&mut json).with_context(damaged)?;
    if json.len() as u64 > limit {
        anyhow::bail!("{path} expands to more than {limit} bytes; re-run `strata index`");
    }
    Ok(json)
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_damaged_compressed_bundle_is_an_error_not_a_panic() {
        for bytes in [&b"not zstd at all"[..], &super::compress_bundle_json(b"{\"nodes\": 1}").unwrap(), &[]] {
            let error = super::parse_compressed_bundle(bytes, "x/bundle.json.zst").unwrap_err();
            assert!(format!("{error:#}").contains("x/bundle.json.zst"), "{error:#}");
        }
    }

    #[test]
    fn a_compressed_bundle_that_expands_too_far_is_refused() {
        let zeros = super::compress_bundle_json(&vec![b' '; 1 << 20]).unwrap();
        assert!(zeros.len() < 1 << 10, "a megabyte of spaces compresses to {} bytes", zeros.len());
        let error = super::decompress(&zeros, "x/bundle.json.zst", 1 << 16).unwrap_err();
        assert!(error.to_string().contains("expands to more than 65536 bytes"), "{error}");
        assert_eq!(super::decompress(&zeros, "x/bundle.json.zst", 1 << 20).unwrap().len(), 1 << 20);
    }
}
