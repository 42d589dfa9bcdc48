//! The ranking settings by coordinate ascent: each setting in turn takes the value of its grid that
//! ranks the answerable questions best, when it beats the current value by a margin, for a few passes.
//! The objective is the mean over repositories (each counts the same, however many questions it has)
//! of ½·recall@5 + ¼·hit@1 + ¼·MRR@5 of the five best modules. Length normalisation never goes below
//! ½, so a file's size cannot buy it rank.

use strata_core::bundle::RankingSettings;
use strata_search::rank::{Query, scores};

use super::{Outcome, Repo, start};

/// The least gain in the objective a move must bring: a little more than one question of one
/// repository of 60 going from a miss to a hit at rank 5 in the mean of four repositories
/// (½ · 1/60 / 4 ≈ 0.002). A smaller gain is as likely the noise of one question as a better setting,
/// and accepting it walks the settings away from the defaults for nothing that carries over.
const MIN_GAIN: f64 = 0.0025;

/// A setting the search may change, with the values it tries.
struct Knob {
    get: fn(&RankingSettings) -> f32,
    set: fn(&mut RankingSettings, f32),
    grid: &'static [f32],
}

const WEIGHTS: &[f32] = &[0.0, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0];
const B: &[f32] = &[0.5, 0.75, 0.9, 1.0];

macro_rules! field_knobs {
    ($($f:literal),*) => {
        [$(
            Knob { get: |s| s.field_weights[$f], set: |s, v| s.field_weights[$f] = v, grid: WEIGHTS },
            Knob { get: |s| s.field_b[$f], set: |s, v| s.field_b[$f] = v, grid: B },
        )*]
    };
}

fn knobs() -> Vec<Knob> {
    let mut knobs: Vec<Knob> = field_knobs!(0, 1, 2, 3, 4).into_iter().collect();
    knobs.extend([
        Knob { get: |s| s.k1, set: |s, v| s.k1 = v, grid: &[0.6, 0.9, 1.2, 1.6, 2.2, 3.0, 4.0] },
        Knob { get: |s| s.discourse, set: |s, v| s.discourse = v, grid: &[0.0, 0.25, 0.5, 1.0] },
        Knob { get: |s| s.named, set: |s, v| s.named = v, grid: &[0.0, 0.1, 0.25, 0.5, 1.0, 2.0] },
        Knob { get: |s| s.mentioned, set: |s, v| s.mentioned = v, grid: &[0.0, 0.05, 0.1, 0.2, 0.4] },
        Knob { get: |s| s.chunk, set: |s, v| s.chunk = v, grid: &[0.0, 0.05, 0.1, 0.2, 0.4] },
        Knob { get: |s| s.pagerank, set: |s, v| s.pagerank = v, grid: &[0.0, 0.02, 0.05, 0.1, 0.2] },
        Knob { get: |s| s.tests, set: |s, v| s.tests = v, grid: &[0.0, 0.1, 0.3, 1.0] },
        Knob { get: |s| s.neighbours, set: |s, v| s.neighbours = v, grid: &[0.0, 0.05, 0.1, 0.2, 0.3, 0.5] },
    ]);
    knobs
}

/// An answerable question that went to the search: its query and its gold modules' indices.
struct Case<'a> {
    repo: usize,
    query: &'a Query,
    gold: Vec<u32>,
}

pub(super) fn fit_ranking(repos: &[&Repo], rounds: usize) -> RankingSettings {
    let cases = cases(repos);
    let mut settings = start();
    let mut best = objective(&cases, repos.len(), &settings);
    for _ in 0..rounds {
        let mut moved = false;
        for knob in knobs() {
            // The knob's best value over its grid, taken only when it beats the current one by MIN_GAIN.
            let current = (knob.get)(&settings);
            let mut choice: Option<(f64, RankingSettings)> = None;
            for &value in knob.grid {
                if value == current {
                    continue;
                }
                let mut trial = settings.clone();
                (knob.set)(&mut trial, value);
                let value_score = objective(&cases, repos.len(), &trial);
                if choice.as_ref().is_none_or(|(score, _)| value_score > *score) {
                    choice = Some((value_score, trial));
                }
            }
            if let Some((score, trial)) = choice
                && score >= best + MIN_GAIN
            {
                best = score;
                settings = trial;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    settings
}

fn cases<'a>(repos: &[&'a Repo]) -> Vec<Case<'a>> {
    let mut cases = Vec::new();
    for (r, repo) in repos.iter().enumerate() {
        let ids: Vec<&String> = repo.index.bundle.nodes.keys().collect();
        for item in repo.items.iter().filter(|item| item.line.answerable) {
            let Outcome::Searched { prepared, .. } = &item.outcome else { continue };
            let gold: Vec<u32> = item
                .line
                .gold_files
                .iter()
                .filter_map(|gold| ids.iter().position(|id| *id == gold || id.ends_with(&format!("/{gold}"))))
                .map(|i| i as u32)
                .collect();
            cases.push(Case { repo: r, query: &prepared.query, gold });
        }
    }
    cases
}

/// Mean over repositories of ½·recall@5 + ¼·hit@1 + ¼·MRR@5 of the five best modules.
fn objective(cases: &[Case<'_>], n_repos: usize, settings: &RankingSettings) -> f64 {
    let mut sums = vec![(0.0, 0usize); n_repos];
    for case in cases {
        let top = top_five(case.query, settings);
        let n_gold = case.gold.len().max(1) as f64;
        let found = case.gold.iter().filter(|g| top.contains(g)).count() as f64;
        let first = top.iter().position(|m| case.gold.contains(m));
        let hit1 = f64::from(u8::from(first == Some(0)));
        let mrr = first.map_or(0.0, |rank| 1.0 / (rank + 1) as f64);
        let entry = &mut sums[case.repo];
        entry.0 += 0.5 * found / n_gold + 0.25 * hit1 + 0.25 * mrr;
        entry.1 += 1;
    }
    let used: Vec<f64> = sums.iter().filter(|(_, n)| *n > 0).map(|(sum, n)| sum / *n as f64).collect();
    if used.is_empty() { 0.0 } else { used.iter().sum::<f64>() / used.len() as f64 }
}

/// The module indices of the five best candidates, best first (ties to the lower module index, as in
/// `rank`).
fn top_five(query: &Query, settings: &RankingSettings) -> Vec<u32> {
    let mut top: Vec<(f32, u32)> = Vec::with_capacity(6);
    for (candidate, score) in query.candidates.iter().zip(scores(query, settings)) {
        let entry = (score, candidate.module);
        let better = |a: &(f32, u32), b: &(f32, u32)| a.0 > b.0 || (a.0 == b.0 && a.1 < b.1);
        if top.len() < 5 || better(&entry, &top[top.len() - 1]) {
            let at = top.iter().position(|other| better(&entry, other)).unwrap_or(top.len());
            top.insert(at, entry);
            top.truncate(5);
        }
    }
    top.into_iter().map(|(_, module)| module).collect()
}
