//! Inert Markdown, checked the way GitHub shows it (`check::live_markup`): known bypasses first (the old
//! regex sanitiser's, then the second review's: table cells, entities, deep nesting, rich fences, bidi
//! controls), then property tests over arbitrary and adversarial text, multi-column tables included,
//! and over comments cut at lengths around the limit (`PROPTEST_CASES` sets the number of cases;
//! `scripts/fuzz` runs them for minutes).

use std::sync::LazyLock;

use proptest::prelude::*;
use regex::Regex;

use super::check::live_markup;
use super::{MAX_DEPTH, gfm_options, inert_markdown, inert_prose};
use crate::comment::{Asked, answer_comment, answer_comment_within, error_comment, sanitize, test_context};
use comrak::markdown_to_html;
use strata_answer::{Answer, Citation, ContextItem, IndexInfo, Mode};

const BLOB: &str = "https://github.com/acme/shop/blob/0123456789abcdef0123456789abcdef01234567/";
const COMMIT: &str = "https://github.com/acme/shop/commit/0123456789abcdef0123456789abcdef01234567";

fn inert(text: &str) -> String {
    sanitize(text, &test_context())
}

fn assert_inert(input: &str) {
    let output = inert(input);
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

/// Issue 30, High: a `|` inside the code span that wraps a live word split the cell, and the rest
/// rendered live (a mention, an image, a link); raw HTML in a cell the same.
#[test]
fn pipes_in_table_cells_never_split_a_code_span() {
    let inputs = [
        "| &#124;@octocat | x | y |\n|---|---|---|\n| a | b | c |",
        "| a | b |\n|---|---|\n| \\|\\!\\[i\\]\\(//evil.example/p.png#x\\) | c |",
        "| a | b |\n|---|---|\n| \\|\\[l\\]\\(https://evil.example/#x\\) | c |",
        "| a | b |\n|---|---|\n| <a title=\"|@octocat\"> | <img alt=\"|![i](//evil.example/p.png#x)\"> |",
        "| a | b |\n|---|---|\n| x&#124;@octocat&#124;#12 | `c|d` |",
    ];
    for input in inputs {
        assert_inert(input);
        let output = inert(input);
        let html = markdown_to_html(&output, &gfm_options());
        assert!(html.contains("<table>"), "the table keeps its shape: {output}\n{html}");
    }
}

/// Issue 30, Low 1: about 20,000 nested `>` crashed the bot with a stack overflow. The writer flattens
/// what is nested deeper than `MAX_DEPTH`; this runs on a test thread's small (2 MiB) stack.
#[test]
fn deep_nesting_is_flattened_without_overflowing_the_stack() {
    let n = 20_000;
    let inputs = [
        format!("{} @octocat ![i](//evil.example/p.png)", ">".repeat(n)),
        format!("{}@octocat", "> ".repeat(n)),
        format!("{}deep", "- ".repeat(n)),
        format!("{}x{}", "*".repeat(n), "*".repeat(n)),
        format!("{}x @octocat{}", "_a ".repeat(n), " b_".repeat(n)),
        format!("{}i{}", "![".repeat(n), "](//evil.example/p.png)".repeat(n)),
        format!("{}l{}", "[".repeat(n), "](https://evil.example)".repeat(n)),
        format!("{}x{}", "~~".repeat(n), "~~".repeat(n)),
    ];
    for input in &inputs {
        let output = inert(input);
        assert!(output.matches("> ").count() <= MAX_DEPTH + 1, "{}", &output[..output.len().min(300)]);
        let live = live_markup(&output, &[], &[]);
        assert!(live.is_empty(), "{live:?}");
    }
    assert!(inert(&inputs[0]).contains("`@octocat`"), "the text survives the flattening");
}

/// Issue 30, Low 2: `ghs&#95;` and a token was redacted before the entity was decoded, then escaped to
/// `ghs\_…`, which GitHub shows as the real token. A token split by emphasis shows whole too.
#[test]
fn tokens_are_redacted_as_github_shows_them() {
    let token = "abcdefghijklmnopqrstuvwxyz0123";
    for input in [
        format!("ghs&#95;{token}"),
        format!("ghs&lowbar;{token}"),
        format!("&#103;hp_{token}"),
        format!("ghs_**{token}**"),
        format!("`ghs_{token}`"),
        format!("| a | b |\n|---|---|\n| ghs&#95;{token} | ghp_*{token}* |"),
        format!("# ghs&#95;{token}"),
        format!("```\nghs&#95;{token}\nghs_{token}\n```"),
        "super&#115;ecretvalue and supersecret*value*".to_string(),
    ] {
        let output = inert(&input);
        let shown = shown_text(&output);
        assert!(!TOKEN.is_match(&shown) && !shown.contains("supersecretvalue"), "{input}\n{output}\n{shown}");
    }
}

static TOKEN: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\bgh[pousr]_[A-Za-z0-9]{20,}").unwrap());

/// The text GitHub shows for `markdown`: rendered, tags dropped, entities decoded.
fn shown_text(markdown: &str) -> String {
    static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<[^>]*>").unwrap());
    let html = markdown_to_html(markdown, &gfm_options());
    TAG.replace_all(&html, "")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Issue 30, Low 3: fences GitHub draws (Mermaid, math, maps, 3D models, suggestions) lose their tag,
/// and bidirectional controls, typed or as entities, never reach the comment.
#[test]
fn rich_fences_and_bidi_controls_are_neutralised() {
    for language in ["mermaid", "Mermaid", "math", "geojson", "topojson", "stl", "suggestion", "mermaid{x}"] {
        for fence in ["```", "~~~"] {
            let input = format!("{fence}{language}\ngraph TD; A-->B\n{fence}");
            let output = inert(&input);
            assert!(live_markup(&output, &[], &[]).is_empty(), "{output}");
            assert!(output.contains("graph TD; A-->B"), "the code is still shown: {output}");
        }
    }
    assert!(inert("```python\nx = 1\n```").starts_with("```python\n"), "other languages keep their tag");
    for input in [
        "a\u{202E}b",
        "&#x202E;x",
        "`\u{2066}x`",
        "```\n\u{200F}x\n```",
        "| a\u{061C} | b |\n|--|--|\n| \u{202A} | &#8238; |",
    ] {
        let output = inert(input);
        assert!(live_markup(&output, &[], &[]).is_empty(), "{input:?} -> {output:?}");
        assert!(output.contains('\u{FFFD}'), "what was there is shown as U+FFFD: {output:?}");
    }
}

#[test]
fn structure_and_text_survive() {
    let output =
        inert("# Title\n\nSome *emphasis*, **strong** and `code_span()`.\n\n- one\n- two\n\n```python\nx = `y`\n```\n");
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
    assert_eq!(inert_markdown("a *b*", &str::to_string), "a *b*");
}

fn hostile_answer(text: &str) -> Answer {
    let hostile = "Ping @octocat ![t](https://evil.example/p.png) `` `@x ``";
    Answer {
        question: hostile.into(),
        mode: Mode::Retrieval,
        answer: text.to_string(),
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
        model_calls: 1,
    }
}

fn asked() -> Asked {
    Asked { comment_id: 42, asker: "Alice".into() }
}

fn strata_html() -> Vec<&'static str> {
    vec![
        "<!-- strata:answer question=42 subject=shop/`odd`|name.py asker=alice model=1 -->",
        "<details><summary>Sources: 1 retrieved chunks</summary>",
        "</details>",
        "<sub>",
        "</sub>",
    ]
}

#[test]
fn answers_hold_only_the_links_and_html_strata_builds() {
    let hostile = "Ping @octocat ![t](https://evil.example/p.png) `` `@x ``";
    let body =
        answer_comment(&hostile_answer(&format!("`Cart` is in `shop/cart.py`. {hostile}")), &asked(), &test_context());
    let live = live_markup(&body, &[BLOB, COMMIT], &strata_html());
    assert!(live.is_empty(), "{body}\nlive: {live:?}");
    assert!(body.contains("shop/%60odd%60%7Cname.py#L3-L9"), "{body}");
    let error = error_comment(hostile, Some(&test_context()));
    assert!(live_markup(&error, &[], &[]).is_empty(), "{error}");
}

/// Issue 30, Medium: the 65 KB cut truncated the finished Markdown, so a cut inside a code span left its
/// text live (a link, an image). The text is now cut before it is made inert.
#[test]
fn a_cut_never_leaves_markup_live() {
    let n = 70_000;
    let replies = [
        format!("https://evil.example/{}", "A".repeat(n)),
        format!("https://evil.example/ {}", "A ".repeat(n / 2)),
        format!("`![i](//evil.example/p.png)`{}", "A".repeat(n)),
        format!("{} `@octocat ![i](//evil.example/p.png) https://evil.example/`", "A".repeat(64_700)),
        format!("{}\\!\\[i\\]\\(//evil.example/p.png\\)", "B ".repeat(32_400)),
        format!("```\n{}\n@octocat\n```", "x\n".repeat(n / 2)),
    ];
    for reply in &replies {
        let body = answer_comment(&hostile_answer(reply), &asked(), &test_context());
        assert!(body.len() <= crate::comment::MAX_COMMENT_BYTES, "{}", body.len());
        let live = live_markup(&body, &[BLOB, COMMIT], &strata_html());
        assert!(live.is_empty(), "live: {live:?}");
        assert!(body.contains("(cut: the answer was longer"), "the cut is said");
        assert!(body.contains("**Cited:**") && body.contains("<sub>strata "), "strata's own parts stay");
    }
}

/// Every length around the point where a hostile answer stops fitting: the body is within the limit,
/// whole, and holds nothing live.
#[test]
fn every_length_near_the_limit_stays_whole() {
    let reply = format!(
        "{} `@octocat` https://evil.example/x ![i](//evil.example/p.png) | a | b |\n|---|---|\n| `c|@d` | e |",
        "word ".repeat(40)
    );
    let answer = hostile_answer(&reply);
    let whole = answer_comment_within(&answer, &asked(), &test_context(), usize::MAX / 8);
    // From where only the marker, the cut note and the footer fit, to past the whole comment and the
    // room kept for the last redaction.
    for max_bytes in 500..whole.len() + 1_200 {
        let body = answer_comment_within(&answer, &asked(), &test_context(), max_bytes);
        assert!(body.len() <= max_bytes, "{} > {max_bytes}", body.len());
        let live = live_markup(&body, &[BLOB, COMMIT], &strata_html());
        assert!(live.is_empty(), "at {max_bytes}: {live:?}\n{body}");
    }
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
            // Entities, bidi controls, rich fences and tokens (issue 30).
            "&#124;", "&#x7c;", "&vert;", "&#95;", "&#x202E;", "&#8238;", "\u{202E}", "\u{2066}", "\u{200F}",
            "\u{061C}", "```mermaid\n", "~~~math\n", "```geojson\n", "```STL\n", "```suggestion\n",
            "ghs_abcdefghijklmnopqrstuvwxyz", "ghs&#95;abcdefghijklmnopqrstuvwxyz", "\\|", "\\!\\[i\\]\\(//e.x/p.png\\)",
        ]).prop_map(str::to_string),
        1 => "[ -~]{0,12}",
        1 => any::<String>().prop_map(|s| s.chars().take(12).collect()),
        1 => (1..60usize, prop::sample::select(vec!["> ", ">", "- ", "* ", "1. ", "*", "_", "[", "![", "~~", "<b>"]))
            .prop_map(|(n, piece)| piece.repeat(n)),
    ]
}

/// A GFM table of one to five columns whose cells are adversarial pieces (without line breaks).
fn adversarial_table() -> impl Strategy<Value = String> {
    (1..6usize, 1..4usize).prop_flat_map(|(columns, rows)| {
        let cell = adversarial_piece().prop_map(|piece| piece.replace(['\n', '\r'], " "));
        prop::collection::vec(prop::collection::vec(cell, columns), rows + 1).prop_map(move |table| {
            let mut lines: Vec<String> = table.iter().map(|cells| format!("| {} |", cells.join(" | "))).collect();
            lines.insert(1, format!("|{}", " --- |".repeat(columns)));
            format!("\n{}\n", lines.join("\n"))
        })
    })
}

fn adversarial_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop_oneof![6 => adversarial_piece(), 1 => adversarial_table()], 0..40)
        .prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn no_input_makes_live_markup(input in adversarial_text()) {
        let output = inert(&input);
        let live = live_markup(&output, &[], &[]);
        prop_assert!(live.is_empty(), "input {:?}\noutput {:?}\nlive: {:?}", input, output, live);
        prop_assert!(!TOKEN.is_match(&shown_text(&output)), "a token got through: {:?}", output);
    }

    #[test]
    fn no_cut_makes_live_markup(input in adversarial_text(), short_by in 0..400usize) {
        let answer = hostile_answer(&input);
        let whole = answer_comment_within(&answer, &asked(), &test_context(), usize::MAX / 8);
        let max_bytes = whole.len().saturating_sub(short_by);
        let body = answer_comment_within(&answer, &asked(), &test_context(), max_bytes);
        prop_assert!(body.len() <= max_bytes, "{} > {}", body.len(), max_bytes);
        let live = live_markup(&body, &[BLOB, COMMIT], &strata_html());
        prop_assert!(live.is_empty(), "input {:?}\nbody {:?}\nlive: {:?}", input, body, live);
    }
}
