//! The decline model: a logistic regression of "answerable" on the evidence features, each class
//! weighted to count the same in every repository, with a small L2 penalty, by gradient descent from
//! zero (deterministic: same data, same weights). The threshold is then set as high as the budget of
//! false declines on the training questions allows: declining more would refuse answerable questions.

use std::collections::BTreeMap;

use strata_answer::abstain::FEATURE_NAMES;
use strata_core::bundle::{DeclineSettings, RankingSettings};

use super::{Repo, features};

const STEPS: usize = 4000;
const LEARNING_RATE: f64 = 0.5;
const L2: f64 = 1e-3;

pub(super) fn fit_decline(repos: &[&Repo], ranking: &RankingSettings, budget: f64) -> DeclineSettings {
    let rows = features(repos, ranking);
    let dims = FEATURE_NAMES.len();
    // Each (repository, class) weighs the same in total.
    let mut counts: BTreeMap<(usize, bool), usize> = BTreeMap::new();
    for (repo, answerable, _) in &rows {
        *counts.entry((*repo, *answerable)).or_default() += 1;
    }
    let groups = counts.len().max(1) as f64;
    let weight_of = |repo: usize, answerable: bool| 1.0 / (groups * counts[&(repo, answerable)] as f64);
    let (mut w, mut bias) = (vec![0.0; dims], 0.0);
    for _ in 0..STEPS {
        let (mut grad, mut grad_bias) = (vec![0.0; dims], 0.0);
        for (repo, answerable, x) in &rows {
            let z = bias + w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>();
            let p = 1.0 / (1.0 + (-z).exp());
            let error = (p - f64::from(u8::from(*answerable))) * weight_of(*repo, *answerable);
            for (g, xi) in grad.iter_mut().zip(x) {
                *g += error * xi;
            }
            grad_bias += error;
        }
        for (wi, g) in w.iter_mut().zip(&grad) {
            *wi -= LEARNING_RATE * (g + L2 * *wi);
        }
        bias -= LEARNING_RATE * grad_bias;
    }
    // The threshold from the rounded weights, as they will be recorded and applied.
    let (w, bias): (Vec<f64>, f64) = (w.iter().map(|v| round(*v)).collect(), round(bias));
    let score = |x: &[f64]| bias + w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>();
    let mut answerable: Vec<f64> = rows.iter().filter(|(_, a, _)| *a).map(|(_, _, x)| score(x)).collect();
    answerable.sort_by(f64::total_cmp);
    let allowed = (budget * answerable.len() as f64).floor() as usize;
    let threshold = answerable.get(allowed).map_or(-1e9, |score| (score * 1e6).floor() / 1e6);
    DeclineSettings {
        bias,
        weights: FEATURE_NAMES.iter().zip(&w).map(|(name, weight)| (name.to_string(), *weight)).collect(),
        threshold,
        fitted_on: String::new(),
    }
}

/// Six decimals: the settings are pasted into the code and recorded in manifests.
fn round(value: f64) -> f64 {
    (value * 1e6).round() / 1e6
}
