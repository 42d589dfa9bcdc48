//! The bot's comments, as pure functions: the answer with cited modules linked at the indexed commit,
//! the index's commit and age, sources in `<details>`; or a short error that says what to do.
//!
//! The question, the repository's text (docstrings, code) and any model output are untrusted: they are
//! made inert (`super::inert`: parsed and written out again, with prose escaped, mentions and URLs in
//! code spans, links, images and HTML reduced to text) and anything that looks like a token is
//! redacted. Markdown structure, links and HTML in a comment are only the ones built here.
//! Bodies are clamped to 65,000 bytes (GitHub rejects more than 65,536 characters).

use std::fmt::Write;
use std::sync::LazyLock;

use regex::Regex;

use super::inert::{code_span, code_span_in_table, inert_markdown, inert_prose};
use strata_answer::{Answer, Mode};
use strata_core::secret::Secret;

/// GitHub's limit is 65,536 characters; stay under it in bytes, which is stricter.
pub const MAX_COMMENT_BYTES: usize = 65_000;
/// The hidden first line of every answer: lets a follow-up find the previous answer and its subject.
pub const ANSWER_MARKER: &str = "<!-- strata:answer";

/// Where links may point and what must never appear in a comment.
#[derive(Debug, Clone)]
pub struct CommentContext {
    /// `https://github.com` (or a GitHub Enterprise server).
    pub server_url: String,
    pub owner: String,
    pub repo: String,
    /// The commit the index was built from.
    pub commit: String,
    /// A pull request's head commit, when the answer is about its change: links point there.
    pub pull_head: Option<String>,
    /// How old the index is, in words (`3 hours`).
    pub index_age: Option<String>,
    /// Secret values to redact wherever they appear (the token, the API key).
    pub secrets: Vec<Secret>,
}

impl CommentContext {
    /// Links into the repository at the indexed commit: the only links a comment keeps.
    pub fn blob_prefix(&self) -> String {
        let commit = super::percent_encode(self.pull_head.as_deref().unwrap_or(&self.commit));
        format!("{}/{}/{}/blob/{commit}/", self.server_url.trim_end_matches('/'), self.owner, self.repo)
    }

    pub fn blob_url(&self, path: &str, lines: Option<[u32; 2]>) -> String {
        let anchor = lines.map_or(String::new(), |[start, end]| format!("#L{start}-L{end}"));
        format!(
            "{}{}{anchor}",
            self.blob_prefix(),
            path.split('/').map(super::percent_encode).collect::<Vec<_>>().join("/")
        )
    }
}

/// The answer comment. `subject` is the module a follow-up's "it" refers to.
pub fn answer_comment(answer: &Answer, question_comment_id: u64, ctx: &CommentContext) -> String {
    let subject = answer.citations.first().map_or(String::new(), |c| c.path.clone());
    let mut body = format!("{ANSWER_MARKER} question={question_comment_id} subject={} -->\n", marker_value(&subject));
    body.push_str(&sanitize(&answer.answer, ctx));
    body.push('\n');
    for note in &answer.notes {
        body.push('\n');
        for line in sanitize(note, ctx).lines() {
            let _ = writeln!(body, "> {line}");
        }
    }
    if !answer.citations.is_empty() {
        let links: Vec<String> = answer
            .citations
            .iter()
            .map(|c| format!("[{}]({})", code_span(&c.path), ctx.blob_url(&c.path, c.lines)))
            .collect();
        let _ = write!(body, "\n**Cited:** {}\n", links.join(", "));
    }
    if !answer.context.is_empty() {
        let _ = write!(body, "\n<details><summary>Sources: {} retrieved chunks</summary>\n\n", answer.context.len());
        body.push_str("| # | chunk | kind | score |\n|---:|---|---|---:|\n");
        for (rank, item) in answer.context.iter().enumerate() {
            let _ = writeln!(
                body,
                "| {} | [{}]({}) | {} | {:.3} |",
                rank + 1,
                code_span_in_table(&item.id),
                ctx.blob_url(&item.module, None),
                code_span_in_table(&item.kind),
                item.score
            );
        }
        body.push_str("\n</details>\n");
    }
    let mode = match answer.mode {
        Mode::Structural => "exact answer from the import graph",
        Mode::Retrieval => "retrieved from the index (no language model)",
        Mode::Generated => "generated from the retrieved code",
        Mode::Declined => "declined: not enough evidence in the index",
    };
    let _ = write!(body, "\n<sub>strata {}: {mode}. {}</sub>\n", env!("CARGO_PKG_VERSION"), index_line(ctx));
    clamp(redact(&body, ctx))
}

/// A short error reply: what went wrong and what to do.
pub fn error_comment(message: &str, ctx: Option<&CommentContext>) -> String {
    let cleaned = match ctx {
        Some(ctx) => sanitize(message, ctx),
        None => inert_markdown(&redact_patterns(message)),
    };
    let body = format!("**strata could not answer:** {cleaned}\n");
    clamp(match ctx {
        Some(ctx) => redact(&body, ctx),
        None => redact_patterns(&body),
    })
}

fn index_line(ctx: &CommentContext) -> String {
    let commit = commit_link(ctx, &ctx.commit);
    let index = match &ctx.index_age {
        Some(age) => format!("Index of commit {commit}, built {} ago.", inert_prose(age)),
        None => format!("Index of commit {commit}."),
    };
    match &ctx.pull_head {
        Some(head) => format!("{index} Pull request head {}.", commit_link(ctx, head)),
        None => index,
    }
}

/// A commit id from the manifest or the API: shown and linked only through escaping, so a malformed
/// one can neither panic (a slice inside a character) nor inject Markdown.
fn commit_link(ctx: &CommentContext, commit: &str) -> String {
    let short: String = commit.chars().take(12).collect();
    format!(
        "[{}]({}/{}/{}/commit/{})",
        code_span(&short),
        ctx.server_url.trim_end_matches('/'),
        ctx.owner,
        ctx.repo,
        super::percent_encode(commit)
    )
}

/// Untrusted Markdown with secrets redacted, then made inert (see [`super::inert`]). Redacting first
/// also catches a secret whose punctuation the escaping would split.
pub fn sanitize(text: &str, ctx: &CommentContext) -> String {
    inert_markdown(&redact(text, ctx))
}

/// A path inside the HTML comment marker: no whitespace and no `--`, which would end the comment.
fn marker_value(value: &str) -> String {
    value.replace("--", "%2D%2D").split_whitespace().collect::<Vec<_>>().join("%20")
}

/// Removes the configured secret values and anything shaped like a GitHub or OpenAI token.
pub fn redact(text: &str, ctx: &CommentContext) -> String {
    let mut out = redact_patterns(text);
    for secret in ctx.secrets.iter().map(Secret::expose).filter(|s| s.len() >= 8) {
        out = out.replace(secret, "[redacted]");
    }
    out
}

fn redact_patterns(text: &str) -> String {
    static TOKEN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|sk-[A-Za-z0-9_-]{20,})")
            .expect("valid regex")
    });
    TOKEN.replace_all(text, "[redacted]").into_owned()
}

/// Cuts a body to [`MAX_COMMENT_BYTES`] at a character boundary, saying so.
pub fn clamp(body: String) -> String {
    const NOTE: &str = "\n\n_(cut: the answer was longer than a GitHub comment allows)_\n";
    if body.len() <= MAX_COMMENT_BYTES {
        return body;
    }
    let mut end = MAX_COMMENT_BYTES - NOTE.len();
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{NOTE}", &body[..end])
}

/// The subject module of the newest strata answer among `bodies` (oldest first), for follow-ups.
pub fn previous_subject<'a>(bodies: impl DoubleEndedIterator<Item = &'a str>) -> Option<String> {
    bodies.rev().find_map(|body| {
        let first = body.lines().next()?;
        let rest = first.strip_prefix(ANSWER_MARKER)?;
        let subject = rest.split_whitespace().find_map(|part| part.strip_prefix("subject="))?;
        (!subject.is_empty() && subject != "-->").then(|| subject.to_string())
    })
}

static REFERENCE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(?:(?:that|this|the same) (?:module|file|one)|it)\b").expect("valid regex"));

/// Whether a question refers back to an earlier answer ("what imports it?").
pub fn refers_back(question: &str) -> bool {
    REFERENCE.is_match(question)
}

/// Replaces "it", "that module" and similar in a follow-up question with the previous answer's subject.
pub fn resolve_follow_up(question: &str, subject: &str) -> Option<String> {
    refers_back(question).then(|| REFERENCE.replace(question, subject).into_owned())
}

/// The context the comment tests render in: github.com/acme/shop at a fixed commit, one secret.
#[cfg(test)]
pub(crate) fn test_context() -> CommentContext {
    CommentContext {
        server_url: "https://github.com".into(),
        owner: "acme".into(),
        repo: "shop".into(),
        commit: "0123456789abcdef0123456789abcdef01234567".into(),
        pull_head: None,
        index_age: Some("2 hours".into()),
        secrets: vec![Secret::new("supersecretvalue")],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_answer::{Citation, ContextItem, IndexInfo};

    fn ctx() -> CommentContext {
        test_context()
    }

    #[test]
    fn tokens_and_secrets_are_redacted_everywhere() {
        let ctx = ctx();
        let text =
            "`ghp_abcdefghijklmnopqrstuvwxyz0123` and github_pat_11ABCDEFG0123456789_abcdefghij and supersecretvalue";
        let clean = sanitize(text, &ctx);
        assert!(!clean.contains("ghp_") && !clean.contains("github_pat_") && !clean.contains("supersecret"), "{clean}");
        assert_eq!(clean.matches("redacted").count(), 3, "{clean}");
    }

    #[test]
    fn long_bodies_are_clamped_at_a_character_boundary() {
        let body = "é".repeat(40_000);
        let clamped = clamp(body);
        assert!(clamped.len() <= MAX_COMMENT_BYTES && clamped.ends_with("allows)_\n"));
        assert_eq!(clamp("short".into()), "short");
    }

    #[test]
    fn answers_link_citations_at_the_indexed_commit() {
        let answer = Answer {
            question: "where is Cart defined?".into(),
            mode: Mode::Structural,
            answer: "`Cart` is defined in `shop/cart.py`.".into(),
            citations: vec![Citation {
                id: "shop/cart.py".into(),
                module: "shop.cart".into(),
                path: "shop/cart.py".into(),
                lines: Some([3, 9]),
                url: None,
            }],
            context: vec![ContextItem {
                id: "code:shop/cart.py:3-9".into(),
                module: "shop/cart.py".into(),
                score: 0.5,
                kind: "code".into(),
            }],
            index: IndexInfo { commit: None, schema_version: "1".into(), embedder: "e".into() },
            notes: vec!["ask @admin".into()],
            understood: None,
            evidence: None,
            diagnostics: Vec::new(),
        };
        let body = answer_comment(&answer, 42, &ctx());
        assert!(body.starts_with("<!-- strata:answer question=42 subject=shop/cart.py -->\n"), "{body}");
        assert!(body.contains("[`shop/cart.py`](https://github.com/acme/shop/blob/0123456789abcdef0123456789abcdef01234567/shop/cart.py#L3-L9)"), "{body}");
        assert!(body.contains("<details><summary>Sources: 1 retrieved chunks</summary>"));
        assert!(body.contains("built 2 hours ago") && body.contains("`@admin`"), "{body}");
        assert_eq!(previous_subject(["hello", body.as_str(), "thanks"].into_iter()), Some("shop/cart.py".into()));
    }

    #[test]
    fn a_malformed_commit_neither_panics_nor_injects() {
        let mut ctx = ctx();
        ctx.commit = "ééééééé](https://evil.example) @octocat".into();
        let body = error_comment("x", Some(&ctx));
        assert!(!body.is_empty());
        let answer = Answer {
            question: "q".into(),
            mode: Mode::Structural,
            answer: "a".into(),
            citations: Vec::new(),
            context: Vec::new(),
            index: IndexInfo { commit: None, schema_version: "1".into(), embedder: "e".into() },
            notes: Vec::new(),
            understood: None,
            evidence: None,
            diagnostics: Vec::new(),
        };
        let body = answer_comment(&answer, 1, &ctx);
        assert!(!body.contains("](https://evil") && !body.contains(" @octocat"), "{body}");
    }

    #[test]
    fn follow_ups_name_the_previous_subject() {
        assert_eq!(
            resolve_follow_up("what imports it?", "shop/cart.py").as_deref(),
            Some("what imports shop/cart.py?")
        );
        assert_eq!(
            resolve_follow_up("Is that module part of a cycle?", "shop/cart.py").as_deref(),
            Some("Is shop/cart.py part of a cycle?")
        );
        assert_eq!(resolve_follow_up("what imports shop/api.py?", "shop/cart.py"), None);
    }
}
