//! The `issue_comment` webhook event the bot reads from `GITHUB_EVENT_PATH`, and the pure decision of
//! what to do with it: ignore it (not an `/ask`, written by a bot, not a new comment), refuse it (an
//! author outside the trusted associations), or answer it. The workflow's `if:` makes the same checks,
//! but only as an optimisation: this is the security boundary.

use serde::Deserialize;

/// The parts of an `issue_comment` event the bot uses (GitHub sends many more).
#[derive(Debug, Clone, Deserialize)]
pub struct CommentEvent {
    pub action: String,
    pub issue: Issue,
    pub comment: Comment,
    pub repository: Repository,
    pub sender: Option<User>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Issue {
    pub number: u64,
    /// Present only when the issue is a pull request.
    #[serde(default)]
    pub pull_request: Option<serde_json::Value>,
    /// Comments on the thread, this one included.
    #[serde(default)]
    pub comments: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Comment {
    pub id: u64,
    #[serde(default)]
    pub body: Option<String>,
    pub user: User,
    pub author_association: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct User {
    pub login: String,
    #[serde(rename = "type")]
    pub kind: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Repository {
    pub id: u64,
    pub name: String,
    pub owner: Owner,
    #[serde(default)]
    pub default_branch: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Owner {
    pub login: String,
}

impl CommentEvent {
    pub fn parse(json: &str) -> anyhow::Result<CommentEvent> {
        serde_json::from_str(json).map_err(|error| anyhow::anyhow!("not an issue_comment event: {error}"))
    }
}

/// What the bot does with an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Triage {
    /// Nothing to do, and no API call: a plain comment, an edit, a bot's comment.
    Ignore(String),
    /// An `/ask` by someone outside the trusted associations; `confirm` when the permission API may
    /// still vouch for them.
    Untrusted { login: String, association: String, confirm: bool, question: String },
    /// An `/ask` to answer (the question may be empty: that gets a usage reply).
    Ask { question: String },
}

/// The command word, followed by whitespace or the end of the comment.
const COMMAND: &str = "/ask";

/// Decides what to do with an event, without any I/O.
pub fn triage(event: &CommentEvent, trusted_associations: &[String], check_permission: bool) -> Triage {
    if event.action != "created" {
        return Triage::Ignore(format!("the comment was {}, not created", event.action));
    }
    let sender_is_bot = event.sender.as_ref().is_some_and(|sender| sender.kind == "Bot");
    if event.comment.user.kind == "Bot" || sender_is_bot {
        return Triage::Ignore(format!("the comment is by a bot ({})", event.comment.user.login));
    }
    let Some(question) = ask_question(event.comment.body.as_deref().unwrap_or("")) else {
        return Triage::Ignore("the comment is not an /ask".to_string());
    };
    let association = event.comment.author_association.to_uppercase();
    if !trusted_associations.iter().any(|trusted| trusted.eq_ignore_ascii_case(&association)) {
        return Triage::Untrusted {
            login: event.comment.user.login.clone(),
            association,
            confirm: check_permission,
            question,
        };
    }
    Triage::Ask { question }
}

/// The question of an `/ask` comment (case kept: identifiers matter), or `None` for any other comment.
/// The command is the comment's first word in any case, as the workflow's `if:` sees it
/// (`startsWith` in a GitHub expression ignores case): `/ask`, `/ASK`, `/Ask`.
pub fn ask_question(body: &str) -> Option<String> {
    let head = body.get(..COMMAND.len())?;
    if !head.eq_ignore_ascii_case(COMMAND) {
        return None;
    }
    let rest = &body[COMMAND.len()..];
    if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
        return None; // `/asking`, `/ask-me`
    }
    Some(rest.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(body: &str, kind: &str, association: &str) -> CommentEvent {
        let fixture = include_str!("../../../tests/fixtures/github/issue_comment_created_webhook_event.json");
        let mut event = CommentEvent::parse(fixture).unwrap();
        event.comment.body = Some(body.to_string());
        event.comment.user.kind = kind.to_string();
        event.sender.as_mut().unwrap().kind = kind.to_string();
        event.comment.author_association = association.to_string();
        event
    }

    fn trusted() -> Vec<String> {
        ["OWNER", "MEMBER", "COLLABORATOR"].map(String::from).to_vec()
    }

    #[test]
    fn only_ask_comments_by_people_are_answered() {
        let ask = |body: &str| triage(&event(body, "User", "OWNER"), &trusted(), false);
        assert_eq!(
            ask("/ask What imports JWTValidator?"),
            Triage::Ask { question: "What imports JWTValidator?".into() }
        );
        assert_eq!(ask("/ask\n  where is Cart defined?\n"), Triage::Ask { question: "where is Cart defined?".into() });
        // The workflow's `startsWith(body, '/ask')` ignores case and sees no leading space: the same here.
        assert_eq!(ask("/ASK where is Cart?"), Triage::Ask { question: "where is Cart?".into() });
        assert_eq!(ask("/Ask where is Cart?"), Triage::Ask { question: "where is Cart?".into() });
        assert!(matches!(ask("  /ask where is Cart?"), Triage::Ignore(_)));
        assert!(matches!(ask("/as"), Triage::Ignore(_)));
        assert!(matches!(ask("/asé"), Triage::Ignore(_)));
        assert_eq!(ask("/ask"), Triage::Ask { question: String::new() });
        assert!(matches!(ask("/asking for a friend"), Triage::Ignore(_)));
        assert!(matches!(ask("LGTM, but /ask later"), Triage::Ignore(_)));
        let bot = triage(&event("/ask anything", "Bot", "OWNER"), &trusted(), false);
        assert!(matches!(bot, Triage::Ignore(reason) if reason.contains("bot")));
    }

    #[test]
    fn authors_outside_the_trusted_associations_are_refused() {
        let untrusted = triage(&event("/ask x", "User", "CONTRIBUTOR"), &trusted(), true);
        assert_eq!(
            untrusted,
            Triage::Untrusted {
                login: "gagbo-test-app[bot]".into(),
                association: "CONTRIBUTOR".into(),
                confirm: true,
                question: "x".into()
            }
        );
        let member = triage(&event("/ask x", "User", "member"), &trusted(), false);
        assert_eq!(member, Triage::Ask { question: "x".into() });
    }
}
