//! `strata bot`: answer the `/ask` comment of the current `issue_comment` event. Prints one log line of
//! what it did (escaped and prefixed, so untrusted text can never start a workflow command). Exit 0 when
//! the comment was ignored, refused or answered, or the asker was told what to do (empty question, no
//! index yet, expired index); exit 1 when the bot failed (the thread then has a 😕 and, when possible,
//! an explanation).

use anyhow::{Context, Result};

use super::output::escape_data;
use crate::cli::{BotArgs, GitHubArgs};
use strata_core::config::LlmServer;
use strata_core::secret::Secret;
use strata_github::bot::{BotOutcome, BotSettings, run_bot};
use strata_github::client::{ClientSettings, GitHub};
use strata_github::event::CommentEvent;
use strata_github::limits::ModelLimits;
use strata_github::unzip::ArchiveLimits;

pub fn run_bot_command(args: &BotArgs) -> Result<()> {
    let event_json = std::fs::read_to_string(&args.event)
        .with_context(|| format!("cannot read the event file {}", args.event.display()))?;
    let event = CommentEvent::parse(&event_json)?;
    let token = Secret::new(std::env::var("GITHUB_TOKEN").unwrap_or_default());
    let server = LlmServer::from_values(
        args.llm.openai_base_url.as_deref(),
        args.llm.openai_api_key.as_ref().map(Secret::expose),
    );
    let work_dir = tempfile::tempdir().context("cannot create a working directory")?;
    let settings = BotSettings {
        trusted_associations: args.trusted_associations.iter().map(|a| a.trim().to_string()).collect(),
        check_permission: args.check_permission,
        workflow: args.github.index_workflow.clone(),
        artifact_name: args.github.artifact_name.clone(),
        limits: limits(&args.github),
        server_url: args.server_url.clone(),
        secrets: [token.clone(), args.llm.openai_api_key.clone().unwrap_or_default()]
            .into_iter()
            .filter(|secret| !secret.is_empty())
            .collect(),
        llm: server,
        chat_model: args.chat_model.clone(),
        chat_timeout: std::time::Duration::from_secs(args.chat_timeout),
        model_limits: ModelLimits {
            per_thread: args.max_model_answers_per_thread,
            per_user: args.max_model_answers_per_user,
        },
        bot_login: args.bot_login.clone(),
        work_dir: work_dir.path().to_path_buf(),
        org: match &args.org {
            None => None,
            Some(strata_search::location::IndexLocation::Object(object)) => Some(object.clone()),
            Some(local) => {
                anyhow::bail!("--org needs an object-store URL (s3://bucket/prefix), not the folder {local}")
            }
        },
    };
    let outcome = super::runtime()?.block_on(async {
        let github = GitHub::new(&client_settings(&args.github, token))?;
        run_bot(&github, &event, &settings).await
    })?;
    match outcome {
        BotOutcome::Ignored(reason) => eprintln!("strata bot: ignored: {}", escape_data(&reason)),
        BotOutcome::Refused(reason) => eprintln!("strata bot: refused: {}", escape_data(&reason)),
        BotOutcome::Answered { mode, comment_id, diagnostics } => {
            for diagnostic in diagnostics {
                eprintln!("strata bot: {}", escape_data(&diagnostic));
            }
            eprintln!("strata bot: answered ({mode:?}) in comment {comment_id}")
        }
        BotOutcome::CannotAnswer(reason) => eprintln!("strata bot: told the asker: {}", escape_data(&reason)),
        BotOutcome::Failed { reason, told_user } => {
            let told = if told_user { "the thread has an explanation" } else { "the thread has a 😕 reaction" };
            anyhow::bail!("strata bot failed ({told}): {}", escape_data(&reason));
        }
    }
    Ok(())
}

pub(super) fn limits(args: &GitHubArgs) -> ArchiveLimits {
    ArchiveLimits {
        max_bytes: args.max_artifact_bytes,
        max_entries: args.max_artifact_entries,
        max_ratio: args.max_artifact_ratio,
    }
}

pub(super) fn client_settings(args: &GitHubArgs, token: Secret) -> ClientSettings {
    ClientSettings {
        api_url: args.api_url.clone(),
        token,
        max_rate_limit_wait: std::time::Duration::from_secs(args.max_rate_limit_wait),
        secondary_rate_limit_wait: std::time::Duration::from_secs(args.secondary_rate_limit_wait),
    }
}
