//! `nodes.parquet`, `edges.parquet` and `symbols.parquet`: the bundle as tables for DuckDB, pandas and
//! Polars. Rows are in the bundle's order (sorted by id / (src, dst) / (module, line)), so the files are
//! byte-identical for the same commit.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use arrow_array::builder::{ListBuilder, StringBuilder};
use arrow_array::{ArrayRef, BooleanArray, Float64Array, RecordBatch, StringArray, UInt32Array, UInt64Array};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

use super::model::{Bundle, NodeSymbol};

pub fn write_parquet_tables(bundle: &Bundle, dir: &Path) -> Result<()> {
    write_batch(&nodes_batch(bundle)?, dir, "nodes.parquet", Vec::new())?;
    write_batch(&edges_batch(bundle)?, dir, "edges.parquet", Vec::new())?;
    write_batch(&symbols_batch(bundle)?, dir, "symbols.parquet", Vec::new())
}

/// Writes one batch as `dir/name` (Snappy, atomically), with `metadata` as the file's key-value pairs.
pub(super) fn write_batch(batch: &RecordBatch, dir: &Path, name: &str, metadata: Vec<KeyValue>) -> Result<()> {
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_key_value_metadata((!metadata.is_empty()).then_some(metadata))
        .build();
    let mut bytes = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut bytes, batch.schema(), Some(properties))?;
    writer.write(batch).with_context(|| format!("cannot encode {name}"))?;
    writer.close()?;
    super::write_atomically(dir, name, &bytes)
}

fn strings<'a>(values: impl Iterator<Item = &'a str>) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(values))
}

fn optional_strings<'a>(values: impl Iterator<Item = Option<&'a str>>) -> ArrayRef {
    Arc::new(values.collect::<StringArray>())
}

fn string_lists<'a>(lists: impl Iterator<Item = &'a [String]>) -> ArrayRef {
    let mut builder = ListBuilder::new(StringBuilder::new());
    for list in lists {
        for value in list {
            builder.values().append_value(value);
        }
        builder.append(true);
    }
    Arc::new(builder.finish())
}

fn counts(values: impl Iterator<Item = usize>) -> ArrayRef {
    Arc::new(values.map(|value| value as u64).collect::<UInt64Array>())
}

fn nodes_batch(bundle: &Bundle) -> Result<RecordBatch> {
    let nodes: Vec<_> = bundle.nodes.values().collect();
    let columns: Vec<(&str, ArrayRef)> = vec![
        ("id", strings(nodes.iter().map(|n| n.id.as_str()))),
        ("module", strings(nodes.iter().map(|n| n.module.as_str()))),
        ("folder", strings(nodes.iter().map(|n| n.folder.as_str()))),
        ("is_package", Arc::new(nodes.iter().map(|n| Some(n.is_package)).collect::<BooleanArray>())),
        ("docstring", optional_strings(nodes.iter().map(|n| n.docstring.as_deref()))),
        ("imports_count", counts(nodes.iter().map(|n| n.imports_count))),
        ("importers_count", counts(nodes.iter().map(|n| n.importers_count))),
        ("direct_importers_count", counts(nodes.iter().map(|n| n.direct_importers_count))),
        ("scc_size", counts(nodes.iter().map(|n| n.scc_size))),
        ("scc_size_runtime", counts(nodes.iter().map(|n| n.scc_size_runtime))),
        ("pagerank", Arc::new(nodes.iter().map(|n| Some(n.pagerank)).collect::<Float64Array>())),
        ("exports", string_lists(nodes.iter().map(|n| n.exports.as_slice()))),
        ("stdlib_imports", string_lists(nodes.iter().map(|n| n.external_imports.stdlib.as_slice()))),
        ("third_party_imports", string_lists(nodes.iter().map(|n| n.external_imports.third_party.as_slice()))),
        ("n_symbols", counts(nodes.iter().map(|n| n.symbols.len()))),
        ("n_lines", Arc::new(nodes.iter().map(|n| Some(n.n_lines)).collect::<UInt32Array>())),
        ("parse_status", strings(nodes.iter().map(|n| n.parse_status.as_str()))),
    ];
    Ok(RecordBatch::try_from_iter(columns)?)
}

fn edges_batch(bundle: &Bundle) -> Result<RecordBatch> {
    let edges = &bundle.edges;
    let flags = |flag: fn(&super::BundleEdge) -> bool| -> ArrayRef {
        Arc::new(edges.iter().map(|e| Some(flag(e))).collect::<BooleanArray>())
    };
    let columns: Vec<(&str, ArrayRef)> = vec![
        ("src", strings(edges.iter().map(|e| e.src.as_str()))),
        ("dst", strings(edges.iter().map(|e| e.dst.as_str()))),
        ("kind", strings(edges.iter().map(|e| e.kind.as_str()))),
        ("type_checking", flags(|e| e.type_checking)),
        ("main_block", flags(|e| e.main_block)),
        ("conditional", flags(|e| e.conditional)),
        ("local", flags(|e| e.local)),
        ("line", Arc::new(edges.iter().map(|e| Some(e.line)).collect::<UInt32Array>())),
        ("names", string_lists(edges.iter().map(|e| e.names.as_slice()))),
    ];
    Ok(RecordBatch::try_from_iter(columns)?)
}

/// One row per class, function and method, with the class name as the qualifier for methods.
fn symbols_batch(bundle: &Bundle) -> Result<RecordBatch> {
    let mut rows: Vec<(&str, String, &NodeSymbol)> = Vec::new();
    for node in bundle.nodes.values() {
        for symbol in &node.symbols {
            rows.push((&node.id, symbol.name.clone(), symbol));
            for method in &symbol.methods {
                rows.push((&node.id, format!("{}.{}", symbol.name, method.name), method));
            }
        }
    }
    let columns: Vec<(&str, ArrayRef)> = vec![
        ("module_id", strings(rows.iter().map(|(id, _, _)| *id))),
        ("qualname", strings(rows.iter().map(|(_, qualname, _)| qualname.as_str()))),
        ("name", strings(rows.iter().map(|(_, _, s)| s.name.as_str()))),
        ("kind", strings(rows.iter().map(|(_, _, s)| s.kind.as_str()))),
        ("line_start", Arc::new(rows.iter().map(|(_, _, s)| Some(s.line_start)).collect::<UInt32Array>())),
        ("line_end", Arc::new(rows.iter().map(|(_, _, s)| Some(s.line_end)).collect::<UInt32Array>())),
        ("bases", string_lists(rows.iter().map(|(_, _, s)| s.bases.as_slice()))),
        ("decorators", string_lists(rows.iter().map(|(_, _, s)| s.decorators.as_slice()))),
        ("is_async", Arc::new(rows.iter().map(|(_, _, s)| Some(s.is_async)).collect::<BooleanArray>())),
    ];
    Ok(RecordBatch::try_from_iter(columns)?)
}
