//! `strata impact`: what the head commit changes and affects, against the base index (the default
//! branch's artifact), as Markdown, JSON, or one test module path a line for `pytest $(…)`.

use std::io::Write;

use anyhow::{Result, bail};

use crate::cli::{ImpactArgs, ImpactFormat};
use crate::impact::{impact, render::render_markdown, test_file_matcher};
use crate::pipeline::{IndexRequest, Silent, build_head};
use crate::search::embed::HashingEmbedder;

pub fn run_impact_command(args: &ImpactArgs) -> Result<()> {
    let options = args.selection.options();
    // Only the graph is built: the embedder is never called, it only names the vectors a full index
    // would hold, which the impact does not read.
    let embedder = HashingEmbedder;
    let out_dir = std::env::temp_dir();
    let request = IndexRequest {
        path: &args.path,
        rev: &args.rev,
        out_dir: &out_dir,
        options: &options,
        embedder: &embedder,
        previous: Some(&args.previous),
    };
    let head = super::runtime()?.block_on(build_head(&request, &Silent))?;
    let Some(base) = &head.previous else {
        bail!(
            "the base index {} cannot be used ({}); pass the default branch's index directory (`strata fetch` downloads it)",
            args.previous.display(),
            head.previous_status.trim_start_matches("rebuilt: ")
        );
    };
    for warning in &head.warnings {
        if warning.path.is_none() {
            eprintln!("warning: {}", warning.message);
        }
    }
    let patterns = if args.test_files.is_empty() { &head.settings.test_files } else { &args.test_files };
    let matcher = test_file_matcher(patterns)?;
    let result = impact(&base.bundle, &base.manifest.files, &head.bundle, &head.files, &matcher, args.runtime);
    let mut stdout = std::io::stdout().lock();
    if args.tests {
        for test in &result.tests {
            writeln!(stdout, "{test}")?;
        }
        return Ok(());
    }
    match args.format {
        ImpactFormat::Markdown => stdout.write_all(render_markdown(&result, args.why).as_bytes())?,
        ImpactFormat::Json => {
            serde_json::to_writer_pretty(&mut stdout, &result)?;
            writeln!(stdout)?;
        }
    }
    Ok(())
}
