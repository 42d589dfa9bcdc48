//! The checker the renderer's tests use: a comment is rendered the way GitHub shows it (comrak, the GFM
//! grammar, raw HTML passed through as GitHub passes its allowed tags) and every piece of live markup
//! strata did not put there is reported: links outside the allowed prefixes, images, HTML outside the
//! allowed lines, mentions and issue references outside code, fences GitHub draws as rich content, and
//! bidirectional controls. The whole-comment test against GitHub's own cmark-gfm is in
//! `tests/cli/gfm.rs`.

use std::sync::LazyLock;

use comrak::nodes::NodeValue;
use comrak::{Arena, markdown_to_html, parse_document};
use regex::Regex;

use super::{RICH_FENCE_LANGUAGES, gfm_options, is_bidi_control};

/// What a rendered comment contains that strata did not build.
pub fn live_markup(markdown: &str, allowed_links: &[&str], allowed_html: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    let arena = Arena::new();
    let mut options = gfm_options();
    options.render.r#unsafe = true;
    for node in parse_document(&arena, markdown, &options).descendants() {
        match &node.data().value {
            NodeValue::Image(link) => found.push(format!("image {}", link.url)),
            NodeValue::Link(link) if !allowed_links.iter().any(|p| link.url.starts_with(p)) => {
                found.push(format!("link {}", link.url));
            }
            NodeValue::HtmlInline(html) if !allowed_html.contains(&html.trim()) => found.push(format!("html {html}")),
            NodeValue::HtmlBlock(html) if !html.literal.lines().all(|l| allowed_html.contains(&l.trim())) => {
                found.push(format!("html block {}", html.literal));
            }
            NodeValue::CodeBlock(code) => {
                let language = code.info.split_whitespace().next().unwrap_or("");
                if RICH_FENCE_LANGUAGES.iter().any(|rich| rich.eq_ignore_ascii_case(language)) {
                    found.push(format!("rich fence {language}"));
                }
            }
            _ => {}
        }
    }
    if let Some(c) = markdown.chars().find(|c| is_bidi_control(*c)) {
        found.push(format!("bidi control U+{:04X}", u32::from(c)));
    }
    let html = markdown_to_html(markdown, &options);
    found.extend(live_in_html(&html, allowed_links));
    found
}

/// The same checks on the HTML GitHub would show: `<img>`, foreign `<a href>`, and mentions in text
/// (after any non-word character, a literal backtick included, as GitHub's mention filter takes them).
fn live_in_html(html: &str, allowed_links: &[&str]) -> Vec<String> {
    static HREF: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"(?i)<a\s[^>]*href="([^"]*)""#).unwrap());
    static CODE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<code[^>]*>.*?</code>").unwrap());
    static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<[^>]*>").unwrap());
    static MENTION: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?:^|[^A-Za-z0-9_/&])(@[A-Za-z0-9]|#[0-9]|(?i:gh-[0-9]))").unwrap());
    let mut found = Vec::new();
    if html.to_ascii_lowercase().contains("<img") {
        found.push("rendered <img>".to_string());
    }
    for href in HREF.captures_iter(html) {
        if !allowed_links.iter().any(|p| href[1].starts_with(p)) {
            found.push(format!("rendered link {}", &href[1]));
        }
    }
    let text = TAG.replace_all(&CODE.replace_all(html, " "), " ").into_owned();
    for mention in MENTION.captures_iter(&text) {
        found.push(format!("rendered mention {}", &mention[1]));
    }
    found
}
