//! `strata index`: run the pipeline and report on it (progress bar on a terminal, log groups and
//! annotations in GitHub Actions, a JSON report with `--json`).

use std::io::{IsTerminal, Write};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use super::output::{MAX_ANNOTATIONS, escape_data, escape_property, in_github_actions};
use super::staged::{StagedIndex, stage_previous};
use crate::cli::IndexArgs;
use strata_core::config::LlmServer;
use strata_core::secret::Secret;
use strata_index::{IndexObserver, IndexReport, IndexRequest, Silent, Stage, run_index};
use strata_search::embed::embedder_for_choice;
use strata_search::location::{IndexLocation, RemoteIndex};

pub fn run_index_command(args: &IndexArgs) -> Result<()> {
    let runtime = super::runtime()?;
    let (report, org) = match &args.org {
        Some(org) => {
            let (report, org) = super::org::index_into_org(args, org, &runtime)?;
            (report, Some(org))
        }
        None => (index_to_out(args, &runtime)?, None),
    };
    print_warnings(&report);
    let mut stdout = std::io::stdout().lock();
    if args.json {
        #[derive(serde::Serialize)]
        struct WithOrg<'a> {
            #[serde(flatten)]
            report: &'a IndexReport,
            #[serde(skip_serializing_if = "Option::is_none")]
            org: Option<&'a super::org::OrgReport>,
        }
        serde_json::to_writer_pretty(&mut stdout, &WithOrg { report: &report, org: org.as_ref() })?;
        writeln!(stdout)?;
    } else {
        print_human_summary(&mut stdout, &report)?;
        if let Some(org) = &org {
            writeln!(stdout, "{org}")?;
        }
    }
    Ok(())
}

/// `--out` and `--previous`: build, and upload when `--out` is on object storage.
fn index_to_out(args: &IndexArgs, runtime: &tokio::runtime::Runtime) -> Result<IndexReport> {
    let started = std::time::Instant::now();
    let previous = args.previous.as_ref().map(stage_previous).transpose()?;
    let download_ms = started.elapsed().as_millis() as u64;
    // An index for object storage is written locally exactly as a local one, then uploaded: the
    // incremental table update works on local files (hard-linked copies, in-place deletes and
    // compaction), and with the manifest uploaded last a reader that finds the new manifest finds its
    // files. Writing the table straight to its s3 URI would need a second update path and LanceDB's
    // commit protocol on S3, for no gain: the upload is one PUT per file either way.
    let build_dir = match &args.out {
        IndexLocation::Local(dir) => BuildDir::Local(dir.clone()),
        IndexLocation::Object(object) => BuildDir::Staged(
            tempfile::Builder::new()
                .prefix("strata-index-")
                .tempdir()
                .context("cannot create a temporary directory")?,
            Box::new(RemoteIndex::open(object)?),
        ),
    };
    let mut report = build_index(args, previous.as_ref(), build_dir.path(), runtime)?;
    if let (Some(IndexLocation::Object(_)), Some(staged)) = (&args.previous, &previous) {
        report.timings_ms.insert("download".to_string(), download_ms);
        name_location(&mut report, staged.dir(), &args.previous.as_ref().map(ToString::to_string).unwrap_or_default());
    }
    if let BuildDir::Staged(dir, remote) = &build_dir {
        let started = std::time::Instant::now();
        runtime
            .block_on(remote.upload(dir.path()))
            .with_context(|| format!("cannot upload the index to {}", args.out))?;
        report.timings_ms.insert("upload".to_string(), started.elapsed().as_millis() as u64);
        name_location(&mut report, dir.path(), &args.out.to_string());
    }
    Ok(report)
}

/// Runs the pipeline into the local directory `out_dir`, reusing `previous`.
pub(super) fn build_index(
    args: &IndexArgs,
    previous: Option<&StagedIndex>,
    out_dir: &std::path::Path,
    runtime: &tokio::runtime::Runtime,
) -> Result<IndexReport> {
    let options = args.selection.options();
    let server = LlmServer::from_values(
        args.llm.openai_base_url.as_deref(),
        args.llm.openai_api_key.as_ref().map(Secret::expose),
    );
    let repository_url = args.repository_url.clone().or_else(actions_repository_url);
    runtime.block_on(async {
        let embedder = embedder_for_choice(args.embedder.into(), server.as_ref(), &args.llm.embedding_model).await?;
        let request = IndexRequest {
            path: &args.path,
            rev: &args.rev,
            out_dir,
            options: &options,
            embedder: embedder.as_ref(),
            previous: previous.map(StagedIndex::dir),
            overlay: None,
            repository_url: repository_url.as_deref(),
            graph_only: false,
            previous_without_table: false,
        };
        if in_github_actions() {
            run_index(&request, &LogGroups).await
        } else if !args.json && std::io::stderr().is_terminal() {
            run_index(&request, &TerminalProgress::default()).await
        } else {
            run_index(&request, &Silent).await
        }
    })
}

/// Where the index is built: the `--out` directory, or a temporary one uploaded afterwards.
enum BuildDir {
    Local(std::path::PathBuf),
    Staged(tempfile::TempDir, Box<RemoteIndex>),
}

impl BuildDir {
    fn path(&self) -> &std::path::Path {
        match self {
            BuildDir::Local(dir) => dir,
            BuildDir::Staged(dir, _) => dir.path(),
        }
    }
}

/// The report names the temporary copy `dir` of an index on object storage by its URL instead.
pub(super) fn name_location(report: &mut IndexReport, dir: &std::path::Path, url: &str) {
    let dir = dir.display().to_string();
    report.out_dir = report.out_dir.replace(&dir, url);
    report.previous = report.previous.replace(&dir, url);
    for warning in &mut report.warnings {
        warning.message = warning.message.replace(&dir, url);
    }
}

fn print_warnings(report: &IndexReport) {
    let github = in_github_actions();
    for (position, warning) in report.warnings.iter().enumerate() {
        let location = match (&warning.path, warning.line) {
            (Some(path), Some(line)) => format!("{path}:{line}: "),
            (Some(path), None) => format!("{path}: "),
            _ => String::new(),
        };
        if github && position < MAX_ANNOTATIONS {
            let mut properties = Vec::new();
            if let Some(path) = &warning.path {
                properties.push(format!("file={}", escape_property(path)));
            }
            if let Some(line) = warning.line {
                properties.push(format!("line={line}"));
            }
            eprintln!("::warning {}::{}", properties.join(","), escape_data(&warning.message));
        } else {
            eprintln!("warning: {location}{}", escape_data(&warning.message));
        }
    }
}

/// One line of counts, stage timings and where the index went; a second line only for `--previous`.
/// Every file written is listed in the README; `--json` has the full report.
fn print_human_summary(out: &mut impl Write, report: &IndexReport) -> Result<()> {
    let commit = report.commit.as_deref().map_or("working tree".to_string(), |c| c[..c.len().min(12)].to_string());
    let stages = ["download", "source", "parse", "graph", "write", "search", "upload"];
    let timings: Vec<String> =
        stages.iter().filter_map(|stage| report.timings_ms.get(*stage).map(|ms| format!("{stage} {ms}"))).collect();
    writeln!(
        out,
        "indexed {commit}: {} modules, {} import edges, {} cycles (largest {}), {} chunks ({}), {} warnings; {} ms ({} ms) into {}",
        report.n_modules,
        report.n_edges,
        report.n_cycles,
        report.largest_cycle,
        report.n_chunks,
        report.embedder,
        report.warnings.len(),
        report.timings_ms.get("total").copied().unwrap_or_default(),
        timings.join(", "),
        report.out_dir
    )?;
    if report.previous != "none" {
        writeln!(
            out,
            "previous index {}: {} files parsed, {} reused; {} chunks embedded, {} reused, {} removed",
            report.previous,
            report.n_files_parsed,
            report.n_files_reused,
            report.n_chunks_embedded,
            report.n_chunks_reused,
            report.n_chunks_removed
        )?;
    }
    Ok(())
}

/// A progress bar on stderr while files are parsed.
#[derive(Default)]
struct TerminalProgress {
    bar: std::sync::Mutex<Option<ProgressBar>>,
}

impl IndexObserver for TerminalProgress {
    fn stage_started(&self, stage: Stage, n_items: usize) {
        let bar = if n_items > 0 {
            let bar = ProgressBar::new(n_items as u64);
            let style = ProgressStyle::with_template("{prefix:>6} [{bar:30}] {pos}/{len} files {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar
        } else {
            ProgressBar::new_spinner()
        };
        bar.set_prefix(stage.as_str());
        if let Ok(mut slot) = self.bar.lock() {
            *slot = Some(bar);
        }
    }

    fn item_done(&self) {
        if let Ok(slot) = self.bar.lock()
            && let Some(bar) = slot.as_ref()
        {
            bar.inc(1);
        }
    }

    fn stage_finished(&self, _stage: Stage) {
        if let Ok(mut slot) = self.bar.lock()
            && let Some(bar) = slot.take()
        {
            bar.finish_and_clear();
        }
    }
}

/// `::group::` / `::endgroup::` around each stage, so the Actions log folds neatly.
struct LogGroups;

impl IndexObserver for LogGroups {
    fn stage_started(&self, stage: Stage, n_items: usize) {
        let detail = if n_items > 0 { format!(" ({n_items} files)") } else { String::new() };
        eprintln!("::group::strata {}{detail}", stage.as_str());
    }

    fn stage_finished(&self, _stage: Stage) {
        eprintln!("::endgroup::");
    }
}

/// `https://github.com/owner/name` inside GitHub Actions, from the variables the runner sets.
fn actions_repository_url() -> Option<String> {
    let server = std::env::var("GITHUB_SERVER_URL").ok().filter(|s| !s.is_empty())?;
    let repository = std::env::var("GITHUB_REPOSITORY").ok().filter(|s| !s.is_empty())?;
    Some(format!("{}/{repository}", server.trim_end_matches('/')))
}
