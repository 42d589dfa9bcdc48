//! The bot's comments, as pure functions: the answer with cited modules linked at the indexed commit,
//! the index's commit and age, sources in `<details>`; or a short error that says what to do.
//!
//! The question, the repository's text (docstrings, code) and any model output are untrusted, so every
//! body is cleaned before it is posted: `@mentions` and issue references are put in code spans so they
//! notify no one, raw HTML is escaped, images and links that do not point into this repository at the
//! indexed commit are reduced to their text, and anything that looks like a token is redacted.
//! Bodies are clamped to 65,000 bytes (GitHub rejects more than 65,536 characters).

use std::fmt::Write;
use std::sync::LazyLock;

use regex::{Captures, Regex};

use crate::answer::{Answer, Mode};

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
    /// How old the index is, in words (`3 hours`).
    pub index_age: Option<String>,
    /// Secret values to redact wherever they appear (the token, the API key).
    pub secrets: Vec<String>,
}

impl CommentContext {
    /// Links into the repository at the indexed commit: the only links a comment keeps.
    pub fn blob_prefix(&self) -> String {
        format!("{}/{}/{}/blob/{}/", self.server_url.trim_end_matches('/'), self.owner, self.repo, self.commit)
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
        let _ = write!(body, "\n> {}\n", sanitize(note, ctx).replace('\n', " "));
    }
    if !answer.citations.is_empty() {
        let links: Vec<String> = answer
            .citations
            .iter()
            .map(|c| format!("[`{}`]({})", code_span_text(&c.path), ctx.blob_url(&c.path, c.lines)))
            .collect();
        let _ = write!(body, "\n**Cited:** {}\n", links.join(", "));
    }
    if !answer.context.is_empty() {
        let _ = write!(body, "\n<details><summary>Sources: {} retrieved chunks</summary>\n\n", answer.context.len());
        body.push_str("| # | chunk | kind | score |\n|---:|---|---|---:|\n");
        for (rank, item) in answer.context.iter().enumerate() {
            let _ = writeln!(
                body,
                "| {} | [`{}`]({}) | {} | {:.3} |",
                rank + 1,
                code_span_text(&item.id).replace('|', "\\|"),
                ctx.blob_url(&item.module, None),
                item.kind,
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
        None => escape_prose(message),
    };
    let body = format!("**strata could not answer:** {cleaned}\n");
    clamp(match ctx {
        Some(ctx) => redact(&body, ctx),
        None => redact_patterns(&body),
    })
}

fn index_line(ctx: &CommentContext) -> String {
    let commit = format!(
        "[`{}`]({}/{}/{}/commit/{})",
        &ctx.commit[..ctx.commit.len().min(12)],
        ctx.server_url.trim_end_matches('/'),
        ctx.owner,
        ctx.repo,
        ctx.commit
    );
    match &ctx.index_age {
        Some(age) => format!("Index of commit {commit}, built {age} ago."),
        None => format!("Index of commit {commit}."),
    }
}

/// Cleans untrusted Markdown: code (fenced blocks and inline spans) is kept as is, prose is defused.
pub fn sanitize(text: &str, ctx: &CommentContext) -> String {
    let allowed = ctx.blob_prefix();
    let mut out = String::with_capacity(text.len());
    let mut in_fence: Option<String> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(fence) = &in_fence {
            out.push_str(line);
            if trimmed.trim_end() == fence {
                in_fence = None;
            }
            continue;
        }
        let fence: String = trimmed.chars().take_while(|&c| c == '`' || c == '~').collect();
        if fence.len() >= 3 && fence.chars().all(|c| c == fence.chars().next().unwrap_or('`')) {
            in_fence = Some(fence);
            out.push_str(line);
            continue;
        }
        out.push_str(&sanitize_line(line, &allowed));
    }
    if let Some(fence) = in_fence {
        // An unclosed fence would swallow the rest of the comment: close it.
        let _ = write!(out, "\n{fence}\n");
    }
    redact(&out, ctx)
}

/// One line of prose: inline code spans are kept, the rest is defused.
fn sanitize_line(line: &str, allowed_prefix: &str) -> String {
    static INLINE_CODE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(`+)[^`]*?`+").expect("valid regex"));
    let mut out = String::new();
    let mut last = 0;
    for span in INLINE_CODE.find_iter(line) {
        out.push_str(&defuse_prose(&line[last..span.start()], allowed_prefix));
        out.push_str(span.as_str());
        last = span.end();
    }
    out.push_str(&defuse_prose(&line[last..], allowed_prefix));
    out
}

fn defuse_prose(prose: &str, allowed_prefix: &str) -> String {
    static MARKUP: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?P<image>!\[(?P<alt>[^\]]*)\]\([^)]*\))",
            r"|(?P<link>\[(?P<label>[^\]]*)\]\((?P<url>[^)\s]*)[^)]*\))",
            r"|(?P<bare>\b(?:https?://|www\.)[^\s<>()\[\]`]+)",
            r"|(?P<mention>@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:/[A-Za-z0-9_.-]+)?)",
            r"|(?P<reference>(?:\b[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)?#[0-9]+\b|\bGH-[0-9]+\b)",
        ))
        .expect("valid regex")
    });
    let replaced = MARKUP.replace_all(prose, |caps: &Captures<'_>| {
        if caps.name("image").is_some() {
            return escape_prose(&caps["alt"]);
        }
        if caps.name("link").is_some() {
            let label = escape_prose(&caps["label"]);
            return if caps["url"].starts_with(allowed_prefix) {
                format!("[{label}]({})", &caps["url"])
            } else {
                label
            };
        }
        if let Some(bare) = caps.name("bare") {
            return if bare.as_str().starts_with(allowed_prefix) {
                bare.as_str().to_string()
            } else {
                format!("`{}`", bare.as_str())
            };
        }
        // Mentions and references in code spans notify no one and link nowhere.
        format!("`{}`", &caps[0])
    });
    escape_html_outside_spans(&replaced)
}

/// Escapes `<` (raw HTML) except inside the code spans this module just made.
fn escape_html_outside_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_span = false;
    for c in text.chars() {
        match c {
            '`' => {
                in_span = !in_span;
                out.push(c);
            }
            '<' if !in_span => out.push_str("&lt;"),
            _ => out.push(c),
        }
    }
    out
}

fn escape_prose(text: &str) -> String {
    text.replace('<', "&lt;").replace('@', "@\u{200b}")
}

/// Backticks cannot appear inside a single-backtick code span.
fn code_span_text(text: &str) -> String {
    text.replace('`', "'")
}

/// A path inside the HTML comment marker: no whitespace and no `--`, which would end the comment.
fn marker_value(value: &str) -> String {
    value.replace("--", "%2D%2D").split_whitespace().collect::<Vec<_>>().join("%20")
}

/// Removes the configured secret values and anything shaped like a GitHub or OpenAI token.
pub fn redact(text: &str, ctx: &CommentContext) -> String {
    let mut out = redact_patterns(text);
    for secret in ctx.secrets.iter().filter(|s| s.len() >= 8) {
        out = out.replace(secret.as_str(), "[redacted]");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::{Citation, ContextItem, IndexInfo};

    fn ctx() -> CommentContext {
        CommentContext {
            server_url: "https://github.com".into(),
            owner: "acme".into(),
            repo: "shop".into(),
            commit: "0123456789abcdef0123456789abcdef01234567".into(),
            index_age: Some("2 hours".into()),
            secrets: vec!["supersecretvalue".into()],
        }
    }

    #[test]
    fn prose_is_defused_and_code_is_kept() {
        let ctx = ctx();
        let text = "Ping @octocat and @acme/team about #12, see <img src=x onerror=alert(1)> \
                    ![logo](https://evil.example/x.png) [docs](https://evil.example) https://evil.example/y \
                    [ok](https://github.com/acme/shop/blob/0123456789abcdef0123456789abcdef01234567/a.py) `@keep <b>`";
        let clean = sanitize(text, &ctx);
        assert!(clean.contains("`@octocat`") && clean.contains("`@acme/team`") && clean.contains("`#12`"), "{clean}");
        assert!(clean.contains("&lt;img") && !clean.contains("<img"), "{clean}");
        assert!(!clean.contains("](https://evil") && !clean.contains("!["), "{clean}");
        assert!(clean.contains("`https://evil.example/y`"), "bare foreign URLs do not autolink: {clean}");
        assert!(clean.contains("[ok](https://github.com/acme/shop/blob/"), "{clean}");
        assert!(clean.contains("`@keep <b>`"), "inline code is kept verbatim: {clean}");
        let fenced = sanitize("```\n@user <div>\n```\nafter @user", &ctx);
        assert_eq!(fenced, "```\n@user <div>\n```\nafter `@user`");
    }

    #[test]
    fn tokens_and_secrets_are_redacted_everywhere() {
        let ctx = ctx();
        let text =
            "`ghp_abcdefghijklmnopqrstuvwxyz0123` and github_pat_11ABCDEFG0123456789_abcdefghij and supersecretvalue";
        let clean = sanitize(text, &ctx);
        assert!(!clean.contains("ghp_") && !clean.contains("github_pat_") && !clean.contains("supersecret"), "{clean}");
        assert_eq!(clean.matches("[redacted]").count(), 3);
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
