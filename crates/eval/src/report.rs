//! The eval's outputs: the JSON report (per question and aggregate), the Markdown table for the job
//! summary, and one row appended to a Parquet history so trends can be plotted (DuckDB, pandas).

use std::fmt::Write;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use arrow_array::{ArrayRef, Float64Array, RecordBatch, StringArray, UInt32Array};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use serde::{Deserialize, Serialize};

use super::aggregate::{Aggregate, METRICS, MetricSummary, Regression};
use super::score::QuestionScore;

pub const REPORT_SCHEMA_VERSION: &str = "strata-eval@1";

#[derive(Debug, Clone, Serialize)]
pub struct EvalReport {
    pub schema_version: &'static str,
    pub strata_version: &'static str,
    pub questions_file: String,
    /// Git blob id of the question file: two reports are on the same set only if these match (`--baseline`
    /// does not check it; compare the hashes when in doubt).
    pub questions_hash: String,
    pub index: IndexSummary,
    pub seed: u64,
    pub bootstrap_resamples: usize,
    /// The judge model, when answers were also judged by a language model.
    pub judge_model: Option<String>,
    /// The graph faithfulness and claims were checked against: `oracle` (the independent
    /// `ast_oracle.py`, `--oracle-edges`) or `index` (strata's own graph).
    pub claims_checked_against: String,
    pub aggregate: Aggregate,
    pub regressions: Vec<Regression>,
    pub questions: Vec<QuestionResult>,
}

#[derive(Debug, Clone, Serialize)]
pub struct IndexSummary {
    pub commit: Option<String>,
    pub embedder: String,
    pub modules: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct QuestionResult {
    pub question: String,
    pub answer: String,
    #[serde(flatten)]
    pub score: QuestionScore,
    pub expected_modules: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged: Option<super::judge::Judged>,
}

/// The part of an earlier report that `--baseline` compares with.
#[derive(Debug, Clone, Deserialize)]
pub struct BaselineReport {
    pub schema_version: String,
    pub questions_hash: String,
    pub aggregate: Aggregate,
}

impl BaselineReport {
    pub fn read(path: &Path) -> Result<BaselineReport> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("cannot read the baseline {}", path.display()))?;
        let report: BaselineReport =
            serde_json::from_str(&text).with_context(|| format!("{} is not an eval report", path.display()))?;
        if report.schema_version != REPORT_SCHEMA_VERSION {
            bail!("the baseline is a {} report, this strata writes {REPORT_SCHEMA_VERSION}", report.schema_version);
        }
        Ok(report)
    }
}

const SHOWN: [(&str, &str); 12] = [
    ("answer_correctness", "correctness"),
    ("context_recall", "ctx recall"),
    ("context_precision", "ctx precision (RAGAS)"),
    ("average_precision", "AP"),
    ("faithfulness", "faithfulness"),
    ("answer_relevancy", "relevancy"),
    ("abstention", "abstention"),
    ("false_decline", "false declines"),
    ("latency_ms", "latency ms"),
    ("judged_faithfulness", "judged faithfulness"),
    ("judged_relevancy", "judged relevancy"),
    ("judged_correctness", "judged correctness"),
];

/// The columns of a report: the judged ones only when a judge scored the answers.
fn shown(report: &EvalReport) -> Vec<(&'static str, &'static str)> {
    SHOWN.iter().copied().filter(|(metric, _)| report.judge_model.is_some() || !metric.starts_with("judged_")).collect()
}

/// The Markdown for a job summary: one row per category, then the weakest questions and regressions.
pub fn to_markdown(report: &EvalReport, title: &str) -> String {
    let mut out = format!("## strata eval: {title}\n\n");
    let commit =
        report.index.commit.as_deref().map_or("a working tree".to_string(), |c| format!("`{}`", &c[..c.len().min(12)]));
    let judge =
        report.judge_model.as_deref().map_or("offline (no language model)".to_string(), |m| format!("judged by `{m}`"));
    let judge = match report.claims_checked_against.as_str() {
        "oracle" => format!("{judge}; claims checked against the independent oracle's graph"),
        _ => format!(
            "{judge}; claims checked against the index's own graph (pass --oracle-edges to check them independently)"
        ),
    };
    let _ = writeln!(
        out,
        "{} questions; index of {commit} ({} modules, `{}`); {judge}. Cells: mean [95% bootstrap interval], n; NaN counts are questions where a metric does not apply.\n",
        report.questions.len(),
        report.index.modules,
        report.index.embedder
    );
    out.push_str("| group | n |");
    let columns = shown(report);
    for (_, label) in &columns {
        let _ = write!(out, " {label} |");
    }
    out.push_str("\n|---|---:|");
    out.push_str(&"---|".repeat(columns.len()));
    out.push('\n');
    let mut rows: Vec<(&str, &super::aggregate::Summaries)> = vec![("**overall**", &report.aggregate.overall)];
    rows.extend(report.aggregate.by_category.iter().map(|(c, s)| (c.as_str(), s)));
    for (group, summaries) in rows {
        let n = report.questions.iter().filter(|q| group == "**overall**" || q.score.category == group).count();
        let _ = write!(out, "| {group} | {n} |");
        for (metric, _) in &columns {
            let _ = write!(out, " {} |", summaries.get(*metric).map_or("".into(), cell));
        }
        out.push('\n');
    }
    let mut weakest: Vec<&QuestionResult> =
        report.questions.iter().filter(|q| q.score.answerable && q.score.answer_correctness.is_some()).collect();
    weakest.sort_by(|a, b| {
        let key =
            |q: &QuestionResult| (q.score.answer_correctness.unwrap_or(0.0), q.score.context_recall.unwrap_or(0.0));
        key(a).partial_cmp(&key(b)).unwrap_or(std::cmp::Ordering::Equal).then_with(|| a.score.id.cmp(&b.score.id))
    });
    out.push_str("\n**Weakest answerable questions**\n\n");
    for result in weakest.iter().take(3) {
        let _ = writeln!(
            out,
            "- `{}` ({}, {:?}): correctness {:.2}, context recall {}: {}",
            result.score.id,
            result.score.category,
            result.score.mode,
            result.score.answer_correctness.unwrap_or(0.0),
            result.score.context_recall.map_or("n/a".to_string(), |r| format!("{r:.2}")),
            result.question.replace('|', "\\|")
        );
    }
    let unanswerable_answered: Vec<&str> =
        report.questions.iter().filter(|q| q.score.abstention == Some(0.0)).map(|q| q.score.id.as_str()).collect();
    if !unanswerable_answered.is_empty() {
        let _ = writeln!(out, "\nUnanswerable but answered: {}", unanswerable_answered.join(", "));
    }
    if report.regressions.is_empty() {
        out.push_str("\nNo regression against the baseline (or no baseline given).\n");
    } else {
        out.push_str("\n**Regressions against the baseline**\n\n");
        for r in &report.regressions {
            let _ = writeln!(
                out,
                "- {} / {}: {:.3}, baseline {:.3} [{:.3}, {:.3}]",
                r.group, r.metric, r.mean, r.baseline_mean, r.baseline_ci95[0], r.baseline_ci95[1]
            );
        }
    }
    out
}

fn cell(summary: &MetricSummary) -> String {
    match (summary.mean, summary.ci95) {
        (Some(mean), Some([low, high])) if mean > 10.0 => format!("{mean:.0} [{low:.0}, {high:.0}], {}", summary.n),
        (Some(mean), Some([low, high])) => format!("{mean:.2} [{low:.2}, {high:.2}], {}", summary.n),
        _ => format!("n/a ({} NaN)", summary.nan),
    }
}

/// Appends one row (the overall means, and every summary as JSON) to the history file, creating it
/// when missing. The file is rewritten atomically: a failed run leaves the old history intact.
pub fn append_history(path: &Path, report: &EvalReport, recorded_at: &str) -> Result<usize> {
    let schema = Arc::new(history_schema());
    let mut batches = Vec::new();
    if path.exists() {
        let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .with_context(|| format!("{} is not a Parquet file", path.display()))?
            .build()?;
        for batch in reader {
            let batch = batch?;
            if batch.schema().fields() != schema.fields() {
                bail!("{} has another history schema; move it aside to start a new history", path.display());
            }
            batches.push(batch);
        }
    }
    let overall = |metric: &str| report.aggregate.overall.get(metric).and_then(|s| s.mean);
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from(vec![recorded_at])),
        Arc::new(StringArray::from(vec![report.strata_version])),
        Arc::new(StringArray::from(vec![report.index.commit.clone()])),
        Arc::new(StringArray::from(vec![report.questions_file.as_str()])),
        Arc::new(StringArray::from(vec![report.questions_hash.as_str()])),
        Arc::new(StringArray::from(vec![report.judge_model.clone()])),
        Arc::new(UInt32Array::from(vec![report.questions.len() as u32])),
    ];
    for (metric, _) in METRICS {
        columns.push(Arc::new(Float64Array::from(vec![overall(metric)])));
    }
    columns.push(Arc::new(StringArray::from(vec![serde_json::to_string(&report.aggregate)?])));
    batches.push(RecordBatch::try_new(schema.clone(), columns)?);
    let mut bytes = Vec::new();
    let properties = WriterProperties::builder().set_compression(Compression::SNAPPY).build();
    let mut writer = ArrowWriter::try_new(&mut bytes, schema, Some(properties))?;
    for batch in &batches {
        writer.write(batch)?;
    }
    writer.close()?;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).context("the history path has no file name")?;
    strata_core::bundle::write_atomically(dir, name, &bytes)?;
    Ok(batches.iter().map(RecordBatch::num_rows).sum())
}

fn history_schema() -> Schema {
    let mut fields = vec![
        Field::new("recorded_at", DataType::Utf8, false),
        Field::new("strata_version", DataType::Utf8, false),
        Field::new("index_commit", DataType::Utf8, true),
        Field::new("questions_file", DataType::Utf8, false),
        Field::new("questions_hash", DataType::Utf8, false),
        Field::new("judge_model", DataType::Utf8, true),
        Field::new("n_questions", DataType::UInt32, false),
    ];
    fields.extend(METRICS.iter().map(|(metric, _)| Field::new(*metric, DataType::Float64, true)));
    fields.push(Field::new("aggregate_json", DataType::Utf8, false));
    Schema::new(fields)
}
