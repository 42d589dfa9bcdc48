//! `strata eval`: score a question set against an index, write `report.json` and `report.md` into
//! `--out`, append a row to the Parquet history, print the Markdown (for `$GITHUB_STEP_SUMMARY`), and
//! exit 1 when a metric regressed beyond the baseline's interval. A "find the code" set (lines with
//! `gold_files`) gets file-level metrics instead, with `--reference` and `--require`.

use std::io::Write;

use anyhow::{Context, Result, bail};

use crate::cli::EvalArgs;
use strata_core::config::LlmServer;
use strata_core::secret::Secret;
use strata_eval::locate::{Reference, Requirement, to_markdown as locate_markdown};
use strata_eval::report::{append_history, to_markdown};
use strata_eval::{EvalRequest, LocateRequest, is_locate_set, run_eval, run_locate_eval};

pub fn run_eval_command(args: &EvalArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.questions)
        .with_context(|| format!("cannot read the questions {}", args.questions.display()))?;
    if is_locate_set(&text) {
        return run_locate_command(args);
    }
    if args.reference.is_some() || !args.require.is_empty() {
        bail!("--reference and --require apply to find-the-code sets (lines with gold_files); use --baseline here");
    }
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
        // Also when answering offline: an index built with an OpenAI embedder embeds questions there.
        llm: server,
        chat_model: args.chat_model.clone(),
        chat_timeout: std::time::Duration::from_secs(args.chat_timeout),
        judge: args.judge,
        judge_cache: &judge_cache,
        oracle_edges: args.oracle_edges.as_deref(),
        offline_answers: args.offline,
    };
    let report = super::runtime()?.block_on(run_eval(&request))?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let title = args.questions.file_stem().map_or("questions".into(), |s| s.to_string_lossy().into_owned());
    let markdown = to_markdown(&report, &title);
    strata_core::bundle::write_atomically(&args.out, "report.json", &serde_json::to_vec_pretty(&report)?)?;
    strata_core::bundle::write_atomically(&args.out, "report.md", markdown.as_bytes())?;
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

fn run_locate_command(args: &EvalArgs) -> Result<()> {
    if args.baseline.is_some() || args.judge {
        bail!("--baseline and --judge apply to graded sets; a find-the-code set takes --reference and --require");
    }
    let reference = match &args.reference {
        Some(path) => Some(
            Reference::parse(
                &std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read the reference {}", path.display()))?,
            )
            .with_context(|| format!("the reference {}", path.display()))?,
        ),
        None => None,
    };
    let requirements = args.require.iter().map(|r| Requirement::parse(r)).collect::<Result<Vec<_>>>()?;
    let server = LlmServer::from_values(
        args.llm.openai_base_url.as_deref(),
        args.llm.openai_api_key.as_ref().map(Secret::expose),
    );
    let request =
        LocateRequest { index_dir: &args.index, questions_path: &args.questions, reference, requirements, server };
    let report = super::runtime()?.block_on(run_locate_eval(&request))?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let title = args.questions.file_stem().map_or("questions".into(), |s| s.to_string_lossy().into_owned());
    let markdown =
        locate_markdown(&title, &report.overall, &report.by_category, report.reference.as_ref(), &report.questions);
    strata_core::bundle::write_atomically(&args.out, "report.json", &serde_json::to_vec_pretty(&report)?)?;
    strata_core::bundle::write_atomically(&args.out, "report.md", markdown.as_bytes())?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(markdown.as_bytes())?;
    stdout.flush()?;
    eprintln!(
        "strata eval: {} find-the-code questions; wrote {}/report.json and report.md",
        report.questions.len(),
        args.out.display()
    );
    if !report.unmet.is_empty() {
        bail!("requirements not met: {}", report.unmet.join("; "));
    }
    Ok(())
}
