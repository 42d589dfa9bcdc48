//! Inert Markdown, checked the way GitHub shows it: the output is rendered by comrak (the GFM grammar,
//! raw HTML passed through as GitHub passes its allowed tags) and the rendered document must hold no
//! link, image, HTML or mention that strata did not put there. Known bypasses of the old regex
//! sanitiser come first, then a property test over arbitrary and adversarial text
//! (`PROPTEST_CASES` sets the number of cases; `scripts/fuzz` runs it for minutes).

use std::sync::LazyLock;

use comrak::nodes::NodeValue;
use comrak::{Arena, markdown_to_html, parse_document};
use proptest::prelude::*;
use regex::Regex;

use super::{gfm_options, inert_markdown, inert_prose};
use crate::comment::{CommentContext, answer_comment, error_comment, sanitize, test_context};
use strata_answer::{Answer, Citation, ContextItem, IndexInfo, Mode};

const BLOB: &str = "https://github.com/acme/shop/blob/0123456789abcdef0123456789abcdef01234567/";
const COMMIT: &str = "https://github.com/acme/shop/commit/0123456789abcdef0123456789abcdef01234567";

/// What a rendered comment contains that strata did not build: links outside `allowed_links`, images,
/// HTML outside `allowed_html`, and mentions or issue references outside code.
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
            _ => {}
        }
    }
    let html = markdown_to_html(markdown, &options);
    found.extend(live_in_html(&html, allowed_links));
    found
}

/// The same checks on the HTML GitHub would show: `<img>`, foreign `<a href>`, and mentions in text.
fn live_in_html(html: &str, allowed_links: &[&str]) -> Vec<String> {
    static HREF: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"(?i)<a\s[^>]*href="([^"]*)""#).unwrap());
    static CODE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<code[^>]*>.*?</code>").unwrap());
    static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<[^>]*>").unwrap());
    static MENTION: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?:^|[^A-Za-z0-9_`/&])(@[A-Za-z0-9]|#[0-9]|(?i:gh-[0-9]))").unwrap());
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

fn ctx() -> CommentContext {
    test_context()
}

fn assert_inert(input: &str) {
    let output = inert_markdown(input);
    let live = live_markup(&output, &[], &[]);
    assert!(live.is_empty(), "input {input:?}\noutput {output:?}\nlive: {live:?}");
}

#[test]
fn bypasses_of_the_old_sanitiser_are_inert() {
    let inputs = [
        "`` `@octocat ![t](https://evil.example/p.png)` ``",
        "``@octocat ![t](https://evil.example/p.png)`",
        "a stray ` before @octocat and `<img src=x onerror=alert(1)>",
        "a stray ` before <img src=//evil.example/p.png>",
        "para\n    ```\n@octocat <img src=x>\n    ```\nmore",
        "```\ncode\n````\n@octocat ![t](//evil.example/p.png)",
        "```py`x\n@octocat\n```",
        "![a[b]c](//evil.example/p.png)",
        "![logo][ref]\n\n[ref]: //evil.example/p.png",
        "[click][r]\n[r]: https://evil.example",
        "HTTPS://EVIL.EXAMPLE/p and Www.Evil.Example and mailto:a@b.c and a@b.co",
        "see acme/shop#12, #34 and GH-56",
        "<details><summary>x</summary>\n\n@octocat\n\n</details>",
        "<https://evil.example> and <a@b.example>",
        "~~~~\n@octocat\n~~~",
        "> quote @octocat ![x](//e.x/p.png)\n> - item [l](https://evil.example)",
        "| a | b |\n|---|---|\n| `x|y` @octocat | <b>b</b> |",
        "1. one\n2. two @all\n   ```\n   @inside\n   ```",
        "&#64;octocat &commat;octocat &lt;img src=x&gt;",
        "\\@octocat \\<img src=x\\> \\[a\\](https://evil.example)",
    ];
    for input in inputs {
        assert_inert(input);
    }
    // The checker itself sees them: posted as they are, nearly all of them are live.
    let not_live: Vec<&str> = inputs.into_iter().filter(|input| live_markup(input, &[], &[]).is_empty()).collect();
    assert!(not_live.len() <= 3, "the checker misses live markup in {not_live:?}");
}

#[test]
fn structure_and_text_survive() {
    let output = inert_markdown(
        "# Title\n\nSome *emphasis*, **strong** and `code_span()`.\n\n- one\n- two\n\n```python\nx = `y`\n```\n",
    );
    let html = markdown_to_html(&output, &gfm_options());
    for expected in [
        "<h1>Title</h1>",
        "<em>emphasis</em>",
        "<strong>strong</strong>",
        "<code>code_span()</code>",
        "<li>one</li>",
        "<code class=\"language-python\">x = `y`\n</code>",
    ] {
        assert!(html.contains(expected), "{expected} missing from {html}\n(markdown {output})");
    }
    assert_eq!(inert_prose("a.b (c) [d], e: f?"), "a\\.b \\(c\\) \\[d\\], e: f?");
    assert_eq!(inert_prose("ask @admin"), "ask `@admin`");
}

#[test]
fn answers_hold_only_the_links_and_html_strata_builds() {
    let hostile = "Ping @octocat ![t](https://evil.example/p.png) `` `@x ``";
    let answer = Answer {
        question: hostile.into(),
        mode: Mode::Retrieval,
        answer: format!("`Cart` is in `shop/cart.py`. {hostile}"),
        citations: vec![Citation {
            id: "shop/cart.py".into(),
            module: "shop.cart".into(),
            path: "shop/`odd`|name.py".into(),
            lines: Some([3, 9]),
            url: None,
        }],
        context: vec![ContextItem {
            id: "code:shop/`x`|y.py:3-9".into(),
            module: "shop/cart.py".into(),
            score: 0.5,
            kind: "code".into(),
        }],
        index: IndexInfo { commit: None, schema_version: "1".into(), embedder: "e".into() },
        notes: vec![hostile.into(), "- a list\n- with [a link](https://evil.example)".into()],
        understood: None,
        evidence: None,
        diagnostics: Vec::new(),
    };
    let body = answer_comment(&answer, 42, &ctx());
    let live = live_markup(&body, &[BLOB, COMMIT], &strata_html());
    assert!(live.is_empty(), "{body}\nlive: {live:?}");
    assert!(body.contains("shop/%60odd%60%7Cname.py#L3-L9"), "{body}");
    let error = error_comment(hostile, Some(&ctx()));
    assert!(live_markup(&error, &[], &[]).is_empty(), "{error}");
}

fn strata_html() -> Vec<&'static str> {
    vec![
        "<!-- strata:answer question=42 subject=shop/`odd`|name.py -->",
        "<details><summary>Sources: 1 retrieved chunks</summary>",
        "</details>",
        "<sub>",
        "</sub>",
    ]
}

/// Pieces that break naive sanitisers, mixed with arbitrary text.
fn adversarial_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec![
            "`", "``", "```", "````", "~~~", "    ", "\n", "\n\n", " ", "@octocat", "@a/b", "#12", "GH-3",
            "![t](https://evil.example/p.png)", "![a[b]c](//evil.example/p.png)", "[l](https://evil.example)",
            "[r]: //evil.example/p.png", "![x][r]", "[x][r]", "<img src=x>", "<a href=//e.x>", "</code>",
            "<details>", "<!--", "-->", "HTTPS://EVIL.EXAMPLE", "www.evil.example", "a@b.example",
            "mailto:a@b.example", "<https://e.x>", "\\", "*", "_", "**", "~~", "|", "| --- |", "> ", "- ",
            "1. ", "# ", "&#64;", "&lt;", "&", "[", "]", "(", ")", "!", "<", ">", "\r\n", "\t", "\u{0}",
            "\u{feff}", "é", "```py`", "=== ", "---",
        ]).prop_map(str::to_string),
        1 => "[ -~]{0,12}",
        1 => any::<String>().prop_map(|s| s.chars().take(12).collect()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn no_input_makes_live_markup(pieces in prop::collection::vec(adversarial_piece(), 0..40)) {
        let input: String = pieces.concat();
        let output = sanitize(&input, &ctx());
        let live = live_markup(&output, &[], &[]);
        prop_assert!(live.is_empty(), "input {:?}\noutput {:?}\nlive: {:?}", input, output, live);
    }
}
