//! Untrusted Markdown made inert. Text from the repository (docstrings, code), from the question and from
//! a language model is parsed with a CommonMark/GFM parser (comrak, the same grammar GitHub renders with)
//! and written out again by strata: paragraphs, lists, quotes, headings, emphasis, tables, code spans
//! and code blocks keep their shape, and everything else becomes text. Prose has every Markdown-
//! significant ASCII punctuation character backslash-escaped; a word that GitHub would turn into a
//! mention, an issue reference, an e-mail or a URL goes into a code span (inside a table cell with its
//! `|` escaped, since GitHub splits cells before it reads code spans); code goes into a span or fence
//! longer than any backtick run in it. Links, images and raw HTML keep only their text: the only links
//! in a comment are the ones strata builds itself. So nothing in the output is Markdown structure that
//! strata did not write.
//!
//! Every literal is cleaned after the parser has decoded its entities and escapes, so the caller's
//! redaction sees the text GitHub would show (`ghs&#95;…` is a token); a paragraph, heading or cell
//! whose shown text still holds something to redact across its pieces (a token split by emphasis) is
//! written as plain redacted text. Bidirectional-control characters (which reorder what a reader sees)
//! become U+FFFD. Containers nested deeper than [`MAX_DEPTH`] are written as their plain text, so no
//! input can exhaust the stack (the writer recurses once per level). Fence languages that GitHub draws
//! as rich content (Mermaid, math, maps, 3D models, suggestions) are dropped: the code shows as code.

use comrak::nodes::{ListType, Node, NodeValue};
use comrak::{Arena, Options, parse_document};

/// Quotes, lists, emphasis and links nested deeper than this are written as plain text.
pub const MAX_DEPTH: usize = 16;

/// Fence languages GitHub renders as something other than code (compared without case).
pub const RICH_FENCE_LANGUAGES: &[&str] = &["mermaid", "math", "geojson", "topojson", "stl", "suggestion"];

/// `text` as Markdown with the same visible content and no link, image, HTML or mention of its own.
/// `redact` cleans every piece of decoded text before it is written (secrets, tokens).
pub fn inert_markdown(text: &str, redact: &dyn Fn(&str) -> String) -> String {
    let arena = Arena::new();
    let root = parse_document(&arena, text, &gfm_options());
    let lines = Writer { redact }.blocks(root, 0);
    let mut out = lines.join("\n");
    out.truncate(out.trim_end().len());
    out
}

/// One line of inert prose: `text` shown literally, wherever it is placed in a paragraph.
pub fn inert_prose(text: &str) -> String {
    prose(text, false)
}

/// `text` as an inline code span: a backtick run longer than any inside it, padded where needed.
pub fn code_span(text: &str) -> String {
    let mut out = String::new();
    push_code_span(&mut out, text, false);
    out
}

/// A code span inside a GFM table cell, where `|` must be escaped even in code.
pub fn code_span_in_table(text: &str) -> String {
    let mut out = String::new();
    push_code_span(&mut out, text, true);
    out
}

/// The GitHub Flavored Markdown extensions GitHub renders comments with.
pub fn gfm_options() -> Options<'static> {
    let mut options = Options::default();
    options.extension.strikethrough = true;
    options.extension.table = true;
    options.extension.autolink = true;
    options
}

/// Whether `c` changes the direction text is shown in (the "Trojan Source" characters): embeddings,
/// overrides, isolates and the implicit marks.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// `text` with every bidirectional control replaced by U+FFFD, which shows that something was there.
pub fn neutralise_bidi(text: &str) -> String {
    text.chars().map(|c| if is_bidi_control(c) { '\u{FFFD}' } else { c }).collect()
}

/// A word GitHub would turn into something live: `@user` (and e-mails), `#12`, `owner/repo#12`,
/// `GH-12`, and URLs with or without a scheme, in any case.
fn is_live_word(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    word.contains('@')
        || word.contains('#')
        || lower.contains(":/")
        || lower.contains("www.")
        || lower.contains("mailto:")
        || lower.contains("xmpp:")
        || lower.contains("gh-")
}

/// ASCII punctuation that never starts, ends or continues Markdown structure in a paragraph once `<`,
/// `[`, brackets, emphasis, code and line-start markers are escaped (and live words are code spans):
/// left as typed so that the comment's source stays readable.
const PLAIN_PUNCTUATION: &[char] = &[',', ':', ';', '?', '"', '\'', '%', '/', '@'];

/// Words of `text` escaped, live words in code spans (with `|` escaped when `in_table`).
fn prose(text: &str, in_table: bool) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for (index, word) in text.split_whitespace().enumerate() {
        if index > 0 {
            out.push(' ');
        }
        if is_live_word(word) {
            push_code_span(&mut out, word, in_table);
        } else {
            push_escaped(&mut out, word);
        }
    }
    out
}

fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        if c.is_ascii_punctuation() && !PLAIN_PUNCTUATION.contains(&c) {
            out.push('\\');
        }
        out.push(if is_bidi_control(c) { '\u{FFFD}' } else { c });
    }
}

fn push_code_span(out: &mut String, text: &str, in_table: bool) {
    let flat: String = text
        .chars()
        .map(|c| match c {
            '\n' | '\r' => ' ',
            c if is_bidi_control(c) => '\u{FFFD}',
            c => c,
        })
        .collect();
    if flat.trim().is_empty() {
        return;
    }
    let content = if in_table { flat.replace('|', "\\|") } else { flat };
    let ticks = "`".repeat(longest_run(&content, '`') + 1);
    let pad = if content.starts_with(['`', ' ']) || content.ends_with(['`', ' ']) { " " } else { "" };
    push_piece(out, &ticks);
    out.push_str(pad);
    out.push_str(&content);
    out.push_str(pad);
    out.push_str(&ticks);
}

/// Appends inert Markdown. A backtick run glued to the one before would merge with it and change where
/// a code span ends, so the two are kept apart by a space.
fn push_piece(out: &mut String, piece: &str) {
    if out.ends_with('`') && piece.starts_with('`') {
        out.push(' ');
    }
    out.push_str(piece);
}

fn longest_run(text: &str, of: char) -> usize {
    let (mut longest, mut current) = (0, 0);
    for c in text.chars() {
        current = if c == of { current + 1 } else { 0 };
        longest = longest.max(current);
    }
    longest
}

/// Paragraph text split into lines, none of them blank or indented (which would end the paragraph or
/// start a code block).
fn paragraph_lines(text: &str) -> Vec<String> {
    text.lines().map(str::trim).filter(|line| !line.is_empty()).map(str::to_string).collect()
}

fn code_block(literal: &str, info: &str) -> Vec<String> {
    let fence = "`".repeat(longest_run(literal, '`').max(2) + 1);
    let language: String = info
        .split_whitespace()
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '-' | '.'))
        .take(32)
        .collect();
    let rich = RICH_FENCE_LANGUAGES.iter().any(|rich| rich.eq_ignore_ascii_case(&language));
    let mut lines = vec![format!("{fence}{}", if rich { "" } else { language.as_str() })];
    lines.extend(literal.lines().map(|line| neutralise_bidi(&line.replace('\r', ""))));
    lines.push(fence);
    lines
}

/// Every literal under `node`, for nodes strata does not write out as structure. Iterative, so any
/// depth is safe.
fn plain_text<'a>(node: Node<'a>) -> String {
    let mut text = String::new();
    for descendant in node.descendants() {
        match &descendant.data().value {
            NodeValue::Text(t) => text.push_str(t),
            NodeValue::Code(code) => text.push_str(&code.literal),
            NodeValue::HtmlInline(html) | NodeValue::Raw(html) => text.push_str(html),
            NodeValue::CodeBlock(code) => text.push_str(&code.literal),
            NodeValue::HtmlBlock(html) => text.push_str(&html.literal),
            NodeValue::Math(math) => text.push_str(&math.literal),
            NodeValue::SoftBreak | NodeValue::LineBreak => text.push('\n'),
            NodeValue::FrontMatter(front) => text.push_str(front),
            // Blocks end lines, so words of two paragraphs are not glued together.
            NodeValue::Paragraph | NodeValue::Heading(_) | NodeValue::TableCell => text.push('\n'),
            _ => {}
        }
    }
    text
}

/// The writer: one parsed document out as inert Markdown, every literal redacted first. Each method
/// takes the nesting depth of the node it writes.
struct Writer<'r> {
    redact: &'r dyn Fn(&str) -> String,
}

impl Writer<'_> {
    /// The lines of a container's child blocks, separated by blank lines.
    fn blocks<'a>(&self, node: Node<'a>, depth: usize) -> Vec<String> {
        let mut lines = Vec::new();
        for child in node.children() {
            let block = self.block(child, depth);
            if block.is_empty() {
                continue;
            }
            if !lines.is_empty() {
                lines.push(String::new());
            }
            lines.extend(block);
        }
        lines
    }

    fn block<'a>(&self, node: Node<'a>, depth: usize) -> Vec<String> {
        if depth > MAX_DEPTH {
            return self.plain_lines(node);
        }
        let value = node.data().value.clone();
        match value {
            NodeValue::Paragraph if self.splits_a_secret(node) => self.plain_lines(node),
            NodeValue::Paragraph => paragraph_lines(&self.inline_children(node, false, depth)),
            NodeValue::Heading(heading) => {
                let text = if self.splits_a_secret(node) {
                    self.prose_lines(&plain_text(node))
                } else {
                    self.inline_children(node, false, depth)
                };
                let text = text.replace('\n', " ");
                if text.trim().is_empty() {
                    return Vec::new();
                }
                vec![format!("{} {}", "#".repeat(usize::from(heading.level.clamp(1, 6))), text.trim())]
            }
            NodeValue::ThematicBreak => vec!["***".to_string()],
            NodeValue::CodeBlock(code) => code_block(&(self.redact)(&code.literal), &code.info),
            NodeValue::HtmlBlock(html) => paragraph_lines(&self.prose_lines(&html.literal)),
            NodeValue::List(list) => self.list_lines(node, list.list_type, list.start, list.tight, depth),
            NodeValue::Table(_) => self.table_lines(node, depth),
            NodeValue::BlockQuote | NodeValue::MultilineBlockQuote(_) | NodeValue::Alert(_) => self
                .blocks(node, depth + 1)
                .into_iter()
                .map(|line| if line.is_empty() { ">".to_string() } else { format!("> {line}") })
                .collect(),
            NodeValue::Document | NodeValue::Item(_) => self.blocks(node, depth + 1),
            // Anything else the parser may produce (front matter, footnotes, …): its text, as prose.
            _ => self.plain_lines(node),
        }
    }

    /// A node's text as plain paragraph lines, without its structure.
    fn plain_lines<'a>(&self, node: Node<'a>) -> Vec<String> {
        paragraph_lines(&self.prose_lines(&plain_text(node)))
    }

    /// Redacted prose, line by line.
    fn prose_lines(&self, text: &str) -> String {
        (self.redact)(text).lines().map(inert_prose).collect::<Vec<_>>().join("\n")
    }

    /// Whether the text a block shows holds something to redact that its pieces, redacted one by one,
    /// would let through (a token split by emphasis or a code span).
    fn splits_a_secret<'a>(&self, node: Node<'a>) -> bool {
        let shown: String = plain_text(node).split('\n').collect();
        (self.redact)(&shown) != shown
    }

    fn list_lines<'a>(
        &self,
        node: Node<'a>,
        list_type: ListType,
        start: usize,
        tight: bool,
        depth: usize,
    ) -> Vec<String> {
        let mut lines = Vec::new();
        for (index, item) in node.children().enumerate() {
            let marker = match list_type {
                ListType::Bullet => "- ".to_string(),
                ListType::Ordered => format!("{}. ", start.saturating_add(index).min(999_999_999)),
            };
            let indent = " ".repeat(marker.len());
            let body = self.blocks(item, depth + 1);
            if index > 0 && !tight {
                lines.push(String::new());
            }
            if body.is_empty() {
                lines.push(marker.trim_end().to_string());
                continue;
            }
            for (n, line) in body.into_iter().enumerate() {
                lines.push(match (n, line.is_empty()) {
                    (0, _) => format!("{marker}{line}"),
                    (_, true) => String::new(),
                    (_, false) => format!("{indent}{line}"),
                });
            }
        }
        lines
    }

    fn table_lines<'a>(&self, node: Node<'a>, depth: usize) -> Vec<String> {
        let rows: Vec<Vec<String>> = node
            .children()
            .map(|row| row.children().map(|cell| self.cell(cell, depth + 1).replace('\n', " ")).collect())
            .collect();
        let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
        if columns == 0 {
            return Vec::new();
        }
        let row_line = |cells: &[String]| {
            let mut padded: Vec<&str> = cells.iter().map(|c| c.trim()).collect();
            padded.resize(columns, "");
            format!("| {} |", padded.join(" | "))
        };
        let mut lines = vec![row_line(&rows[0]), format!("|{}", " --- |".repeat(columns))];
        lines.extend(rows[1..].iter().map(|cells| row_line(cells)));
        lines
    }

    /// A table cell's content: inline Markdown with every `|` escaped, code spans included.
    fn cell<'a>(&self, cell: Node<'a>, depth: usize) -> String {
        if self.splits_a_secret(cell) {
            return prose(&(self.redact)(&plain_text(cell)), true);
        }
        self.inline_children(cell, true, depth)
    }

    /// The inline content of `node` as inert Markdown; soft and hard breaks become newlines.
    fn inline_children<'a>(&self, node: Node<'a>, in_table: bool, depth: usize) -> String {
        let mut out = String::new();
        for child in node.children() {
            self.push_inline(&mut out, child, in_table, depth);
        }
        out
    }

    fn push_inline<'a>(&self, out: &mut String, node: Node<'a>, in_table: bool, depth: usize) {
        if depth > MAX_DEPTH {
            self.push_prose(out, &plain_text(node).replace('\n', " "), in_table);
            return;
        }
        let value = node.data().value.clone();
        match value {
            NodeValue::Text(text) => self.push_prose(out, &text, in_table),
            NodeValue::HtmlInline(html) => self.push_prose(out, &html, in_table),
            NodeValue::Code(code) => push_code_span(out, &(self.redact)(&code.literal), in_table),
            NodeValue::SoftBreak | NodeValue::LineBreak => out.push('\n'),
            NodeValue::Emph => self.push_wrapped(out, node, "*", in_table, depth),
            NodeValue::Strong => self.push_wrapped(out, node, "**", in_table, depth),
            NodeValue::Strikethrough => self.push_wrapped(out, node, "~~", in_table, depth),
            // A link or an image keeps its text; strata builds the only links.
            _ => {
                if node.children().next().is_some() {
                    for child in node.children() {
                        self.push_inline(out, child, in_table, depth + 1);
                    }
                } else {
                    self.push_prose(out, &plain_text(node), in_table);
                }
            }
        }
    }

    /// Text inside a paragraph: words kept apart from what came before by the text's own spacing.
    fn push_prose(&self, out: &mut String, text: &str, in_table: bool) {
        let text = (self.redact)(text);
        if text.starts_with(char::is_whitespace) && !out.is_empty() && !out.ends_with([' ', '\n']) {
            out.push(' ');
        }
        let inert = prose(&text, in_table);
        push_piece(out, &inert);
        if text.ends_with(char::is_whitespace) && !inert.is_empty() {
            out.push(' ');
        }
    }

    fn push_wrapped<'a>(&self, out: &mut String, node: Node<'a>, delimiter: &str, in_table: bool, depth: usize) {
        let inner = self.inline_children(node, in_table, depth + 1);
        // Delimiters glued to the same character would make a longer run (`~~~~` opens a code fence).
        let first = delimiter.chars().next().unwrap_or('*');
        if inner.trim().is_empty() || inner.trim().starts_with(first) || inner.trim().ends_with(first) {
            push_piece(out, &inner);
            return;
        }
        out.push_str(delimiter);
        out.push_str(inner.trim());
        out.push_str(delimiter);
    }
}

#[cfg(test)]
pub(crate) mod check;
#[cfg(test)]
mod tests;
