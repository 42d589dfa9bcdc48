//! The files of an index directory besides the search table: `bundle.json`, the Parquet tables,
//! `facts.parquet`, `graph.html` and `summary.md` (written side by side), and `manifest.json`, written
//! last because a directory with a manifest is a complete index.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};

use strata_core::bundle::{self, Bundle, EmbedderInfo, Manifest, SelectionRecord, ToolInfo};
use strata_core::python::ParsedFile;
use strata_core::source::FileEntry;

use super::IndexRequest;
use super::head::Head;
use super::previous::Previous;

/// Makes `out_dir` and removes any old manifest, so the directory is complete again only at the end.
pub fn prepare_out_dir(out_dir: &Path) -> Result<()> {
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create output directory {}", out_dir.display()))?;
    let old_manifest = out_dir.join("manifest.json");
    if old_manifest.exists() {
        std::fs::remove_file(&old_manifest).with_context(|| format!("cannot replace {}", old_manifest.display()))?;
    }
    Ok(())
}

/// The bundle, its tables and its pages for `head`, with the merge's diff and diagram when there was a
/// previous index, and code links when the repository's address is known.
pub fn write_bundle(request: &IndexRequest<'_>, head: &Head) -> Result<()> {
    let merge_diagram = head.previous.as_ref().and_then(|previous| merge_diagram(previous, &head.bundle, &head.files));
    let links = request.repository_url.zip(head.snapshot.folder_in_repository()).map(|(repository, folder)| {
        bundle::CodeLinks { repository: repository.to_string(), folder: folder.to_string() }
    });
    let pages = Pages { diff: head.diff.as_ref(), merge_diagram: merge_diagram.as_deref(), links: links.as_ref() };
    write_bundle_files(request.out_dir, &head.bundle, &pages, &head.selected, &head.parsed)
}

/// `manifest.json`: versions, the commit, every file's blob id, the embedder, the timings, the answer
/// settings and the selection; the chunk hashes beside it in `chunks.json`, written first.
pub fn write_manifest(request: &IndexRequest<'_>, head: &Head, chunk_hashes: BTreeMap<String, String>) -> Result<()> {
    let snapshot = &head.snapshot;
    let settings = &head.settings;
    let manifest = Manifest {
        schema_version: bundle::MANIFEST_SCHEMA_VERSION,
        bundle_schema_version: bundle::BUNDLE_SCHEMA_VERSION.to_string(),
        tool: ToolInfo::current(),
        commit: snapshot.commit().map(str::to_string),
        source: snapshot.kind().as_str().to_string(),
        files: head.files.clone(),
        embedder: EmbedderInfo { id: request.embedder.id(), dimension: request.embedder.dimension() },
        inline_chunks: Default::default(),
        timings_ms: head.timings_ms.clone(),
        answer: Some(bundle::fitted_answer_settings()),
        selection: snapshot.folder_in_repository().map(|folder| SelectionRecord {
            folder: folder.to_string(),
            enclosing: snapshot.enclosing_folders().to_vec(),
            exclude: settings.exclude.clone(),
            source_roots: settings.source_roots.clone(),
            max_file_bytes: settings.max_file_bytes,
            test_files: settings.test_files.clone(),
            skipped: head.skipped.iter().map(|skip| (skip.path.clone(), skip.blob_id.clone())).collect(),
        }),
    };
    bundle::write_atomically(request.out_dir, bundle::CHUNK_HASHES_FILE, &bundle::chunk_hashes_json(&chunk_hashes)?)?;
    bundle::write_atomically(request.out_dir, "manifest.json", &bundle::to_canonical_json(&manifest, true)?)
}

/// The Mermaid diagram of what changed since the previous index (as `strata impact` draws it), for the
/// job summary; `None` when nothing changed or it is too large to read.
fn merge_diagram(previous: &Previous, bundle: &Bundle, files: &BTreeMap<String, String>) -> Option<String> {
    let tests = strata_core::graph_view::TestModules::of(bundle);
    let change = strata_core::impact::impact(&previous.bundle, &previous.manifest.files, bundle, files, &tests, false);
    strata_core::impact::render::mermaid(&change)
}

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
        || -> Result<()> {
            let json = bundle::to_canonical_json(bundle, false)?;
            bundle::write_atomically(out_dir, bundle::BUNDLE_ZST_FILE, &bundle::compress_bundle_json(&json)?)?;
            bundle::write_atomically(out_dir, "bundle.json", &json)
        },
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
                    if let Some(section) = strata_core::views::largest_cycle_section(bundle) {
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
