//! The `/ask` bot's flow, from a comment event to one new comment:
//! triage (no API call for anything but a trusted `/ask`) → 👀 → the newest trusted index artifact →
//! safe download and unpack → answer (a follow-up's "it" resolved from the previous answer) → one
//! comment → 🚀; or 😕 with a short comment saying what to do. The answer comment is posted once and
//! never retried after a server error, so a flaky API cannot make the bot post twice. A language model
//! answers only within the limits of `limits`; a panic while answering still gets the 😕 and a reply.

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use futures::FutureExt;
use serde::Deserialize;
use serde_json::json;

use super::artifact::{IndexSource, MissingIndex, RefusedIndex, download_index, find_index_artifact};
use super::client::GitHub;
use super::comment::{ANSWER_MARKER, Asked, CommentContext, answer_comment, error_comment, previous_subject};
use super::event::{CommentEvent, Triage, triage};
use super::limits::{Allowance, Asking, ModelLimits, model_allowance};
use super::pull::{ChangeUnavailable, fetch_pull, list_files, pull_request_impact};
use super::unzip::{ArchiveLimits, UnsafeArchive};
use strata_answer::change::{ChangeQuestion, answer_about_change};
use strata_answer::loaded::LoadedIndex;
use strata_answer::understand::change::mentioned_modules;
use strata_answer::{Answer, ChatSettings, Mode};
use strata_core::config::LlmServer;
use strata_core::secret::Secret;
use strata_search::location::{ObjectLocation, OrgStore};

/// Everything the bot needs besides the event and the client.
#[derive(Debug, Clone)]
pub struct BotSettings {
    pub trusted_associations: Vec<String>,
    /// Confirm authors outside the trusted associations with the collaborator-permission API.
    pub check_permission: bool,
    pub workflow: String,
    pub artifact_name: String,
    pub limits: ArchiveLimits,
    pub server_url: String,
    /// Values never to be posted (the token, the API key).
    pub secrets: Vec<Secret>,
    pub llm: Option<LlmServer>,
    pub chat_model: String,
    /// Longest one chat request may take.
    pub chat_timeout: Duration,
    /// How many answers a language model may give per thread and per asker.
    pub model_limits: ModelLimits,
    /// The account the bot posts as (`github-actions[bot]` with the workflow token): only its comments
    /// count as earlier answers.
    pub bot_login: String,
    /// A fresh directory to unpack the index into.
    pub work_dir: PathBuf,
    /// An organisation's store: questions about its repositories are answered from its joined graph.
    pub org: Option<ObjectLocation>,
}

/// What the bot did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotOutcome {
    Ignored(String),
    Refused(String),
    Answered {
        mode: Mode,
        comment_id: u64,
        /// Details for the workflow log (a model server's error text), never posted.
        diagnostics: Vec<String>,
    },
    /// Nothing was wrong with strata: no index yet, an expired one, an empty question. The thread says
    /// what to do.
    CannotAnswer(String),
    /// Something failed; `told_user` when an error comment explains it in the thread.
    Failed {
        reason: String,
        told_user: bool,
    },
}

#[derive(Deserialize)]
struct Created {
    id: u64,
}

/// A comment as the API lists it.
#[derive(Deserialize)]
pub(crate) struct ThreadComment {
    #[serde(default)]
    pub(crate) id: u64,
    pub(crate) body: Option<String>,
    pub(crate) user: super::event::User,
    #[serde(default)]
    pub(crate) created_at: Option<String>,
}

/// Whether `comment` is this bot's: any other account (another bot included) can write a marker.
pub(crate) fn written_by(comment: &ThreadComment, bot_login: &str) -> bool {
    comment.user.kind == "Bot" && comment.user.login.eq_ignore_ascii_case(bot_login)
}

#[derive(Deserialize)]
struct Permission {
    permission: String,
    #[serde(default)]
    role_name: Option<String>,
}

pub async fn run_bot(github: &GitHub, event: &CommentEvent, settings: &BotSettings) -> Result<BotOutcome> {
    let question = match triage(event, &settings.trusted_associations, settings.check_permission) {
        Triage::Ignore(reason) => return Ok(BotOutcome::Ignored(reason)),
        Triage::Untrusted { login, association, confirm, question } => {
            if !(confirm && can_write(github, event, &login).await?) {
                return Ok(BotOutcome::Refused(format!(
                    "{login} ({association}) is not a trusted author; no index was downloaded"
                )));
            }
            question
        }
        Triage::Ask { question } => question,
    };
    let thread = Thread::of(event, settings);
    // A re-run job or a redelivered event finds its answer already posted: nothing more to do.
    if let Some(existing) = thread.existing_answer(github, event.comment.id, event.issue.comments).await {
        return Ok(BotOutcome::Ignored(format!(
            "comment {existing} already answers comment {} (a re-run or a redelivered event)",
            event.comment.id
        )));
    }
    // The reaction is a courtesy: failing to add it must not stop the answer.
    let _ = thread.react(github, "eyes").await;
    if question.is_empty() {
        let usage = "the question is empty. Write `/ask` followed by a question, for example `/ask what imports app/models.py?` or `/ask where is the login handled?`.";
        thread.fail(github, usage.to_string(), None).await;
        return Ok(BotOutcome::CannotAnswer("the question is empty".to_string()));
    }
    // A panic while answering (none is known) must still leave the thread a reply and a 😕.
    let answered = AssertUnwindSafe(answer_in_thread(github, event, settings, &thread, &question))
        .catch_unwind()
        .await
        .unwrap_or_else(|panic| {
            let what =
                panic.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| panic.downcast_ref::<String>().cloned());
            Err(anyhow::anyhow!("strata panicked while answering: {}", what.unwrap_or_default()))
        });
    let (body, mode, diagnostics) = match answered {
        Ok(done) => done,
        Err(error) => {
            let message = user_message(&error);
            if error.downcast_ref::<MissingIndex>().is_some() {
                thread.fail(github, message.clone(), None).await;
                return Ok(BotOutcome::CannotAnswer(message));
            }
            return Ok(thread.fail(github, message, Some(format!("{error:#}"))).await);
        }
    };
    match thread.comment(github, &body).await {
        Ok(comment_id) => {
            let _ = thread.react(github, "rocket").await;
            Ok(BotOutcome::Answered { mode, comment_id, diagnostics })
        }
        Err(error) => {
            // Never re-posted: after a server error the comment may exist already.
            let _ = thread.react(github, "confused").await;
            Ok(BotOutcome::Failed { reason: format!("posting the answer failed: {error}"), told_user: false })
        }
    }
}

async fn answer_in_thread(
    github: &GitHub,
    event: &CommentEvent,
    settings: &BotSettings,
    thread: &Thread,
    question: &str,
) -> Result<(String, Mode, Vec<String>)> {
    let source = IndexSource {
        owner: thread.owner.clone(),
        repo: thread.repo.clone(),
        repository_id: event.repository.id,
        default_branch: event.repository.default_branch.clone().unwrap_or_else(|| "main".to_string()),
        workflow: settings.workflow.clone(),
        artifact_name: settings.artifact_name.clone(),
    };
    if let Some(org) = &settings.org
        && strata_answer::asks_across_repositories(question)
    {
        return answer_across_repositories(event, settings, thread, question, org).await;
    }
    let found = find_index_artifact(github, &source).await?;
    let dir = settings.work_dir.join(format!("index-{}", event.comment.id));
    download_index(github, &source, &found, &dir, settings.limits).await?;
    let index = LoadedIndex::open(&dir, settings.llm.as_ref()).await?;
    // The question is read once, by the one question reader `ask` uses. A follow-up ("what imports
    // it?") costs one extra call, only when it refers back and names no module itself; the question
    // with the previous answer's module in place of the reference is read again.
    let reader = index.answerer(None);
    let mut understood = reader.understand(question);
    let subject = match understood.refers_back {
        Some(_) => thread.previous_subject(github, event.issue.comments).await,
        None => None,
    };
    let question = match subject.and_then(|subject| reader.follow_up(question, &understood, &subject)) {
        Some(resolved) => {
            understood = reader.understand(&resolved);
            resolved
        }
        None => question.to_string(),
    };
    let mut ctx = CommentContext {
        server_url: settings.server_url.clone(),
        owner: thread.owner.clone(),
        repo: thread.repo.clone(),
        commit: index.manifest.commit.clone().unwrap_or_else(|| found.run.head_sha.clone()),
        pull_head: None,
        index_age: age_since(&found.run.updated_at),
        secrets: settings.secrets.clone(),
        organisation: None,
    };
    // "What does this PR affect?" on a pull request: its impact. (On an issue, the answerer says that
    // such a question needs a pull request.)
    let asked = Asked { comment_id: event.comment.id, asker: event.comment.user.login.clone() };
    if event.issue.pull_request.is_some()
        && let Some(about_change) = reader.change_question(&understood)
    {
        let (answer, head_sha) =
            answer_about_pull(github, thread, &source, &dir, &index, &question, about_change).await?;
        ctx.pull_head = Some(head_sha);
        return Ok((answer_comment(&answer, &asked, &ctx), answer.mode, answer.diagnostics));
    }
    let chat = settings
        .llm
        .as_ref()
        .map(|server| ChatSettings::for_server(server, &settings.chat_model, settings.chat_timeout));
    let (chat, withheld) = match chat {
        Some(chat) => {
            let asking = Asking {
                owner: &thread.owner,
                repo: &thread.repo,
                number: thread.number,
                n_comments: event.issue.comments,
                asker: &event.comment.user.login,
                bot_login: &thread.bot_login,
            };
            match model_allowance(github, &asking, settings.model_limits, chrono::Utc::now()).await {
                Allowance::Allowed => (Some(chat), None),
                Allowance::Withheld(note) => (None, Some(note)),
            }
        }
        None => (None, None),
    };
    let mut answer = index.answerer(chat.as_ref()).answer_understood(&question, understood).await?;
    // An exact answer never needed the model: the note would only puzzle.
    if let Some(note) = withheld
        && answer.mode != Mode::Structural
    {
        answer.notes.insert(0, note);
    }
    Ok((answer_comment(&answer, &asked, &ctx), answer.mode, answer.diagnostics))
}

/// A question about the organisation's repositories, answered from the joined graph of the store's
/// catalog when it is about the import graph (exactly), else searched in the repositories' own indexes
/// as `ask --org` does; no model either way. Links point into each repository at the commit the catalog has,
/// under the same owner as this one.
async fn answer_across_repositories(
    event: &CommentEvent,
    settings: &BotSettings,
    thread: &Thread,
    question: &str,
    org: &ObjectLocation,
) -> Result<(String, Mode, Vec<String>)> {
    let store = OrgStore::open(org)?;
    let (catalog, _) = store.catalog().await?;
    if catalog.repositories.is_empty() {
        anyhow::bail!(MissingIndex::EmptyOrganisation { store: org.to_string() });
    }
    // Only the repositories the question's modules connect, when it names any.
    let reading = catalog.reading_for(&[question]);
    let graph = store.graph(&catalog, reading.as_deref(), &[]).await?;
    let index = LoadedIndex::organisation(graph.bundle, &org.to_string());
    // Not about the import graph ("which repositories refresh OAuth tokens?"): the repositories' code,
    // answered without a model (the model allowance is per repository's thread; see `answer`).
    let (answer, _) = strata_answer::answer_in_organisation(
        &index.answerer(None),
        &store,
        &catalog,
        question,
        settings.llm.as_ref(),
        None,
    )
    .await?;
    let commits: std::collections::BTreeMap<String, String> =
        catalog.repositories.iter().filter_map(|(name, entry)| Some((name.clone(), entry.commit.clone()?))).collect();
    let ctx = CommentContext {
        server_url: settings.server_url.clone(),
        owner: thread.owner.clone(),
        repo: thread.repo.clone(),
        commit: commits.get(&thread.repo).cloned().unwrap_or_else(|| "HEAD".to_string()),
        pull_head: None,
        index_age: None,
        secrets: settings.secrets.clone(),
        organisation: Some(commits),
    };
    let asked = Asked { comment_id: event.comment.id, asker: event.comment.user.login.clone() };
    Ok((answer_comment(&answer, &asked, &ctx), answer.mode, answer.diagnostics))
}

/// The answer to a question about this pull request's change, and its head commit: the default
/// branch's index with the pull request's files laid over it, read through the API.
async fn answer_about_pull(
    github: &GitHub,
    thread: &Thread,
    source: &IndexSource,
    index_dir: &std::path::Path,
    index: &LoadedIndex,
    question: &str,
    about_change: ChangeQuestion,
) -> Result<(Answer, String)> {
    let pull = fetch_pull(github, &thread.owner, &thread.repo, thread.number).await?;
    let (files, truncated) = list_files(github, &thread.owner, &thread.repo, thread.number).await?;
    let (head, change) =
        pull_request_impact(github, &thread.owner, &thread.repo, &pull, &files, index_dir, &index.manifest).await?;
    let mentioned = mentioned_modules(question, &head.bundle);
    let (text, cited) = answer_about_change(&about_change, &change, &mentioned);
    let head_short: String = pull.head_sha.chars().take(12).collect();
    let mut notes = vec![format!(
        "Computed from the index of `{}` with the {} file(s) this pull request changes (head `{head_short}`) laid over it, as if it were merged now. Nothing was checked out or run.",
        source.default_branch,
        files.len()
    )];
    if pull.base_branch != source.default_branch {
        notes.push(format!(
            "This pull request targets `{}`; the index is of `{}`.",
            pull.base_branch, source.default_branch
        ));
    }
    if truncated {
        notes.push("GitHub lists at most 3,000 files of a pull request: changes beyond them are not counted.".into());
    }
    let folder = index.manifest.selection.as_ref().map_or("", |s| s.folder.as_str());
    if files.iter().any(|f| f.filename.strip_prefix(folder) == Some(strata_core::config::CONFIG_FILE_NAME)) {
        notes.push(format!(
            "This pull request changes `{}`; the answer uses the settings the index was built with.",
            strata_core::config::CONFIG_FILE_NAME
        ));
    }
    let answer = index.answerer(None).change_answer(question, &head.bundle, text, &cited, notes);
    Ok((answer, pull.head_sha))
}

/// What the person who asked is told: the known failures in their words, anything else briefly.
fn user_message(error: &anyhow::Error) -> String {
    if let Some(missing) = error.downcast_ref::<MissingIndex>() {
        return missing.to_string();
    }
    if let Some(unsafe_archive) = error.chain().find_map(|cause| cause.downcast_ref::<UnsafeArchive>()) {
        return format!("the index artifact was refused ({unsafe_archive}). Re-run the index workflow.");
    }
    if let Some(too_large) = error.chain().find_map(|cause| cause.downcast_ref::<MissingIndex>()) {
        return format!("the index artifact was refused ({too_large}). Re-run the index workflow.");
    }
    if let Some(unavailable) = error.chain().find_map(|cause| cause.downcast_ref::<ChangeUnavailable>()) {
        return format!("{unavailable}.");
    }
    if error.chain().any(|cause| cause.downcast_ref::<RefusedIndex>().is_some()) {
        return "the index artifact could not be read (damaged or not a zip). Re-run the index workflow.".to_string();
    }
    "something went wrong while answering; the workflow run's log has the details.".to_string()
}

/// The issue or pull request and the comment being answered.
struct Thread {
    owner: String,
    repo: String,
    number: u64,
    comment_id: u64,
    bot_login: String,
}

impl Thread {
    fn of(event: &CommentEvent, settings: &BotSettings) -> Thread {
        Thread {
            owner: event.repository.owner.login.clone(),
            repo: event.repository.name.clone(),
            number: event.issue.number,
            comment_id: event.comment.id,
            bot_login: settings.bot_login.clone(),
        }
    }

    /// A comment this bot posted: any other account (another bot included) can write a marker.
    fn is_own(&self, comment: &ThreadComment) -> bool {
        written_by(comment, &self.bot_login)
    }

    async fn react(&self, github: &GitHub, content: &str) -> Result<()> {
        let route = format!("/repos/{}/{}/issues/comments/{}/reactions", self.owner, self.repo, self.comment_id);
        let _: serde_json::Value = github.post_json(&route, &json!({ "content": content })).await?;
        Ok(())
    }

    async fn comment(&self, github: &GitHub, body: &str) -> Result<u64> {
        let route = format!("/repos/{}/{}/issues/{}/comments", self.owner, self.repo, self.number);
        let created: Created = github.post_json(&route, &json!({ "body": body })).await?;
        Ok(created.id)
    }

    /// 😕 and a short comment; `detail` goes to the log only.
    async fn fail(&self, github: &GitHub, message: String, detail: Option<String>) -> BotOutcome {
        let told_user = self.comment(github, &error_comment(&message, None)).await.is_ok();
        let _ = self.react(github, "confused").await;
        BotOutcome::Failed { reason: detail.unwrap_or(message), told_user }
    }

    /// strata's answer to comment `question`, if this bot already posted one (its marker names the
    /// question's id). The answer follows the question, so it is on the page after the `n_comments` seen
    /// when the question was posted; when the comments cannot be read, there is none.
    async fn existing_answer(&self, github: &GitHub, question: u64, n_comments: u64) -> Option<u64> {
        let page = (n_comments + 1).div_ceil(100).max(1);
        let route =
            format!("/repos/{}/{}/issues/{}/comments?per_page=100&page={page}", self.owner, self.repo, self.number);
        let comments: Vec<ThreadComment> = github.get_json(&route).await.ok()?;
        let marker = format!("{ANSWER_MARKER} question={question} ");
        comments
            .iter()
            .filter(|c| self.is_own(c))
            .find(|c| c.body.as_deref().is_some_and(|body| body.starts_with(&marker)))
            .map(|c| c.id)
    }

    /// The subject of strata's newest answer in this thread (this bot's comments only).
    async fn previous_subject(&self, github: &GitHub, n_comments: u64) -> Option<String> {
        let last_page = n_comments.div_ceil(100).max(1);
        let route = format!(
            "/repos/{}/{}/issues/{}/comments?per_page=100&page={last_page}",
            self.owner, self.repo, self.number
        );
        let comments: Vec<ThreadComment> = github.get_json(&route).await.ok()?;
        previous_subject(
            comments
                .iter()
                .filter(|c| self.is_own(c))
                .filter_map(|c| c.body.as_deref())
                .collect::<Vec<_>>()
                .into_iter(),
        )
    }
}

/// Whether the permission API says `login` can write to the repository.
async fn can_write(github: &GitHub, event: &CommentEvent, login: &str) -> Result<bool> {
    let route =
        format!("/repos/{}/{}/collaborators/{}/permission", event.repository.owner.login, event.repository.name, login);
    match github.get_json::<Permission>(&route).await {
        Ok(permission) => Ok(["admin", "maintain", "write"]
            .iter()
            .any(|level| permission.permission == *level || permission.role_name.as_deref() == Some(level))),
        // 404: not a collaborator at all.
        Err(error) if error.status() == Some(http::StatusCode::NOT_FOUND) => Ok(false),
        Err(error) => Err(error.into()),
    }
}

/// "3 hours" since an RFC 3339 time, or `None` when it does not parse.
fn age_since(rfc3339: &str) -> Option<String> {
    let then = chrono::DateTime::parse_from_rfc3339(rfc3339).ok()?;
    let seconds = (chrono::Utc::now() - then.with_timezone(&chrono::Utc)).num_seconds().max(0);
    Some(human_duration(seconds as u64))
}

pub fn human_duration(seconds: u64) -> String {
    let (value, unit) = match seconds {
        0..60 => (seconds, "second"),
        60..3_600 => (seconds / 60, "minute"),
        3_600..86_400 => (seconds / 3_600, "hour"),
        _ => (seconds / 86_400, "day"),
    };
    format!("{value} {unit}{}", if value == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_read_naturally() {
        assert_eq!(human_duration(1), "1 second");
        assert_eq!(human_duration(125), "2 minutes");
        assert_eq!(human_duration(3 * 3_600 + 5), "3 hours");
        assert_eq!(human_duration(86_400), "1 day");
    }
}
