//! Untrusted Markdown made inert. Text from the repository (docstrings, code), from the question and from
//! a language model is parsed with a CommonMark/GFM parser (comrak, the same grammar GitHub renders with)
//! and written out again by strata: paragraphs, lists, quotes, headings, emphasis, tables, code spans
//! and code blocks keep their shape, and everything else becomes text. Prose has every Markdown-
//! significant ASCII punctuation character backslash-escaped; a word that GitHub would turn into a mention, an issue reference, an
//! e-mail or a URL goes into a code span; code goes into a span or fence longer than any backtick run
//! in it. Links, images and raw HTML keep only their text: the only links in a comment are the ones
//! strata builds itself. So nothing in the output is Markdown structure that strata did not write.

use comrak::nodes::{ListType, Node, NodeValue};
use comrak::{Arena, Options, parse_document};

/// `text` as Markdown with the same visible content and no link, image, HTML or mention of its own.
pub fn inert_markdown(text: &str) -> String {
    let arena = Arena::new();
    let root = parse_document(&arena, text, &gfm_options());
    let lines = blocks(root);
    let mut out = lines.join("\n");
    out.truncate(out.trim_end().len());
    out
}

/// One line of inert prose: `text` shown literally, wherever it is placed in a paragraph.
pub fn inert_prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for (index, word) in text.split_whitespace().enumerate() {
        if index > 0 {
            out.push(' ');
        }
        if is_live_word(word) {
            push_code_span(&mut out, word, false);
        } else {
            push_escaped(&mut out, word);
        }
    }
    out
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

fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        if c.is_ascii_punctuation() && !PLAIN_PUNCTUATION.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
}

fn push_code_span(out: &mut String, text: &str, in_table: bool) {
    let flat: String = text.chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }).collect();
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

/// The lines of a container's child blocks, separated by blank lines.
fn blocks<'a>(node: Node<'a>) -> Vec<String> {
    let mut lines = Vec::new();
    for child in node.children() {
        let block = block(child);
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

fn block<'a>(node: Node<'a>) -> Vec<String> {
    let value = node.data().value.clone();
    match value {
        NodeValue::Paragraph => paragraph_lines(&inline_children(node, false)),
        NodeValue::Heading(heading) => {
            let text = inline_children(node, false).replace('\n', " ");
            if text.trim().is_empty() {
                return Vec::new();
            }
            vec![format!("{} {}", "#".repeat(usize::from(heading.level.clamp(1, 6))), text.trim())]
        }
        NodeValue::ThematicBreak => vec!["***".to_string()],
        NodeValue::CodeBlock(code) => code_block(&code.literal, &code.info),
        NodeValue::HtmlBlock(html) => paragraph_lines(&prose_lines(&html.literal)),
        NodeValue::List(list) => list_lines(node, list.list_type, list.start, list.tight),
        NodeValue::Table(_) => table_lines(node),
        NodeValue::BlockQuote | NodeValue::MultilineBlockQuote(_) | NodeValue::Alert(_) => blocks(node)
            .into_iter()
            .map(|line| if line.is_empty() { ">".to_string() } else { format!("> {line}") })
            .collect(),
        NodeValue::Document | NodeValue::Item(_) => blocks(node),
        // Anything else the parser may produce (front matter, footnotes, …): its text, as prose.
        _ => paragraph_lines(&prose_lines(&plain_text(node))),
    }
}

/// Paragraph text split into lines, none of them blank or indented (which would end the paragraph or
/// start a code block).
fn paragraph_lines(text: &str) -> Vec<String> {
    text.lines().map(str::trim).filter(|line| !line.is_empty()).map(str::to_string).collect()
}

fn prose_lines(text: &str) -> String {
    text.lines().map(inert_prose).collect::<Vec<_>>().join("\n")
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
    let mut lines = vec![format!("{fence}{language}")];
    lines.extend(literal.lines().map(|line| line.replace('\r', "")));
    lines.push(fence);
    lines
}

fn list_lines<'a>(node: Node<'a>, list_type: ListType, start: usize, tight: bool) -> Vec<String> {
    let mut lines = Vec::new();
    for (index, item) in node.children().enumerate() {
        let marker = match list_type {
            ListType::Bullet => "- ".to_string(),
            ListType::Ordered => format!("{}. ", start.saturating_add(index).min(999_999_999)),
        };
        let indent = " ".repeat(marker.len());
        let body = blocks(item);
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

fn table_lines<'a>(node: Node<'a>) -> Vec<String> {
    let rows: Vec<Vec<String>> = node
        .children()
        .map(|row| row.children().map(|cell| inline_children(cell, true).replace('\n', " ")).collect())
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

/// The inline content of `node` as inert Markdown; soft and hard breaks become newlines.
fn inline_children<'a>(node: Node<'a>, in_table: bool) -> String {
    let mut out = String::new();
    for child in node.children() {
        push_inline(&mut out, child, in_table);
    }
    out
}

fn push_inline<'a>(out: &mut String, node: Node<'a>, in_table: bool) {
    let value = node.data().value.clone();
    match value {
        NodeValue::Text(text) => push_prose(out, &text),
        NodeValue::HtmlInline(html) => push_prose(out, &html),
        NodeValue::Code(code) => push_code_span(out, &code.literal, in_table),
        NodeValue::SoftBreak | NodeValue::LineBreak => out.push('\n'),
        NodeValue::Emph => push_wrapped(out, node, "*", in_table),
        NodeValue::Strong => push_wrapped(out, node, "**", in_table),
        NodeValue::Strikethrough => push_wrapped(out, node, "~~", in_table),
        // A link or an image keeps its text; strata builds the only links.
        _ => {
            if node.children().next().is_some() {
                for child in node.children() {
                    push_inline(out, child, in_table);
                }
            } else {
                push_prose(out, &plain_text(node));
            }
        }
    }
}

/// Text inside a paragraph: words kept apart from what came before by the text's own spacing.
fn push_prose(out: &mut String, text: &str) {
    if text.starts_with(char::is_whitespace) && !out.is_empty() && !out.ends_with([' ', '\n']) {
        out.push(' ');
    }
    let inert = inert_prose(text);
    push_piece(out, &inert);
    if text.ends_with(char::is_whitespace) && !inert.is_empty() {
        out.push(' ');
    }
}

fn push_wrapped<'a>(out: &mut String, node: Node<'a>, delimiter: &str, in_table: bool) {
    let inner = inline_children(node, in_table);
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

/// Every literal under `node`, for nodes strata does not write out as structure.
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
            _ => {}
        }
    }
    text
}

#[cfg(test)]
mod tests;
