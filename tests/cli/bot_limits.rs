//! The limits on answers from a language model (issue 30, Low 9): MEMBER and COLLABORATOR need not have
//! write access, yet each of their questions may cost model tokens. The bot counts its own earlier
//! model-backed answers, in the thread and, for the asker, across the repository over 24 hours; past a
//! limit it answers from the index alone with a polite note, and sends nothing to the model. Markers in
//! comments by anyone else do not count.

use chrono::{Duration, Utc};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::bot::{FakeGitHub, REPO, event, run_bot, shop_index};
use crate::support::chat_reply;

const QUESTION: &str = "/ask How are failed payment charges retried?";

/// A comment as the API lists it, by `login` (a `Bot` when it ends in `[bot]`), `hours` ago.
fn comment(id: u64, login: &str, body: &str, hours: i64) -> Value {
    let kind = if login.ends_with("[bot]") { "Bot" } else { "User" };
    json!({
        "id": id, "body": body, "user": {"login": login, "type": kind},
        "created_at": (Utc::now() - Duration::hours(hours)).format("%Y-%m-%dT%H:%M:%SZ").to_string()
    })
}

fn model_answer(question: u64, asker: &str) -> String {
    format!(
        "<!-- strata:answer question={question} subject=shop/cart.py asker={asker} model=1 -->\nCharges are retried."
    )
}

/// A chat server that answers everything, and the bot run against it with `env`; returns the posted
/// comment and how many chat requests were sent.
async fn ask_with_model(github: &FakeGitHub, env: &[(&str, &str)]) -> (String, usize) {
    let chat = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(chat_reply("Charges are retried in `shop/payments/gateway.py`."))
        .mount(&chat)
        .await;
    let base_url = format!("{}/v1", chat.uri());
    let mut env: Vec<(&str, &str)> = env.to_vec();
    env.extend([("OPENAI_BASE_URL", base_url.as_str()), ("OPENAI_API_KEY", "test-key")]);
    let outcome = run_bot(github, &event(QUESTION, "MEMBER", false), &env).await;
    assert!(outcome.success, "{}", outcome.stderr);
    let comments = github.comments().await;
    assert_eq!(comments.len(), 1);
    (comments[0].clone(), chat.received_requests().await.unwrap().len())
}

async fn thread_comments(github: &FakeGitHub, comments: Value) {
    Mock::given(method("GET"))
        .and(path(format!("{REPO}/issues/1/comments")))
        .respond_with(ResponseTemplate::new(200).set_body_json(comments))
        .mount(&github.api)
        .await;
}

async fn repository_comments(github: &FakeGitHub, response: ResponseTemplate) {
    Mock::given(method("GET"))
        .and(path(format!("{REPO}/issues/comments")))
        .respond_with(response)
        .mount(&github.api)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_a_model_answer_records_the_asker_and_the_model() {
    let github = FakeGitHub::with_index(shop_index().1.clone()).await;
    let (body, chat_requests) = ask_with_model(&github, &[]).await;
    assert!(chat_requests > 0);
    assert!(
        body.starts_with(
            "<!-- strata:answer question=1633968123 subject=shop/payments/gateway.py asker=alice model=1 -->"
        ),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_a_thread_past_its_limit_is_answered_from_the_index_alone() {
    let github = FakeGitHub::with_index(shop_index().1.clone()).await;
    thread_comments(
        &github,
        json!([
            comment(1, "github-actions[bot]", &model_answer(11, "alice"), 3),
            comment(2, "github-actions[bot]", &model_answer(12, "bob"), 2),
            // Not the bot's: a user's and another app's markers count for nothing.
            comment(3, "mallory", &model_answer(13, "alice"), 1),
            comment(4, "other-app[bot]", &model_answer(14, "alice"), 1),
            // The bot's answer without a model does not count either.
            comment(5, "github-actions[bot]", "<!-- strata:answer question=15 subject= asker=alice -->\nx", 1),
        ]),
    )
    .await;
    let (body, chat_requests) = ask_with_model(&github, &[("STRATA_MAX_MODEL_ANSWERS_PER_THREAD", "2")]).await;
    assert_eq!(chat_requests, 0, "the model is not asked past the limit");
    assert!(body.contains("Sorry: this thread has had 2 answers from the language model"), "{body}");
    assert!(body.contains("retrieved from the index (no language model)"), "{body}");
    assert!(!body.lines().next().unwrap().contains("model=1"), "{body}");

    // One more allowed: the same thread is answered by the model.
    let github = FakeGitHub::with_index(shop_index().1.clone()).await;
    thread_comments(&github, json!([comment(1, "github-actions[bot]", &model_answer(11, "alice"), 3)])).await;
    let (body, chat_requests) = ask_with_model(&github, &[("STRATA_MAX_MODEL_ANSWERS_PER_THREAD", "2")]).await;
    assert!(chat_requests > 0 && body.contains("generated from the retrieved code"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_an_asker_past_their_daily_limit_is_answered_from_the_index_alone() {
    let listing = json!([
        comment(21, "github-actions[bot]", &model_answer(31, "alice"), 1),
        comment(22, "github-actions[bot]", &model_answer(32, "Alice"), 5),
        comment(23, "github-actions[bot]", &model_answer(33, "bob"), 6),
        comment(24, "mallory", &model_answer(34, "alice"), 7),
        comment(25, "github-actions[bot]", &model_answer(35, "alice"), 23),
        // Older than a day (listed because it was edited since): not counted.
        comment(26, "github-actions[bot]", &model_answer(36, "alice"), 30),
    ]);
    let github = FakeGitHub::with_index(shop_index().1.clone()).await;
    repository_comments(&github, ResponseTemplate::new(200).set_body_json(listing.clone())).await;
    let (body, chat_requests) = ask_with_model(&github, &[("STRATA_MAX_MODEL_ANSWERS_PER_USER", "3")]).await;
    assert_eq!(chat_requests, 0, "{body}");
    assert!(body.contains("Sorry: you have had 3 answers from the language model in the last 24 hours"), "{body}");
    let since = github
        .requests()
        .await
        .iter()
        .find(|r| r.url.path() == format!("{REPO}/issues/comments"))
        .and_then(|r| r.url.query_pairs().find(|(k, _)| k == "since").map(|(_, v)| v.to_string()))
        .expect("the repository's comments were listed since a day ago");
    assert!(since.ends_with('Z'), "{since}");

    let github = FakeGitHub::with_index(shop_index().1.clone()).await;
    repository_comments(&github, ResponseTemplate::new(200).set_body_json(listing)).await;
    let (body, chat_requests) = ask_with_model(&github, &[("STRATA_MAX_MODEL_ANSWERS_PER_USER", "4")]).await;
    assert!(chat_requests > 0 && body.contains("generated from the retrieved code"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_earlier_answers_that_cannot_be_read_keep_the_limit() {
    let github = FakeGitHub::with_index(shop_index().1.clone()).await;
    repository_comments(&github, ResponseTemplate::new(500)).await;
    let (body, chat_requests) = ask_with_model(&github, &[]).await;
    assert_eq!(chat_requests, 0, "{body}");
    assert!(body.contains("could not read its earlier answers"), "{body}");

    // With both limits off, nothing is counted and the model answers.
    let github = FakeGitHub::with_index(shop_index().1.clone()).await;
    repository_comments(&github, ResponseTemplate::new(500)).await;
    let off = [("STRATA_MAX_MODEL_ANSWERS_PER_THREAD", "0"), ("STRATA_MAX_MODEL_ANSWERS_PER_USER", "0")];
    let (body, chat_requests) = ask_with_model(&github, &off).await;
    assert!(chat_requests > 0 && body.contains("generated from the retrieved code"), "{body}");
}
