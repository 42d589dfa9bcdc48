//! `/ask` about "this PR" against the fake GitHub: the bot lists the pull request's files through the
//! API, reads only the blobs the default branch's index lacks (base64 in lines, as GitHub sends
//! them), lays them over the index and answers from the impact. A fork's pull request is read from
//! the base repository alone; on an issue such a question says it needs a pull request.

use std::sync::OnceLock;

use base64::Engine;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

use crate::bot::{FIXTURES, FakeGitHub, REPO, TOKEN, event, run_bot, zip_dir};
use crate::impact::base_repo;
use crate::support::{Repo, index};

/// The base commit indexed and zipped, and the head commit's repository with the files list GitHub
/// would give for the pull request and the blobs it would serve.
struct PullFixture {
    base_commit: String,
    zip: Vec<u8>,
    head: String,
    files: Value,
    /// (blob id, bytes) of every file the head adds or modifies.
    blobs: Vec<(String, Vec<u8>)>,
    /// Blob ids the base index already holds (a file moved as it was).
    known: Vec<String>,
}

fn fixture() -> &'static PullFixture {
    static FIXTURE: OnceLock<PullFixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let repo = base_repo();
        let base = index(repo.path(), &[]);
        let base_commit = repo.head();
        let zip = zip_dir(&base.dir);
        // pricing now imports api, which grows the models ↔ cart cycle to four modules; a new module;
        // legacy moved as it is; the gateway deleted while a test imports it; a README edit.
        repo.write("shop/pricing.py", "from shop.utils import round_money\nfrom shop import api\n");
        repo.write("shop/discounts.py", "from shop.pricing import round_money\n");
        repo.rename("shop/legacy.py", "shop/old.py");
        repo.write("tests/test_legacy.py", "from shop.old import X\n");
        let gateway_blob = repo.blob_id("shop/payments/gateway.py");
        repo.remove("shop/payments/gateway.py");
        repo.write("README.md", "# shop\n");
        repo.commit_all("head");
        let template = github_fixture("pull_request_files.json");
        let entry = |filename: &str, status: &str, sha: &str, previous: Option<&str>| {
            let mut file = template[0].clone();
            file["filename"] = json!(filename);
            file["status"] = json!(status);
            file["sha"] = json!(sha);
            if let Some(previous) = previous {
                file["previous_filename"] = json!(previous);
            }
            file
        };
        let written = ["shop/pricing.py", "shop/discounts.py", "tests/test_legacy.py", "README.md"];
        let blobs: Vec<(String, Vec<u8>)> =
            written.iter().map(|file| (repo.blob_id(file), std::fs::read(repo.path().join(file)).unwrap())).collect();
        let old = repo.blob_id("shop/old.py");
        let files = json!([
            entry("README.md", "modified", &blobs[3].0, None),
            entry("shop/discounts.py", "added", &blobs[1].0, None),
            entry("shop/old.py", "renamed", &old, Some("shop/legacy.py")),
            entry("shop/payments/gateway.py", "removed", &gateway_blob, None),
            entry("shop/pricing.py", "modified", &blobs[0].0, None),
            entry("tests/test_legacy.py", "modified", &blobs[2].0, None),
        ]);
        let head = repo.head();
        std::mem::forget(repo);
        PullFixture { base_commit, zip, head, files, blobs, known: vec![old] }
    })
}

/// The fake GitHub with the index, the pull request (its head in `head_repository`) and its files.
async fn github_with_pull(head_repository: &str) -> FakeGitHub {
    let fixture = fixture();
    let github = FakeGitHub::with_index_of(&fixture.base_commit, fixture.zip.clone()).await;
    let mut pull = github_fixture("pull_request.json");
    pull["head"]["sha"] = json!(fixture.head);
    pull["head"]["repo"]["full_name"] = json!(head_repository);
    pull["head"]["repo"]["fork"] = json!(head_repository != "gagbo/ouro-closures");
    mount_pull(&github, pull, fixture.files.clone()).await;
    let template = github_fixture("git_blob.json");
    for (sha, bytes) in &fixture.blobs {
        let mut blob = template.clone();
        blob["sha"] = json!(sha);
        blob["size"] = json!(bytes.len());
        blob["content"] = json!(github_base64(bytes));
        Mock::given(method("GET"))
            .and(path(format!("{REPO}/git/blobs/{sha}")))
            .respond_with(json_response(blob))
            .mount(&github.api)
            .await;
    }
    github
}

/// Pull request 1 and its files listing.
async fn mount_pull(github: &FakeGitHub, pull: Value, files: Value) {
    Mock::given(method("GET"))
        .and(path(format!("{REPO}/pulls/1")))
        .respond_with(json_response(pull))
        .mount(&github.api)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("{REPO}/pulls/1/files")))
        .respond_with(json_response(files))
        .mount(&github.api)
        .await;
}

/// A real-shaped payload from `tests/fixtures/github/`.
fn github_fixture(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(format!("{FIXTURES}/{name}")).unwrap()).unwrap()
}

fn json_response(body: Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(body)
}

/// Base64 wrapped at 60 characters with a final newline, as the blobs API sends it.
fn github_base64(bytes: &[u8]) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
    let mut wrapped = String::new();
    for line in encoded.as_bytes().chunks(60) {
        wrapped.push_str(std::str::from_utf8(line).unwrap());
        wrapped.push('\n');
    }
    wrapped
}

async fn ask_on_pull(github: &FakeGitHub, question: &str) -> String {
    let outcome = run_bot(github, &event(&format!("/ask {question}"), "OWNER", true), &[]).await;
    assert!(outcome.success, "{}", outcome.stderr);
    let comments = github.comments().await;
    assert_eq!(comments.len(), 1);
    comments[0].clone()
}

/// Paths the bot requested from the API.
async fn requested(github: &FakeGitHub) -> Vec<String> {
    github.requests().await.iter().map(|r| r.url.path().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_pull_request_affects_comes_from_its_files_laid_over_the_index() {
    let fixture = fixture();
    let github = github_with_pull("gagbo/ouro-closures").await;
    let body = ask_on_pull(&github, "What does this PR affect?").await;
    assert!(body.contains("depend on this change through imports"), "{body}");
    assert!(body.contains("`tests/test_api.py` → `shop/api.py` → `shop/cart.py` → `shop/pricing.py`"), "{body}");
    assert!(body.contains("1 added, 1 removed, 1 renamed"), "{body}");
    // Cited modules link to the pull request's head, and the footer names both commits.
    let link = format!("(https://github.com/gagbo/ouro-closures/blob/{}/shop/pricing.py)", fixture.head);
    assert!(body.contains(&link), "{body}");
    assert!(body.contains(&format!("Pull request head [`{}`]", &fixture.head[..12])), "{body}");
    assert!(body.contains(&format!("Index of commit [`{}`]", &fixture.base_commit[..12])), "{body}");
    // Only the blobs the index lacks were read, and never the README's (not Python) or the moved file's.
    let paths = requested(&github).await;
    let blob_reads: Vec<&String> = paths.iter().filter(|p| p.contains("/git/blobs/")).collect();
    assert_eq!(blob_reads.len(), 3, "{paths:?}");
    assert!(!paths.iter().any(|p| p.ends_with(&fixture.known[0]) || p.ends_with(&fixture.blobs[3].0)), "{paths:?}");
    assert!(!body.contains(TOKEN));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn which_tests_to_run_and_whether_a_cycle_grows() {
    let github = github_with_pull("gagbo/ouro-closures").await;
    let body = ask_on_pull(&github, "which tests should I run?").await;
    // Through a chain of imports, a changed test, and the importer of a deleted module.
    assert!(body.contains("pytest tests/test_api.py tests/test_gateway.py tests/test_legacy.py"), "{body}");

    let github = github_with_pull("gagbo/ouro-closures").await;
    let body = ask_on_pull(&github, "Does this change add an import cycle?").await;
    assert!(body.starts_with("<!-- strata:answer"), "{body}");
    let answer = body.lines().nth(1).unwrap();
    // Prose is escaped in comments (`\.`, `\(`).
    assert!(answer.starts_with("Yes\\. "), "{body}");
    assert!(body.contains("Grown cycle \\(2 → 4 modules\\): `shop/api.py`, `shop/cart.py`"), "{body}");

    let github = github_with_pull("gagbo/ouro-closures").await;
    let body = ask_on_pull(&github, "will my changes break anything?").await;
    assert!(body.contains("Yes\\. These modules import a module this change removes"), "{body}");
    assert!(body.contains("`tests/test_gateway.py` imports `shop.payments.gateway` \\(line 1\\)"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forks_pull_request_is_read_from_the_base_repository_only() {
    let github = github_with_pull("mallory/ouro-closures").await;
    let body = ask_on_pull(&github, "what imports the files I changed?").await;
    assert!(body.contains("`shop/cart.py` imports `shop/pricing.py`"), "{body}");
    assert!(body.contains("`shop/discounts.py`"), "{body}");
    let paths = requested(&github).await;
    assert!(paths.iter().all(|p| !p.contains("mallory")), "a call went to the fork: {paths:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_an_issue_a_question_about_this_pr_says_it_needs_one() {
    let fixture = fixture();
    let github = FakeGitHub::with_index_of(&fixture.base_commit, fixture.zip.clone()).await;
    let outcome = run_bot(&github, &event("/ask what does this PR affect?", "OWNER", false), &[]).await;
    assert!(outcome.success, "{}", outcome.stderr);
    let body = &github.comments().await[0];
    assert!(body.contains("about a pull request's change"), "{body}");
    assert!(!requested(&github).await.iter().any(|p| p.contains("/pulls/")));
}

/// A repository whose default-branch index predates the selection record cannot see a change: the
/// reply says what to do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_index_without_a_selection_record_asks_for_a_fresh_index() {
    let fixture = fixture();
    let repo = Repo::git("shop");
    let old = index(repo.path(), &[]);
    let manifest_path = old.dir.join("manifest.json");
    let mut manifest: Value = serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
    manifest.as_object_mut().unwrap().remove("selection");
    std::fs::write(&manifest_path, serde_json::to_vec_pretty(&manifest).unwrap()).unwrap();
    let github = FakeGitHub::with_index_of(&fixture.base_commit, zip_dir(&old.dir)).await;
    mount_pull(&github, github_fixture("pull_request.json"), fixture.files.clone()).await;
    let outcome = run_bot(&github, &event("/ask which tests should I run?", "OWNER", true), &[]).await;
    assert!(!outcome.success);
    let body = &github.comments().await[0];
    assert!(body.contains("older strata"), "{body}");
}
