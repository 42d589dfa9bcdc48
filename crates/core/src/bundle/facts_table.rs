//! `facts.parquet`: every indexed file's parsed facts and warnings, keyed by path and blob id, so the next
//! incremental run reuses them instead of reading and parsing unchanged files again. The table records
//! the facts version it was written with (Parquet key-value metadata); facts of another version are not
//! read at all, since the same bytes would now parse differently.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::metadata::KeyValue;
use serde::{Deserialize, Serialize};

use crate::python::{FACTS_VERSION, FileFacts, ParsedFile};

pub const FACTS_FILE: &str = "facts.parquet";
const FACTS_VERSION_KEY: &str = "strata.facts_version";

/// A facts table as read: the facts version that wrote it, and its files (empty when that version is
/// not this strata's).
pub struct FactsTable {
    pub facts_version: u32,
    /// Path → (blob id, parse result).
    pub files: HashMap<String, (String, ParsedFile)>,
}

/// One row: what parsing a file at a blob id produced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct StoredParse {
    facts: FileFacts,
    warnings: Vec<String>,
}

/// Writes the facts of `files` (path, blob id, parse result), in path order.
pub fn write_facts_table(dir: &Path, files: &[(&str, &str, &ParsedFile)]) -> Result<()> {
    let mut json = Vec::with_capacity(files.len());
    for (_, _, parsed) in files {
        let stored = StoredParse { facts: parsed.facts.clone(), warnings: parsed.warnings.clone() };
        json.push(serde_json::to_string(&stored)?);
    }
    let columns: Vec<(&str, ArrayRef)> = vec![
        ("path", Arc::new(StringArray::from_iter_values(files.iter().map(|(path, _, _)| *path)))),
        ("blob_id", Arc::new(StringArray::from_iter_values(files.iter().map(|(_, blob, _)| *blob)))),
        ("parse_json", Arc::new(StringArray::from_iter_values(json.iter().map(String::as_str)))),
    ];
    let batch = RecordBatch::try_from_iter(columns)?;
    let version = KeyValue::new(FACTS_VERSION_KEY.to_string(), FACTS_VERSION.to_string());
    super::parquet_tables::write_batch(&batch, dir, FACTS_FILE, vec![version])
}

/// Reads a facts table; its rows only when they are this strata's facts version. Tables written
/// before versions were recorded are version 1.
pub fn read_facts_table(dir: &Path) -> Result<FactsTable> {
    let path = dir.join(FACTS_FILE);
    let file = std::fs::File::open(&path).with_context(|| format!("cannot open {}", path.display()))?;
    facts_of(ParquetRecordBatchReaderBuilder::try_new(file)?)
}

/// The facts table in `bytes`, read from `path` (a file or a URL, for the message).
pub fn parse_facts_table(bytes: bytes::Bytes, path: &str) -> Result<FactsTable> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(bytes)
        .with_context(|| format!("{path} is not a facts table; re-run `strata index`"))?;
    facts_of(builder)
}

fn facts_of<R: parquet::file::reader::ChunkReader + 'static>(
    builder: ParquetRecordBatchReaderBuilder<R>,
) -> Result<FactsTable> {
    let recorded = builder.metadata().file_metadata().key_value_metadata().and_then(|pairs| {
        let pair = pairs.iter().find(|pair| pair.key == FACTS_VERSION_KEY)?;
        Some(pair.value.as_deref()?.parse::<u32>())
    });
    let facts_version =
        recorded.transpose().with_context(|| format!("{FACTS_FILE} has an unreadable facts version"))?;
    let facts_version = facts_version.unwrap_or(1);
    if facts_version != FACTS_VERSION {
        return Ok(FactsTable { facts_version, files: HashMap::new() });
    }
    let reader = builder.build()?;
    let mut facts = HashMap::new();
    for batch in reader {
        let batch = batch?;
        let column = |name: &str| -> Result<StringArray> {
            let array = batch.column_by_name(name).with_context(|| format!("{FACTS_FILE} has no column {name}"))?;
            array
                .as_any()
                .downcast_ref::<StringArray>()
                .cloned()
                .with_context(|| format!("{FACTS_FILE} column {name} is not text"))
        };
        let (paths, blobs, parses) = (column("path")?, column("blob_id")?, column("parse_json")?);
        for row in 0..batch.num_rows() {
            if paths.is_null(row) || blobs.is_null(row) || parses.is_null(row) {
                anyhow::bail!("{FACTS_FILE} has an empty cell in row {row}");
            }
            let stored: StoredParse = serde_json::from_str(parses.value(row))
                .with_context(|| format!("{FACTS_FILE} row {row} does not hold this version's facts"))?;
            let parsed = ParsedFile { facts: stored.facts, warnings: stored.warnings };
            facts.insert(paths.value(row).to_string(), (blobs.value(row).to_string(), parsed));
        }
    }
    Ok(FactsTable { facts_version, files: facts })
}
