//! `strata fit`: the ranking and decline settings of `ask`, chosen on question sets from several
//! repositories and reported leaving one repository out. For each repository in turn, the settings are
//! fitted on the others and the held-out repository's figures are those of its own run of `ask
//! --offline` under them; last, the settings are fitted on every repository and printed, to be pasted
//! into `strata_core::bundle::answer_settings::fitted`.
//!
//! Every question is routed and searched once (`Answerer::route`, `Answerer::prepare`), then ranked and
//! weighed under each candidate setting with the same functions `ask` uses. Answerable questions
//! (lines with `gold_files`) tune the ranking (`search.rs`); they and the questions about things the
//! code does not contain (lines with `"answerable": false`) fit the decline model (`logistic.rs`).

mod logistic;
mod search;

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use strata_answer::loaded::LoadedIndex;
use strata_answer::understand::Understanding;
use strata_answer::{Answer, Mode, Route, weigh_evidence};
use strata_core::bundle::{DeclineSettings, RankingSettings, fitted_ranking};
use strata_search::entities::EntityLinker;
use strata_search::retrieve::Prepared;

use super::locate::{LocateQuestion, score};

/// One question set of one repository: `repo=INDEX_DIR=QUESTIONS.jsonl` on the command line.
#[derive(Debug, Clone)]
pub struct FitSet {
    pub repo: String,
    pub index_dir: PathBuf,
    pub questions: PathBuf,
}

impl FitSet {
    pub fn parse(spec: &str) -> Result<FitSet> {
        let mut parts = spec.splitn(3, '=');
        let (Some(repo), Some(index), Some(questions)) = (parts.next(), parts.next(), parts.next()) else {
            anyhow::bail!("a set is REPO=INDEX_DIR=QUESTIONS.jsonl, not {spec:?}");
        };
        anyhow::ensure!(!repo.is_empty(), "a set needs a repository name: {spec:?}");
        Ok(FitSet { repo: repo.to_string(), index_dir: index.into(), questions: questions.into() })
    }
}

pub struct FitRequest {
    pub sets: Vec<FitSet>,
    /// Sets never fitted on: scored only, with the settings fitted on every repository of `sets`.
    pub report_sets: Vec<FitSet>,
    /// Most answerable questions the decline may refuse on the repositories it is fitted on.
    pub false_decline_budget: f64,
    /// Passes of coordinate ascent over the ranking settings.
    pub rounds: usize,
}

/// A question line: answerable with gold files, or about something the code does not contain.
#[derive(Debug, Clone, Deserialize)]
struct Line {
    id: String,
    question: String,
    #[serde(default)]
    gold_files: Vec<String>,
    #[serde(default)]
    category: String,
    #[serde(default = "answerable_by_default")]
    answerable: bool,
}

fn answerable_by_default() -> bool {
    true
}

/// A question routed and, when it goes to the search, searched.
struct Item {
    set: String,
    line: Line,
    outcome: Outcome,
}

enum Outcome {
    /// Answered or declined before the search: the same under every setting.
    Fixed(Box<Answer>),
    Searched {
        understood: Box<Understanding>,
        prepared: Box<Prepared>,
    },
}

struct Repo {
    name: String,
    index: LoadedIndex,
    items: Vec<Item>,
}

/// Figures of one repository (or all) under some settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Figures {
    pub answerable: usize,
    pub hit_at_1: f64,
    pub hit_at_5: f64,
    pub recall_at_5: f64,
    pub mrr_at_5: f64,
    /// Answerable questions declined.
    pub false_declines: f64,
    pub absent: usize,
    /// Questions about absent things declined.
    pub absent_declined: f64,
    /// Declined questions that were about absent things.
    pub decline_precision: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct FitReport {
    /// Per repository: its figures under the settings fitted on the others.
    pub held_out: BTreeMap<String, Figures>,
    /// Per question set (`repo/set`): its figures in its repository's held-out run.
    pub held_out_sets: BTreeMap<String, Figures>,
    /// Every question of every held-out run together.
    pub held_out_pooled: Figures,
    /// Every question of every held-out run: how it was answered.
    pub held_out_questions: Vec<QuestionOutcome>,
    /// Per repository of the report sets: its figures under the settings fitted on every other set.
    pub reported: BTreeMap<String, Figures>,
    /// The settings fitted on every repository, and their figures on those same questions.
    pub ranking: RankingSettings,
    pub decline: DeclineSettings,
    pub in_sample: Figures,
}

pub async fn run_fit(request: &FitRequest) -> Result<FitReport> {
    let repos = load(&request.sets).await?;
    let names: Vec<String> = repos.iter().map(|r| r.name.clone()).collect();
    let mut held_out = BTreeMap::new();
    let mut held_out_sets = BTreeMap::new();
    let mut held_out_questions = Vec::new();
    let mut pooled_rows = Vec::new();
    if repos.len() > 1 {
        for (i, name) in names.iter().enumerate() {
            let training: Vec<&Repo> = repos.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, r)| r).collect();
            let (ranking, decline) = fit_on(&training, request, &names_of(&training));
            let rows = outcomes(&repos[i], &ranking, &decline);
            held_out.insert(name.clone(), figures(&rows));
            let mut by_set: BTreeMap<String, Vec<Row>> = BTreeMap::new();
            for row in rows {
                by_set.entry(format!("{name}/{}", row.set)).or_default().push(row);
            }
            for (set, rows) in by_set {
                held_out_sets.insert(set, figures(&rows));
                held_out_questions.extend(rows.iter().map(|row| row.outcome.clone()));
                pooled_rows.extend(rows);
            }
        }
    }
    let all: Vec<&Repo> = repos.iter().collect();
    let (ranking, decline) = fit_on(&all, request, &names);
    let in_sample_rows: Vec<Row> = all.iter().flat_map(|repo| outcomes(repo, &ranking, &decline)).collect();
    let mut reported = BTreeMap::new();
    for repo in load(&request.report_sets).await? {
        reported.insert(repo.name.clone(), figures(&outcomes(&repo, &ranking, &decline)));
    }
    Ok(FitReport {
        reported,
        held_out,
        held_out_sets,
        held_out_pooled: figures(&pooled_rows),
        held_out_questions,
        ranking,
        decline,
        in_sample: figures(&in_sample_rows),
    })
}

fn names_of(repos: &[&Repo]) -> Vec<String> {
    repos.iter().map(|r| r.name.clone()).collect()
}

/// The ranking, then the decline model on that ranking's evidence.
fn fit_on(repos: &[&Repo], request: &FitRequest, names: &[String]) -> (RankingSettings, DeclineSettings) {
    let mut ranking = search::fit_ranking(repos, request.rounds);
    let described = format!(
        "strata fit: {} answerable questions of {} (leave one repository out reported)",
        repos.iter().map(|r| r.items.iter().filter(|i| i.line.answerable).count()).sum::<usize>(),
        names.join(", ")
    );
    ranking.fitted_on = described.clone();
    let mut decline = logistic::fit_decline(repos, &ranking, request.false_decline_budget);
    decline.fitted_on = format!(
        "{described}; {} questions about absent things; false-decline budget {}",
        repos.iter().map(|r| r.items.iter().filter(|i| !i.line.answerable).count()).sum::<usize>(),
        request.false_decline_budget
    );
    (ranking, decline)
}

async fn load(sets: &[FitSet]) -> Result<Vec<Repo>> {
    let mut repos: Vec<Repo> = Vec::new();
    for set in sets {
        let position = match repos.iter().position(|r| r.name == set.repo) {
            Some(position) => position,
            None => {
                let index = LoadedIndex::open(&set.index_dir, None)
                    .await
                    .with_context(|| format!("cannot open the index of {}", set.repo))?;
                repos.push(Repo { name: set.repo.clone(), index, items: Vec::new() });
                repos.len() - 1
            }
        };
        let text = std::fs::read_to_string(&set.questions)
            .with_context(|| format!("cannot read the questions {}", set.questions.display()))?;
        let lines: Vec<Line> = crate::questions::parse_set(&text, "fit question", |l: &Line| &l.id)?;
        let set_name = set.questions.file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned());
        let repo = &mut repos[position];
        let answerer = repo.index.answerer(None);
        let linker = EntityLinker::new(&repo.index.bundle);
        let mut items = Vec::with_capacity(lines.len());
        for line in lines {
            anyhow::ensure!(
                !line.answerable || !line.gold_files.is_empty(),
                "question {} of {} is answerable but has no gold_files",
                line.id,
                set.questions.display()
            );
            let outcome = match answerer.route(&line.question, &linker).await {
                Route::Answered(answer) => Outcome::Fixed(answer),
                Route::Search { understood, .. } => {
                    let prepared = answerer.prepare(&line.question, &linker).await?;
                    Outcome::Searched { understood, prepared: Box::new(prepared) }
                }
            };
            items.push(Item { set: set_name.clone(), line, outcome });
        }
        repo.items.extend(items);
    }
    Ok(repos)
}

/// How one question of a held-out run was answered.
#[derive(Debug, Clone, Serialize)]
pub struct QuestionOutcome {
    pub set: String,
    pub id: String,
    pub question: String,
    pub answerable: bool,
    pub declined: bool,
    pub recall_at_5: f64,
    pub gold_files: Vec<String>,
    /// The first five files the answer points to.
    pub ranked: Vec<String>,
    /// The decline model's score and features, for questions that went to the search.
    pub score: Option<f64>,
    pub features: Option<BTreeMap<String, f64>>,
}

/// One question's result under some settings.
struct Row {
    outcome: QuestionOutcome,
    set: String,
    answerable: bool,
    declined: bool,
    hit_at_1: f64,
    hit_at_5: f64,
    recall_at_5: f64,
    mrr_at_5: f64,
}

/// Every question of `repo` answered offline under the settings, as `ask --offline` would.
fn outcomes(repo: &Repo, ranking: &RankingSettings, decline: &DeclineSettings) -> Vec<Row> {
    let answerer = repo.index.answerer(None);
    repo.items
        .iter()
        .map(|item| {
            let answer = match &item.outcome {
                Outcome::Fixed(answer) => (**answer).clone(),
                Outcome::Searched { understood, prepared } => {
                    answerer.offline_answer(&item.line.question, understood, (**prepared).clone(), ranking, decline)
                }
            };
            row(&item.set, &item.line, &answer)
        })
        .collect()
}

fn row(set: &str, line: &Line, answer: &Answer) -> Row {
    let declined = answer.mode == Mode::Declined;
    let set = set.to_string();
    let mut outcome = QuestionOutcome {
        set: set.clone(),
        id: line.id.clone(),
        question: line.question.clone(),
        answerable: line.answerable,
        declined,
        recall_at_5: 0.0,
        gold_files: line.gold_files.clone(),
        ranked: super::locate::ranked_files(answer),
        score: answer.evidence.as_ref().map(|e| e.score),
        features: answer
            .evidence
            .as_ref()
            .map(|e| e.features.named().iter().map(|(name, value)| (name.to_string(), *value)).collect()),
    };
    if !line.answerable {
        return Row {
            outcome,
            set,
            answerable: false,
            declined,
            hit_at_1: 0.0,
            hit_at_5: 0.0,
            recall_at_5: 0.0,
            mrr_at_5: 0.0,
        };
    }
    let question = LocateQuestion {
        id: line.id.clone(),
        question: line.question.clone(),
        gold_files: line.gold_files.clone(),
        category: line.category.clone(),
    };
    let scored = score(&question, answer);
    outcome.recall_at_5 = scored.recall_at_5;
    Row {
        outcome,
        set,
        answerable: true,
        declined,
        hit_at_1: scored.hit_at_1,
        hit_at_5: scored.hit_at_5,
        recall_at_5: scored.recall_at_5,
        mrr_at_5: scored.mrr_at_5,
    }
}

fn figures(rows: &[Row]) -> Figures {
    let answerable: Vec<&Row> = rows.iter().filter(|r| r.answerable).collect();
    let absent: Vec<&Row> = rows.iter().filter(|r| !r.answerable).collect();
    let mean = |rows: &[&Row], value: fn(&Row) -> f64| {
        if rows.is_empty() { 0.0 } else { rows.iter().map(|r| value(r)).sum::<f64>() / rows.len() as f64 }
    };
    let declined = rows.iter().filter(|r| r.declined).count();
    let declined_absent = absent.iter().filter(|r| r.declined).count();
    Figures {
        answerable: answerable.len(),
        hit_at_1: mean(&answerable, |r| r.hit_at_1),
        hit_at_5: mean(&answerable, |r| r.hit_at_5),
        recall_at_5: mean(&answerable, |r| r.recall_at_5),
        mrr_at_5: mean(&answerable, |r| r.mrr_at_5),
        false_declines: mean(&answerable, |r| f64::from(u8::from(r.declined))),
        absent: absent.len(),
        absent_declined: mean(&absent, |r| f64::from(u8::from(r.declined))),
        decline_precision: if declined == 0 { 1.0 } else { declined_absent as f64 / declined as f64 },
    }
}

/// The evidence features of every searched question of `repos` under `ranking`, with whether it is
/// answerable and its repository's position.
fn features(repos: &[&Repo], ranking: &RankingSettings) -> Vec<(usize, bool, Vec<f64>)> {
    let always =
        DeclineSettings { bias: 0.0, weights: BTreeMap::new(), threshold: f64::NEG_INFINITY, fitted_on: String::new() };
    let mut rows = Vec::new();
    for (r, repo) in repos.iter().enumerate() {
        let bundle = &repo.index.bundle;
        for item in &repo.items {
            let Outcome::Searched { prepared, .. } = &item.outcome else { continue };
            let retrieval = (**prepared).clone().finish(bundle, ranking);
            let evidence = weigh_evidence(&item.line.question, &retrieval, ranking, &always);
            if retrieval.ranked.is_empty() {
                continue;
            }
            // Declined by rule whatever the model says: not what the model is fitted on.
            if evidence.features.beyond_code > 0.0 {
                continue;
            }
            let values = evidence.features.values().to_vec();
            rows.push((r, item.line.answerable, values));
        }
    }
    rows
}

/// The settings to start the ranking search from.
fn start() -> RankingSettings {
    fitted_ranking()
}

/// Markdown of a report: the held-out figures per repository, pooled, and in sample.
pub fn to_markdown(report: &FitReport) -> String {
    let mut text = String::from(
        "| held out | answerable | hit@1 | hit@5 | recall@5 | mrr@5 | false declines | absent | absent declined | decline precision |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let line = |name: &str, f: &Figures| {
        format!(
            "| {name} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {} | {:.3} | {:.3} |\n",
            f.answerable,
            f.hit_at_1,
            f.hit_at_5,
            f.recall_at_5,
            f.mrr_at_5,
            f.false_declines,
            f.absent,
            f.absent_declined,
            f.decline_precision
        )
    };
    for (name, figures) in &report.held_out {
        text.push_str(&line(name, figures));
    }
    for (name, figures) in &report.held_out_sets {
        text.push_str(&line(&format!("· {name}"), figures));
    }
    text.push_str(&line("**pooled, held out**", &report.held_out_pooled));
    for (name, figures) in &report.reported {
        text.push_str(&line(&format!("{name} (never fitted on)"), figures));
    }
    text.push_str(&line("in sample (not a measure)", &report.in_sample));
    text
}
