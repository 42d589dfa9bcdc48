//! The index pipeline from snapshot to files on disk, in order: source → parse → graph → bundle →
//! search (chunks, embeddings, LanceDB).
//!
//! Nothing here prints: progress goes to an [`IndexObserver`] and problems come back as [`Warning`]s,
//! which the `index` command renders for a terminal, for GitHub Actions or as JSON.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::Serialize;

use crate::bundle::{self, BuildInput, EmbedderInfo, Manifest, SkippedFile, ToolInfo};
use crate::config::{CONFIG_FILE_NAME, FileConfig, IndexOptions, IndexSettings};
use crate::graph::{ModuleIndex, build_import_graph, compute_metrics};
use crate::python::{ParsedFile, decode_python_source, parse_python_file};
use crate::search::chunks::build_chunks;
use crate::search::embed::Embedder;
use crate::search::{text_hash, write_search_index};
use crate::source::{Exclusions, Snapshot, select_python_files};

/// What to index, where to write it, and which embedder fills the vector column.
#[derive(Clone)]
pub struct IndexRequest<'a> {
    pub path: &'a Path,
    pub rev: &'a str,
    pub out_dir: &'a Path,
    pub options: &'a IndexOptions,
    pub embedder: &'a dyn Embedder,
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
    pub n_modules: usize,
    pub n_edges: usize,
    pub n_cycles: usize,
    pub largest_cycle: usize,
    pub n_chunks: usize,
    pub n_chunks_embedded: usize,
    pub embedder: String,
    pub warnings: Vec<Warning>,
    pub timings_ms: BTreeMap<String, u64>,
}

pub async fn run_index(request: &IndexRequest<'_>, observer: &dyn IndexObserver) -> Result<IndexReport> {
    let started = Instant::now();
    let mut timings_ms = BTreeMap::new();
    let mut warnings = Vec::new();

    let stage_clock = Instant::now();
    observer.stage_started(Stage::Source, 0);
    let snapshot = Snapshot::open(request.path, request.rev)?;
    let file_config = match snapshot.read_path(CONFIG_FILE_NAME)? {
        Some(bytes) => FileConfig::parse(&String::from_utf8_lossy(&bytes))?,
        None => FileConfig::default(),
    };
    let settings = IndexSettings::resolve(request.options, &file_config);
    let exclusions = Exclusions::new(&settings.exclude)?;
    let (selected, skipped) = select_python_files(snapshot.files(), &exclusions, settings.max_file_bytes);
    for skip in &skipped {
        warnings.push(Warning {
            path: Some(skip.path.clone()),
            line: None,
            message: format!("skipped: {}", skip.reason),
        });
    }
    let contents = snapshot.read_all(&selected)?;
    observer.stage_finished(Stage::Source);
    record(&mut timings_ms, Stage::Source, stage_clock);

    let stage_clock = Instant::now();
    observer.stage_started(Stage::Parse, selected.len());
    let parsed: Vec<ParsedFile> = contents
        .par_iter()
        .map(|bytes| {
            let parsed = parse_python_file(bytes);
            observer.item_done();
            parsed
        })
        .collect();
    observer.stage_finished(Stage::Parse);
    record(&mut timings_ms, Stage::Parse, stage_clock);

    let stage_clock = Instant::now();
    observer.stage_started(Stage::Graph, 0);
    let paths: Vec<String> = selected.iter().map(|file| file.path.clone()).collect();
    let (index, shadowed) = ModuleIndex::new(&paths, &settings.source_roots);
    debug_assert!(index.modules.iter().map(|m| &m.id).eq(paths.iter()), "module order must match file order");
    for (path, message) in shadowed {
        warnings.push(Warning { path: Some(path), line: None, message });
    }
    // `selected` is sorted by path and so is `index.modules`: position i is the same file in both.
    let facts: Vec<_> = parsed.iter().map(|file| &file.facts).collect();
    let file_warnings: Vec<Vec<String>> = parsed.iter().map(|file| file.warnings.clone()).collect();
    for (file, parsed_file) in selected.iter().zip(&parsed) {
        for message in &parsed_file.warnings {
            let line = parsed_file.facts.first_syntax_error_line.filter(|_| message.starts_with("syntax error"));
            warnings.push(Warning { path: Some(file.path.clone()), line, message: message.clone() });
        }
    }
    let graph = build_import_graph(index, &facts);
    let metrics = compute_metrics(&graph);
    let bundle = bundle::build_bundle(&BuildInput {
        graph: &graph,
        metrics: &metrics,
        facts: &facts,
        warnings: &file_warnings,
        commit: snapshot.commit(),
        source: snapshot.kind().as_str(),
        skipped_files: skipped.iter().map(|s| SkippedFile { path: s.path.clone(), reason: s.reason.clone() }).collect(),
    });
    observer.stage_finished(Stage::Graph);
    record(&mut timings_ms, Stage::Graph, stage_clock);

    let stage_clock = Instant::now();
    observer.stage_started(Stage::Write, 0);
    let out_dir = request.out_dir;
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create output directory {}", out_dir.display()))?;
    // An index directory is complete only once its manifest exists, so drop any old one first.
    let old_manifest = out_dir.join("manifest.json");
    if old_manifest.exists() {
        std::fs::remove_file(&old_manifest).with_context(|| format!("cannot replace {}", old_manifest.display()))?;
    }
    // The writers are independent; running them side by side shortens this stage on two cores.
    let (json_written, (tables_written, pages_written)) = rayon::join(
        || bundle::write_atomically(out_dir, "bundle.json", &bundle::to_canonical_json(&bundle, false)?),
        || {
            rayon::join(
                || bundle::write_parquet_tables(&bundle, out_dir),
                || -> Result<()> {
                    bundle::write_atomically(out_dir, "graph.html", bundle::render_graph_html(&bundle)?.as_bytes())?;
                    bundle::write_atomically(out_dir, "summary.md", bundle::render_summary(&bundle).as_bytes())
                },
            )
        },
    );
    json_written?;
    tables_written?;
    pages_written?;
    observer.stage_finished(Stage::Write);
    record(&mut timings_ms, Stage::Write, stage_clock);

    let stage_clock = Instant::now();
    let sources: BTreeMap<String, String> =
        selected.iter().zip(&contents).map(|(file, bytes)| (file.path.clone(), decode_python_source(bytes))).collect();
    drop(contents);
    let chunks = build_chunks(&bundle, &sources);
    drop(sources);
    observer.stage_started(Stage::Search, 0);
    let text_hashes: Vec<String> = chunks.iter().map(|chunk| text_hash(&chunk.text)).collect();
    let search_stats = write_search_index(out_dir, &chunks, &text_hashes, request.embedder).await?;
    observer.stage_finished(Stage::Search);
    record(&mut timings_ms, Stage::Search, stage_clock);
    timings_ms.insert("total".to_string(), elapsed_ms(started));

    let manifest = Manifest {
        schema_version: bundle::MANIFEST_SCHEMA_VERSION,
        bundle_schema_version: bundle::BUNDLE_SCHEMA_VERSION.to_string(),
        tool: ToolInfo::current(),
        commit: snapshot.commit().map(str::to_string),
        source: snapshot.kind().as_str().to_string(),
        files: selected.iter().map(|file| (file.path.clone(), file.blob_id.clone())).collect(),
        embedder: EmbedderInfo { id: request.embedder.id(), dimension: request.embedder.dimension() },
        chunks: chunks.iter().zip(text_hashes).map(|(chunk, hash)| (chunk.id.clone(), hash)).collect(),
        timings_ms: timings_ms.clone(),
    };
    // Written last: a directory with a manifest is a complete index.
    bundle::write_atomically(out_dir, "manifest.json", &bundle::to_canonical_json(&manifest, true)?)?;

    Ok(IndexReport {
        commit: snapshot.commit().map(str::to_string),
        source: snapshot.kind().as_str().to_string(),
        out_dir: out_dir.display().to_string(),
        n_files_parsed: parsed.len(),
        n_modules: bundle.counts.modules,
        n_edges: bundle.counts.edges,
        n_cycles: bundle.counts.cycles,
        largest_cycle: bundle.counts.largest_cycle,
        n_chunks: search_stats.n_chunks,
        n_chunks_embedded: search_stats.n_embedded,
        embedder: request.embedder.id(),
        warnings,
        timings_ms,
    })
}

fn record(timings_ms: &mut BTreeMap<String, u64>, stage: Stage, since: Instant) {
    timings_ms.insert(stage.as_str().to_string(), elapsed_ms(since));
}

fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}
