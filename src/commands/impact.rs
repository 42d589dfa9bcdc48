//! `strata impact`: what the head commit changes and affects, against the base index (the default
//! branch's artifact), as Markdown, JSON, or one test module path a line for `pytest $(…)`.

use std::io::Write;

use anyhow::{Context, Result};

use super::output::escape_data;
use crate::cli::{ImpactArgs, ImpactFormat};
use strata_core::graph_view::TestModules;
use strata_core::impact::{impact, render::render_markdown};

pub fn run_impact_command(args: &ImpactArgs) -> Result<()> {
    let org = args
        .org
        .as_ref()
        .map(|location| super::org::OrgBase::open(location, args.name.as_deref(), &args.path))
        .transpose()?;
    let previous = match &org {
        Some(org) => Some(org.base_location()),
        None => args.previous.clone(),
    };
    let head = super::head_against_base(&args.path, &args.rev, previous.as_ref(), &args.selection)?;
    let base = head.previous.as_ref().context("the base index was not read")?;
    for warning in &head.warnings {
        if warning.path.is_none() {
            // One line whatever the message holds (it can quote paths and files of the change), so no
            // line of it can start a workflow command in the job's log.
            eprintln!("warning: {}", escape_data(&warning.message));
        }
    }
    let patterns = if args.test_files.is_empty() { &head.settings.test_files } else { &args.test_files };
    let tests = TestModules::new(patterns)?;
    let mut result = impact(&base.bundle, &base.manifest.files, &head.bundle, &head.files, &tests, args.runtime);
    if let Some(org) = &org {
        result = result.with_other_repositories(&org.graph()?, org.name(), args.runtime);
    }
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
