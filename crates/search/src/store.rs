//! The LanceDB table of chunks in `DIR/lancedb/`: one row per chunk with its vector, a full-text index on
//! the text (code tokenizer, identifier splitting, stemming, stop words: the settings that
//! measured best on the question sets), written in one batch and compacted to a single version so the artifact does not carry
//! history. Reading back: hybrid (full-text + vector, reciprocal-rank fusion) or vector-only search.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use arrow_array::{
    Array, ArrayRef, BooleanArray, FixedSizeListArray, Float32Array, RecordBatch, RecordBatchIterator, StringArray,
    UInt32Array, UInt64Array,
};
use arrow_schema::{DataType, Field, Schema};
use futures::TryStreamExt;
use lancedb::database::CreateTableMode;
use lancedb::index::Index;
use lancedb::index::scalar::{FtsIndexBuilder, FullTextSearchQuery};
use lancedb::query::{ExecutableQuery, QueryBase, QueryExecutionOptions, Select};
use lancedb::table::{NewColumnTransform, OptimizeAction};

use super::chunks::{Chunk, ChunkKind};
use super::vectors::{Near, VectorColumns};

pub const TABLE_NAME: &str = "chunks";
pub const LANCEDB_DIR: &str = "lancedb";

/// A chunk as stored, with its vector and text hash.
pub struct StoredChunk<'a> {
    pub chunk: &'a Chunk,
    pub text_hash: String,
    pub vector: Vec<f32>,
}

/// The nearest chunks as (chunk id, distance), and the rows of those the full-text half did not find.
type NearestRows = (Vec<(String, f32)>, HashMap<String, Hit>);

/// One search hit, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub id: String,
    pub kind: String,
    pub module: String,
    pub symbol: Option<String>,
    pub line_start: u32,
    pub line_end: u32,
    pub text: String,
    pub score: f32,
    /// The chunk's row in the table version the search read (`_rowid`), when the search knows it: its
    /// text is then taken by row, reading only that row, instead of found by a scan of the id column.
    pub row: Option<u64>,
}

/// A chunk's row without its vector: the columns the table is created with.
pub struct ChunkRow<'a> {
    pub chunk: &'a Chunk,
    pub text_hash: &'a str,
}

/// Writes the table from scratch (replacing any previous one), indexes the text, and compacts. The
/// full-text index is built from the text columns while `vectors` (one per row, in order) is computed,
/// so the two largest steps of a full run share the cores; the vector column is added after both.
/// Returns the milliseconds each step took (`table.create`, `table.fts`, `table.vectors`,
/// `table.compact`; `table.fts` overlaps the computing of the vectors).
pub async fn write_chunk_table<F>(
    index_dir: &Path,
    rows: &[ChunkRow<'_>],
    dimension: usize,
    vectors: F,
) -> Result<BTreeMap<&'static str, u64>>
where
    F: Future<Output = Result<Vec<Vec<f32>>>>,
{
    let mut steps = Steps::default();
    let db_path = index_dir.join(LANCEDB_DIR);
    if db_path.exists() {
        std::fs::remove_dir_all(&db_path).with_context(|| format!("cannot replace {}", db_path.display()))?;
    }
    let uri = db_path.to_str().context("index directory path is not valid UTF-8")?;
    let connection = lancedb::connect(uri).execute().await.context("cannot create the LanceDB database")?;
    if rows.is_empty() {
        // Nothing to index: the table with every column, so readers and updates see the one schema.
        let vectors = vectors.await?;
        anyhow::ensure!(vectors.is_empty(), "{} vectors for no chunks", vectors.len());
        let batch = chunk_batch(&[], dimension)?;
        let schema = batch.schema();
        let reader = RecordBatchIterator::new(vec![Ok(batch)], schema);
        connection
            .create_table(TABLE_NAME, Box::new(reader) as Box<dyn arrow_array::RecordBatchReader + Send>)
            .mode(CreateTableMode::Overwrite)
            .execute()
            .await
            .context("cannot write the chunk table")?;
        steps.done("table.create");
        return Ok(steps.0);
    }
    let batch = RecordBatch::try_new(Arc::new(text_schema()), text_columns(rows))?;
    let schema = batch.schema();
    let reader = RecordBatchIterator::new(vec![Ok(batch)], schema);
    let table = connection
        .create_table(TABLE_NAME, Box::new(reader) as Box<dyn arrow_array::RecordBatchReader + Send>)
        .mode(CreateTableMode::Overwrite)
        .execute()
        .await
        .context("cannot write the chunk table")?;
    steps.done("table.create");
    // Its own task, so it advances while this one computes the vectors.
    let indexed = table.clone();
    let text_index = tokio::spawn(async move {
        let clock = Instant::now();
        create_text_index(&indexed).await.map(|()| clock.elapsed())
    });
    let vectors = vectors.await;
    let fts_time = text_index.await.context("the full-text index build stopped")??;
    let vectors = vectors?;
    anyhow::ensure!(vectors.len() == rows.len(), "{} vectors for {} chunks", vectors.len(), rows.len());
    steps.0.insert("table.fts", u64::try_from(fts_time.as_millis()).unwrap_or(u64::MAX));
    steps.restart();
    let field = vector_field(dimension);
    let batches: Vec<std::result::Result<RecordBatch, arrow_schema::ArrowError>> = vectors
        .chunks(VECTOR_BATCH_ROWS)
        .map(|part| {
            RecordBatch::try_new(Arc::new(Schema::new(vec![field.clone()])), vec![vector_column(part, dimension)?])
        })
        .collect();
    drop(vectors);
    let reader = RecordBatchIterator::new(batches, Arc::new(Schema::new(vec![field])));
    table
        .add_columns()
        .transform(NewColumnTransform::Reader(Box::new(reader)))
        .execute()
        .await
        .context("cannot write the vector column")?;
    steps.done("table.vectors");
    compact(&table).await?;
    steps.done("table.compact");
    Ok(steps.0)
}

/// Rows per batch of the vector column as it is written (bounds the copy made for Arrow).
const VECTOR_BATCH_ROWS: usize = 8192;

/// Updates a copy of a previous table in place: deletes the rows of `stale_ids`, adds `rows` in one batch,
/// then compacts, which also brings the full-text index up to date, and prunes the old versions.
/// `index_dir/lancedb` must already hold the copy. Returns the milliseconds each step took.
pub async fn update_chunk_table(
    index_dir: &Path,
    stale_ids: &[&str],
    rows: &[StoredChunk<'_>],
    dimension: usize,
) -> Result<BTreeMap<&'static str, u64>> {
    let mut steps = Steps::default();
    let store = ChunkStore::open(index_dir).await?;
    let table = store.table;
    steps.done("open");
    // Chunk ids are paths and symbols: quote them as SQL strings, in batches to keep predicates short.
    for batch in stale_ids.chunks(512) {
        table.delete(&format!("id IN ({})", sql_strings(batch))).await.context("cannot delete stale chunks")?;
    }
    steps.done("delete");
    if !rows.is_empty() {
        table.add(chunk_batch(rows, dimension)?).execute().await.context("cannot add the new chunks")?;
    }
    steps.done("add");
    let has_text_index = table.list_indices().await?.iter().any(|index| index.columns == ["text"]);
    if !has_text_index && table.count_rows(None).await? > 0 {
        create_text_index(&table).await?;
    }
    // Rewriting every row (or the whole full-text index) on each merge would cost as much as a full
    // build. So each update adds one fragment and one full-text index segment covering only the new
    // rows (deleted rows are masked at query time), and once deleted rows or fragments pile up the data
    // is compacted and the text index rebuilt as one segment. Old versions are pruned every time, so
    // the artifact stays bounded and holds one version.
    let stats = table.stats().await.context("cannot read the chunk table's statistics")?;
    let deleted = stats.num_deleted_rows.unwrap_or(usize::MAX);
    if deleted > stats.num_rows / 10 || stats.fragment_stats.num_fragments > MAX_FRAGMENTS {
        table
            .optimize(OptimizeAction::Compact {
                options: lancedb::table::CompactionOptions::default(),
                remap_options: None,
            })
            .await
            .context("cannot compact the chunk table")?;
        create_text_index(&table).await?;
        steps.done("compact");
    } else {
        table
            .optimize(OptimizeAction::Index(lancedb::table::OptimizeOptions::append()))
            .await
            .context("cannot update the full-text index")?;
        steps.done("index");
    }
    prune(&table).await?;
    steps.done("prune");
    Ok(steps.0)
}

/// Milliseconds per step of a table update, each measured from the end of the previous one.
struct Steps(BTreeMap<&'static str, u64>, Instant);

impl Default for Steps {
    fn default() -> Steps {
        Steps(BTreeMap::new(), Instant::now())
    }
}

impl Steps {
    fn done(&mut self, step: &'static str) {
        self.0.insert(step, u64::try_from(self.1.elapsed().as_millis()).unwrap_or(u64::MAX));
        self.restart();
    }

    /// The next step is timed from now.
    fn restart(&mut self) {
        self.1 = Instant::now();
    }
}

/// Fragments an in-place update may leave before the table is compacted (one, and one full-text index
/// segment, is added per update).
const MAX_FRAGMENTS: usize = 8;

async fn create_text_index(table: &lancedb::Table) -> Result<()> {
    let fts = FtsIndexBuilder::code().split_identifiers(true).stem(true).remove_stop_words(true);
    table
        .create_index(&["text"], Index::FTS(fts))
        .replace(true)
        .execute()
        .await
        .context("cannot build the full-text index")
}

/// Merges fragments, updates the indexes, and keeps only the newest version.
async fn compact(table: &lancedb::Table) -> Result<()> {
    table.optimize(OptimizeAction::All).await.context("cannot compact the chunk table")?;
    prune(table).await
}

/// Removes every version but the newest.
async fn prune(table: &lancedb::Table) -> Result<()> {
    table
        .optimize(OptimizeAction::Prune {
            older_than: Some(lancedb::table::optimize::Duration::zero()),
            delete_unverified: Some(true),
            error_if_tagged_old_versions: Some(false),
        })
        .await
        .context("cannot prune old table versions")?;
    Ok(())
}

fn chunk_batch(rows: &[StoredChunk<'_>], dimension: usize) -> Result<RecordBatch> {
    let text_rows: Vec<ChunkRow<'_>> =
        rows.iter().map(|row| ChunkRow { chunk: row.chunk, text_hash: &row.text_hash }).collect();
    let vectors: Vec<&[f32]> = rows.iter().map(|row| row.vector.as_slice()).collect();
    let mut columns = text_columns(&text_rows);
    columns.push(vector_column(&vectors, dimension)?);
    Ok(RecordBatch::try_new(Arc::new(table_schema(dimension)), columns)?)
}

/// Every column but the vector, in schema order.
fn text_columns(rows: &[ChunkRow<'_>]) -> Vec<ArrayRef> {
    fn strings<'r>(rows: &'r [ChunkRow<'r>], field: impl Fn(&'r ChunkRow<'r>) -> &'r str) -> ArrayRef {
        Arc::new(StringArray::from_iter_values(rows.iter().map(field)))
    }
    vec![
        strings(rows, |row| &row.chunk.id),
        strings(rows, |row| row.chunk.kind.as_str()),
        strings(rows, |row| &row.chunk.module),
        strings(rows, |row| &row.chunk.folder),
        Arc::new(rows.iter().map(|row| row.chunk.symbol.as_deref()).collect::<StringArray>()),
        Arc::new(rows.iter().map(|row| Some(row.chunk.line_start)).collect::<UInt32Array>()),
        Arc::new(rows.iter().map(|row| Some(row.chunk.line_end)).collect::<UInt32Array>()),
        strings(rows, |row| &row.chunk.text),
        strings(rows, |row| row.text_hash),
    ]
}

/// The vectors as one fixed-size list column, copied once into a flat buffer.
fn vector_column<V: AsRef<[f32]>>(vectors: &[V], dimension: usize) -> Result<ArrayRef, arrow_schema::ArrowError> {
    let mut flat = Vec::with_capacity(vectors.len() * dimension);
    for vector in vectors {
        let vector = vector.as_ref();
        if vector.len() != dimension {
            return Err(arrow_schema::ArrowError::InvalidArgumentError(format!(
                "a {}-dimensional vector in a {dimension}-dimensional table",
                vector.len()
            )));
        }
        flat.extend_from_slice(vector);
    }
    let item = Arc::new(Field::new("item", DataType::Float32, true));
    let values = Arc::new(Float32Array::from(flat));
    Ok(Arc::new(FixedSizeListArray::try_new(item, dimension as i32, values, None)?))
}

fn text_schema() -> Schema {
    Schema::new(vec![
        Field::new("id", DataType::Utf8, false),
        Field::new("kind", DataType::Utf8, false),
        Field::new("module", DataType::Utf8, false),
        Field::new("folder", DataType::Utf8, false),
        Field::new("symbol", DataType::Utf8, true),
        Field::new("line_start", DataType::UInt32, false),
        Field::new("line_end", DataType::UInt32, false),
        Field::new("text", DataType::Utf8, false),
        Field::new("text_hash", DataType::Utf8, false),
    ])
}

fn vector_field(dimension: usize) -> Field {
    Field::new(
        "vector",
        DataType::FixedSizeList(Arc::new(Field::new("item", DataType::Float32, true)), dimension as i32),
        true,
    )
}

fn table_schema(dimension: usize) -> Schema {
    let mut fields: Vec<Field> = text_schema().fields().iter().map(|field| field.as_ref().clone()).collect();
    fields.push(vector_field(dimension));
    Schema::new(fields)
}

/// An opened chunk table.
pub struct ChunkStore {
    table: lancedb::Table,
    /// The table's version as opened (what `vectors.parquet`'s rows are checked against).
    version: u64,
}

impl ChunkStore {
    pub async fn open(index_dir: &Path) -> Result<ChunkStore> {
        let db_path = index_dir.join(LANCEDB_DIR);
        if !db_path.join(format!("{TABLE_NAME}.lance")).is_dir() {
            anyhow::bail!("{} has no `{TABLE_NAME}` table", db_path.display());
        }
        let uri = db_path.to_str().context("index directory path is not valid UTF-8")?;
        let connection = lancedb::connect(uri).execute().await.context("cannot open the LanceDB database")?;
        let table = connection.open_table(TABLE_NAME).execute().await.context("the chunk table is damaged")?;
        // Opening reads only the manifest; a damaged data file shows on the first read.
        table.count_rows(None).await.context("the chunk table is damaged")?;
        let version = table.version().await?;
        Ok(ChunkStore { table, version })
    }

    /// Opens the table of an index on object storage at its URI: LanceDB reads the table's manifest
    /// now and then only the pages each query needs, every request counted by `remote`.
    pub async fn open_remote(remote: &crate::location::RemoteIndex) -> Result<ChunkStore> {
        let uri = remote.table_database_uri();
        let connection = lancedb::connect(&uri)
            .storage_options(remote.lance_storage_options())
            .execute()
            .await
            .with_context(|| format!("cannot open the LanceDB database {uri}"))?;
        let table = connection
            .open_table(TABLE_NAME)
            .lance_read_params(remote.lance_read_params())
            .execute()
            .await
            .with_context(|| format!("{uri} has no readable `{TABLE_NAME}` table"))?;
        table.count_rows(None).await.context("the chunk table is damaged")?;
        let version = table.version().await?;
        Ok(ChunkStore { table, version })
    }

    /// Reads every data file (each row's id and text hash) and the full-text index (one query):
    /// opening reads only the table's manifest, so a damaged file would otherwise show at a question,
    /// or never for an incremental run that changes no row.
    pub async fn verify(&self) -> Result<()> {
        let columns = Select::Columns(vec!["id".to_string(), "text_hash".to_string()]);
        let batches: Vec<RecordBatch> = self
            .table
            .query()
            .select(columns)
            .execute()
            .await?
            .try_collect()
            .await
            .context("a data file is damaged")?;
        let (rows, counted) = (batches.iter().map(RecordBatch::num_rows).sum::<usize>(), self.count().await?);
        anyhow::ensure!(rows == counted, "the chunk table lists {counted} rows and holds {rows}");
        if counted > 0 {
            self.text_search("import", 1).await.context("the full-text index is damaged")?;
        }
        Ok(())
    }

    pub async fn count(&self) -> Result<usize> {
        Ok(self.table.count_rows(None).await?)
    }

    /// Every row's chunk and text hash, without the vectors (for reuse by an incremental run).
    pub async fn all_chunks(&self) -> Result<Vec<(Chunk, String)>> {
        let columns = ["id", "kind", "module", "folder", "symbol", "line_start", "line_end", "text", "text_hash"];
        let batches: Vec<RecordBatch> = self
            .table
            .query()
            .select(Select::Columns(columns.iter().map(|c| c.to_string()).collect()))
            .execute()
            .await?
            .try_collect()
            .await?;
        let mut rows = Vec::new();
        for batch in &batches {
            rows.extend(chunks_of(batch)?);
        }
        Ok(rows)
    }

    /// The stored vector of each text hash in `hashes` that some row has.
    pub async fn vectors_by_text_hash(&self, hashes: &[&str]) -> Result<HashMap<String, Vec<f32>>> {
        let mut vectors = HashMap::new();
        // Text hashes are hex digests: anything else is no row's.
        let hex_only: Vec<&str> =
            hashes.iter().copied().filter(|hash| hash.bytes().all(|b| b.is_ascii_hexdigit())).collect();
        for batch in &self.rows_where_in("text_hash", &hex_only, &["text_hash", "vector"]).await? {
            vectors.extend(keyed_vectors(batch, "text_hash")?);
        }
        Ok(vectors)
    }

    /// Hybrid search when there are words to match, vector-only otherwise: full-text and nearest
    /// neighbours fused by reciprocal rank (k = 60, as LanceDB's hybrid query). The nearest neighbours
    /// come from `vectors` (the dimensions the question uses, read alone) when the index has that file,
    /// else from LanceDB's scan of the vector column (an index written before it existed).
    pub async fn search(
        &self,
        words: &str,
        vector: &[f32],
        limit: usize,
        vectors: Option<&VectorColumns>,
    ) -> Result<Vec<Hit>> {
        let Some(vectors) = vectors else { return self.lance_search(words, vector, limit).await };
        // Side by side: on object storage both halves wait on reads.
        let text =
            async { if words.trim().is_empty() { Ok(Vec::new()) } else { self.text_search(words, limit).await } };
        let (nearest, text) = futures::try_join!(vectors.nearest(vector, limit), text)?;
        let by_row = if vectors.rows_are_of(self.version) { self.nearest_by_row(&nearest, &text).await? } else { None };
        let (nearest, mut rows) = match by_row {
            Some(found) => found,
            None => self.nearest_by_id(vectors, &nearest, &text).await?,
        };
        if text.is_empty() {
            // Vector-only, scored as LanceDB scores a vector search.
            return Ok(nearest
                .iter()
                .filter_map(|(id, distance)| {
                    let mut hit = rows.remove(id)?;
                    hit.score = 1.0 / (1.0 + distance);
                    Some(hit)
                })
                .collect());
        }
        let ranked_ids: Vec<&str> = nearest.iter().map(|(id, _)| id.as_str()).collect();
        let text_ids: Vec<&str> = text.iter().map(|hit| hit.id.as_str()).collect();
        let fused = reciprocal_rank_fusion(&ranked_ids, &text_ids, limit);
        let mut by_id: HashMap<String, Hit> = text.iter().map(|hit| (hit.id.clone(), hit.clone())).collect();
        by_id.extend(rows.drain());
        Ok(fused
            .into_iter()
            .filter_map(|(id, score)| {
                let mut hit = by_id.remove(id)?;
                hit.score = score;
                Some(hit)
            })
            .collect())
    }

    /// The nearest chunks by id with the rows of those the full-text half did not find, each taken by
    /// the row `vectors.parquet` records (no chunk id read from the file, no scan of the table's id
    /// column); `None` when a row is not in the table, and the search falls back to ids.
    async fn nearest_by_row(&self, nearest: &[Near], text: &[Hit]) -> Result<Option<NearestRows>> {
        let found: HashMap<u64, &Hit> = text.iter().filter_map(|hit| Some((hit.row?, hit))).collect();
        let wanted: Vec<u64> =
            nearest.iter().filter_map(|near| near.row).filter(|row| !found.contains_key(row)).collect();
        let mut taken: HashMap<u64, Hit> = HashMap::new();
        if !wanted.is_empty() {
            let Some(batches) = self.take(wanted, &SEARCH_COLUMNS).await else { return Ok(None) };
            taken.extend(hits_in(&batches)?.into_iter().filter_map(|hit| Some((hit.row?, hit))));
        }
        let mut ids = Vec::new();
        for near in nearest {
            let Some(row) = near.row else { return Ok(None) };
            match found.get(&row).map(|hit| hit.id.clone()).or_else(|| taken.get(&row).map(|hit| hit.id.clone())) {
                Some(id) => ids.push((id, near.distance)),
                None => return Ok(None),
            }
        }
        Ok(Some((ids, taken.into_values().map(|hit| (hit.id.clone(), hit)).collect())))
    }

    /// The nearest chunks by id, their ids read from `vectors.parquet`, with the rows of those the
    /// full-text half did not find.
    async fn nearest_by_id(&self, vectors: &VectorColumns, nearest: &[Near], text: &[Hit]) -> Result<NearestRows> {
        let ids = vectors.ids(nearest).await?;
        let known: std::collections::HashSet<&str> = text.iter().map(|hit| hit.id.as_str()).collect();
        let missing: Vec<(&str, Option<u64>)> = ids
            .iter()
            .zip(nearest)
            .filter(|(id, _)| !known.contains(id.as_str()))
            .map(|(id, near)| (id.as_str(), near.row))
            .collect();
        let rows = self.rows_by_id(&missing).await?;
        Ok((ids.into_iter().zip(nearest.iter().map(|near| near.distance)).collect(), rows))
    }

    /// The full-text search alone, best first.
    async fn text_search(&self, words: &str, limit: usize) -> Result<Vec<Hit>> {
        let batches: Vec<RecordBatch> = self
            .table
            .query()
            .full_text_search(FullTextSearchQuery::new(words.to_string()))
            .select(Select::Columns(SEARCH_COLUMNS.iter().map(|c| c.to_string()).collect()))
            .with_row_id()
            .limit(limit)
            .execute()
            .await?
            .try_collect()
            .await?;
        hits_in(&batches)
    }

    /// The text of chunks `wanted` (id, and row when known), by id (an id the table does not hold is
    /// left out).
    pub async fn texts(&self, wanted: &[(&str, Option<u64>)]) -> Result<HashMap<String, String>> {
        let mut texts = HashMap::new();
        for batch in &self.rows_of(wanted, &["id", "text"]).await? {
            let (ids, text) = (string_column(batch, "id")?, string_column(batch, "text")?);
            texts.extend((0..batch.num_rows()).map(|row| (ids.value(row).to_string(), text.value(row).to_string())));
        }
        Ok(texts)
    }

    /// The rows of chunks `wanted` without their text, by id.
    async fn rows_by_id(&self, wanted: &[(&str, Option<u64>)]) -> Result<HashMap<String, Hit>> {
        let batches = self.rows_of(wanted, &SEARCH_COLUMNS).await?;
        Ok(hits_in(&batches)?.into_iter().map(|hit| (hit.id.clone(), hit)).collect())
    }

    /// The rows of chunks `wanted` (id, and row when known), with `columns` (`id` among them). A known
    /// row is taken directly, which reads only that row's bytes; the rest are found by id, which reads
    /// the whole id column (on object storage, most of a small table's data file with it). A row that
    /// does not hold the chunk asked for (an index whose row ids were recorded for another version) is
    /// found by id too, and so is every row when the take fails.
    async fn rows_of(&self, wanted: &[(&str, Option<u64>)], columns: &[&str]) -> Result<Vec<RecordBatch>> {
        let asked: HashMap<&str, Option<u64>> = wanted.iter().copied().collect();
        let rows: Vec<u64> = asked.values().filter_map(|row| *row).collect();
        let mut batches = Vec::new();
        let mut found: std::collections::HashSet<String> = std::collections::HashSet::new();
        if !rows.is_empty() {
            // A failed take is not an answer's failure: the same rows are found by id below.
            for batch in self.take(rows, columns).await.unwrap_or_default() {
                let ids = string_column(&batch, "id")?;
                let keep: BooleanArray = (0..batch.num_rows())
                    .map(|row| {
                        let id = ids.value(row);
                        Some(asked.get(id).is_some_and(Option::is_some) && found.insert(id.to_string()))
                    })
                    .collect();
                batches.push(arrow_select::filter::filter_record_batch(&batch, &keep)?);
            }
        }
        let rest: Vec<&str> = asked.keys().copied().filter(|id| !found.contains(*id)).collect();
        batches.extend(self.rows_where_in("id", &rest, columns).await?);
        Ok(batches)
    }

    /// The text of the chunks at `rows`, taken by row alone (no search by id): what the rows hold.
    #[cfg(test)]
    pub(crate) async fn take_only(&self, rows: &[u64]) -> HashMap<String, String> {
        let batches = self.take(rows.to_vec(), &["id", "text"]).await.expect("the rows are the table's");
        let mut texts = HashMap::new();
        for batch in &batches {
            let (ids, text) = (string_column(batch, "id").unwrap(), string_column(batch, "text").unwrap());
            texts.extend((0..batch.num_rows()).map(|row| (ids.value(row).to_string(), text.value(row).to_string())));
        }
        texts
    }

    /// The table's `rows` by row id with `columns` and their row ids, reading only those rows; `None`
    /// when the take fails (a row id the table does not have), for the caller to find them by id.
    async fn take(&self, rows: Vec<u64>, columns: &[&str]) -> Option<Vec<RecordBatch>> {
        let taken: lancedb::Result<Vec<RecordBatch>> = async {
            self.table
                .take_row_ids(rows)
                .select(Select::Columns(columns.iter().map(|c| c.to_string()).collect()))
                .with_row_id()
                .execute()
                .await?
                .try_collect()
                .await
        }
        .await;
        taken.ok()
    }

    /// The rows whose `column` is one of `keys`, with `columns` and their row ids: one filtered query per
    /// 512 keys.
    async fn rows_where_in(&self, column: &str, keys: &[&str], columns: &[&str]) -> Result<Vec<RecordBatch>> {
        let mut rows = Vec::new();
        for batch in keys.chunks(512) {
            let batches: Vec<RecordBatch> = self
                .table
                .query()
                .only_if(format!("{column} IN ({})", sql_strings(batch)))
                .select(Select::Columns(columns.iter().map(|c| c.to_string()).collect()))
                .with_row_id()
                .execute()
                .await?
                .try_collect()
                .await?;
            rows.extend(batches);
        }
        Ok(rows)
    }

    /// LanceDB's own hybrid (or vector-only) query, scanning the whole vector column.
    async fn lance_search(&self, words: &str, vector: &[f32], limit: usize) -> Result<Vec<Hit>> {
        let query = self.table.query().limit(limit);
        let batches: Vec<RecordBatch> = if words.trim().is_empty() {
            query.nearest_to(vector)?.execute().await?.try_collect().await?
        } else {
            query
                .full_text_search(FullTextSearchQuery::new(words.to_string()))
                .nearest_to(vector)?
                .execute_hybrid(QueryExecutionOptions::default())
                .await?
                .try_collect()
                .await?
        };
        hits_in(&batches)
    }

    /// The table's version as opened.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Every row's chunk id, row and vector (what `vectors.parquet` is written from).
    pub async fn all_vectors(&self) -> Result<Vec<(String, u64, Vec<f32>)>> {
        let batches: Vec<RecordBatch> = self
            .table
            .query()
            .select(Select::Columns(vec!["id".to_string(), "vector".to_string()]))
            .with_row_id()
            .execute()
            .await?
            .try_collect()
            .await?;
        let mut rows = Vec::new();
        for batch in &batches {
            let row_ids = batch
                .column_by_name(ROW_ID)
                .and_then(|column| column.as_any().downcast_ref::<UInt64Array>())
                .context("the chunk table gave no row ids")?;
            let vectors = keyed_vectors(batch, "id")?;
            rows.extend(vectors.into_iter().zip(row_ids.values()).map(|((id, vector), &row)| (id, row, vector)));
        }
        Ok(rows)
    }
}

/// Each row's vector with the text column `key` (a chunk id or a text hash).
fn keyed_vectors(batch: &RecordBatch, key: &str) -> Result<Vec<(String, Vec<f32>)>> {
    let keys = string_column(batch, key)?;
    let column = batch
        .column_by_name("vector")
        .and_then(|column| column.as_any().downcast_ref::<FixedSizeListArray>())
        .context("chunk table has no vector column")?;
    (0..batch.num_rows())
        .map(|row| {
            let values = column.value(row);
            let floats =
                values.as_any().downcast_ref::<Float32Array>().context("chunk vectors are not 32-bit floats")?;
            Ok((keys.value(row).to_string(), floats.values().to_vec()))
        })
        .collect()
}

/// Every hit of a query's batches, in order.
fn hits_in(batches: &[RecordBatch]) -> Result<Vec<Hit>> {
    let mut hits = Vec::new();
    for batch in batches {
        hits.extend(hits_of(batch)?);
    }
    Ok(hits)
}

/// `ids` as a SQL list of strings (chunk ids are paths and symbols: quotes doubled).
fn sql_strings(ids: &[&str]) -> String {
    let quoted: Vec<String> = ids.iter().map(|id| format!("'{}'", id.replace('\'', "''"))).collect();
    quoted.join(", ")
}

/// The columns the hybrid search reads for its pool of hits: all but the text, which only the few hits
/// an answer shows need ([`ChunkStore::texts`]); on object storage the text is most of a table's bytes.
const SEARCH_COLUMNS: [&str; 6] = ["id", "kind", "module", "symbol", "line_start", "line_end"];
/// The column of a row's id in the table version read (its address while stable row ids are off).
const ROW_ID: &str = "_rowid";
/// Reciprocal-rank fusion's constant (LanceDB's default, from Cormack et al.).
const RRF_K: f32 = 60.0;

/// Two rankings fused: each id scores 1/(rank + k) in each ranking it is in (rank from 0), best first;
/// ties in the order ids first appear, the vector ranking before the text one (as LanceDB merges them).
fn reciprocal_rank_fusion<'a>(vector: &[&'a str], text: &[&'a str], limit: usize) -> Vec<(&'a str, f32)> {
    let mut scores: Vec<(&'a str, f32)> = Vec::new();
    let mut position: HashMap<&str, usize> = HashMap::new();
    for ranking in [vector, text] {
        for (rank, id) in ranking.iter().enumerate() {
            let score = 1.0 / (rank as f32 + RRF_K);
            match position.get(id) {
                Some(&at) => scores[at].1 += score,
                None => {
                    position.insert(id, scores.len());
                    scores.push((id, score));
                }
            }
        }
    }
    scores.sort_by(|a, b| b.1.total_cmp(&a.1));
    scores.truncate(limit);
    scores
}

fn chunks_of(batch: &RecordBatch) -> Result<Vec<(Chunk, String)>> {
    let hits = hits_of(batch)?;
    let (folders, hashes) = (string_column(batch, "folder")?, string_column(batch, "text_hash")?);
    let mut rows = Vec::with_capacity(hits.len());
    for (row, hit) in hits.into_iter().enumerate() {
        let kind = match hit.kind.as_str() {
            "module" => ChunkKind::Module,
            "code" => ChunkKind::Code,
            other => anyhow::bail!("chunk table has an unknown chunk kind {other:?}"),
        };
        let chunk = Chunk {
            id: hit.id,
            kind,
            module: hit.module,
            folder: folders.value(row).to_string(),
            symbol: hit.symbol,
            line_start: hit.line_start,
            line_end: hit.line_end,
            text: hit.text,
        };
        rows.push((chunk, hashes.value(row).to_string()));
    }
    Ok(rows)
}

fn string_column<'b>(batch: &'b RecordBatch, name: &str) -> Result<&'b StringArray> {
    batch
        .column_by_name(name)
        .and_then(|column| column.as_any().downcast_ref::<StringArray>())
        .with_context(|| format!("chunk table has no text column {name}"))
}

fn hits_of(batch: &RecordBatch) -> Result<Vec<Hit>> {
    let text = |name: &str| string_column(batch, name);
    let number = |name: &str| -> Result<&UInt32Array> {
        batch
            .column_by_name(name)
            .and_then(|column| column.as_any().downcast_ref::<UInt32Array>())
            .with_context(|| format!("chunk table has no integer column {name}"))
    };
    let (ids, kinds, modules, symbols) = (text("id")?, text("kind")?, text("module")?, text("symbol")?);
    // A search reads rows without their text (see `SEARCH_COLUMNS`): empty until `ChunkStore::texts`.
    let texts = batch.column_by_name("text").map(|_| text("text")).transpose()?;
    let (starts, ends) = (number("line_start")?, number("line_end")?);
    let rows = batch.column_by_name(ROW_ID).and_then(|column| column.as_any().downcast_ref::<UInt64Array>());
    // Hybrid results carry `_relevance_score` (higher is better); vector-only ones `_distance` (lower).
    let score = |row: usize| -> f32 {
        if let Some(column) =
            batch.column_by_name("_relevance_score").and_then(|c| c.as_any().downcast_ref::<Float32Array>())
        {
            return column.value(row);
        }
        match batch.column_by_name("_distance").and_then(|c| c.as_any().downcast_ref::<Float32Array>()) {
            Some(column) => 1.0 / (1.0 + column.value(row)),
            None => 0.0,
        }
    };
    Ok((0..batch.num_rows())
        .map(|row| Hit {
            id: ids.value(row).to_string(),
            kind: kinds.value(row).to_string(),
            module: modules.value(row).to_string(),
            symbol: (!symbols.is_null(row)).then(|| symbols.value(row).to_string()),
            line_start: starts.value(row),
            line_end: ends.value(row),
            text: texts.map(|texts| texts.value(row).to_string()).unwrap_or_default(),
            score: score(row),
            row: rows.map(|rows| rows.value(row)),
        })
        .collect())
}
