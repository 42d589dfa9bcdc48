//! The comments as posted: redaction, links at the indexed commit, the marker a later run reads back,
//! the footer's version, and follow-ups. What the renderer makes inert is tested in `inert/tests.rs`.

use super::*;
use strata_answer::{Citation, ContextItem, IndexInfo};

fn ctx() -> CommentContext {
    test_context()
}

fn answer(text: &str, citations: Vec<Citation>, model_calls: usize) -> Answer {
    Answer {
        question: "where is Cart defined?".into(),
        mode: Mode::Structural,
        answer: text.into(),
        citations,
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
        model_calls,
    }
}

fn cart() -> Citation {
    Citation {
        id: "shop/cart.py".into(),
        module: "shop.cart".into(),
        path: "shop/cart.py".into(),
        lines: Some([3, 9]),
        url: None,
    }
}

fn asked() -> Asked {
    Asked { comment_id: 42, asker: "Alice".into() }
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

/// Issue 30, Low 2: the entity was decoded after redaction and the `_` escaped, so `ghs\_…` was posted
/// and GitHub showed the token.
#[test]
fn an_entity_encoded_token_is_redacted() {
    let body = answer_comment(&answer("ghs&#95;abcdefghijklmnopqrstuvwxyz0123", vec![], 0), &asked(), &ctx());
    assert!(!body.contains("abcdefghijklmnopqrstuvwxyz0123"), "{body}");
    assert!(body.contains("[redacted]") || body.contains("\\[redacted\\]"), "{body}");
}

#[test]
fn answers_link_citations_at_the_indexed_commit() {
    let body = answer_comment(&answer("`Cart` is defined in `shop/cart.py`.", vec![cart()], 0), &asked(), &ctx());
    assert!(body.starts_with("<!-- strata:answer question=42 subject=shop/cart.py asker=alice -->\n"), "{body}");
    assert!(body.contains("[`shop/cart.py`](https://github.com/acme/shop/blob/0123456789abcdef0123456789abcdef01234567/shop/cart.py#L3-L9)"), "{body}");
    assert!(body.contains("<details><summary>Sources: 1 retrieved chunks</summary>"));
    assert!(body.contains("built 2 hours ago") && body.contains("`@admin`"), "{body}");
    assert!(!body.contains("(cut:"), "nothing was cut: {body}");
    assert_eq!(previous_subject(["hello", body.as_str(), "thanks"].into_iter()), Some("shop/cart.py".into()));
}

#[test]
fn the_marker_records_the_question_the_asker_and_a_model() {
    let body = answer_comment(&answer("generated", vec![cart()], 2), &asked(), &ctx());
    let marker = AnswerMarker::of(&body).unwrap();
    assert_eq!(
        marker,
        AnswerMarker { question: 42, subject: "shop/cart.py".into(), asker: "alice".into(), model: true }
    );
    // Markers written before the asker was recorded still parse; text that is no marker does not.
    let old = AnswerMarker::of("<!-- strata:answer question=7 subject=a.py -->\nx").unwrap();
    assert_eq!((old.question, old.asker.as_str(), old.model), (7, "", false));
    assert_eq!(AnswerMarker::of("<!-- strata:answer subject=a.py -->"), None);
    assert_eq!(AnswerMarker::of("hello <!-- strata:answer question=7 -->"), None);
    assert_eq!(marker_login("Bad--Login<x>"), "bad--loginx");
}

/// Issue 30, Low 3: the footer said "strata 0.0.0" because the library crates had no version of their
/// own. Every crate now takes the workspace's.
#[test]
fn the_footer_shows_the_released_version() {
    let manifest = include_str!("../../../../Cargo.toml");
    let workspace_version = manifest
        .split("[workspace.package]")
        .nth(1)
        .and_then(|table| table.lines().find_map(|line| line.strip_prefix("version = ")))
        .map(|value| value.trim_matches('"'))
        .expect("Cargo.toml has [workspace.package] version");
    let body = answer_comment(&answer("a", vec![], 0), &asked(), &ctx());
    assert!(body.contains(&format!("<sub>strata {workspace_version}: ")), "{body}");
    assert_ne!(STRATA_VERSION, "0.0.0");
}

#[test]
fn a_malformed_commit_neither_panics_nor_injects() {
    let mut ctx = ctx();
    ctx.commit = "ééééééé](https://evil.example) @octocat".into();
    let body = error_comment("x", Some(&ctx));
    assert!(!body.is_empty());
    let mut bare = answer("a", vec![], 0);
    bare.context.clear();
    let body = answer_comment(&bare, &asked(), &ctx);
    assert!(!body.contains("](https://evil") && !body.contains(" @octocat"), "{body}");
}

#[test]
fn long_error_messages_are_cut_before_they_are_made_inert() {
    let body = error_comment(&format!("{} https://evil.example/x", "é".repeat(40_000)), None);
    assert!(body.len() <= MAX_COMMENT_BYTES && body.contains("(cut:"), "{}", body.len());
    assert!(!body.contains("evil"), "the cut text is not posted");
}

#[test]
fn an_organisations_answer_links_each_module_into_its_own_repository() {
    let mut ctx = ctx();
    ctx.organisation = Some([("billing".to_string(), "feedbeef".to_string())].into_iter().collect());
    assert_eq!(
        ctx.blob_url("billing/billing/invoice.py", Some([3, 9])),
        "https://github.com/acme/billing/blob/feedbeef/billing/invoice.py#L3-L9"
    );
    // A repository the catalog does not know (or has no commit for) keeps this repository's links.
    assert_eq!(ctx.blob_url("shop/cart.py", None), format!("{}shop/cart.py", ctx.blob_prefix()));
}
