//! `strata bot` and `strata fetch` against a GitHub API faked with wiremock on loopback, using the
//! real-shaped payloads in `tests/fixtures/github/`. The artifact zip is served through a 302 to a
//! second server (the storage host), which must never see the token. Every unexpected call gets a 500.

use std::io::Write;
use std::path::Path;
use std::sync::OnceLock;

use serde_json::{Value, json};
use tempfile::TempDir;
use wiremock::matchers::{any, method, path, path_regex};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};
use zip::write::SimpleFileOptions;

use crate::support::{Index, Repo, index, strata_with_env};

pub(crate) const TOKEN: &str = "ghs_testtoken0123456789abcdefghijkl";
pub(crate) const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/github");
/// From the webhook fixture.
pub(crate) const REPO: &str = "/repos/gagbo/ouro-closures";
const REPOSITORY_ID: u64 = 537482687;
const DEFAULT_BRANCH: &str = "trunk";
const RUN_ID: u64 = 2332938;
const ARTIFACT_ID: u64 = 11;

/// The shop fixture indexed from a git commit, zipped as upload-artifact would.
pub(crate) fn shop_index() -> &'static (Index, Vec<u8>) {
    static INDEX: OnceLock<(Index, Vec<u8>)> = OnceLock::new();
    INDEX.get_or_init(|| {
        let repo = Repo::git("shop");
        let index = index(repo.path(), &[]);
        std::mem::forget(repo);
        let zip = zip_dir(&index.dir);
        (index, zip)
    })
}

pub(crate) fn zip_dir(dir: &Path) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = path.strip_prefix(dir).unwrap().to_str().unwrap().replace('\\', "/");
            writer.start_file(name, SimpleFileOptions::default()).unwrap();
            writer.write_all(&std::fs::read(&path).unwrap()).unwrap();
        }
    }
    writer.finish().unwrap().into_inner()
}

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        writer.start_file(*name, SimpleFileOptions::default()).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// The webhook fixture turned into an `/ask` by a person, on an issue or a pull request.
pub(crate) fn event(body: &str, association: &str, pull_request: bool) -> Value {
    let mut event: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{FIXTURES}/issue_comment_created_webhook_event.json")).unwrap(),
    )
    .unwrap();
    event["comment"]["body"] = json!(body);
    event["comment"]["author_association"] = json!(association);
    event["comment"]["user"]["login"] = json!("alice");
    event["comment"]["user"]["type"] = json!("User");
    event["sender"]["login"] = json!("alice");
    event["sender"]["type"] = json!("User");
    if pull_request {
        event["issue"]["pull_request"] = json!({
            "url": "https://api.github.com/repos/gagbo/ouro-closures/pulls/1",
            "html_url": "https://github.com/gagbo/ouro-closures/pull/1",
            "diff_url": "https://github.com/gagbo/ouro-closures/pull/1.diff",
            "patch_url": "https://github.com/gagbo/ouro-closures/pull/1.patch",
            "merged_at": null
        });
    }
    event
}

fn run(id: u64, head_repository_id: u64, head_sha: &str) -> Value {
    json!({
        "id": id, "name": "strata index", "head_branch": DEFAULT_BRANCH, "head_sha": head_sha,
        "event": "push", "status": "completed", "conclusion": "success", "run_number": 7,
        "created_at": "2026-12-01T10:00:00Z", "updated_at": "2026-12-01T10:05:00Z",
        "html_url": format!("https://github.com/gagbo/ouro-closures/actions/runs/{id}"),
        "head_repository": {"id": head_repository_id, "full_name": "someone/ouro-closures"},
        "repository": {"id": REPOSITORY_ID, "full_name": "gagbo/ouro-closures"}
    })
}

/// The artifacts fixture, renamed to strata's artifact and tied to `run_id`.
fn artifacts(run_id: u64, artifact_id: u64, expired: bool, size: u64) -> Value {
    let mut listing: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{FIXTURES}/repository_artifacts.json")).unwrap())
            .unwrap();
    let mut artifact = listing["artifacts"][0].take();
    artifact["id"] = json!(artifact_id);
    artifact["name"] = json!("strata-index");
    artifact["expired"] = json!(expired);
    artifact["size_in_bytes"] = json!(size);
    artifact["workflow_run"]["id"] = json!(run_id);
    artifact["workflow_run"]["repository_id"] = json!(REPOSITORY_ID);
    artifact["workflow_run"]["head_repository_id"] = json!(REPOSITORY_ID);
    artifact["workflow_run"]["head_branch"] = json!(DEFAULT_BRANCH);
    listing["artifacts"] = json!([artifact, listing["artifacts"][1].clone()]);
    listing
}

/// A fake GitHub with one trusted index run whose artifact is `zip`, served from a storage host.
pub(crate) struct FakeGitHub {
    pub(crate) api: MockServer,
    storage: MockServer,
}

impl FakeGitHub {
    async fn start() -> FakeGitHub {
        FakeGitHub { api: MockServer::start().await, storage: MockServer::start().await }
    }

    pub(crate) async fn with_index(zip: Vec<u8>) -> FakeGitHub {
        let commit = shop_index().0.report["commit"].as_str().unwrap().to_string();
        FakeGitHub::with_index_of(&commit, zip).await
    }

    /// A trusted index run of `commit` whose artifact is `zip`.
    pub(crate) async fn with_index_of(commit: &str, zip: Vec<u8>) -> FakeGitHub {
        let github = FakeGitHub::start().await;
        github.runs(json!([run(RUN_ID, REPOSITORY_ID, commit)])).await;
        github.artifacts(RUN_ID, artifacts(RUN_ID, ARTIFACT_ID, false, zip.len() as u64)).await;
        github.zip(ARTIFACT_ID, zip).await;
        github.reactions_and_comments().await;
        github
    }

    async fn runs(&self, runs: Value) {
        Mock::given(method("GET"))
            .and(path(format!("{REPO}/actions/workflows/strata-index.yml/runs")))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({"total_count": 1, "workflow_runs": runs})))
            .mount(&self.api)
            .await;
    }

    async fn artifacts(&self, run_id: u64, listing: Value) {
        Mock::given(method("GET"))
            .and(path(format!("{REPO}/actions/runs/{run_id}/artifacts")))
            .respond_with(ResponseTemplate::new(200).set_body_json(listing))
            .mount(&self.api)
            .await;
    }

    async fn zip(&self, artifact_id: u64, zip: Vec<u8>) {
        let location = format!("{}/blobs/{artifact_id}.zip?sig=short-lived", self.storage.uri());
        Mock::given(method("GET"))
            .and(path(format!("{REPO}/actions/artifacts/{artifact_id}/zip")))
            .respond_with(ResponseTemplate::new(302).insert_header("location", location.as_str()))
            .mount(&self.api)
            .await;
        Mock::given(method("GET"))
            .and(path(format!("/blobs/{artifact_id}.zip")))
            .respond_with(ResponseTemplate::new(200).set_body_bytes(zip))
            .mount(&self.storage)
            .await;
    }

    async fn reactions_and_comments(&self) {
        // The thread as the bot first reads it: no answer yet (tests that need comments mount their own,
        // which win over this one).
        Mock::given(method("GET"))
            .and(path(format!("{REPO}/issues/1/comments")))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
            .with_priority(10)
            .mount(&self.api)
            .await;
        // The repository's comments of the last day, which the limit per asker counts: none.
        Mock::given(method("GET"))
            .and(path(format!("{REPO}/issues/comments")))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
            .with_priority(10)
            .mount(&self.api)
            .await;
        Mock::given(method("POST"))
            .and(path_regex(r"^/repos/gagbo/ouro-closures/issues/comments/\d+/reactions$"))
            .respond_with(ResponseTemplate::new(201).set_body_json(json!({"id": 1, "content": "eyes"})))
            .mount(&self.api)
            .await;
        Mock::given(method("POST"))
            .and(path(format!("{REPO}/issues/1/comments")))
            .respond_with(ResponseTemplate::new(201).set_body_json(json!({"id": 9001, "body": "..."})))
            .mount(&self.api)
            .await;
    }

    /// Anything not mocked is a server error, so a stray call fails the test loudly.
    async fn catch_all(&self) {
        Mock::given(any()).respond_with(ResponseTemplate::new(500)).with_priority(u8::MAX).mount(&self.api).await;
    }

    pub(crate) async fn requests(&self) -> Vec<Request> {
        self.api.received_requests().await.unwrap()
    }

    async fn posted(&self, suffix: &str) -> Vec<Value> {
        self.requests()
            .await
            .iter()
            .filter(|r| r.method.as_str() == "POST" && r.url.path().ends_with(suffix))
            .map(|r| serde_json::from_slice(&r.body).unwrap())
            .collect()
    }

    pub(crate) async fn reactions(&self) -> Vec<String> {
        self.posted("/reactions").await.iter().map(|r| r["content"].as_str().unwrap().to_string()).collect()
    }

    pub(crate) async fn comments(&self) -> Vec<String> {
        self.posted("/issues/1/comments").await.iter().map(|c| c["body"].as_str().unwrap().to_string()).collect()
    }
}

pub(crate) struct BotRun {
    pub(crate) success: bool,
    pub(crate) stderr: String,
}

pub(crate) async fn run_bot(github: &FakeGitHub, event: &Value, extra_env: &[(&str, &str)]) -> BotRun {
    github.catch_all().await;
    let dir = TempDir::new().unwrap();
    let event_path = dir.path().join("event.json");
    std::fs::write(&event_path, serde_json::to_vec(event).unwrap()).unwrap();
    let api_url = github.api.uri();
    let mut env: Vec<(String, String)> = vec![
        ("GITHUB_EVENT_PATH".into(), event_path.to_str().unwrap().into()),
        ("GITHUB_REPOSITORY".into(), "gagbo/ouro-closures".into()),
        ("GITHUB_TOKEN".into(), TOKEN.into()),
        ("GITHUB_API_URL".into(), api_url),
    ];
    env.extend(extra_env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let output = tokio::task::spawn_blocking(move || {
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        strata_with_env(&["bot"], &env)
    })
    .await
    .unwrap();
    BotRun { success: output.status.success(), stderr: String::from_utf8_lossy(&output.stderr).into() }
}

/// Every API request carried the token and the API version; the storage host never saw the token.
async fn assert_token_only_sent_to_the_api(github: &FakeGitHub) {
    for request in github.requests().await {
        assert_eq!(request.headers.get("x-github-api-version").unwrap(), "2022-11-28", "{}", request.url);
        assert_eq!(request.headers.get("authorization").unwrap().to_str().unwrap(), format!("Bearer {TOKEN}"));
    }
    let downloads = github.storage.received_requests().await.unwrap();
    assert_eq!(downloads.len(), 1, "the zip is downloaded once");
    for request in downloads {
        assert!(request.headers.get("authorization").is_none(), "the token was sent to the storage host");
        for value in request.headers.values() {
            assert!(!value.to_str().unwrap_or_default().contains(TOKEN));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_an_issue_comment_with_links_at_the_indexed_commit() {
    let (index, zip) = shop_index();
    let github = FakeGitHub::with_index(zip.clone()).await;
    let outcome = run_bot(&github, &event("/ask Where is PaymentGateway defined?", "OWNER", false), &[]).await;
    assert!(outcome.success, "{}", outcome.stderr);
    assert_eq!(github.reactions().await, ["eyes", "rocket"]);
    let comments = github.comments().await;
    assert_eq!(comments.len(), 1, "exactly one new comment");
    let body = &comments[0];
    let commit = index.report["commit"].as_str().unwrap();
    assert!(
        body.contains(&format!("(https://github.com/gagbo/ouro-closures/blob/{commit}/shop/payments/gateway.py#L")),
        "{body}"
    );
    assert!(body.contains(&format!("Index of commit [`{}`]", &commit[..12])), "{body}");
    assert!(body.contains("built ") && body.contains(" ago"), "the index age is shown: {body}");
    // Issue 30, Low 3: the footer said "strata 0.0.0" (the library crates had no version).
    assert!(body.contains(&format!("<sub>strata {}: exact answer", env!("CARGO_PKG_VERSION"))), "{body}");
    assert!(
        body.starts_with("<!-- strata:answer question=1633968123 subject=shop/payments/gateway.py asker=alice -->\n"),
        "{body}"
    );
    assert!(!body.starts_with('/') && !body.contains(TOKEN));
    assert_token_only_sent_to_the_api(&github).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_on_a_pull_request_and_keeps_sources_in_details() {
    let (_, zip) = shop_index();
    let github = FakeGitHub::with_index(zip.clone()).await;
    let outcome = run_bot(&github, &event("/ask How are failed payment charges retried?", "MEMBER", true), &[]).await;
    assert!(outcome.success, "{}", outcome.stderr);
    let comments = github.comments().await;
    assert_eq!(comments.len(), 1);
    assert!(comments[0].contains("<details><summary>Sources:"), "{}", comments[0]);
    assert!(comments[0].contains("shop/payments/gateway.py"), "{}", comments[0]);
    assert_eq!(github.reactions().await, ["eyes", "rocket"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forks_newer_artifact_with_the_same_name_is_ignored() {
    let (index, zip) = shop_index();
    let github = FakeGitHub::start().await;
    let commit = index.report["commit"].as_str().unwrap();
    // Newest first: a fork's run on a same-named branch, then the trusted run.
    github
        .runs(json!([run(999, 4242, "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0"), run(RUN_ID, REPOSITORY_ID, commit)]))
        .await;
    let mut poisoned = artifacts(999, 666, false, 10);
    poisoned["artifacts"][0]["workflow_run"]["head_repository_id"] = json!(4242);
    github.artifacts(999, poisoned).await;
    github.zip(666, zip_of(&[("manifest.json", b"{\"poisoned\": true}")])).await;
    github.artifacts(RUN_ID, artifacts(RUN_ID, ARTIFACT_ID, false, zip.len() as u64)).await;
    github.zip(ARTIFACT_ID, zip.clone()).await;
    github.reactions_and_comments().await;
    let outcome = run_bot(&github, &event("/ask where is Cart defined?", "OWNER", false), &[]).await;
    assert!(outcome.success, "{}", outcome.stderr);
    let paths: Vec<String> = github.requests().await.iter().map(|r| r.url.path().to_string()).collect();
    assert!(!paths.iter().any(|p| p.contains("/runs/999/") || p.contains("/artifacts/666")), "{paths:?}");
    assert!(github.comments().await[0].contains("shop/cart.py"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_comments_bots_and_untrusted_authors_cost_no_api_call() {
    for (body, association, kind) in [
        ("Thanks, looks good!", "OWNER", "User"),
        ("/ask what imports shop/cart.py?", "OWNER", "Bot"),
        ("/ask what imports shop/cart.py?", "NONE", "User"),
        ("/ask what imports shop/cart.py?", "CONTRIBUTOR", "User"),
    ] {
        let github = FakeGitHub::start().await;
        let mut event = event(body, association, false);
        event["comment"]["user"]["type"] = json!(kind);
        event["sender"]["type"] = json!(kind);
        let outcome = run_bot(&github, &event, &[]).await;
        assert!(outcome.success, "{body} by {kind} {association}: {}", outcome.stderr);
        assert!(github.requests().await.is_empty(), "{body} by {kind} {association} made API calls");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collaborator_outside_the_associations_is_confirmed_by_the_permission_api() {
    let (_, zip) = shop_index();
    let github = FakeGitHub::with_index(zip.clone()).await;
    Mock::given(method("GET"))
        .and(path(format!("{REPO}/collaborators/alice/permission")))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"permission": "write", "role_name": "write"})))
        .expect(1)
        .mount(&github.api)
        .await;
    let outcome = run_bot(
        &github,
        &event("/ask where is Cart defined?", "CONTRIBUTOR", false),
        &[("STRATA_CHECK_PERMISSION", "true")],
    )
    .await;
    assert!(outcome.success, "{}", outcome.stderr);
    assert_eq!(github.comments().await.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_index_yet_and_an_expired_index_get_an_actionable_reply() {
    let github = FakeGitHub::start().await;
    github.runs(json!([])).await;
    github.reactions_and_comments().await;
    let outcome = run_bot(&github, &event("/ask what imports shop/cart.py?", "OWNER", false), &[]).await;
    assert!(outcome.success, "being told is not a failure: {}", outcome.stderr);
    assert_eq!(github.reactions().await, ["eyes", "confused"]);
    let comments = github.comments().await;
    assert!(comments[0].contains("there is no index yet") && comments[0].contains("Push to `trunk`"), "{comments:?}");

    let github = FakeGitHub::start().await;
    github.runs(json!([run(RUN_ID, REPOSITORY_ID, "0123456789abcdef0123456789abcdef01234567")])).await;
    github.artifacts(RUN_ID, artifacts(RUN_ID, ARTIFACT_ID, true, 100)).await;
    github.reactions_and_comments().await;
    let outcome = run_bot(&github, &event("/ask what imports shop/cart.py?", "OWNER", false), &[]).await;
    assert!(outcome.success, "{}", outcome.stderr);
    let comments = github.comments().await;
    assert!(comments[0].contains("has expired") && comments[0].contains("0123456789ab"), "{comments:?}");
    assert!(!github.requests().await.iter().any(|r| r.url.path().ends_with("/zip")), "an expired zip is not fetched");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_question_gets_usage_help() {
    let github = FakeGitHub::start().await;
    github.reactions_and_comments().await;
    let outcome = run_bot(&github, &event("/ask   ", "OWNER", false), &[]).await;
    assert!(outcome.success, "{}", outcome.stderr);
    assert!(github.comments().await[0].contains("the question is empty"));
    assert_eq!(github.reactions().await, ["eyes", "confused"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unsafe_archives_are_refused() {
    let bomb = zip_of(&[("manifest.json", &vec![b' '; 200_000])]);
    let mut link = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    link.add_symlink("manifest.json", "/etc/passwd", SimpleFileOptions::default()).unwrap();
    let link = link.finish().unwrap().into_inner();
    for (name, zip, expected) in [
        ("zip-slip", zip_of(&[("../../escaped.json", b"{}")]), "unsafe path"),
        ("symlink", link, "symbolic link"),
        ("oversized", bomb, "more than 100000 bytes"),
    ] {
        let github = FakeGitHub::with_index(zip).await;
        let outcome = run_bot(
            &github,
            &event("/ask what imports shop/cart.py?", "OWNER", false),
            &[("STRATA_MAX_ARTIFACT_BYTES", "100000")],
        )
        .await;
        assert!(!outcome.success, "{name} was accepted");
        let comments = github.comments().await;
        assert_eq!(comments.len(), 1, "{name}");
        assert!(comments[0].contains("refused") && comments[0].contains(expected), "{name}: {comments:?}");
        assert_eq!(github.reactions().await, ["eyes", "confused"], "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limited_request_is_retried_after_retry_after() {
    let (_, zip) = shop_index();
    let github = FakeGitHub::start().await;
    Mock::given(method("GET"))
        .and(path(format!("{REPO}/actions/workflows/strata-index.yml/runs")))
        .respond_with(
            ResponseTemplate::new(403)
                .insert_header("retry-after", "1")
                .set_body_json(json!({"message": "You have exceeded a secondary rate limit."})),
        )
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&github.api)
        .await;
    let commit = shop_index().0.report["commit"].as_str().unwrap().to_string();
    github.runs(json!([run(RUN_ID, REPOSITORY_ID, &commit)])).await;
    github.artifacts(RUN_ID, artifacts(RUN_ID, ARTIFACT_ID, false, zip.len() as u64)).await;
    github.zip(ARTIFACT_ID, zip.clone()).await;
    github.reactions_and_comments().await;
    let started = std::time::Instant::now();
    let outcome = run_bot(&github, &event("/ask where is Cart defined?", "OWNER", false), &[]).await;
    assert!(outcome.success, "{}", outcome.stderr);
    let runs_calls = github.requests().await.iter().filter(|r| r.url.path().ends_with("/runs")).count();
    assert_eq!(runs_calls, 2, "one 403, one retry");
    assert!(started.elapsed() >= std::time::Duration::from_secs(1), "waited for retry-after");
    assert_eq!(github.comments().await.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secondary_rate_limit_without_headers_waits_and_retries_once() {
    let (_, zip) = shop_index();
    let github = FakeGitHub::start().await;
    // GitHub's secondary limit: a 403 whose only signal is the message.
    Mock::given(method("GET"))
        .and(path(format!("{REPO}/actions/workflows/strata-index.yml/runs")))
        .respond_with(ResponseTemplate::new(403).set_body_json(json!({
            "message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
            "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"
        })))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&github.api)
        .await;
    let commit = shop_index().0.report["commit"].as_str().unwrap().to_string();
    github.runs(json!([run(RUN_ID, REPOSITORY_ID, &commit)])).await;
    github.artifacts(RUN_ID, artifacts(RUN_ID, ARTIFACT_ID, false, zip.len() as u64)).await;
    github.zip(ARTIFACT_ID, zip.clone()).await;
    github.reactions_and_comments().await;
    let started = std::time::Instant::now();
    let outcome = run_bot(
        &github,
        &event("/ask where is Cart defined?", "OWNER", false),
        &[("STRATA_SECONDARY_RATE_LIMIT_WAIT", "1")],
    )
    .await;
    assert!(outcome.success, "{}", outcome.stderr);
    let runs_calls = github.requests().await.iter().filter(|r| r.url.path().ends_with("/runs")).count();
    assert_eq!(runs_calls, 2, "one 403, one retry");
    assert!(started.elapsed() >= std::time::Duration::from_secs(1), "waited before the retry");
    assert_eq!(github.comments().await.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_403_is_a_refusal_and_is_not_retried() {
    let github = FakeGitHub::start().await;
    Mock::given(method("GET"))
        .and(path(format!("{REPO}/actions/workflows/strata-index.yml/runs")))
        .respond_with(
            ResponseTemplate::new(403).set_body_json(json!({"message": "Resource not accessible by integration"})),
        )
        .mount(&github.api)
        .await;
    github.reactions_and_comments().await;
    let outcome = run_bot(
        &github,
        &event("/ask where is Cart defined?", "OWNER", false),
        &[("STRATA_SECONDARY_RATE_LIMIT_WAIT", "1")],
    )
    .await;
    assert!(!outcome.success);
    let runs_calls = github.requests().await.iter().filter(|r| r.url.path().ends_with("/runs")).count();
    assert_eq!(runs_calls, 1, "a refusal is final");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_error_on_the_answer_post_is_never_retried() {
    let (_, zip) = shop_index();
    let github = FakeGitHub::start().await;
    let commit = shop_index().0.report["commit"].as_str().unwrap().to_string();
    github.runs(json!([run(RUN_ID, REPOSITORY_ID, &commit)])).await;
    github.artifacts(RUN_ID, artifacts(RUN_ID, ARTIFACT_ID, false, zip.len() as u64)).await;
    github.zip(ARTIFACT_ID, zip.clone()).await;
    Mock::given(method("POST"))
        .and(path_regex(r"/reactions$"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({"id": 1})))
        .mount(&github.api)
        .await;
    Mock::given(method("POST"))
        .and(path(format!("{REPO}/issues/1/comments")))
        .respond_with(ResponseTemplate::new(500).set_body_json(json!({"message": "Server Error"})))
        .mount(&github.api)
        .await;
    let outcome = run_bot(&github, &event("/ask where is Cart defined?", "OWNER", false), &[]).await;
    assert!(!outcome.success);
    assert_eq!(github.comments().await.len(), 1, "the answer was posted once, not retried");
    assert_eq!(github.reactions().await, ["eyes", "confused"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follow_up_resolves_it_from_the_previous_answer() {
    let (_, zip) = shop_index();
    let github = FakeGitHub::with_index(zip.clone()).await;
    let previous = "<!-- strata:answer question=1 subject=shop/cart.py -->\n`Cart` is defined in `shop/cart.py`.";
    Mock::given(method("GET"))
        .and(path(format!("{REPO}/issues/1/comments")))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([
            {"id": 1, "body": "/ask where is Cart defined?", "user": {"login": "alice", "type": "User"}},
            {"id": 2, "body": previous, "user": {"login": "github-actions[bot]", "type": "Bot"}},
            {"id": 3, "body": "<!-- strata:answer question=9 subject=shop/api.py -->", "user": {"login": "mallory", "type": "User"}},
            // Another app's comment is not this bot's answer, even with a marker.
            {"id": 4, "body": "<!-- strata:answer question=9 subject=shop/api.py -->", "user": {"login": "other-app[bot]", "type": "Bot"}}
        ])))
        .expect(2)
        .mount(&github.api)
        .await;
    let outcome = run_bot(&github, &event("/ask what imports it?", "OWNER", false), &[]).await;
    assert!(outcome.success, "{}", outcome.stderr);
    let body = &github.comments().await[0];
    // The subject is this bot's answer's, not the newer marker of a user or another app.
    assert!(body.contains("import `shop/cart.py` directly"), "{body}");
}

/// `strata fetch --out OUT` against the fake GitHub, which also answers the repository lookup.
async fn fetch(github: &FakeGitHub, out: &Path) -> std::process::Output {
    Mock::given(method("GET"))
        .and(path(REPO))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"id": REPOSITORY_ID, "default_branch": DEFAULT_BRANCH})),
        )
        .mount(&github.api)
        .await;
    github.catch_all().await;
    let (api_url, out_arg) = (github.api.uri(), out.to_str().unwrap().to_string());
    tokio::task::spawn_blocking(move || {
        strata_with_env(
            &["fetch", "--out", &out_arg],
            &[("GITHUB_REPOSITORY", "gagbo/ouro-closures"), ("GITHUB_TOKEN", TOKEN), ("GITHUB_API_URL", &api_url)],
        )
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_unpacks_the_latest_index_for_an_incremental_run() {
    let (_, zip) = shop_index();
    let github = FakeGitHub::with_index(zip.clone()).await;
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("previous");
    let output = fetch(&github, &out).await;
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(out.join("manifest.json").is_file() && out.join("lancedb").is_dir());
    let repo = Repo::git("shop");
    let incremental = index(repo.path(), &["--previous", out.to_str().unwrap()]);
    assert_eq!(incremental.report["previous"], "used");
    assert_eq!(incremental.report["n_files_parsed"], 0);
    assert_token_only_sent_to_the_api(&github).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_warns_and_leaves_nothing_when_the_artifact_is_refused_or_damaged() {
    let unsafe_zip = zip_of(&[("manifest.json", b"{}"), ("../escaped.txt", b"x")]);
    let no_manifest = zip_of(&[("lancedb/x", b"rows")]);
    for (name, zip, expected) in [
        ("unsafe", unsafe_zip, "unsafe path"),
        ("not a zip", b"PK-not-really-a-zip".to_vec(), "not a zip"),
        ("no manifest", no_manifest, "no valid manifest"),
    ] {
        let github = FakeGitHub::with_index(zip).await;
        let dir = TempDir::new().unwrap();
        let output = fetch(&github, &dir.path().join("previous")).await;
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{name}: a bad artifact must not stop the index workflow: {stderr}");
        assert!(stderr.contains("warning") && stderr.contains(expected), "{name}: {stderr}");
        assert!(stderr.contains("rebuilt from scratch"), "{name}: {stderr}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{name}: nothing half-written is left: {left:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redelivered_event_is_not_answered_twice() {
    let (_, zip) = shop_index();
    let github = FakeGitHub::with_index(zip.clone()).await;
    // The answer a first delivery posted; a user's comment quoting a marker does not count.
    let answer =
        "<!-- strata:answer question=1633968123 subject=shop/cart.py -->\n`Cart` is defined in `shop/cart.py`.";
    Mock::given(method("GET"))
        .and(path(format!("{REPO}/issues/1/comments")))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([
            {"id": 1633968123, "body": "/ask where is Cart defined?", "user": {"login": "alice", "type": "User"}},
            {"id": 77, "body": answer, "user": {"login": "github-actions[bot]", "type": "Bot"}}
        ])))
        .mount(&github.api)
        .await;
    let outcome = run_bot(&github, &event("/ask where is Cart defined?", "OWNER", false), &[]).await;
    assert!(outcome.success, "{}", outcome.stderr);
    assert!(outcome.stderr.contains("comment 77 already answers"), "{}", outcome.stderr);
    assert!(github.comments().await.is_empty(), "no second answer");
    assert!(github.reactions().await.is_empty(), "no second reaction");
    assert!(github.storage.received_requests().await.unwrap().is_empty(), "no index downloaded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_marker_from_a_user_or_another_bot_does_not_stop_the_answer() {
    let (_, zip) = shop_index();
    let github = FakeGitHub::with_index(zip.clone()).await;
    let forged = "<!-- strata:answer question=1633968123 subject=shop/cart.py -->";
    Mock::given(method("GET"))
        .and(path(format!("{REPO}/issues/1/comments")))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([
            {"id": 5, "body": forged, "user": {"login": "mallory", "type": "User"}},
            {"id": 6, "body": forged, "user": {"login": "other-app[bot]", "type": "Bot"}}
        ])))
        .mount(&github.api)
        .await;
    let outcome = run_bot(&github, &event("/ask where is Cart defined?", "OWNER", false), &[]).await;
    assert!(outcome.success, "{}", outcome.stderr);
    assert_eq!(github.comments().await.len(), 1);
}
