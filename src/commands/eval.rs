//! `strata eval`: score a question set against an index, write `report.json` and `report.md` into
//! `--out`, append a row to the Parquet history, print the Markdown (for `$GITHUB_STEP_SUMMARY`), and
//! exit 1 when a metric regressed beyond the baseline's interval.

use std::io::Write;

use anyhow::{Context, Result, bail};

use crate::cli::EvalArgs;
use crate::config::LlmServer;
use crate::eval::report::{append_history, to_markdown};
use crate::eval::{EvalRequest, run_eval};
use crate::secret::Secret;

pub fn run_eval_command(args: &EvalArgs) -> Result<()> {
    let server = LlmServer::from_values(
        args.llm.openai_base_url.as_deref(),
        args.llm.openai_api_key.as_ref().map(Secret::expose),
    );
    let judge_cache = args.judge_cache.clone().unwrap_or_else(|| args.out.join("judge-cache"));
    let request = EvalRequest {
        index_dir: &args.index,
        questions_path: &args.questions,
        seed: args.seed,
        baseline: args.baseline.as_deref(),
        llm: if args.offline && !args.judge { None } else { server },
        chat_model: args.chat_model.clone(),
        judge: args.judge,
        judge_cache: &judge_cache,
    };
    let report = super::runtime()?.block_on(run_eval(&request))?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let title = args.questions.file_stem().map_or("questions".into(), |s| s.to_string_lossy().into_owned());
    let markdown = to_markdown(&report, &title);
    crate::bundle::write_atomically(&args.out, "report.json", &serde_json::to_vec_pretty(&report)?)?;
    crate::bundle::write_atomically(&args.out, "report.md", markdown.as_bytes())?;
    let history = args.history.clone().unwrap_or_else(|| args.out.join("history.parquet"));
    let recorded_at = std::env::var("STRATA_EVAL_RECORDED_AT").unwrap_or_else(|_| chrono::Utc::now().to_rfc3339());
    let rows = append_history(&history, &report, &recorded_at)?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(markdown.as_bytes())?;
    stdout.flush()?;
    eprintln!(
        "strata eval: {} questions; wrote {}/report.json and report.md; history {} has {rows} rows",
        report.questions.len(),
        args.out.display(),
        history.display()
    );
    if !report.regressions.is_empty() {
        bail!("{} metric(s) regressed beyond the baseline's interval (see report.md)", report.regressions.len());
    }
    Ok(())
}
