//! The first half of a run, shared by `index`, `impact`, `check` and the bot: the head snapshot
//! opened and its files selected while the previous artifact is read and vetted, the reuse planned,
//! only the files that need it read and parsed, and the graph and bundle assembled, with the diff
//! against the previous bundle. Each step is a function of its own, in the order they run.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use rayon::prelude::*;

use strata_core::bundle::{self, BuildInput, Bundle, SkippedFile};
use strata_core::config::{CONFIG_FILE_NAME, FileConfig, IndexSettings};
use strata_core::graph::{ImportGraph, ModuleFile, ModuleIndex, build_import_graph, compute_metrics, source_roots};
use strata_core::graph_view::TestModules;
use strata_core::python::{FACTS_VERSION, FileFacts, ParsedFile, parse_python_file};
use strata_core::source::{Exclusions, FileEntry, Skipped, Snapshot, select_python_files};

use super::previous::{Previous, check_previous_table, read_previous};
use super::reuse::Reuse;
use super::{IndexObserver, IndexRequest, Stage, StageClock, Warning, elapsed_ms};

/// Everything up to the graph: the head snapshot read (reusing the previous index's facts), parsed,
/// and assembled into its bundle, with the diff against the previous one. `index` goes on to write it
/// and the search index; `impact` stops here.
pub struct Head {
    pub(super) started: Instant,
    pub timings_ms: BTreeMap<String, u64>,
    pub warnings: Vec<Warning>,
    pub(super) snapshot: Snapshot,
    pub(super) selected: Vec<FileEntry>,
    pub(super) parsed: Vec<ParsedFile>,
    /// The files read from the snapshot, and their bytes (for the search stage's chunks).
    pub(super) to_read: Vec<FileEntry>,
    pub(super) contents: Vec<Vec<u8>>,
    pub bundle: Bundle,
    /// Git blob id of every indexed file, by path.
    pub files: BTreeMap<String, String>,
    pub diff: Option<bundle::StructuralDiff>,
    /// The previous index, when it was usable.
    pub previous: Option<Previous>,
    /// `used`, `none` or `rebuilt: <reason>`.
    pub previous_status: String,
    pub(super) keeps_code_chunks: Vec<bool>,
    pub n_files_parsed: usize,
    /// The settings the head resolved to (with its `strata.toml`).
    pub settings: IndexSettings,
    /// Modules over the size limit: in the graph, never read.
    pub skipped: Vec<Skipped>,
}

/// The snapshot, the settings it resolves to (with its `strata.toml`), and the Python files selected
/// and skipped.
struct Opened {
    snapshot: Snapshot,
    settings: IndexSettings,
    selected: Vec<FileEntry>,
    skipped: Vec<Skipped>,
}

/// The previous artifact as read on its own thread, with how long that took.
type Loaded = (Result<Previous>, u64);

pub async fn build_head(request: &IndexRequest<'_>, observer: &dyn IndexObserver) -> Result<Head> {
    let started = Instant::now();
    let mut timings_ms = BTreeMap::new();
    let mut warnings = Vec::new();

    let stage = StageClock::start(observer, Stage::Source, 0);
    let (opened, loaded) = open_source_and_previous(request);
    let Opened { snapshot, settings, selected, skipped } = opened?;
    let (mut previous, previous_status) = match (request.previous, loaded) {
        (Some(dir), Some((read, ms))) => {
            timings_ms.insert("source.previous".to_string(), ms);
            vet_previous(dir, read, request.graph_only && request.previous_without_table, &mut warnings).await
        }
        _ => (None, "none".to_string()),
    };
    warnings.extend(skipped.iter().map(|skip| Warning {
        path: Some(skip.path.clone()),
        line: None,
        message: format!("skipped: {}", skip.reason),
    }));
    // Validated once, here: the patterns go into the bundle, where every reader finds them.
    TestModules::new(&settings.test_files)?;
    // Module names first (cheap): they decide which previous code chunks are still valid. Files skipped
    // for their size are modules too (imports resolve to them); only the selected ones are read.
    let mut paths: Vec<String> = selected.iter().chain(&skipped_entries(&skipped)).map(|f| f.path.clone()).collect();
    paths.sort();
    let roots = source_roots(&paths, &settings.source_roots, snapshot.enclosing_folders())?;
    let (index, shadowed) = ModuleIndex::new(&paths, roots);
    debug_assert!(index.modules.iter().map(|m| &m.id).eq(paths.iter()), "module order must match path order");
    let module_of: HashMap<&str, &ModuleFile> = index.modules.iter().map(|m| (m.id.as_str(), m)).collect();
    let selected_modules: Vec<&ModuleFile> = selected.iter().map(|file| module_of[file.path.as_str()]).collect();
    let reuse = Reuse::plan(previous.as_mut(), &selected, &selected_modules);
    let to_read = files_to_read(request, &selected, &reuse);
    let contents = snapshot.read_all(&to_read)?;
    stage.finish(&mut timings_ms);

    let keeps_code_chunks = reuse.keeps_code_chunks;
    let (parsed, n_files_parsed) = parse_files(observer, &selected, reuse.parses, &to_read, &contents, &mut timings_ms);
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

    let stage = StageClock::start(observer, Stage::Graph, 0);
    warnings.extend(shadowed.into_iter().map(|(path, message)| Warning { path: Some(path), line: None, message }));
    warnings.extend(parse_warnings(&selected, &parsed));
    let (bundle, graph_warnings) =
        assemble_bundle(index, &selected, &parsed, &snapshot, &skipped, &settings.test_files);
    warnings.extend(graph_warnings);
    let files: BTreeMap<String, String> =
        selected.iter().map(|file| (file.path.clone(), file.blob_id.clone())).collect();
    let diff = previous.as_ref().map(|p| bundle::diff_bundles(&p.bundle, &p.manifest.files, &bundle, &files));
    stage.finish(&mut timings_ms);

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
        keeps_code_chunks,
        n_files_parsed,
        settings,
        skipped,
    })
}

/// Skipped files as file entries (their size does not matter once skipped).
fn skipped_entries(skipped: &[Skipped]) -> Vec<FileEntry> {
    skipped.iter().map(|s| FileEntry { path: s.path.clone(), blob_id: s.blob_id.clone(), size: 0 }).collect()
}

/// Opens the snapshot and selects its files while the previous artifact (if any) is read on another
/// thread: the two are independent and both take time on a large repository.
fn open_source_and_previous(request: &IndexRequest<'_>) -> (Result<Opened>, Option<Loaded>) {
    let embedder = (request.embedder.id(), request.embedder.dimension());
    std::thread::scope(|scope| {
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
        (opened, loaded)
    })
}

/// A previous artifact is used only when it was read and its table opens (unless `without_table`: a
/// graph-only run's base index fetched from object storage without it); otherwise the run rebuilds from
/// scratch and says why. Stale facts are used for vectors only (every file is parsed again).
async fn vet_previous(
    dir: &Path,
    read: Result<Previous>,
    without_table: bool,
    warnings: &mut Vec<Warning>,
) -> (Option<Previous>, String) {
    let checked = match read {
        Ok(previous) if without_table => Ok(previous),
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
                message: format!("previous index at {} is unusable ({reason}); rebuilding from scratch", dir.display()),
            });
            (None, format!("rebuilt: {reason}"))
        }
    }
}

/// The files to read: those to parse, and for a full index also those whose code chunks are rebuilt.
fn files_to_read(request: &IndexRequest<'_>, selected: &[FileEntry], reuse: &Reuse) -> Vec<FileEntry> {
    selected
        .iter()
        .enumerate()
        .filter(|(i, _)| if request.graph_only { reuse.parses[*i].is_none() } else { !reuse.keeps_code_chunks[*i] })
        .map(|(_, file)| file.clone())
        .collect()
}

/// Every selected file's parse: reused ones as they are, the others parsed in parallel from the bytes
/// read. Read files whose blob was seen before (a rename) keep their parse too: facts do not depend on
/// the path. Returns the parses in file order and how many were parsed now.
fn parse_files(
    observer: &dyn IndexObserver,
    selected: &[FileEntry],
    reused: Vec<Option<ParsedFile>>,
    to_read: &[FileEntry],
    contents: &[Vec<u8>],
    timings_ms: &mut BTreeMap<String, u64>,
) -> (Vec<ParsedFile>, usize) {
    let read_position: HashMap<&str, usize> = to_read.iter().enumerate().map(|(i, f)| (f.path.as_str(), i)).collect();
    let to_parse: Vec<usize> = (0..selected.len()).filter(|&i| reused[i].is_none()).collect();
    let stage = StageClock::start(observer, Stage::Parse, to_parse.len());
    let fresh: Vec<ParsedFile> = to_parse
        .par_iter()
        .map(|&i| {
            let bytes = read_position.get(selected[i].path.as_str()).map_or(&[][..], |&r| contents[r].as_slice());
            let parsed = parse_python_file(bytes);
            observer.item_done();
            parsed
        })
        .collect();
    let n_parsed = fresh.len();
    let mut parsed = reused;
    for (i, fresh_parse) in to_parse.into_iter().zip(fresh) {
        parsed[i] = Some(fresh_parse);
    }
    stage.finish(timings_ms);
    (parsed.into_iter().map(Option::unwrap_or_default).collect(), n_parsed)
}

/// A warning per problem a parser met, with the line of a syntax error.
fn parse_warnings(selected: &[FileEntry], parsed: &[ParsedFile]) -> Vec<Warning> {
    selected
        .iter()
        .zip(parsed)
        .flat_map(|(file, parsed_file)| {
            parsed_file.warnings.iter().map(|message| {
                let line = parsed_file.facts.first_syntax_error_line.filter(|_| message.starts_with("syntax error"));
                Warning { path: Some(file.path.clone()), line, message: message.clone() }
            })
        })
        .collect()
}

/// The import graph, its metrics and the bundle, with a warning per unresolved import. `index` has the
/// selected files (parsed, in `selected` order) and the skipped ones (empty facts, their reason).
fn assemble_bundle(
    index: ModuleIndex,
    selected: &[FileEntry],
    parsed: &[ParsedFile],
    snapshot: &Snapshot,
    skipped: &[Skipped],
    test_files: &[String],
) -> (Bundle, Vec<Warning>) {
    let parsed_by_path: HashMap<&str, &ParsedFile> =
        selected.iter().zip(parsed).map(|(file, parse)| (file.path.as_str(), parse)).collect();
    let reasons: HashMap<&str, &str> = skipped.iter().map(|s| (s.path.as_str(), s.reason.as_str())).collect();
    let unread = FileFacts::default();
    let facts: Vec<&FileFacts> =
        index.modules.iter().map(|m| parsed_by_path.get(m.id.as_str()).map_or(&unread, |p| &p.facts)).collect();
    let file_warnings: Vec<Vec<String>> = index
        .modules
        .iter()
        .map(|m| match (parsed_by_path.get(m.id.as_str()), reasons.get(m.id.as_str())) {
            (Some(parse), _) => parse.warnings.clone(),
            (None, Some(reason)) => vec![format!("skipped: {reason}")],
            (None, None) => Vec::new(),
        })
        .collect();
    let graph = build_import_graph(index, &facts);
    let warnings = unresolved_import_warnings(&graph);
    let metrics = compute_metrics(&graph);
    let bundle = bundle::build_bundle(&BuildInput {
        graph: &graph,
        metrics: &metrics,
        facts: &facts,
        warnings: &file_warnings,
        commit: snapshot.commit(),
        source: snapshot.kind().as_str(),
        skipped_files: skipped.iter().map(|s| SkippedFile { path: s.path.clone(), reason: s.reason.clone() }).collect(),
        test_files,
    });
    (bundle, warnings)
}

/// Opens the snapshot and selects its Python files.
fn open_source(request: &IndexRequest<'_>) -> Result<Opened> {
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
            (0, _) if snapshot.kind() == strata_core::source::SnapshotKind::Git && snapshot.commit().is_none() => {
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
    Ok(Opened { snapshot, settings, selected, skipped })
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
