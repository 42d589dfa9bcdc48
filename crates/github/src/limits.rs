//! The limits on answers from a language model (`--max-model-answers-per-thread` and `-per-user`). A
//! MEMBER or COLLABORATOR need not have write access, yet each question they ask may cost model tokens,
//! so the bot counts before it lets a model answer; past a limit it answers from the index alone and
//! says so politely.
//!
//! The counts come from the bot's own earlier answers, whose hidden marker records who asked and whether
//! a model was used (`comment::AnswerMarker`): in the thread, every page of its comments; for the asker,
//! the repository's comments of the last 24 hours (`GET /repos/{owner}/{repo}/issues/comments?since=`).
//! Only comments by the bot's account count, so nobody can spend another person's allowance by writing
//! markers. When the comments cannot be read, the model is not used: the limit is kept, not guessed.

use chrono::{DateTime, Duration, Utc};

use super::bot::{ThreadComment, written_by};
use super::client::GitHub;
use super::comment::{AnswerMarker, marker_login};

/// Comments read per page (GitHub's maximum), and the most pages read for one count.
const PER_PAGE: u64 = 100;
const MAX_PAGES: u64 = 30;

/// How many model-backed answers are allowed; 0 means no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelLimits {
    pub per_thread: u32,
    /// Per asker, across the repository, in the last 24 hours.
    pub per_user: u32,
}

/// Whether a model may answer this question, or why not (a note for the asker).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Allowance {
    Allowed,
    Withheld(String),
}

/// Where the question was asked and by whom.
pub struct Asking<'a> {
    pub owner: &'a str,
    pub repo: &'a str,
    pub number: u64,
    /// Comments on the thread, the question included (from the event).
    pub n_comments: u64,
    pub asker: &'a str,
    pub bot_login: &'a str,
}

/// Counts the model-backed answers that apply and decides, reading only what a limit needs.
pub async fn model_allowance(
    github: &GitHub,
    asking: &Asking<'_>,
    limits: ModelLimits,
    now: DateTime<Utc>,
) -> Allowance {
    if limits.per_thread > 0 {
        let Some(in_thread) = thread_count(github, asking).await else { return cannot_count() };
        if in_thread >= limits.per_thread {
            return Allowance::Withheld(format!(
                "Sorry: this thread has had {in_thread} answers from the language model, the most this repository allows in one thread (`max-model-answers-per-thread`), so this answer comes from the index alone."
            ));
        }
    }
    if limits.per_user > 0 {
        let Some(by_asker) = user_count(github, asking, now).await else { return cannot_count() };
        if by_asker >= limits.per_user {
            return Allowance::Withheld(format!(
                "Sorry: you have had {by_asker} answers from the language model in the last 24 hours, the most this repository allows one person (`max-model-answers-per-user`), so this answer comes from the index alone. Ask again later for one from the model."
            ));
        }
    }
    Allowance::Allowed
}

fn cannot_count() -> Allowance {
    Allowance::Withheld(
        "strata could not read its earlier answers, which the limits on language-model answers are counted from, so this answer comes from the index alone.".into(),
    )
}

/// The bot's model-backed answers in the thread, or `None` when a page cannot be read.
async fn thread_count(github: &GitHub, asking: &Asking<'_>) -> Option<u32> {
    let pages = asking.n_comments.div_ceil(PER_PAGE).clamp(1, MAX_PAGES);
    let mut count = 0;
    for page in 1..=pages {
        let route = format!(
            "/repos/{}/{}/issues/{}/comments?per_page={PER_PAGE}&page={page}",
            asking.owner, asking.repo, asking.number
        );
        let comments: Vec<ThreadComment> = github.get_json(&route).await.ok()?;
        count += comments.iter().filter(|c| model_backed(c, asking.bot_login).is_some()).count() as u32;
        if (comments.len() as u64) < PER_PAGE {
            break;
        }
    }
    Some(count)
}

/// The bot's model-backed answers to `asker` across the repository since 24 hours before `now`, newest
/// first, or `None` when a page cannot be read.
async fn user_count(github: &GitHub, asking: &Asking<'_>, now: DateTime<Utc>) -> Option<u32> {
    let since = now - Duration::hours(24);
    let asker = marker_login(asking.asker);
    let mut count = 0;
    for page in 1..=MAX_PAGES {
        // `since` filters on the time of the last edit; the time of creation is checked below.
        let route = format!(
            "/repos/{}/{}/issues/comments?sort=created&direction=desc&since={}&per_page={PER_PAGE}&page={page}",
            asking.owner,
            asking.repo,
            since.format("%Y-%m-%dT%H:%M:%SZ")
        );
        let comments: Vec<ThreadComment> = github.get_json(&route).await.ok()?;
        let mut older = false;
        for comment in &comments {
            let created = comment.created_at.as_deref().and_then(|t| DateTime::parse_from_rfc3339(t).ok());
            match created {
                Some(created) if created < since => older = true,
                _ => {
                    if model_backed(comment, asking.bot_login)
                        .is_some_and(|marker| marker.asker.eq_ignore_ascii_case(&asker))
                    {
                        count += 1;
                    }
                }
            }
        }
        if older || (comments.len() as u64) < PER_PAGE {
            break;
        }
    }
    Some(count)
}

/// The marker of `comment` when it is one of the bot's own answers that a model helped write.
fn model_backed(comment: &ThreadComment, bot_login: &str) -> Option<AnswerMarker> {
    if !written_by(comment, bot_login) {
        return None;
    }
    AnswerMarker::of(comment.body.as_deref()?).filter(|marker| marker.model)
}
