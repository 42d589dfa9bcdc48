//! `strata fit`: fits the ranking and decline settings on the given question sets, prints the
//! held-out figures as Markdown and the settings fitted on everything as JSON, and writes the whole
//! report to `--out`.

use std::io::Write;

use anyhow::Result;

use crate::cli::FitArgs;
use strata_eval::fit::{FitRequest, FitSet, run_fit, to_markdown};

pub fn run_fit_command(args: &FitArgs) -> Result<()> {
    let sets = args.sets.iter().map(|spec| FitSet::parse(spec)).collect::<Result<Vec<_>>>()?;
    let report_sets = args.report_sets.iter().map(|spec| FitSet::parse(spec)).collect::<Result<Vec<_>>>()?;
    anyhow::ensure!((0.0..1.0).contains(&args.false_decline_budget), "--false-decline-budget is a share in [0, 1)");
    let request =
        FitRequest { sets, report_sets, false_decline_budget: args.false_decline_budget, rounds: args.rounds };
    let report = super::runtime()?.block_on(run_fit(&request))?;
    let settings = serde_json::json!({"ranking": report.ranking, "decline": report.decline});
    if let Some(path) = &args.out {
        std::fs::write(path, serde_json::to_vec_pretty(&report)?)?;
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(to_markdown(&report).as_bytes())?;
    writeln!(stdout, "\nSettings fitted on every set:\n{}", serde_json::to_string_pretty(&settings)?)?;
    stdout.flush()?;
    Ok(())
}
