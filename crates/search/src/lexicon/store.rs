//! `lexicon.parquet` on disk: one row per (term, field) with its postings, sorted, in small row
//! groups (a reader that fetches ranges can read only the groups of the terms it wants), plus one row
//! per field with the empty term holding every module's length. The key-value metadata records the
//! lexicon's version, its number of modules and a hash of their ids, so a lexicon is never read
//! against another bundle.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use arrow_array::{Array, ArrayRef, BinaryArray, RecordBatch, StringArray, UInt8Array};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

use super::{ALL_FIELDS, FIELDS, Lexicon, push_varint, read_varint};

pub const LEXICON_FILE: &str = "lexicon.parquet";
/// Bump with any change to what a file's terms are (fields, splitting, stemming, stop words).
pub const LEXICON_VERSION: u32 = 1;
const VERSION_KEY: &str = "strata.lexicon_version";
const MODULES_KEY: &str = "strata.lexicon_modules";
const ROW_GROUP_ROWS: usize = 8192;

/// Writes `lexicon` for the modules `module_ids` (in module order) as `dir/lexicon.parquet`.
pub fn write_lexicon(dir: &Path, lexicon: &Lexicon, module_ids: &[&str]) -> Result<()> {
    anyhow::ensure!(
        module_ids.len() == lexicon.n_modules,
        "a lexicon of {} modules for {}",
        lexicon.n_modules,
        module_ids.len()
    );
    let mut terms: Vec<&str> = Vec::with_capacity(lexicon.terms.len() + FIELDS);
    let mut fields: Vec<u8> = Vec::with_capacity(terms.capacity());
    let mut postings: Vec<Vec<u8>> = Vec::with_capacity(terms.capacity());
    for field in ALL_FIELDS {
        let mut bytes = Vec::new();
        for &length in &lexicon.lengths[field as usize] {
            push_varint(&mut bytes, length);
        }
        terms.push("");
        fields.push(field as u8);
        postings.push(bytes);
    }
    for row in 0..lexicon.terms.len() {
        terms.push(lexicon.terms.value(row));
        fields.push(lexicon.fields.value(row));
        postings.push(lexicon.postings.value(row).to_vec());
    }
    let columns: Vec<(&str, ArrayRef)> = vec![
        ("term", Arc::new(StringArray::from_iter_values(terms))),
        ("field", Arc::new(UInt8Array::from_iter_values(fields))),
        ("postings", Arc::new(BinaryArray::from_iter_values(postings))),
    ];
    let batch = RecordBatch::try_from_iter(columns)?;
    let metadata = vec![
        KeyValue::new(VERSION_KEY.to_string(), LEXICON_VERSION.to_string()),
        KeyValue::new(MODULES_KEY.to_string(), modules_key(module_ids)),
    ];
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_key_value_metadata(Some(metadata))
        .build();
    let mut bytes = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut bytes, batch.schema(), Some(properties))?;
    writer.write(&batch).context("cannot encode the lexicon")?;
    writer.close()?;
    strata_core::bundle::write_atomically(dir, LEXICON_FILE, &bytes)
}

/// Reads `dir/lexicon.parquet`, written for the modules `module_ids`. An error when it is missing,
/// damaged, of another version or for other modules: the caller rebuilds it or does without.
pub fn read_lexicon(dir: &Path, module_ids: &[&str]) -> Result<Lexicon> {
    let path = dir.join(LEXICON_FILE);
    let file = std::fs::File::open(&path).with_context(|| format!("cannot open {}", path.display()))?;
    lexicon_from(file, Some(module_ids))
}

/// Reads a lexicon from its bytes (fetched from object storage), as [`read_lexicon`] does from a file.
pub fn parse_lexicon(bytes: bytes::Bytes, module_ids: &[&str]) -> Result<Lexicon> {
    lexicon_from(bytes, Some(module_ids))
}

/// Reads a lexicon from its bytes without the bundle it was written for, its number of modules from
/// its own metadata: for what needs no module ids, such as choosing which of an organisation's
/// repositories to search (the catalog names the index version, written once, that holds both).
pub fn parse_lexicon_alone(bytes: bytes::Bytes) -> Result<Lexicon> {
    lexicon_from(bytes, None)
}

/// `module_ids`: the modules the lexicon must have been written for (`None`: any).
fn lexicon_from(
    reader: impl parquet::file::reader::ChunkReader + 'static,
    module_ids: Option<&[&str]>,
) -> Result<Lexicon> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(reader).context("the lexicon is damaged")?;
    let metadata = builder.metadata().file_metadata();
    let value =
        |key: &str| metadata.key_value_metadata().and_then(|pairs| pairs.iter().find(|p| p.key == key)?.value.clone());
    let version = value(VERSION_KEY).unwrap_or_default();
    anyhow::ensure!(
        version == LEXICON_VERSION.to_string(),
        "the lexicon is version {version:?}, not {LEXICON_VERSION}"
    );
    let written_for = value(MODULES_KEY).unwrap_or_default();
    let n_modules = match module_ids {
        Some(ids) => {
            anyhow::ensure!(written_for == modules_key(ids), "the lexicon was written for other modules");
            ids.len()
        }
        None => written_for
            .split_once(' ')
            .and_then(|(n, _)| n.parse::<usize>().ok())
            .context("the lexicon does not say how many modules it holds")?,
    };
    let rows = usize::try_from(metadata.num_rows()).unwrap_or(0).max(1);
    let mut batches = Vec::new();
    for batch in builder.with_batch_size(rows).build()? {
        batches.push(batch.context("the lexicon is damaged")?);
    }
    anyhow::ensure!(batches.len() == 1, "the lexicon was read in {} parts", batches.len());
    let batch = &batches[0];
    let column = |name: &str| batch.column_by_name(name).with_context(|| format!("the lexicon has no column {name}"));
    let terms = column("term")?.as_any().downcast_ref::<StringArray>().context("lexicon terms are not text")?.clone();
    let fields =
        column("field")?.as_any().downcast_ref::<UInt8Array>().context("lexicon fields are not bytes")?.clone();
    let postings =
        column("postings")?.as_any().downcast_ref::<BinaryArray>().context("lexicon postings are not binary")?.clone();
    anyhow::ensure!(
        terms.null_count() + fields.null_count() + postings.null_count() == 0 && terms.len() >= FIELDS,
        "the lexicon is damaged"
    );
    let mut lengths: [Vec<u32>; FIELDS] = Default::default();
    for (row, lengths) in lengths.iter_mut().enumerate() {
        anyhow::ensure!(
            terms.value(row).is_empty() && usize::from(fields.value(row)) == row,
            "the lexicon has no lengths"
        );
        let bytes = postings.value(row);
        let mut at = 0;
        while let Some(length) = read_varint(bytes, &mut at) {
            lengths.push(length);
        }
        anyhow::ensure!(lengths.len() == n_modules, "the lexicon's lengths are for {} modules", lengths.len());
    }
    Ok(Lexicon {
        n_modules,
        lengths,
        terms: terms.slice(FIELDS, terms.len() - FIELDS),
        fields: fields.slice(FIELDS, fields.len() - FIELDS),
        postings: postings.slice(FIELDS, postings.len() - FIELDS),
    })
}

/// The number of modules and an FNV-1a hash of their ids, as text.
fn modules_key(module_ids: &[&str]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for id in module_ids {
        for byte in id.bytes().chain([b'\n']) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{} {hash:016x}", module_ids.len())
}

#[cfg(test)]
mod tests {
    use super::super::{Field, file_terms};
    use super::*;

    #[test]
    fn written_and_read_back_the_same_and_checked_against_the_modules() {
        let dir = tempfile::tempdir().unwrap();
        let files = [file_terms("a/one.py", "def load(path): '''Load it.'''"), file_terms("a/two.py", "x = load(1)")];
        let lexicon = Lexicon::build(&files);
        write_lexicon(dir.path(), &lexicon, &["a/one.py", "a/two.py"]).unwrap();
        let first = std::fs::read(dir.path().join(LEXICON_FILE)).unwrap();
        write_lexicon(dir.path(), &Lexicon::build(&files), &["a/one.py", "a/two.py"]).unwrap();
        assert_eq!(first, std::fs::read(dir.path().join(LEXICON_FILE)).unwrap(), "deterministic bytes");
        let read = read_lexicon(dir.path(), &["a/one.py", "a/two.py"]).unwrap();
        assert_eq!(read.postings("load", Field::Names), [(0, 1)]);
        assert_eq!(read.postings("load", Field::Code), [(1, 1)]);
        assert_eq!(read.length(Field::Doc, 0), lexicon.length(Field::Doc, 0));
        assert_eq!(read.file_terms(), files);
        assert!(read_lexicon(dir.path(), &["a/one.py"]).is_err());
        assert!(read_lexicon(dir.path(), &["a/one.py", "a/three.py"]).is_err());
        let alone = parse_lexicon_alone(bytes::Bytes::from(first.clone())).unwrap();
        assert_eq!((alone.n_modules(), alone.file_terms()), (2, files.to_vec()), "read without the module ids");
        std::fs::write(dir.path().join(LEXICON_FILE), b"not parquet").unwrap();
        assert!(read_lexicon(dir.path(), &["a/one.py", "a/two.py"]).is_err());
        assert!(parse_lexicon_alone(bytes::Bytes::from_static(b"not parquet")).is_err());
    }
}
