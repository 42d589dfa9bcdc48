//! Aggregating per-question scores: per metric the mean, `n`, the NaN count (never dropped silently)
//! and a seeded bootstrap 95% interval; per category and overall. And the baseline check: a metric
//! regresses when its new mean falls outside the baseline's interval on the worse side.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::score::QuestionScore;

/// Bootstrap resamples per interval.
pub const RESAMPLES: usize = 2_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricSummary {
    pub mean: Option<f64>,
    pub n: usize,
    pub nan: usize,
    /// 95% percentile bootstrap interval of the mean.
    pub ci95: Option<[f64; 2]>,
}

/// The metrics reported, with whether higher is better.
pub const METRICS: [(&str, bool); 14] = [
    ("context_recall", true),
    ("context_precision", true),
    ("average_precision", true),
    ("reciprocal_rank", true),
    ("faithfulness", true),
    ("claim_truth", true),
    ("answer_correctness", true),
    ("answer_relevancy", true),
    ("abstention", true),
    ("false_decline", false),
    ("latency_ms", false),
    // RAGAS's LLM-judged metrics, present with `--judge`.
    ("judged_faithfulness", true),
    ("judged_relevancy", true),
    ("judged_correctness", true),
];

pub fn metric_value(score: &QuestionScore, metric: &str) -> Option<f64> {
    match metric {
        "context_recall" => score.context_recall,
        "context_precision" => score.context_precision,
        "average_precision" => score.average_precision,
        "reciprocal_rank" => score.reciprocal_rank,
        "faithfulness" => score.faithfulness,
        "claim_truth" => score.claim_truth,
        "answer_correctness" => score.answer_correctness,
        "answer_relevancy" => score.answer_relevancy,
        "abstention" => score.abstention,
        "false_decline" => score.false_decline,
        "latency_ms" => Some(score.latency_ms),
        "judged_faithfulness" => score.judged.as_ref().and_then(|j| j.faithfulness),
        "judged_relevancy" => score.judged.as_ref().and_then(|j| j.answer_relevancy),
        "judged_correctness" => score.judged.as_ref().and_then(|j| j.answer_correctness),
        _ => None,
    }
}

/// Mean, counts and interval of one metric's values (`None` is NaN).
pub fn summarize(values: &[Option<f64>], seed: u64) -> MetricSummary {
    let present: Vec<f64> = values.iter().flatten().copied().filter(|v| v.is_finite()).collect();
    let nan = values.len() - present.len();
    if present.is_empty() {
        return MetricSummary { mean: None, n: 0, nan, ci95: None };
    }
    let mean = present.iter().sum::<f64>() / present.len() as f64;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut means: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            (0..present.len()).map(|_| present[rng.random_range(0..present.len())]).sum::<f64>() / present.len() as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| means[((q * (RESAMPLES - 1) as f64).round() as usize).min(RESAMPLES - 1)];
    MetricSummary { mean: Some(mean), n: present.len(), nan, ci95: Some([at(0.025), at(0.975)]) }
}

/// Metric → summary for one group of questions.
pub type Summaries = BTreeMap<String, MetricSummary>;

pub fn summarize_group(scores: &[&QuestionScore], seed: u64) -> Summaries {
    METRICS
        .iter()
        .map(|(metric, _)| {
            let values: Vec<Option<f64>> = scores.iter().map(|s| metric_value(s, metric)).collect();
            (metric.to_string(), summarize(&values, seed))
        })
        .collect()
}

/// Overall and per category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Aggregate {
    pub overall: Summaries,
    pub by_category: BTreeMap<String, Summaries>,
}

pub fn aggregate(scores: &[QuestionScore], seed: u64) -> Aggregate {
    let all: Vec<&QuestionScore> = scores.iter().collect();
    let mut categories: BTreeMap<String, Vec<&QuestionScore>> = BTreeMap::new();
    for score in scores {
        categories.entry(score.category.clone()).or_default().push(score);
    }
    Aggregate {
        overall: summarize_group(&all, seed),
        by_category: categories.into_iter().map(|(c, group)| (c, summarize_group(&group, seed))).collect(),
    }
}

/// A metric that got worse than the baseline's interval allows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Regression {
    pub group: String,
    pub metric: String,
    pub baseline_mean: f64,
    pub baseline_ci95: [f64; 2],
    pub mean: f64,
}

/// Quality metrics only: latency depends on the machine, so it is reported but never gates.
pub fn regressions(current: &Aggregate, baseline: &Aggregate) -> Vec<Regression> {
    let mut groups: Vec<(String, &Summaries, &Summaries)> =
        vec![("overall".into(), &current.overall, &baseline.overall)];
    for (category, summaries) in &current.by_category {
        if let Some(base) = baseline.by_category.get(category) {
            groups.push((category.clone(), summaries, base));
        }
    }
    let mut found = Vec::new();
    for (group, now, base) in groups {
        for (metric, higher_is_better) in METRICS.iter().filter(|(m, _)| *m != "latency_ms") {
            let (Some(now), Some(base)) = (now.get(*metric), base.get(*metric)) else { continue };
            let (Some(mean), Some(base_mean), Some(ci)) = (now.mean, base.mean, base.ci95) else { continue };
            let worse = if *higher_is_better { mean < ci[0] - 1e-9 } else { mean > ci[1] + 1e-9 };
            if worse {
                found.push(Regression {
                    group: group.clone(),
                    metric: metric.to_string(),
                    baseline_mean: base_mean,
                    baseline_ci95: ci,
                    mean,
                });
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_count_nans_and_bootstrap_deterministically() {
        let values = [Some(1.0), Some(0.0), None, Some(1.0), Some(1.0)];
        let summary = summarize(&values, 7);
        assert_eq!((summary.mean, summary.n, summary.nan), (Some(0.75), 4, 1));
        let [low, high] = summary.ci95.unwrap();
        assert!(low <= 0.75 && 0.75 <= high && low >= 0.0 && high <= 1.0, "{low} {high}");
        assert_eq!(summarize(&values, 7), summary, "same seed, same interval");
        let empty = summarize(&[None, None], 7);
        assert_eq!((empty.mean, empty.n, empty.nan, empty.ci95), (None, 0, 2, None));
        let constant = summarize(&[Some(0.5); 10], 7);
        assert_eq!(constant.ci95, Some([0.5, 0.5]));
    }

    fn aggregate_with(mean: f64, ci: [f64; 2]) -> Aggregate {
        let summary = MetricSummary { mean: Some(mean), n: 40, nan: 0, ci95: Some(ci) };
        let overall: Summaries =
            [("answer_correctness".to_string(), summary.clone()), ("false_decline".to_string(), summary)].into();
        Aggregate { overall, by_category: BTreeMap::new() }
    }

    #[test]
    fn a_regression_is_a_mean_outside_the_baseline_interval() {
        let baseline = aggregate_with(0.70, [0.56, 0.84]);
        assert!(
            regressions(&aggregate_with(0.60, [0.4, 0.8]), &baseline).iter().all(|r| r.metric != "answer_correctness")
        );
        let worse = regressions(&aggregate_with(0.50, [0.4, 0.6]), &baseline);
        assert_eq!(worse.iter().map(|r| r.metric.as_str()).collect::<Vec<_>>(), ["answer_correctness"]);
        // Lower is better for false declines: more of them beyond the interval regresses.
        let declines = regressions(&aggregate_with(0.90, [0.8, 1.0]), &baseline);
        assert!(declines.iter().any(|r| r.metric == "false_decline"));
    }
}
