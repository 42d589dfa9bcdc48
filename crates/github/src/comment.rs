//! The bot's comments, as pure functions: the answer with cited modules linked at the indexed commit,
//! the index's commit and age, sources in `<details>`; or a short error that says what to do.
//!
//! The question, the repository's text (docstrings, code) and any model output are untrusted: they are
//! made inert (`super::inert`: parsed and written out again, with prose escaped, mentions and URLs in
//! code spans, links, images and HTML reduced to text) and anything that looks like a token is
//! redacted. Markdown structure, links and HTML in a comment are only the ones built here.
//!
//! Bodies stay under 65,000 bytes (GitHub rejects more than 65,536 characters) by construction: an
//! untrusted text too long for the room left is cut before it is made inert (at a word boundary, after
//! redaction), so the posted Markdown is always whole, and a note says so. Nothing is cut afterwards.
//!
//! The hidden first line of an answer records what later runs need from it: the question it answers
//! (so a re-run does not answer twice), its subject (for follow-ups), who asked, and whether a
//! language model was used (for the limits on model-backed answers).

use std::fmt::Write;
use std::sync::LazyLock;

use regex::Regex;

use super::inert::{code_span, code_span_in_table, inert_markdown, inert_prose, neutralise_bidi};
use strata_answer::{Answer, Mode};
use strata_core::secret::Secret;

/// GitHub's limit is 65,536 characters; stay under it in bytes, which is stricter.
pub const MAX_COMMENT_BYTES: usize = 65_000;
/// The hidden first line of every answer: lets a follow-up find the previous answer and its subject.
pub const ANSWER_MARKER: &str = "<!-- strata:answer";
/// The version of strata that writes the comments (the workspace's one version).
pub const STRATA_VERSION: &str = env!("CARGO_PKG_VERSION");
/// Said in the comment when something was left out to fit.
const CUT_NOTE: &str = "_(cut: the answer was longer than a GitHub comment allows)_";
/// Room kept for the last redaction pass, which may lengthen what strata built around the text.
const SLACK_BYTES: usize = 1_024;
/// Untrusted text longer than this many times the room is cut before it is even parsed.
const INPUT_PER_OUTPUT: usize = 4;

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
    /// An answer across an organisation's repositories: each repository's commit, by name. Module ids
    /// start with the repository's name, and link into that repository (same owner) at its commit.
    pub organisation: Option<std::collections::BTreeMap<String, String>>,
}

impl CommentContext {
    /// Links into the repository at the indexed commit: the only links a comment keeps.
    pub fn blob_prefix(&self) -> String {
        let commit = super::percent_encode(self.pull_head.as_deref().unwrap_or(&self.commit));
        format!("{}/{}/{}/blob/{commit}/", self.server_url.trim_end_matches('/'), self.owner, self.repo)
    }

    pub fn blob_url(&self, path: &str, lines: Option<[u32; 2]>) -> String {
        let anchor = lines.map_or(String::new(), |[start, end]| format!("#L{start}-L{end}"));
        if let Some((repo, rest, commit)) = self.organisation.as_ref().and_then(|commits| {
            let (repo, rest) = path.split_once('/')?;
            Some((repo, rest, commits.get(repo)?))
        }) {
            return format!(
                "{}/{}/{}/blob/{}/{}{anchor}",
                self.server_url.trim_end_matches('/'),
                self.owner,
                super::percent_encode(repo),
                super::percent_encode(commit),
                rest.split('/').map(super::percent_encode).collect::<Vec<_>>().join("/")
            );
        }
        format!(
            "{}{}{anchor}",
            self.blob_prefix(),
            path.split('/').map(super::percent_encode).collect::<Vec<_>>().join("/")
        )
    }
}

/// The question an answer is for: its comment and who wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    pub comment_id: u64,
    /// The asker's login.
    pub asker: String,
}

/// What the hidden first line of one of strata's answers says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerMarker {
    pub question: u64,
    /// The module a follow-up's "it" refers to; empty when the answer cited none.
    pub subject: String,
    /// The asker's login, lowercase (empty for answers written before strata recorded it).
    pub asker: String,
    /// Whether a language model was asked while answering.
    pub model: bool,
}

impl AnswerMarker {
    /// The marker of `body`, when its first line is one.
    pub fn of(body: &str) -> Option<AnswerMarker> {
        let first = body.lines().next()?;
        let rest = first.strip_prefix(ANSWER_MARKER)?.strip_suffix("-->")?;
        let mut marker = AnswerMarker { question: 0, subject: String::new(), asker: String::new(), model: false };
        let mut question = None;
        for field in rest.split_whitespace() {
            match field.split_once('=') {
                Some(("question", id)) => question = id.parse().ok(),
                Some(("subject", subject)) => marker.subject = subject.to_string(),
                Some(("asker", asker)) => marker.asker = asker.to_string(),
                Some(("model", "1")) => marker.model = true,
                _ => {}
            }
        }
        marker.question = question?;
        Some(marker)
    }
}

/// A login as the marker records it: lowercase (logins ignore case), nothing but `[a-z0-9-]`.
pub fn marker_login(login: &str) -> String {
    login.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').map(|c| c.to_ascii_lowercase()).collect()
}

/// The answer comment. Its subject is the module a follow-up's "it" refers to.
pub fn answer_comment(answer: &Answer, asked: &Asked, ctx: &CommentContext) -> String {
    answer_comment_within(answer, asked, ctx, MAX_COMMENT_BYTES)
}

/// [`answer_comment`] in at most `max_bytes`: the marker and the footer always, then as much of the
/// rest as fits in whole pieces: the cited files (a quarter of the room at most), the sources (a third
/// of what is left), the answer, and the notes, each cut before it is made inert when it does not fit.
pub(crate) fn answer_comment_within(answer: &Answer, asked: &Asked, ctx: &CommentContext, max_bytes: usize) -> String {
    let subject = answer.citations.first().map_or(String::new(), |c| c.path.clone());
    let model = if answer.model_calls > 0 { " model=1" } else { "" };
    let marker = format!(
        "{ANSWER_MARKER} question={} subject={} asker={}{model} -->\n",
        asked.comment_id,
        marker_value(&subject),
        marker_login(&asked.asker)
    );
    let mode = match answer.mode {
        Mode::Structural => "exact answer from the import graph",
        Mode::Retrieval => "retrieved from the index (no language model)",
        Mode::Generated => "generated from the retrieved code",
        Mode::Declined => "declined: not enough evidence in the index",
    };
    let footer = format!("\n<sub>strata {STRATA_VERSION}: {mode}. {}</sub>\n", index_line(ctx));
    let mut room = max_bytes.saturating_sub(marker.len() + footer.len() + CUT_NOTE.len() + 2 + SLACK_BYTES);
    let mut cut = false;

    let cited = cited_line(answer, ctx, room / 4, &mut cut);
    room = room.saturating_sub(cited.len());
    let sources = sources_details(answer, ctx, room / 3, &mut cut);
    room = room.saturating_sub(sources.len());
    let text = match fit(&redact(&answer.answer, ctx), room, |t| format!("{}\n", sanitize(t, ctx))) {
        Some((text, was_cut)) => {
            cut |= was_cut;
            text
        }
        None => {
            cut = true;
            String::new()
        }
    };
    room = room.saturating_sub(text.len());
    let mut notes = String::new();
    for note in &answer.notes {
        match fit(&redact(note, ctx), room, |t| quoted_note(&sanitize(t, ctx))) {
            Some((note, was_cut)) => {
                cut |= was_cut;
                room = room.saturating_sub(note.len());
                notes.push_str(&note);
            }
            None => cut = true,
        }
    }

    let mut body = marker;
    body.push_str(&text);
    body.push_str(&notes);
    if cut {
        let _ = writeln!(body, "\n{CUT_NOTE}");
    }
    body.push_str(&cited);
    body.push_str(&sources);
    body.push_str(&footer);
    neutralise_bidi(&redact(&body, ctx))
}

/// A note as a quote block, after a blank line.
fn quoted_note(inert: &str) -> String {
    let mut out = String::from("\n");
    for line in inert.lines() {
        let _ = writeln!(out, "> {line}");
    }
    out
}

/// `**Cited:**` and a link per cited file, as many as fit in `max_bytes`.
fn cited_line(answer: &Answer, ctx: &CommentContext, max_bytes: usize, cut: &mut bool) -> String {
    if answer.citations.is_empty() {
        return String::new();
    }
    let mut line = String::from("\n**Cited:** ");
    for (n, citation) in answer.citations.iter().enumerate() {
        let link = format!("[{}]({})", code_span(&citation.path), ctx.blob_url(&citation.path, citation.lines));
        let separator = if n == 0 { "" } else { ", " };
        if line.len() + separator.len() + link.len() + 1 > max_bytes {
            *cut = true;
            break;
        }
        line.push_str(separator);
        line.push_str(&link);
    }
    if line.ends_with(' ') {
        return String::new();
    }
    line.push('\n');
    line
}

/// The retrieved chunks as a table in `<details>`, as many rows as fit in `max_bytes`.
fn sources_details(answer: &Answer, ctx: &CommentContext, max_bytes: usize, cut: &mut bool) -> String {
    if answer.context.is_empty() {
        return String::new();
    }
    let head = format!(
        "\n<details><summary>Sources: {} retrieved chunks</summary>\n\n| # | chunk | kind | score |\n|---:|---|---|---:|\n",
        answer.context.len()
    );
    const TAIL: &str = "\n</details>\n";
    let mut rows = String::new();
    for (rank, item) in answer.context.iter().enumerate() {
        let row = format!(
            "| {} | [{}]({}) | {} | {:.3} |\n",
            rank + 1,
            code_span_in_table(&item.id),
            ctx.blob_url(&item.module, None),
            code_span_in_table(&item.kind),
            item.score
        );
        if head.len() + rows.len() + row.len() + TAIL.len() > max_bytes {
            *cut = true;
            break;
        }
        rows.push_str(&row);
    }
    if rows.is_empty() {
        return String::new();
    }
    format!("{head}{rows}{TAIL}")
}

/// A short error reply: what went wrong and what to do.
pub fn error_comment(message: &str, ctx: Option<&CommentContext>) -> String {
    const LEAD: &str = "**strata could not answer:** ";
    let room = MAX_COMMENT_BYTES - LEAD.len() - CUT_NOTE.len() - 2 - SLACK_BYTES;
    let (cleaned, cut) = match ctx {
        Some(ctx) => fit(&redact(message, ctx), room, |t| sanitize(t, ctx)),
        None => fit(&redact_patterns(message), room, |t| inert_markdown(t, &redact_patterns)),
    }
    .unwrap_or_default();
    let note = if cut { format!(" {CUT_NOTE}") } else { String::new() };
    let body = format!("{LEAD}{cleaned}{note}\n");
    neutralise_bidi(&match ctx {
        Some(ctx) => redact(&body, ctx),
        None => redact_patterns(&body),
    })
}

/// The longest start of `text` whose rendering fits in `max_bytes`, rendered, and whether it was cut;
/// `None` when not even the empty start fits. `text` is cut before it is rendered, never the rendering,
/// so the result is always whole Markdown; the cut falls on a word boundary when one is near (the text
/// was redacted whole, so a token is either all there or not at all).
fn fit(text: &str, max_bytes: usize, render: impl Fn(&str) -> String) -> Option<(String, bool)> {
    let limit = max_bytes.saturating_mul(INPUT_PER_OUTPUT);
    let cut_before = text.len() > limit;
    let text = if cut_before { &text[..word_boundary(text, limit)] } else { text };
    let whole = render(text);
    if whole.len() <= max_bytes {
        return Some((whole, cut_before));
    }
    if render("").len() > max_bytes {
        return None;
    }
    // Invariant: the start of length `fits` renders within the room, the one of length `too_long` not.
    let (mut fits, mut too_long) = (0, text.len());
    while too_long - fits > 1 {
        let mut middle = fits + (too_long - fits) / 2;
        while !text.is_char_boundary(middle) {
            middle -= 1;
        }
        if middle <= fits {
            break;
        }
        if render(&text[..middle]).len() <= max_bytes {
            fits = middle;
        } else {
            too_long = middle;
        }
    }
    let end = word_boundary(text, fits);
    let rendered = render(&text[..end]);
    if rendered.len() <= max_bytes {
        return Some((rendered, true));
    }
    Some((render(&text[..fits]), true))
}

/// `end` moved back to the last whitespace before it when that is within a kilobyte, on a character
/// boundary either way.
fn word_boundary(text: &str, end: usize) -> usize {
    let mut end = end.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind(char::is_whitespace) {
        Some(space) if end - space <= 1_024 => space,
        _ => end,
    }
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

/// Untrusted Markdown with secrets redacted, then made inert (see [`super::inert`]), where every piece
/// of text is redacted again once the parser has decoded its entities. Redacting first also catches a
/// secret whose punctuation the escaping would split.
pub fn sanitize(text: &str, ctx: &CommentContext) -> String {
    inert_markdown(&redact(text, ctx), &|piece| redact(piece, ctx))
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

/// The subject module of the newest strata answer among `bodies` (oldest first), for follow-ups.
pub fn previous_subject<'a>(bodies: impl DoubleEndedIterator<Item = &'a str>) -> Option<String> {
    bodies.rev().filter_map(AnswerMarker::of).map(|marker| marker.subject).find(|subject| !subject.is_empty())
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
        organisation: None,
    }
}

#[cfg(test)]
mod tests;
