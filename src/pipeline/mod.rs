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

pub mod previous;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::Serialize;

use crate::bundle::{
    self, AnswerSettings, BuildInput, Bundle, EmbedderInfo, Manifest, SelectionRecord, SkippedFile, ToolInfo,
};
use crate::config::{CONFIG_FILE_NAME, FileConfig, IndexOptions, IndexSettings};
use crate::graph::{ImportGraph, ModuleIndex, build_import_graph, compute_metrics, source_roots};
use crate::python::{FACTS_VERSION, ParsedFile, decode_python_source, parse_python_file};
use crate::search::chunks::build_chunks;
use crate::search::embed::Embedder;
use crate::search::{PreviousTable, text_hash, update_search_index, write_search_index};
use crate::source::{Exclusions, FileEntry, OverlaySnapshot, Skipped, Snapshot, select_python_files};
use previous::{Previous, check_previous_table, read_previous};

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

/// Everything up to the graph: the head snapshot read (reusing the previous index's facts), parsed,
/// and assembled into its bundle, with the diff against the previous one. `index` goes on to write it
/// and the search index; `impact` stops here.
pub struct Head {
    started: Instant,
    pub timings_ms: BTreeMap<String, u64>,
    pub warnings: Vec<Warning>,
    snapshot: Snapshot,
    selected: Vec<FileEntry>,
    parsed: Vec<ParsedFile>,
    to_read: Vec<FileEntry>,
    contents: Vec<Vec<u8>>,
    pub bundle: Bundle,
    /// Git blob id of every indexed file, by path.
    pub files: BTreeMap<String, String>,
    pub diff: Option<bundle::StructuralDiff>,
    /// The previous index, when it was usable.
    pub previous: Option<Previous>,
    /// `used`, `none` or `rebuilt: <reason>`.
    pub previous_status: String,
    keeps_code_chunks: Vec<bool>,
    pub n_files_parsed: usize,
    /// The settings the head resolved to (with its `strata.toml`).
    pub settings: IndexSettings,
}

pub async fn build_head(request: &IndexRequest<'_>, observer: &dyn IndexObserver) -> Result<Head> {
    let started = Instant::now();
    let mut timings_ms = BTreeMap::new();
    let mut warnings = Vec::new();

    let stage_clock = Instant::now();
    observer.stage_started(Stage::Source, 0);
    // The previous artifact is read on another thread while the snapshot is opened and listed.
    let embedder = (request.embedder.id(), request.embedder.dimension());
    let (loaded, opened) = std::thread::scope(|scope| {
        let loading = request.previous.map(|dir| {
            scope.spawn(move || {
                let started = Instant::now();
                (read_previous(dir, &embedder.0, embedder.1), elapsed_ms(started))
            })
        });
        let opened = open_source(request);
        let loaded = loading.map(|thread| {
            thread.join().unwrap_or_else(|_| (Err(anyhow::anyhow!("reading it failed unexpectedly")), 0))
        });
        (loaded, opened)
    });
    let (snapshot, settings, selected, skipped) = opened?;
    let (mut previous, previous_status) = match (request.previous, loaded) {
        (Some(dir), Some((read, ms))) => {
            timings_ms.insert("source.previous".to_string(), ms);
            let checked = match read {
                Ok(previous) => check_previous_table(dir).await.map(|()| previous),
                Err(error) => Err(error),
            };
            match checked {
                Ok(previous) => {
                    if let Some(version) = previous.stale_facts_version {
                        warnings.push(Warning {
                            path: None,
                            line: None,
                            message: format!(
                                "previous index at {} holds facts version {version}, this strata extracts version {FACTS_VERSION}; every file is parsed again (unchanged chunks keep their vectors)",
                                dir.display()
                            ),
                        });
                    }
                    (Some(previous), "used".to_string())
                }
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
            }
        }
        _ => (None, "none".to_string()),
    };
    for skip in &skipped {
        warnings.push(Warning {
            path: Some(skip.path.clone()),
            line: None,
            message: format!("skipped: {}", skip.reason),
        });
    }
    // Module names first (cheap): they decide which previous code chunks are still valid.
    let paths: Vec<String> = selected.iter().map(|file| file.path.clone()).collect();
    let roots = source_roots(&paths, &settings.source_roots, snapshot.enclosing_folders())?;
    let (index, shadowed) = ModuleIndex::new(&paths, roots);
    debug_assert!(index.modules.iter().map(|m| &m.id).eq(paths.iter()), "module order must match file order");
    let reuse = Reuse::plan(previous.as_mut(), &selected, &index);
    let to_read: Vec<FileEntry> = selected
        .iter()
        .enumerate()
        .filter(|(i, _)| if request.graph_only { reuse.parses[*i].is_none() } else { !reuse.keeps_code_chunks[*i] })
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
    if parsed
        .iter()
        .all(|file| !file.warnings.is_empty() && file.facts.imports.is_empty() && file.facts.symbols.is_empty())
    {
        anyhow::bail!(
            "none of the {} Python file(s) under {} could be parsed (every one has errors and yielded no imports or definitions); is this Python 3 source?",
            parsed.len(),
            snapshot.describe(request.path)
        );
    }
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
    warnings.extend(unresolved_import_warnings(&graph));
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

    Ok(Head {
        started,
        timings_ms,
        warnings,
        snapshot,
        selected,
        parsed,
        to_read,
        contents,
        bundle,
        files,
        diff,
        previous,
        previous_status,
        keeps_code_chunks: reuse.keeps_code_chunks,
        n_files_parsed,
        settings,
    })
}

pub async fn run_index(request: &IndexRequest<'_>, observer: &dyn IndexObserver) -> Result<IndexReport> {
    let Head {
        started,
        mut timings_ms,
        mut warnings,
        snapshot,
        selected,
        parsed,
        to_read,
        contents,
        bundle,
        files,
        diff,
        previous,
        previous_status,
        keeps_code_chunks,
        n_files_parsed,
        settings,
    } = build_head(request, observer).await?;

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
    let merge_diagram = previous.as_ref().and_then(|previous| merge_diagram(previous, &bundle, &files));
    let links = request.repository_url.zip(snapshot.folder_in_repository()).map(|(repository, folder)| {
        bundle::CodeLinks { repository: repository.to_string(), folder: folder.to_string() }
    });
    let pages = Pages { diff: diff.as_ref(), merge_diagram: merge_diagram.as_deref(), links: links.as_ref() };
    write_bundle_files(out_dir, &bundle, &pages, &selected, &parsed)?;
    observer.stage_finished(Stage::Write);
    record(&mut timings_ms, Stage::Write, stage_clock);

    let stage_clock = Instant::now();
    observer.stage_started(Stage::Search, 0);
    let mut sources: BTreeMap<String, String> =
        to_read.iter().zip(&contents).map(|(file, bytes)| (file.path.clone(), decode_python_source(bytes))).collect();
    drop(contents);
    let chunk_clock = Instant::now();
    let fresh = build_chunks(&bundle, &sources);
    let fresh_hashes: Vec<String> = fresh.iter().map(|chunk| text_hash(&chunk.text)).collect();
    timings_ms.insert("search.chunks".to_string(), elapsed_ms(chunk_clock));
    let mut updated = None;
    if let (Some(previous), Some(dir)) = (&previous, request.previous)
        && previous.same_embedder
    {
        let kept = kept_code_chunks(&previous.manifest.chunks, &selected, &keeps_code_chunks);
        let table = PreviousTable { index_dir: dir, hashes: &previous.manifest.chunks };
        match update_search_index(out_dir, &fresh, &fresh_hashes, &kept, &table, request.embedder).await {
            Ok(stats) => updated = Some(stats),
            Err(error) => warnings.push(Warning {
                path: None,
                line: None,
                message: format!("could not update the previous search table in place ({error:#}); rewriting it"),
            }),
        }
    }
    let search_stats = match updated {
        Some(stats) => stats,
        None => {
            // Files whose code chunks were to be kept from the previous table must be read after all.
            let unread: Vec<FileEntry> = selected.iter().filter(|f| !sources.contains_key(&f.path)).cloned().collect();
            let contents = snapshot.read_all(&unread)?;
            sources
                .extend(unread.iter().zip(&contents).map(|(f, bytes)| (f.path.clone(), decode_python_source(bytes))));
            let chunks = build_chunks(&bundle, &sources);
            let hashes: Vec<String> = chunks.iter().map(|chunk| text_hash(&chunk.text)).collect();
            // Another embedder's vectors are useless, whatever their dimension.
            let vectors_from = previous.as_ref().filter(|p| p.same_embedder).and(request.previous);
            write_search_index(out_dir, &chunks, &hashes, vectors_from, request.embedder).await?
        }
    };
    drop(sources);
    for (step, ms) in &search_stats.timings_ms {
        timings_ms.insert(format!("search.{step}"), *ms);
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
        chunks: search_stats.hashes,
        timings_ms: timings_ms.clone(),
        answer: Some(AnswerSettings { abstention: crate::answer::abstain::fitted() }),
        selection: snapshot.folder_in_repository().map(|folder| SelectionRecord {
            folder: folder.to_string(),
            enclosing: snapshot.enclosing_folders().to_vec(),
            exclude: settings.exclude.clone(),
            source_roots: settings.source_roots.clone(),
            max_file_bytes: settings.max_file_bytes,
            test_files: settings.test_files.clone(),
        }),
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

/// The snapshot, the settings it resolves to (with its `strata.toml`), and the Python files selected
/// and skipped.
fn open_source(request: &IndexRequest<'_>) -> Result<(Snapshot, IndexSettings, Vec<FileEntry>, Vec<Skipped>)> {
    let snapshot = match request.overlay {
        Some(overlay) => Snapshot::Overlay(overlay.clone()),
        None => Snapshot::open(request.path, request.rev)?,
    };
    let file_config = match snapshot.read_path(CONFIG_FILE_NAME)? {
        Some(bytes) => FileConfig::parse(&String::from_utf8_lossy(&bytes))?,
        None => FileConfig::default(),
    };
    let settings = IndexSettings::resolve(request.options, &file_config);
    let exclusions = Exclusions::new(&settings.exclude)?;
    let (selected, skipped) = select_python_files(snapshot.files(), &exclusions, settings.max_file_bytes);
    if selected.is_empty() {
        let looked_at = snapshot.describe(request.path);
        let reason = match (snapshot.files().len(), skipped.len()) {
            (0, _) if snapshot.kind() == crate::source::SnapshotKind::Git && snapshot.commit().is_none() => {
                "the repository has no commits yet".to_string()
            }
            (0, _) => "it holds no files".to_string(),
            (n, 0) => format!("none of its {n} file(s) is a `.py` file outside excluded folders"),
            (n, k) => format!("of its {n} file(s), the {k} Python file(s) are all over the size limit"),
        };
        anyhow::bail!(
            "nothing to index in {looked_at}: {reason}; pass the folder of a Python repository (or check --exclude)"
        );
    }
    Ok((snapshot, settings, selected, skipped))
}

/// What an incremental run takes from the previous artifact, per selected file.
struct Reuse {
    /// The previous parse, when a file with the same blob id was parsed before (path does not matter).
    parses: Vec<Option<ParsedFile>>,
    /// True when the file's path, blob and module name are all unchanged and the previous vectors are
    /// usable: its code chunks stay in the table as they are and it is not read at all.
    keeps_code_chunks: Vec<bool>,
}

impl Reuse {
    /// Takes the previous parses out of `previous` (moved, not copied: there are thousands).
    fn plan(previous: Option<&mut Previous>, selected: &[FileEntry], index: &ModuleIndex) -> Reuse {
        let Some(previous) = previous else {
            return Reuse { parses: vec![None; selected.len()], keeps_code_chunks: vec![false; selected.len()] };
        };
        let mut by_blob: HashMap<String, ParsedFile> = std::mem::take(&mut previous.facts).into_values().collect();
        let keeps_code_chunks = selected
            .iter()
            .zip(&index.modules)
            .map(|(file, module)| {
                previous.same_embedder
                    && previous.manifest.files.get(&file.path) == Some(&file.blob_id)
                    && previous.bundle.nodes.get(&file.path).is_some_and(|node| node.module == module.name)
                    && by_blob.contains_key(&file.blob_id)
            })
            .collect();
        // Identical files (empty `__init__.py`s) share a blob: the last one takes the parse, the others copy it.
        let mut uses: HashMap<&str, usize> = HashMap::new();
        for file in selected {
            *uses.entry(file.blob_id.as_str()).or_default() += 1;
        }
        let parses = selected
            .iter()
            .map(|file| {
                let remaining = uses.get_mut(file.blob_id.as_str())?;
                *remaining -= 1;
                if *remaining == 0 { by_blob.remove(&file.blob_id) } else { by_blob.get(&file.blob_id).cloned() }
            })
            .collect();
        Reuse { parses, keeps_code_chunks }
    }
}

/// The ids of the previous code chunks of every file that was not read (same path, blob and module
/// name, so the same chunks): they stay in the table untouched. Chunk ids are `code:{path}:{lines}`.
fn kept_code_chunks<'p>(
    previous_chunks: &'p BTreeMap<String, String>,
    selected: &[FileEntry],
    keeps_code_chunks: &[bool],
) -> Vec<&'p str> {
    let kept_paths: HashSet<&str> =
        selected.iter().zip(keeps_code_chunks).filter(|(_, keep)| **keep).map(|(f, _)| f.path.as_str()).collect();
    previous_chunks
        .keys()
        .filter(|id| {
            id.strip_prefix("code:")
                .and_then(|rest| rest.rsplit_once(':'))
                .is_some_and(|(path, _)| kept_paths.contains(path))
        })
        .map(String::as_str)
        .collect()
}

/// The Mermaid diagram of what changed since the previous index (as `strata impact` draws it), for the
/// job summary; `None` when nothing changed or it is too large to read.
fn merge_diagram(previous: &Previous, bundle: &Bundle, files: &BTreeMap<String, String>) -> Option<String> {
    let tests: Vec<String> = crate::impact::DEFAULT_TEST_FILES.iter().map(|p| p.to_string()).collect();
    let matcher = crate::impact::test_file_matcher(&tests).ok()?;
    let change = crate::impact::impact(&previous.bundle, &previous.manifest.files, bundle, files, &matcher, false);
    crate::impact::render::mermaid(&change)
}

/// `bundle.json`, the Parquet tables, `graph.html`, `summary.md` and `facts.parquet`, written side by side.
/// What the pages (`graph.html`, `summary.md`) show besides the bundle.
struct Pages<'a> {
    diff: Option<&'a bundle::StructuralDiff>,
    merge_diagram: Option<&'a str>,
    links: Option<&'a bundle::CodeLinks>,
}

fn write_bundle_files(
    out_dir: &Path,
    bundle: &Bundle,
    pages: &Pages<'_>,
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
                    bundle::write_atomically(
                        out_dir,
                        "graph.html",
                        bundle::render_graph_html(bundle, pages.links, "")?.as_bytes(),
                    )?;
                    let mut summary = bundle::render_summary(bundle);
                    if let Some(section) = crate::views::largest_cycle_section(bundle) {
                        summary.push('\n');
                        summary.push_str(&section);
                    }
                    if let Some(diff) = pages.diff {
                        summary.push('\n');
                        summary.push_str(&bundle::render_diff_markdown(diff));
                    }
                    if let Some(diagram) = pages.merge_diagram {
                        summary.push_str("\n### The change as a diagram\n\nChanged and added modules highlighted, their importers one level up, the imports of new or grown cycles in red.\n\n");
                        summary.push_str(diagram);
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

/// One warning per module with imports of repository modules that do not exist (with the line of the
/// first), and one for the whole run when relative imports climb above the top-level package, which
/// means the indexed folder is inside a package strata could not see.
fn unresolved_import_warnings(graph: &ImportGraph) -> Vec<Warning> {
    let mut warnings = Vec::new();
    let mut beyond = Vec::new();
    for (module, imports) in graph.index.modules.iter().zip(&graph.externals) {
        let (climbing, missing): (Vec<_>, Vec<_>) = imports.unresolved.iter().partition(|u| u.beyond_top_level);
        if let Some(first) = climbing.first() {
            beyond.push((module.id.as_str(), first.line, first.name.as_str()));
        }
        if let Some(first) = missing.first() {
            let more = if missing.len() > 1 { format!(" (and {} more)", missing.len() - 1) } else { String::new() };
            warnings.push(Warning {
                path: Some(module.id.clone()),
                line: Some(first.line),
                message: format!("import of `{}` names no module of the repository{more}", first.name),
            });
        }
    }
    if let Some((path, line, name)) = beyond.first() {
        warnings.push(Warning {
            path: Some(path.to_string()),
            line: Some(*line),
            message: format!(
                "relative imports in {} module(s) climb above the top-level package (here `{name}`), so they resolve to nothing; if the indexed folder is inside a package, index the repository root or pass --source-root ..",
                beyond.len()
            ),
        });
    }
    warnings
}

fn record(timings_ms: &mut BTreeMap<String, u64>, stage: Stage, since: Instant) {
    timings_ms.insert(stage.as_str().to_string(), elapsed_ms(since));
}

fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}
