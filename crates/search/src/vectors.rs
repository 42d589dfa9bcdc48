//! `vectors.parquet`: every chunk's vector stored by dimension, one column per dimension, so the
//! nearest-neighbour half of a search reads only the dimensions the question's vector uses. The
//! built-in embedder's vectors are sparse (a question's words and word pairs hash into a few dozen of
//! 512 buckets), so a question reads a few percent of the vectors instead of LanceDB scanning them all;
//! zeros are stored as nulls, which Parquet keeps as bits. A dense embedder's question uses every
//! dimension and reads them all, as a flat scan does. Exact: the distance is LanceDB's (squared L2), so
//! the ranking is the flat scan's.
//!
//! Written whole after each run from the chunk table (rows sorted by chunk id, one row group, no
//! statistics, so the same vectors give the same bytes); read through the byte ranges of the columns
//! a question needs, from a file or from object storage. Each chunk's row in the table (`row`, last
//! column) lets a search take the rows it returns instead of finding them by a scan of the id column.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use arrow_array::{Array, ArrayRef, Float32Array, RecordBatch, StringArray, UInt64Array};
use arrow_schema::{DataType, Field, Schema};
use bytes::{Buf, Bytes};
use parquet::arrow::ArrowWriter;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use parquet::file::metadata::{FooterTail, KeyValue, ParquetMetaDataReader};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::reader::{ChunkReader, Length};

use crate::location::RemoteIndex;

pub const VECTORS_FILE: &str = "vectors.parquet";
/// Bump when the file's layout changes; a file of another version is not read (the search falls back
/// to LanceDB's own scan). Version 1 had no `row` column, and is still read.
const VECTORS_VERSION: &str = "2";
const WITHOUT_ROWS: &str = "1";
const VERSION_KEY: &str = "strata.vectors_version";
/// The version of the chunk table the file's rows are of.
const TABLE_VERSION_KEY: &str = "strata.table_version";
/// How much of the file's end is read first: the footer of the built-in embedder's 512 columns (about
/// 72 KB, whatever the number of chunks) fits; a wider embedder's footer takes one more read.
const TAIL_BYTES: u64 = 96 * 1024;

/// Writes `dir/vectors.parquet` from `(chunk id, row in the chunk table, vector)` (any order; all of
/// one dimension) of the chunk table at `table_version`.
pub fn write_vectors(
    dir: &Path,
    mut rows: Vec<(String, u64, Vec<f32>)>,
    dimension: usize,
    table_version: u64,
) -> Result<()> {
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let mut fields = vec![Field::new("id", DataType::Utf8, false), Field::new("norm2", DataType::Float32, false)];
    fields.extend((0..dimension).map(|d| Field::new(column_name(d), DataType::Float32, true)));
    fields.push(Field::new("row", DataType::UInt64, false));
    let schema = Arc::new(Schema::new(fields));
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from_iter_values(rows.iter().map(|(id, _, _)| id.as_str()))),
        Arc::new(Float32Array::from_iter_values(rows.iter().map(|(_, _, v)| v.iter().map(|x| x * x).sum::<f32>()))),
    ];
    for d in 0..dimension {
        let values = rows.iter().map(|(id, _, v)| match v.get(d) {
            Some(&x) => Ok((x != 0.0).then_some(x)),
            None => bail!("chunk {id} has a {}-dimensional vector in a {dimension}-dimensional index", v.len()),
        });
        columns.push(Arc::new(values.collect::<Result<Float32Array>>()?));
    }
    columns.push(Arc::new(UInt64Array::from_iter_values(rows.iter().map(|(_, row, _)| *row))));
    let batch = RecordBatch::try_new(schema.clone(), columns)?;
    let properties = WriterProperties::builder()
        .set_max_row_group_row_count(Some(rows.len().max(1)))
        .set_statistics_enabled(EnabledStatistics::None)
        .set_key_value_metadata(Some(vec![
            KeyValue::new(VERSION_KEY.to_string(), VECTORS_VERSION.to_string()),
            KeyValue::new(TABLE_VERSION_KEY.to_string(), table_version.to_string()),
        ]))
        .build();
    let path = dir.join(VECTORS_FILE);
    let partial = dir.join(format!("{VECTORS_FILE}.partial"));
    let file = std::fs::File::create(&partial).with_context(|| format!("cannot write {}", partial.display()))?;
    let mut writer = ArrowWriter::try_new(file, schema, Some(properties))?;
    writer.write(&batch)?;
    writer.close()?;
    std::fs::rename(&partial, &path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

fn column_name(dimension: usize) -> String {
    format!("d{dimension:04}")
}

/// The chunk ids of a batch whose first column is the file's `id`.
fn string_values(batch: &RecordBatch) -> Result<Vec<String>> {
    let ids = batch.column(0).as_any().downcast_ref::<StringArray>().context("vectors.parquet ids are not text")?;
    Ok(ids.iter().map(|id| id.unwrap_or_default().to_string()).collect())
}

/// Where the file is read from.
enum Source {
    Local(PathBuf),
    Remote(RemoteIndex),
}

impl Source {
    /// The last `n` bytes (fewer when the file is shorter) and the file's size; `None` when it is missing.
    async fn tail(&self, n: u64) -> Result<Option<(Bytes, u64)>> {
        match self {
            Source::Local(path) => {
                use std::io::{Read, Seek, SeekFrom};
                let mut file = match std::fs::File::open(path) {
                    Ok(file) => file,
                    Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                    Err(error) => return Err(error).with_context(|| format!("cannot read {}", path.display())),
                };
                let read = |file: &mut std::fs::File| -> std::io::Result<(Bytes, u64)> {
                    let size = file.metadata()?.len();
                    let start = size.saturating_sub(n);
                    file.seek(SeekFrom::Start(start))?;
                    let mut buffer = Vec::with_capacity((size - start) as usize);
                    file.read_to_end(&mut buffer)?;
                    Ok((Bytes::from(buffer), size))
                };
                read(&mut file).map(Some).with_context(|| format!("cannot read {}", path.display()))
            }
            Source::Remote(remote) => remote.read_tail(VECTORS_FILE, n).await,
        }
    }

    async fn ranges(&self, ranges: &[Range<u64>]) -> Result<Vec<Bytes>> {
        match self {
            Source::Local(path) => {
                use std::io::{Read, Seek, SeekFrom};
                let mut file = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
                ranges
                    .iter()
                    .map(|range| {
                        let mut buffer = vec![0; (range.end - range.start) as usize];
                        file.seek(SeekFrom::Start(range.start))?;
                        file.read_exact(&mut buffer)?;
                        Ok(Bytes::from(buffer))
                    })
                    .collect::<std::io::Result<Vec<Bytes>>>()
                    .with_context(|| format!("cannot read {}", path.display()))
            }
            Source::Remote(remote) => remote.read_ranges(VECTORS_FILE, ranges).await,
        }
    }
}

/// The vectors file opened: its footer, norms and rows read; the chunk ids and the dimensions read as
/// asked.
pub struct VectorColumns {
    source: Source,
    size: u64,
    metadata: ArrowReaderMetadata,
    /// The chunk ids, in the file's order (by id): read at opening from a file of version 1, else
    /// only when a search cannot use the rows (most of what opening would read: django's 36,000 ids
    /// are 1.6 MB).
    ids: tokio::sync::OnceCell<Vec<String>>,
    norm2: Vec<f32>,
    /// Each chunk's row in the table; empty in a file of version 1.
    rows: Vec<u64>,
    /// The version of the chunk table the rows are of.
    table_version: Option<u64>,
    dimension: usize,
}

/// A chunk near a question's vector.
#[derive(Debug, Clone, PartialEq)]
pub struct Near {
    /// Its place in the file (chunks are in the order of their ids).
    pub position: usize,
    /// Its row in the chunk table, when the file records it.
    pub row: Option<u64>,
    /// Squared L2, as LanceDB measures.
    pub distance: f32,
}

impl VectorColumns {
    /// `dir/vectors.parquet`, or `None` when the index has none (written before it existed) or one of
    /// another version.
    pub async fn open(dir: &Path) -> Result<Option<VectorColumns>> {
        VectorColumns::open_source(Source::Local(dir.join(VECTORS_FILE))).await
    }

    pub async fn open_remote(remote: &RemoteIndex) -> Result<Option<VectorColumns>> {
        VectorColumns::open_source(Source::Remote(remote.sibling(remote.location().prefix.clone()))).await
    }

    async fn open_source(source: Source) -> Result<Option<VectorColumns>> {
        let Some((mut tail, size)) = source.tail(TAIL_BYTES).await? else { return Ok(None) };
        if tail.len() < 8 {
            bail!("{VECTORS_FILE} is damaged: {size} bytes");
        }
        let footer: [u8; 8] = tail[tail.len() - 8..].try_into().expect("8 bytes");
        let length = FooterTail::try_new(&footer).context("vectors.parquet is damaged")?.metadata_length() as u64 + 8;
        if length > size {
            bail!("{VECTORS_FILE} is damaged: its footer claims {length} bytes of {size}");
        }
        if length > tail.len() as u64 {
            let footer_range = size - length..size;
            tail = source.ranges(std::slice::from_ref(&footer_range)).await?.remove(0);
        }
        let metadata = ParquetMetaDataReader::decode_metadata(&tail[tail.len() - length as usize..tail.len() - 8])
            .context("vectors.parquet is damaged")?;
        let value = |key: &str| {
            metadata
                .file_metadata()
                .key_value_metadata()
                .and_then(|pairs| pairs.iter().find(|pair| pair.key == key))
                .and_then(|pair| pair.value.clone())
        };
        let with_rows = match value(VERSION_KEY).as_deref() {
            Some(VECTORS_VERSION) => true,
            Some(WITHOUT_ROWS) => false,
            _ => return Ok(None),
        };
        let table_version = value(TABLE_VERSION_KEY).and_then(|version| version.parse().ok());
        let metadata = ArrowReaderMetadata::try_new(Arc::new(metadata), ArrowReaderOptions::new())?;
        let fields = metadata.schema().fields().len();
        let dimension =
            fields.checked_sub(2 + usize::from(with_rows)).context("vectors.parquet has too few columns")?;
        let mut columns = VectorColumns {
            source,
            size,
            metadata,
            ids: tokio::sync::OnceCell::new(),
            norm2: Vec::new(),
            rows: Vec::new(),
            table_version,
            dimension,
        };
        if with_rows {
            let batch = columns.read_columns(&[1, fields - 1]).await?;
            let norm2 = batch.column(0).as_any().downcast_ref::<Float32Array>().context("vectors.parquet norms")?;
            let rows = batch.column(1).as_any().downcast_ref::<UInt64Array>().context("vectors.parquet rows")?;
            if rows.len() != norm2.len() {
                bail!("{VECTORS_FILE} is damaged: {} norms and {} rows", norm2.len(), rows.len());
            }
            columns.norm2 = norm2.values().to_vec();
            columns.rows = rows.values().to_vec();
        } else {
            let batch = columns.read_columns(&[0, 1]).await?;
            let ids = string_values(&batch)?;
            let norm2 = batch.column(1).as_any().downcast_ref::<Float32Array>().context("vectors.parquet norms")?;
            if ids.len() != norm2.len() {
                bail!("{VECTORS_FILE} is damaged: {} chunk ids and {} norms", ids.len(), norm2.len());
            }
            columns.norm2 = norm2.values().to_vec();
            let _ = columns.ids.set(ids);
        }
        Ok(Some(columns))
    }

    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// Whether the rows the file records are rows of the chunk table at `version` (the table the
    /// file was written from: an index's table and file are written together, so this fails only
    /// for a file written without rows or a table changed behind strata's back).
    pub fn rows_are_of(&self, version: u64) -> bool {
        !self.rows.is_empty() && self.table_version == Some(version)
    }

    /// The chunk ids of `nearest`, read from the file the first time they are asked for.
    pub async fn ids(&self, nearest: &[Near]) -> Result<Vec<String>> {
        let ids = self
            .ids
            .get_or_try_init(|| async {
                let ids = string_values(&self.read_columns(&[0]).await?)?;
                if ids.len() != self.norm2.len() {
                    bail!("{VECTORS_FILE} is damaged: {} chunk ids and {} norms", ids.len(), self.norm2.len());
                }
                Ok(ids)
            })
            .await?;
        nearest
            .iter()
            .map(|near| {
                ids.get(near.position)
                    .cloned()
                    .with_context(|| format!("{VECTORS_FILE} has no chunk {}", near.position))
            })
            .collect()
    }

    /// The `limit` chunks nearest to `query` (squared L2, as LanceDB measures), nearest first, ties by
    /// chunk id (the file's order).
    pub async fn nearest(&self, query: &[f32], limit: usize) -> Result<Vec<Near>> {
        if query.len() != self.dimension {
            bail!("a {}-dimensional question vector for {}-dimensional chunk vectors", query.len(), self.dimension);
        }
        let used: Vec<usize> = (0..self.dimension).filter(|&d| query[d] != 0.0).collect();
        let mut dot = vec![0.0f32; self.norm2.len()];
        if !used.is_empty() {
            let batch = self.read_columns(&used.iter().map(|d| d + 2).collect::<Vec<_>>()).await?;
            for (column, &d) in used.iter().enumerate() {
                let values =
                    batch.column(column).as_any().downcast_ref::<Float32Array>().context("vectors.parquet values")?;
                if values.len() != dot.len() {
                    bail!("{VECTORS_FILE} is damaged: a column of {} rows for {} chunks", values.len(), dot.len());
                }
                let weight = query[d];
                for (row, value) in values.iter().enumerate() {
                    if let Some(value) = value {
                        dot[row] += weight * value;
                    }
                }
            }
        }
        let query_norm2: f32 = query.iter().map(|x| x * x).sum();
        let mut distances: Vec<(f32, usize)> =
            dot.iter().enumerate().map(|(row, dot)| (query_norm2 + self.norm2[row] - 2.0 * dot, row)).collect();
        let order = |a: &(f32, usize), b: &(f32, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if distances.len() > limit {
            distances.select_nth_unstable_by(limit, order);
            distances.truncate(limit);
        }
        distances.sort_by(order);
        Ok(distances
            .into_iter()
            .map(|(distance, position)| Near {
                position,
                row: self.rows.get(position).copied(),
                distance: distance.max(0.0),
            })
            .collect())
    }

    /// The columns at `indices` (of the file's schema), one batch with every row, reading only their
    /// byte ranges.
    async fn read_columns(&self, indices: &[usize]) -> Result<RecordBatch> {
        let parquet = self.metadata.metadata();
        let mut pieces = Vec::new();
        for group in parquet.row_groups() {
            let ranges: Vec<Range<u64>> = indices
                .iter()
                .map(|&i| {
                    let (start, length) = group.column(i).byte_range();
                    start..start + length
                })
                .collect();
            let bytes = self.source.ranges(&ranges).await?;
            pieces.extend(ranges.into_iter().map(|range| range.start).zip(bytes));
        }
        let file = Pieces { size: self.size, pieces };
        let mask = ProjectionMask::roots(parquet.file_metadata().schema_descr(), indices.iter().copied());
        let rows = self.norm2.len().max(parquet.file_metadata().num_rows() as usize).max(1);
        let reader = ParquetRecordBatchReaderBuilder::new_with_metadata(file, self.metadata.clone())
            .with_projection(mask)
            .with_batch_size(rows)
            .build()?;
        // One row group, read in one batch of all its rows.
        let mut batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>()?;
        match batches.len() {
            0 => Ok(RecordBatch::new_empty(Arc::new(self.metadata.schema().project(indices)?))),
            1 => Ok(batches.remove(0)),
            n => bail!("{VECTORS_FILE} has {n} row groups; this strata writes one"),
        }
    }
}

/// The parts of the file that were read, as a reader the Parquet decoder can use: a read outside them
/// is an error (the decoder reads only the projected columns' ranges).
struct Pieces {
    size: u64,
    pieces: Vec<(u64, Bytes)>,
}

impl Pieces {
    fn piece(&self, start: u64, length: u64) -> parquet::errors::Result<Bytes> {
        self.pieces
            .iter()
            .find(|(at, bytes)| *at <= start && start + length <= at + bytes.len() as u64)
            .map(|(at, bytes)| bytes.slice((start - at) as usize..(start - at + length) as usize))
            .ok_or_else(|| parquet::errors::ParquetError::General(format!("bytes {start}+{length} were not read")))
    }
}

impl Length for Pieces {
    fn len(&self) -> u64 {
        self.size
    }
}

impl ChunkReader for Pieces {
    type T = bytes::buf::Reader<Bytes>;

    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        let (at, bytes) = self
            .pieces
            .iter()
            .find(|(at, bytes)| *at <= start && start < at + bytes.len() as u64)
            .ok_or_else(|| parquet::errors::ParquetError::General(format!("byte {start} was not read")))?;
        Ok(bytes.slice((start - at) as usize..).reader())
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        self.piece(start, length as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each chunk with its row in the table (not in id order, as after an update) and its vector.
    fn vectors() -> Vec<(String, u64, Vec<f32>)> {
        vec![
            ("b".to_string(), 7, vec![0.6, 0.0, 0.8, 0.0]),
            ("a".to_string(), 9, vec![0.0, 1.0, 0.0, 0.0]),
            ("c".to_string(), 4, vec![0.0, 0.0, 0.0, 0.0]),
            ("d".to_string(), 5, vec![0.0, 0.0, 0.6, 0.8]),
        ]
    }

    fn flat_scan(query: &[f32]) -> Vec<(String, f32)> {
        let mut all: Vec<(String, f32)> = vectors()
            .into_iter()
            .map(|(id, _, v)| (id, v.iter().zip(query).map(|(a, b)| (a - b) * (a - b)).sum::<f32>()))
            .collect();
        all.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        all
    }

    #[tokio::test]
    async fn the_nearest_chunks_are_the_flat_scans_reading_only_the_used_dimensions() {
        let dir = tempfile::tempdir().unwrap();
        write_vectors(dir.path(), vectors(), 4, 3).unwrap();
        let first = std::fs::read(dir.path().join(VECTORS_FILE)).unwrap();
        write_vectors(dir.path(), vectors().into_iter().rev().collect(), 4, 3).unwrap();
        assert_eq!(first, std::fs::read(dir.path().join(VECTORS_FILE)).unwrap(), "same vectors, same bytes");
        let columns = VectorColumns::open(dir.path()).await.unwrap().expect("a vectors file");
        assert_eq!(columns.dimension(), 4);
        assert!(columns.rows_are_of(3) && !columns.rows_are_of(4), "the rows are of the table version written");
        for query in [[0.0, 0.0, 1.0, 0.0], [0.6, 0.0, 0.0, 0.8], [0.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.5, 0.5]] {
            let nearest = columns.nearest(&query, 3).await.unwrap();
            let expected: Vec<(String, f32)> = flat_scan(&query).into_iter().take(3).collect();
            let ids = columns.ids(&nearest).await.unwrap();
            assert_eq!(ids, expected.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>(), "{query:?}");
            for ((near, id), (_, want)) in nearest.iter().zip(&ids).zip(&expected) {
                assert!((near.distance - want).abs() < 1e-5, "{query:?}: {} vs {want}", near.distance);
                let row = vectors().iter().find(|(chunk, _, _)| chunk == id).map(|(_, row, _)| *row);
                assert_eq!(near.row, row, "each chunk keeps its own row");
            }
        }
        assert!(columns.nearest(&[1.0], 3).await.is_err(), "a vector of another dimension is refused");
    }

    /// A file of version 1 (an index written before rows were recorded) is read, without rows.
    #[tokio::test]
    async fn a_file_without_rows_is_still_read() {
        let dir = tempfile::tempdir().unwrap();
        let schema = Arc::new(Schema::new(vec![
            Field::new("id", DataType::Utf8, false),
            Field::new("norm2", DataType::Float32, false),
            Field::new(column_name(0), DataType::Float32, true),
            Field::new(column_name(1), DataType::Float32, true),
        ]));
        let columns: Vec<ArrayRef> = vec![
            Arc::new(StringArray::from(vec!["a", "b"])),
            Arc::new(Float32Array::from(vec![1.0, 1.0])),
            Arc::new(Float32Array::from(vec![Some(1.0), None])),
            Arc::new(Float32Array::from(vec![None, Some(1.0)])),
        ];
        let properties = WriterProperties::builder()
            .set_key_value_metadata(Some(vec![KeyValue::new(VERSION_KEY.to_string(), WITHOUT_ROWS.to_string())]))
            .build();
        let file = std::fs::File::create(dir.path().join(VECTORS_FILE)).unwrap();
        let mut writer = ArrowWriter::try_new(file, schema.clone(), Some(properties)).unwrap();
        writer.write(&RecordBatch::try_new(schema, columns).unwrap()).unwrap();
        writer.close().unwrap();
        let columns = VectorColumns::open(dir.path()).await.unwrap().expect("a vectors file");
        assert_eq!(columns.dimension(), 2);
        assert!(!columns.rows_are_of(1));
        let nearest = columns.nearest(&[0.0, 1.0], 1).await.unwrap();
        assert_eq!(nearest, vec![Near { position: 1, row: None, distance: 0.0 }]);
        assert_eq!(columns.ids(&nearest).await.unwrap(), vec!["b".to_string()]);
    }

    #[tokio::test]
    async fn a_missing_or_foreign_file_is_no_vectors_and_a_damaged_one_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(VectorColumns::open(dir.path()).await.unwrap().is_none());
        std::fs::write(dir.path().join(VECTORS_FILE), b"not parquet at all").unwrap();
        assert!(VectorColumns::open(dir.path()).await.is_err());
    }
}
