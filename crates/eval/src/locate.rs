//! "Find the code" scoring, for question sets whose ground truth is the files a senior engineer would
//! point to (`{"id", "question", "gold_files", "category"}`, as in the SWE-QA sets). Every such
//! question is answerable, so a decline is a false decline. The files an answer points to are its
//! citations in order, then its retrieved context in order, first occurrence only: what a reader sees
//! from the top. Metrics at k = 5: hit (any gold file), recall (share of gold files), all-gold (every
//! gold file), reciprocal rank of the first gold file; and hit@1. A reference row (another tool's
//! figures, e.g. `bm25_files.py`'s output line) is shown beside strata's and never computed here.

use std::collections::BTreeMap;
use std::fmt::Write;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use strata_answer::{Answer, Mode};

/// How many files a reader looks at.
pub const K: usize = 5;

/// One "find the code" question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LocateQuestion {
    pub id: String,
    pub question: String,
    /// Paths relative to the indexed folder (the folder holding the package).
    pub gold_files: Vec<String>,
    #[serde(default)]
    pub category: String,
}

/// One question's result.
#[derive(Debug, Clone, Serialize)]
pub struct LocateResult {
    pub id: String,
    pub category: String,
    pub question: String,
    pub gold_files: Vec<String>,
    /// The first [`K`] distinct files the answer points to.
    pub ranked: Vec<String>,
    pub declined: bool,
    pub hit_at_1: f64,
    pub hit_at_5: f64,
    pub recall_at_5: f64,
    pub all_gold_at_5: f64,
    pub mrr_at_5: f64,
}

/// Means over a group of questions.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LocateMetrics {
    pub n: usize,
    pub hit_at_1: f64,
    pub hit_at_5: f64,
    pub recall_at_5: f64,
    pub all_gold_at_5: f64,
    pub mrr_at_5: f64,
    /// Share of questions declined: all are answerable, so every decline is false.
    pub declined: f64,
}

/// Figures of another tool on the same set, shown as the report's reference row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reference {
    pub name: String,
    pub metrics: BTreeMap<String, f64>,
}

/// A condition the run must meet, such as `recall@5>=0.40` or `declined<=0.05`.
#[derive(Debug, Clone, PartialEq)]
pub struct Requirement {
    pub metric: String,
    pub at_least: bool,
    pub value: f64,
}

/// The files an answer points to, best first: citations, then context, each file once.
pub fn ranked_files(answer: &Answer) -> Vec<String> {
    let mut ranked: Vec<String> = Vec::new();
    let paths =
        answer.citations.iter().map(|c| c.path.as_str()).chain(answer.context.iter().map(|c| c.module.as_str()));
    for path in paths {
        if ranked.len() == K {
            break;
        }
        if !ranked.iter().any(|seen| seen == path) {
            ranked.push(path.to_string());
        }
    }
    ranked
}

/// Paths are equal when one ends with the other at a `/` (`src/flask/app.py` and `flask/app.py`).
fn same_file(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim_matches('/'), b.trim_matches('/'));
    a == b || a.ends_with(&format!("/{b}")) || b.ends_with(&format!("/{a}"))
}

pub fn score(question: &LocateQuestion, answer: &Answer) -> LocateResult {
    let ranked = ranked_files(answer);
    let is_gold = |path: &str| question.gold_files.iter().any(|gold| same_file(gold, path));
    let found = question.gold_files.iter().filter(|gold| ranked.iter().any(|path| same_file(gold, path))).count();
    let n_gold = question.gold_files.len().max(1);
    let first = ranked.iter().position(|path| is_gold(path));
    let flag = |yes: bool| if yes { 1.0 } else { 0.0 };
    LocateResult {
        id: question.id.clone(),
        category: question.category.clone(),
        question: question.question.clone(),
        gold_files: question.gold_files.clone(),
        declined: answer.mode == Mode::Declined,
        hit_at_1: flag(first == Some(0)),
        hit_at_5: flag(first.is_some()),
        recall_at_5: found as f64 / n_gold as f64,
        all_gold_at_5: flag(found == question.gold_files.len() && found > 0),
        mrr_at_5: first.map_or(0.0, |rank| 1.0 / (rank + 1) as f64),
        ranked,
    }
}

pub fn summarise(results: &[&LocateResult]) -> LocateMetrics {
    let n = results.len();
    if n == 0 {
        return LocateMetrics::default();
    }
    let mean = |value: fn(&LocateResult) -> f64| results.iter().map(|r| value(r)).sum::<f64>() / n as f64;
    LocateMetrics {
        n,
        hit_at_1: mean(|r| r.hit_at_1),
        hit_at_5: mean(|r| r.hit_at_5),
        recall_at_5: mean(|r| r.recall_at_5),
        all_gold_at_5: mean(|r| r.all_gold_at_5),
        mrr_at_5: mean(|r| r.mrr_at_5),
        declined: mean(|r| if r.declined { 1.0 } else { 0.0 }),
    }
}

/// Overall and per-category means.
pub fn by_category(results: &[LocateResult]) -> (LocateMetrics, BTreeMap<String, LocateMetrics>) {
    let all: Vec<&LocateResult> = results.iter().collect();
    let mut groups: BTreeMap<String, Vec<&LocateResult>> = BTreeMap::new();
    for result in results {
        let category = if result.category.is_empty() { "uncategorised" } else { &result.category };
        groups.entry(category.to_string()).or_default().push(result);
    }
    (summarise(&all), groups.into_iter().map(|(category, group)| (category, summarise(&group))).collect())
}

impl LocateMetrics {
    /// The metric named as in reports and requirements (`hit@1`, `recall@5`, `declined`, …).
    pub fn get(&self, name: &str) -> Option<f64> {
        Some(match name {
            "hit@1" => self.hit_at_1,
            "hit@5" => self.hit_at_5,
            "recall@5" => self.recall_at_5,
            "all_gold@5" => self.all_gold_at_5,
            "mrr@5" => self.mrr_at_5,
            "declined" => self.declined,
            _ => return None,
        })
    }
}

pub const METRIC_NAMES: [&str; 6] = ["hit@1", "hit@5", "recall@5", "all_gold@5", "mrr@5", "declined"];

impl Reference {
    /// Reads another tool's summary line: a name, then `key=value` pairs (`bm25_files.py` prints
    /// `bm25-files django_v1.jsonl: n=31 files=901 hit@5=0.419 recall@5=0.242 hit@1=0.129 mrr@5=0.226`).
    pub fn parse(text: &str) -> Result<Reference> {
        let line =
            text.lines().rev().find(|line| line.contains('=')).context("the reference has no `metric=value` line")?;
        let name = line.split_whitespace().next().unwrap_or("reference").trim_end_matches(':').to_string();
        let mut metrics = BTreeMap::new();
        for pair in line.split_whitespace().filter_map(|word| word.split_once('=')) {
            if let Ok(value) = pair.1.parse::<f64>() {
                metrics.insert(pair.0.to_string(), value);
            }
        }
        if !METRIC_NAMES.iter().any(|metric| metrics.contains_key(*metric)) {
            bail!("the reference line names none of {}: {line}", METRIC_NAMES.join(", "));
        }
        Ok(Reference { name, metrics })
    }
}

impl Requirement {
    /// `recall@5>=0.4`, `declined<=0.05`.
    pub fn parse(text: &str) -> Result<Requirement> {
        let (metric, at_least, value) = if let Some((metric, value)) = text.split_once(">=") {
            (metric, true, value)
        } else if let Some((metric, value)) = text.split_once("<=") {
            (metric, false, value)
        } else {
            bail!("a requirement is METRIC>=VALUE or METRIC<=VALUE, not {text:?}");
        };
        let metric = metric.trim().to_string();
        if !METRIC_NAMES.contains(&metric.as_str()) {
            bail!("unknown metric {metric:?} in {text:?}; one of {}", METRIC_NAMES.join(", "));
        }
        let value = value.trim().parse::<f64>().with_context(|| format!("{text:?}: the value is not a number"))?;
        Ok(Requirement { metric, at_least, value })
    }

    /// What is wrong with `metrics`, if anything.
    pub fn unmet(&self, metrics: &LocateMetrics) -> Option<String> {
        let actual = metrics.get(&self.metric)?;
        let met = if self.at_least { actual >= self.value } else { actual <= self.value };
        let sign = if self.at_least { ">=" } else { "<=" };
        (!met).then(|| format!("{} is {actual:.3}, required {sign} {}", self.metric, self.value))
    }
}

/// The report as Markdown: overall (with the reference row), per category, then each miss.
pub fn to_markdown(
    title: &str,
    overall: &LocateMetrics,
    categories: &BTreeMap<String, LocateMetrics>,
    reference: Option<&Reference>,
    results: &[LocateResult],
) -> String {
    let mut out = format!("## strata eval: {title} (find the code)\n\n");
    let _ = writeln!(
        out,
        "{} questions, all answerable (a decline is a false decline). Files from citations, then context; k = {K}.\n",
        overall.n
    );
    let header = format!("| | n | {} |\n|---|---:|{}\n", METRIC_NAMES.join(" | "), "---:|".repeat(METRIC_NAMES.len()));
    out.push_str(&header);
    let row = |name: &str, metrics: &LocateMetrics| {
        let cells: Vec<String> =
            METRIC_NAMES.iter().map(|m| format!("{:.3}", metrics.get(m).unwrap_or(f64::NAN))).collect();
        format!("| {name} | {} | {} |\n", metrics.n, cells.join(" | "))
    };
    out.push_str(&row("strata", overall));
    if let Some(reference) = reference {
        let cells: Vec<String> = METRIC_NAMES
            .iter()
            .map(|m| reference.metrics.get(*m).map_or("–".to_string(), |v| format!("{v:.3}")))
            .collect();
        let n = reference.metrics.get("n").map_or(String::new(), |n| format!("{n}"));
        let _ = writeln!(out, "| {} (reference) | {n} | {} |", reference.name, cells.join(" | "));
    }
    out.push_str("\nBy category:\n\n");
    out.push_str(&header);
    for (category, metrics) in categories {
        out.push_str(&row(category, metrics));
    }
    let misses: Vec<&LocateResult> = results.iter().filter(|r| r.hit_at_5 == 0.0).collect();
    if !misses.is_empty() {
        let _ = writeln!(out, "\nNo gold file in the top {K} ({}):\n", misses.len());
        for miss in misses {
            let _ = writeln!(
                out,
                "- `{}` {}: expected {}",
                miss.id,
                if miss.declined { "(declined)" } else { "" },
                miss.gold_files.join(", ")
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_answer::{Citation, ContextItem, IndexInfo};

    fn answer(mode: Mode, citations: &[&str], context: &[&str]) -> Answer {
        Answer {
            question: "q".into(),
            mode,
            answer: String::new(),
            citations: citations
                .iter()
                .map(|path| Citation {
                    id: path.to_string(),
                    module: String::new(),
                    path: path.to_string(),
                    lines: None,
                    url: None,
                })
                .collect(),
            context: context
                .iter()
                .map(|path| ContextItem {
                    id: format!("code:{path}:1-2"),
                    module: path.to_string(),
                    score: 0.1,
                    kind: "code".into(),
                })
                .collect(),
            index: IndexInfo { commit: None, schema_version: "1".into(), embedder: "e".into() },
            notes: Vec::new(),
            understood: None,
            evidence: None,
            diagnostics: Vec::new(),
            model_calls: 0,
        }
    }

    fn question(gold: &[&str]) -> LocateQuestion {
        LocateQuestion {
            id: "q1".into(),
            question: "where?".into(),
            gold_files: gold.iter().map(|g| g.to_string()).collect(),
            category: "where".into(),
        }
    }

    #[test]
    fn files_come_from_citations_then_context_each_once() {
        let answer = answer(Mode::Retrieval, &["a.py", "b.py"], &["b.py", "c.py", "d.py", "e.py", "f.py"]);
        assert_eq!(ranked_files(&answer), ["a.py", "b.py", "c.py", "d.py", "e.py"]);
        let scored = score(&question(&["pkg/c.py", "z.py"]), &answer);
        assert_eq!((scored.hit_at_1, scored.hit_at_5, scored.recall_at_5, scored.all_gold_at_5), (0.0, 1.0, 0.5, 0.0));
        assert!((scored.mrr_at_5 - 1.0 / 3.0).abs() < 1e-9);
        let all = score(&question(&["a.py", "e.py"]), &answer);
        assert_eq!((all.hit_at_1, all.all_gold_at_5, all.mrr_at_5), (1.0, 1.0, 1.0));
        // A file name that merely ends the same way is another file.
        assert_eq!(score(&question(&["xa.py"]), &answer).hit_at_5, 0.0);
    }

    #[test]
    fn declines_are_counted_per_category() {
        let declined = score(&question(&["a.py"]), &answer(Mode::Declined, &[], &[]));
        let mut found = score(&question(&["a.py"]), &answer(Mode::Retrieval, &["a.py"], &[]));
        found.category = "how".into();
        let (overall, categories) = by_category(&[declined, found]);
        assert_eq!((overall.n, overall.declined, overall.hit_at_5), (2, 0.5, 0.5));
        assert_eq!(categories["where"].declined, 1.0);
        assert_eq!(categories["how"].declined, 0.0);
    }

    #[test]
    fn references_and_requirements_parse_and_check() {
        let reference = Reference::parse(
            "bm25-files django_v1.jsonl: n=31 files=901 hit@5=0.419 recall@5=0.242 hit@1=0.129 mrr@5=0.226\n",
        )
        .unwrap();
        assert_eq!(reference.name, "bm25-files");
        assert_eq!(reference.metrics["recall@5"], 0.242);
        assert!(Reference::parse("no figures here").is_err());
        let metrics = LocateMetrics { n: 3, recall_at_5: 0.5, declined: 0.1, ..LocateMetrics::default() };
        assert_eq!(Requirement::parse("recall@5>=0.40").unwrap().unmet(&metrics), None);
        let unmet = Requirement::parse("declined <= 0.05").unwrap().unmet(&metrics).unwrap();
        assert!(unmet.contains("declined is 0.100"), "{unmet}");
        assert!(Requirement::parse("recall>=1").is_err() && Requirement::parse("hit@1=1").is_err());
    }
}
