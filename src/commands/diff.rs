//! `strata diff OLD NEW`: the structural diff between two index directories, as Markdown (for a job
//! summary) or JSON.

use std::io::Write;

use anyhow::Result;

use super::staged::{GRAPH_FILES, stage};
use crate::cli::{DiffArgs, DiffFormat};
use strata_core::bundle::{Manifest, diff_bundles, read_bundle, render_diff_markdown};

pub fn run_diff_command(args: &DiffArgs) -> Result<()> {
    let (old_index, new_index) = (stage(&args.old, GRAPH_FILES)?, stage(&args.new, GRAPH_FILES)?);
    let (old_manifest, new_manifest) = (Manifest::read(old_index.dir())?, Manifest::read(new_index.dir())?);
    let (old, new) = (read_bundle(old_index.dir())?, read_bundle(new_index.dir())?);
    let diff = diff_bundles(&old, &old_manifest.files, &new, &new_manifest.files);
    let mut stdout = std::io::stdout().lock();
    match args.format {
        DiffFormat::Markdown => stdout.write_all(render_diff_markdown(&diff).as_bytes())?,
        DiffFormat::Json => {
            serde_json::to_writer_pretty(&mut stdout, &diff)?;
            writeln!(stdout)?;
        }
    }
    Ok(())
}
