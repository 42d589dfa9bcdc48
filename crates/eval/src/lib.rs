//! `strata eval`: every question of a set through the same code path as `ask`, scored with RAGAS-style
//! metrics (defined in `metrics` and the README's "Evaluating answers"): offline equivalents always, LLM-judged ones when an endpoint or a judge cache is
//! given. `questions` reads the sets, `metrics` holds the formulas, `score` applies them to one answer,
//! `aggregate` summarises with seeded bootstrap intervals and finds regressions, `judge` asks a model,
//! `report` writes JSON, Markdown and the Parquet history. A set whose lines carry `gold_files` (the
//! SWE-QA "find the code" sets) is scored by `locate` instead: file-level hit, recall, all-gold and
//! reciprocal rank, and the false-decline rate, per category, beside a reference row.

pub(crate) mod aggregate;
pub mod fit;
pub(crate) mod judge;
pub mod locate;
pub(crate) mod metrics;
pub(crate) mod questions;
pub mod report;
pub(crate) mod score;

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};

use aggregate::{RESAMPLES, aggregate, regressions};
use judge::Judge;
use report::{BaselineReport, EvalReport, IndexSummary, QuestionResult, REPORT_SCHEMA_VERSION};
use strata_answer::loaded::LoadedIndex;
use strata_answer::{Answer, ChatSettings, Mode};
use strata_core::bundle::Bundle;
use strata_core::config::LlmServer;
use strata_search::text_hash;

pub struct EvalRequest<'a> {
    pub index_dir: &'a Path,
    pub questions_path: &'a Path,
    pub seed: u64,
    pub baseline: Option<&'a Path>,
    /// The endpoint answers go through (as with `ask`) and the judge uses.
    pub llm: Option<LlmServer>,
    pub chat_model: String,
    /// Longest one chat request may take.
    pub chat_timeout: std::time::Duration,
    /// Judge the answers with a language model (from `judge_cache`, else the endpoint).
    pub judge: bool,
    pub judge_cache: &'a Path,
    /// The oracle's edges (JSON from `ast_oracle.py edge-paths`) to check claims against.
    pub oracle_edges: Option<&'a Path>,
    /// Answer without the language model even when one is configured for the judge.
    pub offline_answers: bool,
}

/// Every module a question expects must be in the index: a set written against another layout
/// (`src/flask/app.py` against an index of `flask/`) would otherwise score as wrong answers.
fn check_gold_paths(questions: &[questions::Question], bundle: &Bundle, request: &EvalRequest<'_>) -> Result<()> {
    let expected = questions.iter().flat_map(|question| {
        let modules = question.expected.modules.iter().chain(&question.expected.ranking);
        let ties = question.expected.ranking_ties.iter().flatten();
        modules.chain(ties).map(move |module| (question, module))
    });
    let missing: Vec<_> = expected.filter(|(_, module)| !bundle.nodes.contains_key(module.as_str())).collect();
    if let Some((question, module)) = missing.first() {
        anyhow::bail!(
            "question {} of {} expects `{module}`, which is not a module of the index in {} ({} gold path(s) missing in all); index the repository the set was written for, from the same folder",
            question.id,
            request.questions_path.display(),
            request.index_dir.display(),
            missing.len()
        );
    }
    Ok(())
}

pub async fn run_eval(request: &EvalRequest<'_>) -> Result<EvalReport> {
    let text = std::fs::read_to_string(request.questions_path)
        .with_context(|| format!("cannot read the questions {}", request.questions_path.display()))?;
    let questions = questions::parse_questions(&text)?;
    let baseline = request.baseline.map(BaselineReport::read).transpose()?;
    let index = LoadedIndex::open(request.index_dir, request.llm.as_ref()).await?;
    check_gold_paths(&questions, &index.bundle, request)?;
    let chat =
        request.llm.as_ref().map(|server| ChatSettings::for_server(server, &request.chat_model, request.chat_timeout));
    let judge = request.judge.then(|| Judge {
        chat: chat.clone(),
        model: request.chat_model.clone(),
        cache_dir: request.judge_cache.to_path_buf(),
        embedder: index.embedder.as_ref(),
    });
    let chunk_texts: HashMap<String, String> = if judge.is_some() {
        index
            .search()
            .await
            .map_err(|problem| anyhow::anyhow!("{problem}"))?
            .store
            .all_chunks()
            .await?
            .into_iter()
            .map(|(chunk, _)| (chunk.id, chunk.text))
            .collect()
    } else {
        HashMap::new()
    };
    let oracle = request.oracle_edges.map(score::read_oracle_edges).transpose()?;
    let graph = score::Graph::of(&index.bundle, oracle.as_deref());
    let answerer = index.answerer(if request.offline_answers { None } else { chat.as_ref() });
    let mut results = Vec::with_capacity(questions.len());
    for question in &questions {
        let started = Instant::now();
        let answer = answerer.answer(&question.question).await?;
        let latency_ms = started.elapsed().as_secs_f64() * 1_000.0;
        let mut score = score::score(question, &answer, &graph, latency_ms);
        let judged = match &judge {
            Some(judge) => {
                let context = judge_context(&answer, &index.bundle, &chunk_texts);
                Some(judge.judge(&question.question, &answer.answer, &context, &question.expected.reference).await?)
            }
            None => None,
        };
        score.judged = judged.clone();
        results.push(QuestionResult {
            question: question.question.clone(),
            answer: answer.answer.clone(),
            score,
            expected_modules: question.expected.modules.clone(),
            judged,
        });
    }
    let scores: Vec<_> = results.iter().map(|r| r.score.clone()).collect();
    let aggregate = aggregate(&scores, request.seed);
    let regressions = match &baseline {
        Some(baseline) => regressions(&aggregate, &baseline.aggregate),
        None => Vec::new(),
    };
    Ok(EvalReport {
        schema_version: REPORT_SCHEMA_VERSION,
        strata_version: env!("CARGO_PKG_VERSION"),
        questions_file: file_name(request.questions_path),
        questions_hash: text_hash(&text),
        index: IndexSummary::of(&index),
        seed: request.seed,
        bootstrap_resamples: RESAMPLES,
        judge_model: request.judge.then(|| request.chat_model.clone()),
        claims_checked_against: graph.source.to_string(),
        aggregate,
        regressions,
        questions: results,
    })
}

/// The question file as reports name it.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

impl IndexSummary {
    fn of(index: &LoadedIndex) -> IndexSummary {
        IndexSummary {
            commit: index.manifest.commit.clone(),
            embedder: index.manifest.embedder.id.clone(),
            modules: index.bundle.nodes.len(),
        }
    }
}

/// What the judge may treat as evidence: the retrieved chunks' text, or for a graph answer the import
/// lists of the modules it cites.
fn judge_context(answer: &Answer, bundle: &Bundle, chunk_texts: &HashMap<String, String>) -> Vec<String> {
    if answer.mode == Mode::Structural {
        return answer
            .citations
            .iter()
            .filter_map(|c| bundle.nodes.get(&c.path))
            .map(|node| format!("{} imports: {}", node.id, node.imports.join(", ")))
            .collect();
    }
    answer.context.iter().filter_map(|item| chunk_texts.get(&item.id).cloned()).collect()
}

/// A "find the code" run: the questions, and what to show and require of the result.
pub struct LocateRequest<'a> {
    pub index_dir: &'a Path,
    pub questions_path: &'a Path,
    pub reference: Option<locate::Reference>,
    pub requirements: Vec<locate::Requirement>,
    /// The server of an index built with an OpenAI embedder: questions are embedded there (answers stay
    /// offline).
    pub server: Option<LlmServer>,
}

pub const LOCATE_REPORT_SCHEMA_VERSION: &str = "strata-locate-report@1";

#[derive(Debug, Clone, serde::Serialize)]
pub struct LocateReport {
    pub schema_version: &'static str,
    pub strata_version: &'static str,
    pub questions_file: String,
    pub questions_hash: String,
    pub index: IndexSummary,
    pub overall: locate::LocateMetrics,
    pub by_category: std::collections::BTreeMap<String, locate::LocateMetrics>,
    pub reference: Option<locate::Reference>,
    /// Requirements (`--require`) the run did not meet; the command fails when there are any.
    pub unmet: Vec<String>,
    pub questions: Vec<locate::LocateResult>,
}

/// Whether a question set is a "find the code" set: its first question has `gold_files`.
pub fn is_locate_set(jsonl: &str) -> bool {
    jsonl
        .lines()
        .find(|line| !line.trim().is_empty())
        .and_then(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .is_some_and(|value| value.get("gold_files").is_some())
}

/// Parses a "find the code" set; errors name the line. Ids must be unique, gold files present.
pub fn parse_locate_questions(jsonl: &str) -> Result<Vec<locate::LocateQuestion>> {
    let questions = questions::parse_set(jsonl, "find-the-code question", |q: &locate::LocateQuestion| &q.id)?;
    if let Some(question) = questions.iter().find(|q| q.gold_files.is_empty()) {
        anyhow::bail!("question {} has no gold_files", question.id);
    }
    Ok(questions)
}

/// Answers every question offline, as `ask --offline` does, and scores the files each answer points to.
pub async fn run_locate_eval(request: &LocateRequest<'_>) -> Result<LocateReport> {
    let text = std::fs::read_to_string(request.questions_path)
        .with_context(|| format!("cannot read the questions {}", request.questions_path.display()))?;
    let questions = parse_locate_questions(&text)?;
    let index = LoadedIndex::open(request.index_dir, request.server.as_ref()).await?;
    let missing: Vec<(&str, &str)> = questions
        .iter()
        .flat_map(|q| q.gold_files.iter().map(move |gold| (q.id.as_str(), gold.as_str())))
        .filter(|(_, gold)| !index.bundle.nodes.keys().any(|id| id == gold || id.ends_with(&format!("/{gold}"))))
        .collect();
    if let Some((id, gold)) = missing.first() {
        anyhow::bail!(
            "question {id} of {} expects `{gold}`, which is not a file of the index in {} ({} gold file(s) missing in all); index the folder that holds the package",
            request.questions_path.display(),
            request.index_dir.display(),
            missing.len()
        );
    }
    let answerer = index.answerer(None);
    let mut results = Vec::with_capacity(questions.len());
    for question in &questions {
        let answer = answerer.answer(&question.question).await?;
        results.push(locate::score(question, &answer));
    }
    let (overall, by_category) = locate::by_category(&results);
    let unmet = request.requirements.iter().filter_map(|requirement| requirement.unmet(&overall)).collect();
    Ok(LocateReport {
        schema_version: LOCATE_REPORT_SCHEMA_VERSION,
        strata_version: env!("CARGO_PKG_VERSION"),
        questions_file: file_name(request.questions_path),
        questions_hash: text_hash(&text),
        index: IndexSummary::of(&index),
        overall,
        by_category,
        reference: request.reference.clone(),
        unmet,
        questions: results,
    })
}
