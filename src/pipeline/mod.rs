//! The index pipeline from snapshot to files on disk, in order: source → parse → graph → bundle →
//! search (chunks, embeddings, LanceDB).
//!
//! Nothing here prints: progress goes to an [`IndexObserver`] and problems come back as [`Warning`]s,
//! which the `index` command renders for a terminal, for GitHub Actions or as JSON.
//!
//! With a previous artifact (`previous`), files whose blob id is unchanged are neither read nor parsed
//! (their facts come from `facts.parquet`), code chunks of unchanged files are taken from the previous
//! table, and only chunks whose text changed are embedded. The graph, metrics, bundle and module chunks
//! are always recomputed (milliseconds), so the result equals a full index of the same commit.

mod previous;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::Serialize;

use crate::bundle::{self, BuildInput, Bundle, EmbedderInfo, Manifest, SkippedFile, ToolInfo};
use crate::config::{CONFIG_FILE_NAME, FileConfig, IndexOptions, IndexSettings};
use crate::graph::{ModuleIndex, build_import_graph, compute_metrics};
use crate::python::{ParsedFile, decode_python_source, parse_python_file};
use crate::search::chunks::{Chunk, ChunkKind, build_chunks};
use crate::search::embed::Embedder;
use crate::search::{PreviousTable, text_hash, write_search_index};
use crate::source::{Exclusions, FileEntry, Snapshot, select_python_files};
use previous::{Previous, load_previous};

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

pub async fn run_index(request: &IndexRequest<'_>, observer: &dyn IndexObserver) -> Result<IndexReport> {
    let started = Instant::now();
    let mut timings_ms = BTreeMap::new();
    let mut warnings = Vec::new();

    let stage_clock = Instant::now();
    observer.stage_started(Stage::Source, 0);
    let (previous, previous_status) = match request.previous {
        None => (None, "none".to_string()),
        Some(dir) => match load_previous(dir, request.embedder).await {
            Ok(previous) => (Some(previous), "used".to_string()),
            Err(error) => {
                let reason = format!("{error:#}");
                warnings.push(Warning {
                    path: None,
                    line: None,
                    message: format!(
                        "previous index at {} is unusable ({reason}); rebuilding from scratch",
                        dir.display()
                    ),
                });
                (None, format!("rebuilt: {reason}"))
            }
        },
    };
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
    // Module names first (cheap): they decide which previous code chunks are still valid.
    let paths: Vec<String> = selected.iter().map(|file| file.path.clone()).collect();
    let (index, shadowed) = ModuleIndex::new(&paths, &settings.source_roots);
    debug_assert!(index.modules.iter().map(|m| &m.id).eq(paths.iter()), "module order must match file order");
    let reuse = Reuse::plan(previous.as_ref(), &selected, &index);
    let to_read: Vec<FileEntry> = selected
        .iter()
        .enumerate()
        .filter(|(i, _)| !reuse.keeps_code_chunks[*i])
        .map(|(_, file)| file.clone())
        .collect();
    let contents = snapshot.read_all(&to_read)?;
    observer.stage_finished(Stage::Source);
    record(&mut timings_ms, Stage::Source, stage_clock);

    let stage_clock = Instant::now();
    // Read files whose blob was seen before (a rename) keep their parse too: facts do not depend on the path.
    let read_position: HashMap<&str, usize> = to_read.iter().enumerate().map(|(i, f)| (f.path.as_str(), i)).collect();
    let to_parse: Vec<usize> = (0..selected.len()).filter(|&i| reuse.parses[i].is_none()).collect();
    observer.stage_started(Stage::Parse, to_parse.len());
    let fresh: Vec<ParsedFile> = to_parse
        .par_iter()
        .map(|&i| {
            let bytes = read_position.get(selected[i].path.as_str()).map_or(&[][..], |&r| contents[r].as_slice());
            let parsed = parse_python_file(bytes);
            observer.item_done();
            parsed
        })
        .collect();
    let n_files_parsed = fresh.len();
    let mut parsed: Vec<Option<ParsedFile>> = reuse.parses;
    for (i, fresh_parse) in to_parse.into_iter().zip(fresh) {
        parsed[i] = Some(fresh_parse);
    }
    let parsed: Vec<ParsedFile> = parsed.into_iter().map(Option::unwrap_or_default).collect();
    observer.stage_finished(Stage::Parse);
    record(&mut timings_ms, Stage::Parse, stage_clock);

    let stage_clock = Instant::now();
    observer.stage_started(Stage::Graph, 0);
    for (path, message) in shadowed {
        warnings.push(Warning { path: Some(path), line: None, message });
    }
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
    let files: BTreeMap<String, String> =
        selected.iter().map(|file| (file.path.clone(), file.blob_id.clone())).collect();
    let diff = previous.as_ref().map(|p| bundle::diff_bundles(&p.bundle, &p.manifest.files, &bundle, &files));
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
    write_bundle_files(out_dir, &bundle, diff.as_ref(), &selected, &parsed)?;
    observer.stage_finished(Stage::Write);
    record(&mut timings_ms, Stage::Write, stage_clock);

    let stage_clock = Instant::now();
    observer.stage_started(Stage::Search, 0);
    let sources: BTreeMap<String, String> =
        to_read.iter().zip(&contents).map(|(file, bytes)| (file.path.clone(), decode_python_source(bytes))).collect();
    drop(contents);
    let chunks = chunks_with_reuse(&bundle, &sources, previous.as_ref());
    drop(sources);
    let text_hashes: Vec<String> = chunks.iter().map(|chunk| text_hash(&chunk.text)).collect();
    // Vectors from another embedder are useless: then the table is written from scratch.
    let previous_table = match (&previous, request.previous) {
        (Some(previous), Some(dir)) if previous.same_embedder => Some(PreviousTable {
            index_dir: dir,
            hashes: previous.chunks.iter().map(|(id, (_, hash))| (id.as_str(), hash.as_str())).collect(),
        }),
        _ => None,
    };
    let search_stats = write_search_index(out_dir, &chunks, &text_hashes, previous_table, request.embedder).await?;
    if let Some(reason) = &search_stats.rewritten_because {
        warnings.push(Warning {
            path: None,
            line: None,
            message: format!("could not update the previous search table in place ({reason}); rewrote it"),
        });
    }
    observer.stage_finished(Stage::Search);
    record(&mut timings_ms, Stage::Search, stage_clock);
    timings_ms.insert("total".to_string(), elapsed_ms(started));

    let manifest = Manifest {
        schema_version: bundle::MANIFEST_SCHEMA_VERSION,
        bundle_schema_version: bundle::BUNDLE_SCHEMA_VERSION.to_string(),
        tool: ToolInfo::current(),
        commit: snapshot.commit().map(str::to_string),
        source: snapshot.kind().as_str().to_string(),
        files,
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
        n_files_parsed,
        n_files_reused: selected.len() - n_files_parsed,
        n_modules: bundle.counts.modules,
        n_edges: bundle.counts.edges,
        n_cycles: bundle.counts.cycles,
        largest_cycle: bundle.counts.largest_cycle,
        n_chunks: search_stats.n_chunks,
        n_chunks_embedded: search_stats.n_embedded,
        n_chunks_reused: search_stats.n_reused,
        n_chunks_removed: search_stats.n_removed,
        embedder: request.embedder.id(),
        previous: previous_status,
        diff,
        warnings,
        timings_ms,
    })
}

/// What an incremental run takes from the previous artifact, per selected file.
struct Reuse {
    /// The previous parse, when a file with the same blob id was parsed before (path does not matter).
    parses: Vec<Option<ParsedFile>>,
    /// True when the file's path, blob and module name are all unchanged: its code chunks are reused and
    /// it is not read at all.
    keeps_code_chunks: Vec<bool>,
}

impl Reuse {
    fn plan(previous: Option<&Previous>, selected: &[FileEntry], index: &ModuleIndex) -> Reuse {
        let Some(previous) = previous else {
            return Reuse { parses: vec![None; selected.len()], keeps_code_chunks: vec![false; selected.len()] };
        };
        let by_blob: HashMap<&str, &ParsedFile> =
            previous.facts.values().map(|(blob_id, parsed)| (blob_id.as_str(), parsed)).collect();
        let parses =
            selected.iter().map(|file| by_blob.get(file.blob_id.as_str()).map(|parsed| (*parsed).clone())).collect();
        let keeps_code_chunks = selected
            .iter()
            .zip(&index.modules)
            .map(|(file, module)| {
                previous.manifest.files.get(&file.path) == Some(&file.blob_id)
                    && previous.bundle.nodes.get(&file.path).is_some_and(|node| node.module == module.name)
                    && by_blob.contains_key(file.blob_id.as_str())
            })
            .collect();
        Reuse { parses, keeps_code_chunks }
    }
}

/// Module chunks are rebuilt for every module (their neighbours may have changed); code chunks of the
/// files that were not read (same path, blob and module name) come from the previous table, since the
/// same input gives the same text; the others are cut from the freshly read source.
fn chunks_with_reuse(bundle: &Bundle, sources: &BTreeMap<String, String>, previous: Option<&Previous>) -> Vec<Chunk> {
    let mut chunks = build_chunks(bundle, sources);
    if let Some(previous) = previous {
        chunks.extend(
            previous
                .chunks
                .values()
                .filter(|(chunk, _)| {
                    chunk.kind == ChunkKind::Code
                        && bundle.nodes.contains_key(&chunk.module)
                        && !sources.contains_key(&chunk.module)
                })
                .map(|(chunk, _)| chunk.clone()),
        );
        chunks.sort_by(|a, b| a.id.cmp(&b.id));
    }
    chunks
}

/// `bundle.json`, the Parquet tables, `graph.html`, `summary.md` and `facts.parquet`, written side by side.
fn write_bundle_files(
    out_dir: &Path,
    bundle: &Bundle,
    diff: Option<&bundle::StructuralDiff>,
    selected: &[FileEntry],
    parsed: &[ParsedFile],
) -> Result<()> {
    let (json_written, (tables_written, pages_written)) = rayon::join(
        || bundle::write_atomically(out_dir, "bundle.json", &bundle::to_canonical_json(bundle, false)?),
        || {
            rayon::join(
                || -> Result<()> {
                    bundle::write_parquet_tables(bundle, out_dir)?;
                    let rows: Vec<(&str, &str, &ParsedFile)> =
                        selected.iter().zip(parsed).map(|(f, p)| (f.path.as_str(), f.blob_id.as_str(), p)).collect();
                    bundle::write_facts_table(out_dir, &rows)
                },
                || -> Result<()> {
                    bundle::write_atomically(out_dir, "graph.html", bundle::render_graph_html(bundle)?.as_bytes())?;
                    let mut summary = bundle::render_summary(bundle);
                    if let Some(diff) = diff {
                        summary.push('\n');
                        summary.push_str(&bundle::render_diff_markdown(diff));
                    }
                    bundle::write_atomically(out_dir, "summary.md", summary.as_bytes())
                },
            )
        },
    );
    json_written?;
    tables_written?;
    pages_written
}

fn record(timings_ms: &mut BTreeMap<String, u64>, stage: Stage, since: Instant) {
    timings_ms.insert(stage.as_str().to_string(), elapsed_ms(since));
}

fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}
