//! `facts.parquet`: every indexed file's parsed facts and warnings, keyed by path and blob id, so the next
//! incremental run reuses them instead of reading and parsing unchanged files again.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use serde::{Deserialize, Serialize};

use crate::python::{FileFacts, ParsedFile};

pub const FACTS_FILE: &str = "facts.parquet";

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
    let properties = WriterProperties::builder().set_compression(Compression::SNAPPY).build();
    let mut bytes = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut bytes, batch.schema(), Some(properties))?;
    writer.write(&batch)?;
    writer.close()?;
    super::write_atomically(dir, FACTS_FILE, &bytes)
}

/// Reads a facts table: path → (blob id, parse result).
pub fn read_facts_table(dir: &Path) -> Result<HashMap<String, (String, ParsedFile)>> {
    let path = dir.join(FACTS_FILE);
    let file = std::fs::File::open(&path).with_context(|| format!("cannot open {}", path.display()))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)?.build()?;
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
    Ok(facts)
}
