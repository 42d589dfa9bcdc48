//! The index pipeline from snapshot to files on disk, in order: source → parse → graph → bundle →
//! search (chunks, embeddings, LanceDB).
//!
//! Nothing here prints: progress goes to an [`IndexObserver`] and problems come back as [`Warning`]s,
//! which the `index` command renders for a terminal, for GitHub Actions or as JSON.
//!
//! With a previous artifact (`previous`), files whose blob id is unchanged are neither read nor parsed
//! (their facts come from `facts.parquet`), code chunks of unchanged files stay in the previous table
//! untouched (known from its manifest, never read), and only chunks whose text changed are embedded.
//! The graph, metrics, bundle and module chunks are always recomputed (milliseconds), so the result
//! equals a full index of the same commit. If the table cannot be updated, it is rebuilt from all files.
//!
//! The steps, in the order they run: [`head`] (source and previous artifact, reuse plan in [`reuse`],
//! parse, graph and bundle), [`write`] (bundle files and pages), [`search_step`] (chunks and the
//! LanceDB table), then [`write`] again for the manifest.

mod head;
pub(crate) mod previous;
mod reuse;
mod search_step;
mod write;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use serde::Serialize;

use strata_core::bundle;
use strata_core::config::IndexOptions;
use strata_core::source::OverlaySnapshot;
use strata_search::embed::Embedder;

pub use head::{Head, build_head};

/// What to index, where to write it, and which embedder fills the vector column.
#[derive(Clone)]
pub struct IndexRequest<'a> {
    pub path: &'a Path,
    pub rev: &'a str,
    pub out_dir: &'a Path,
    pub options: &'a IndexOptions,
    pub embedder: &'a dyn Embedder,
    /// A previous index directory to reuse (`--previous`); unusable ones are reported and ignored.
    pub previous: Option<&'a Path>,
    /// Read the files from this snapshot instead of opening `path` at `rev`.
    pub overlay: Option<&'a OverlaySnapshot>,
    /// The repository's web address (`https://github.com/owner/name`): `graph.html` links each module's
    /// code at the indexed commit.
    pub repository_url: Option<&'a str>,
    /// Stop at the bundle (`impact`, `check`, the bot's pull-request answers): files whose facts come
    /// from the previous index are not read at all.
    pub graph_only: bool,
    /// With `graph_only`: the previous index was fetched without its LanceDB table (a base index on
    /// object storage), so its table is not checked. A local base index is checked whole, as always.
    pub previous_without_table: bool,
}

/// Hooks for progress display; every method has a no-op default.
pub trait IndexObserver: Sync {
    fn stage_started(&self, _stage: Stage, _n_items: usize) {}
    fn item_done(&self) {}
    fn stage_finished(&self, _stage: Stage) {}
}

/// The observer that shows nothing.
pub struct Silent;
impl IndexObserver for Silent {}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Source,
    Parse,
    Graph,
    Write,
    Search,
}

impl Stage {
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Source => "source",
            Stage::Parse => "parse",
            Stage::Graph => "graph",
            Stage::Write => "write",
            Stage::Search => "search",
        }
    }
}

/// A problem that did not stop the run: a file parsed partially, skipped, or shadowed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    pub path: Option<String>,
    pub line: Option<u32>,
    pub message: String,
}

/// What a run did, for the `--json` report and the human summary.
#[derive(Debug, Clone, Serialize)]
pub struct IndexReport {
    pub commit: Option<String>,
    pub source: String,
    pub out_dir: String,
    pub n_files_parsed: usize,
    pub n_files_reused: usize,
    pub n_modules: usize,
    pub n_edges: usize,
    pub n_cycles: usize,
    pub largest_cycle: usize,
    pub n_chunks: usize,
    pub n_chunks_embedded: usize,
    pub n_chunks_reused: usize,
    pub n_chunks_removed: usize,
    pub embedder: String,
    /// `used`, `none` (no `--previous`) or `rebuilt: <reason>`.
    pub previous: String,
    /// The structural diff against the previous index, when one was used.
    pub diff: Option<bundle::StructuralDiff>,
    pub warnings: Vec<Warning>,
    pub timings_ms: BTreeMap<String, u64>,
}

/// A whole run: the head built ([`build_head`]), its bundle and pages written, the search table built,
/// and the manifest written last, so that a directory with a manifest is a complete index.
pub async fn run_index(request: &IndexRequest<'_>, observer: &dyn IndexObserver) -> Result<IndexReport> {
    let mut head = build_head(request, observer).await?;

    let stage = StageClock::start(observer, Stage::Write, 0);
    write::prepare_out_dir(request.out_dir)?;
    write::write_bundle(request, &head)?;
    stage.finish(&mut head.timings_ms);

    let stage = StageClock::start(observer, Stage::Search, 0);
    let search = search_step::build_search_index(request, &mut head).await?;
    stage.finish(&mut head.timings_ms);
    head.timings_ms.insert("total".to_string(), elapsed_ms(head.started));

    write::write_manifest(request, &head, search.hashes)?;
    Ok(IndexReport {
        commit: head.snapshot.commit().map(str::to_string),
        source: head.snapshot.kind().as_str().to_string(),
        out_dir: request.out_dir.display().to_string(),
        n_files_parsed: head.n_files_parsed,
        n_files_reused: head.selected.len() - head.n_files_parsed,
        n_modules: head.bundle.counts.modules,
        n_edges: head.bundle.counts.edges,
        n_cycles: head.bundle.counts.cycles,
        largest_cycle: head.bundle.counts.largest_cycle,
        n_chunks: search.n_chunks,
        n_chunks_embedded: search.n_embedded,
        n_chunks_reused: search.n_reused,
        n_chunks_removed: search.n_removed,
        embedder: request.embedder.id(),
        previous: head.previous_status,
        diff: head.diff,
        warnings: head.warnings,
        timings_ms: head.timings_ms,
    })
}

/// A stage in progress: told to the observer when it starts and ends, and timed into the report.
struct StageClock<'o> {
    observer: &'o dyn IndexObserver,
    stage: Stage,
    started: Instant,
}

impl<'o> StageClock<'o> {
    fn start(observer: &'o dyn IndexObserver, stage: Stage, n_items: usize) -> Self {
        let started = Instant::now();
        observer.stage_started(stage, n_items);
        StageClock { observer, stage, started }
    }

    fn finish(self, timings_ms: &mut BTreeMap<String, u64>) {
        self.observer.stage_finished(self.stage);
        timings_ms.insert(self.stage.as_str().to_string(), elapsed_ms(self.started));
    }
}

fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}
