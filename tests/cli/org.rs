//! An organisation's repositories in one object-store prefix (`index --org`, `ask --org`), against a
//! real S3 server (see `object_store.rs`): imports between repositories, incremental re-indexing from
//! the catalog's version, old versions removed, and catalog commits that lose to another writer,
//! injected deterministically (the other writer commits between this one's read and its put).

use std::cell::Cell;

use serde_json::Value;
use strata_core::org::Catalog;
use strata_search::location::{CommitRetry, ObjectLocation, OrgStore, S3Settings};

use crate::object_store::{S3Server, bucket, http, s3_server, strata_s3, succeeded};
use crate::support::Repo;

fn repo(files: &[(&str, &str)]) -> Repo {
    let repo = Repo::empty_git();
    for (path, content) in files {
        repo.write(path, content);
    }
    repo.commit_all("first");
    repo
}

fn auth() -> Repo {
    repo(&[
        ("acme_auth/__init__.py", "from .tokens import issue\n"),
        ("acme_auth/tokens.py", "\"\"\"Issue tokens.\"\"\"\n\ndef issue(user):\n    return f'token-{user}'\n"),
        ("acme_auth/util.py", "import os\n"),
    ])
}

fn billing() -> Repo {
    repo(&[
        ("billing/__init__.py", ""),
        (
            "billing/invoice.py",
            "from acme_auth import tokens\nimport acme_auth.util\nimport requests\n\ndef bill(user):\n    return tokens.issue(user)\n",
        ),
        ("billing/app.py", "from billing import invoice\n"),
    ])
}

fn index_org(server: &S3Server, repo: &Repo, org: &str, name: &str) -> Value {
    let args = ["index", repo.path().to_str().unwrap(), "--org", org, "--name", name, "--json"];
    serde_json::from_str(&succeeded(&strata_s3(server, &args), "strata index --org")).unwrap()
}

fn ask_org(server: &S3Server, org: &str, question: &str) -> Value {
    let output = strata_s3(server, &["ask", "--org", org, "--format", "json", question]);
    serde_json::from_str(&succeeded(&output, "strata ask --org")).unwrap()
}

fn store(server: &S3Server, bucket: &str) -> OrgStore {
    let settings = S3Settings {
        endpoint: Some(server.endpoint.clone()),
        region: Some("us-east-1".to_string()),
        allow_http: true,
        credentials: Some(("testing".to_string(), "testing".to_string())),
        profile: None,
    };
    OrgStore::open_with(&ObjectLocation { bucket: bucket.to_string(), prefix: "acme".to_string() }, settings).unwrap()
}

fn catalog(store: &OrgStore) -> Catalog {
    tokio::runtime::Runtime::new().unwrap().block_on(store.catalog()).unwrap().0
}

#[test]
fn repositories_indexed_into_one_store_are_answered_across() {
    let Some(server) = s3_server() else { return };
    let bucket = bucket(&server, "org");
    let org = format!("s3://{bucket}/acme");
    let (auth, billing) = (auth(), billing());

    let first = index_org(&server, &auth, &org, "auth");
    assert_eq!(first["org"]["generation"], 1, "{first}");
    assert_eq!(first["org"]["cross_imports"], 0);
    let second = index_org(&server, &billing, &org, "billing");
    assert_eq!((second["org"]["generation"].as_u64(), second["org"]["repositories"].as_u64()), (Some(2), Some(2)));
    assert_eq!(second["org"]["cross_imports"], 2, "invoice imports tokens and util: {second}");

    let store = store(&server, &bucket);
    let written = catalog(&store);
    assert_eq!(written.repositories.keys().collect::<Vec<_>>(), ["auth", "billing"]);
    assert_eq!(written.repositories["auth"].packages, ["acme_auth"]);
    assert_eq!(written.repositories["billing"].imports_packages, ["acme_auth", "requests"]);
    let imports: Vec<(&str, &str, &str)> = written
        .cross_imports
        .iter()
        .map(|i| (i.importer_repo.as_str(), i.importer.as_str(), i.imported.as_str()))
        .collect();
    assert_eq!(
        imports,
        [
            ("billing", "billing/invoice.py", "acme_auth/tokens.py"),
            ("billing", "billing/invoice.py", "acme_auth/util.py")
        ]
    );
    assert_eq!(written.cross_imports[0].resolved_at.as_deref(), Some(auth.head().as_str()));

    // Structural questions across repositories, exact, citing the repository and path.
    let answer = ask_org(&server, &org, "What imports acme_auth.tokens?");
    assert_eq!(answer["mode"], "structural", "{answer}");
    let cited: Vec<&str> =
        answer["citations"].as_array().unwrap().iter().map(|c| c["path"].as_str().unwrap()).collect();
    assert!(
        cited.contains(&"billing/billing/invoice.py") && cited.contains(&"auth/acme_auth/__init__.py"),
        "{cited:?}"
    );
    assert!(answer["storage"]["requests"].as_u64().unwrap() > 0, "{answer}");
    let answer = ask_org(&server, &org, "Which repositories import acme_auth?");
    let text = answer["answer"].as_str().unwrap();
    assert!(text.starts_with("1 repository (any module of `auth/acme_auth`): **billing** (1)"), "{text}");
    let answer = ask_org(&server, &org, "What in other repositories depends on acme_auth.tokens?");
    let text = answer["answer"].as_str().unwrap();
    assert!(text.starts_with("1 repository outside `auth`: **billing** (2)"), "{text}");
    // A question about code: searched in the repositories' own indexes, cited under the repository.
    let answer = ask_org(&server, &org, "How are tokens issued to a user?");
    assert_eq!(answer["mode"], "retrieval", "{answer}");
    assert!(answer["answer"].as_str().unwrap().starts_with("In **auth**: "), "{answer}");
    let modules: Vec<&str> =
        answer["context"].as_array().unwrap().iter().map(|c| c["module"].as_str().unwrap()).collect();
    assert_eq!(modules.first(), Some(&"auth/acme_auth/tokens.py"), "{answer}");
    // auth's tokens.py holds the words together: searched first, it answers, and billing (whose
    // invoice also issues tokens) is named next, not opened.
    let notes = answer["notes"].to_string();
    assert!(notes.contains("searched the code of auth: the first by their words of 2 repositories"), "{notes}");
    assert!(notes.contains("next by their words: billing"), "{notes}");
    let answer = ask_org(&server, &org, "Which module sends push notifications to phones?");
    assert_eq!(answer["mode"], "declined", "{answer}");

    // A change to auth, before it is indexed: what it affects in other repositories, with chains.
    auth.write("acme_auth/keys.py", "from acme_auth import tokens\n");
    auth.write("acme_auth/tokens.py", "def issue(user, scope=None):\n    return f'token-{user}'\n");
    auth.commit_all("keys");
    let path = auth.path().to_str().unwrap();
    let args = ["impact", path, "--org", &org, "--name", "auth", "--format", "json"];
    let impact: Value = serde_json::from_str(&succeeded(&strata_s3(&server, &args), "strata impact --org")).unwrap();
    let elsewhere: Vec<(&str, Vec<&str>)> = impact["other_repositories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (a["id"].as_str().unwrap(), a["via"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect())
        })
        .collect();
    assert_eq!(
        elsewhere,
        [
            (
                "billing/billing/app.py",
                vec!["billing/billing/app.py", "billing/billing/invoice.py", "auth/acme_auth/tokens.py"]
            ),
            ("billing/billing/invoice.py", vec!["billing/billing/invoice.py", "auth/acme_auth/tokens.py"]),
        ],
        "{impact}"
    );
    let args = ["impact", path, "--org", &org, "--name", "auth"];
    let markdown = succeeded(&strata_s3(&server, &args), "strata impact --org");
    assert!(markdown.contains("### In other repositories"), "{markdown}");
    assert!(markdown.contains("2 module(s) in other repositories affected."), "{markdown}");
    let args = ["impact", path, "--org", &org, "--name", "nobody"];
    let output = strata_s3(&server, &args);
    assert!(!output.status.success() && String::from_utf8_lossy(&output.stderr).contains("no repository nobody"));

    // Re-indexing starts from the version the catalog names and keeps the imports from billing.
    let third = index_org(&server, &auth, &org, "auth");
    assert_eq!(third["previous"], "used", "{third}");
    assert!(third["timings_ms"]["download"].is_u64(), "{third}");
    assert_eq!(third["n_files_reused"], 2, "{third}");
    assert_eq!((third["org"]["generation"].as_u64(), third["org"]["cross_imports"].as_u64()), (Some(3), Some(2)));
    assert_eq!(third["org"]["removed_files"], 0, "the replaced version stays for readers of the older catalog");
    let fourth = index_org(&server, &auth, &org, "auth");
    assert!(fourth["org"]["removed_files"].as_u64().unwrap() > 0, "{fourth}");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let first_files = runtime.block_on(store.index(first["org"]["index"].as_str().unwrap()).list()).unwrap();
    assert!(first_files.is_empty(), "the first version is gone: {first_files:?}");
    let third_files = runtime.block_on(store.index(third["org"]["index"].as_str().unwrap()).list()).unwrap();
    assert!(third_files.iter().any(|(name, _)| name == "manifest.json"), "the replaced version is kept");
    let written = catalog(&store);
    assert_eq!(written.cross_imports[0].resolved_at.as_deref(), Some(auth.head().as_str()));

    // An organisation lives on object storage only.
    let local = tempfile::tempdir().unwrap();
    let output = strata_s3(&server, &["index", auth.path().to_str().unwrap(), "--org", local.path().to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("needs an object-store URL"));
}

#[test]
fn a_catalog_commit_that_loses_to_another_writer_100_times_loses_nothing() {
    let Some(server) = s3_server() else { return };
    let bucket = bucket(&server, "conflicts");
    let org = format!("s3://{bucket}/acme");
    let (auth, billing, other) =
        (auth(), billing(), repo(&[("tools/__init__.py", ""), ("tools/log.py", "import logging\n")]));
    index_org(&server, &auth, &org, "auth");
    index_org(&server, &billing, &org, "billing");
    index_org(&server, &other, &org, "tools");
    let store = store(&server, &bucket);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let before = runtime.block_on(store.catalog()).unwrap().0;
    let (auth_bundle, auth_facts) = runtime.block_on(store.repository("auth", &before.repositories["auth"])).unwrap();
    let tools = before.repositories["tools"].clone();
    let (tools_bundle, tools_facts) = runtime.block_on(store.repository("tools", &tools)).unwrap();
    let mut auth_entry = before.repositories["auth"].clone();
    auth_entry.commit = Some("feedface".to_string());

    // Writer A records auth; before each of its first 100 puts, writer B records another repository.
    let injected = Cell::new(0);
    let no_pause =
        CommitRetry { attempts: 200, pause: std::time::Duration::ZERO, max_pause: std::time::Duration::ZERO };
    let committed = runtime
        .block_on(store.commit(
            |current| {
                let k = injected.get();
                let (store, tools, tools_bundle, tools_facts) = (&store, &tools, &tools_bundle, &tools_facts);
                let (auth_entry, auth_bundle, auth_facts) = (&auth_entry, &auth_bundle, &auth_facts);
                let injected = &injected;
                async move {
                    if k < 100 {
                        injected.set(k + 1);
                        let name = format!("tools-{k}");
                        store.commit_repository(&name, tools, tools_bundle, tools_facts, no_pause).await?;
                    }
                    store.catalog_with(current, "auth", auth_entry, auth_bundle, auth_facts).await
                }
            },
            no_pause,
        ))
        .unwrap();
    assert_eq!(committed.conflicts, 100);
    let after = runtime.block_on(store.catalog()).unwrap().0;
    assert_eq!(after, committed.catalog, "what was committed is what is stored");
    assert_eq!(after.generation, before.generation + 101);
    assert_eq!(after.repositories.len(), 103, "auth, billing, tools and the 100 others");
    assert!((0..100).all(|k| after.repositories.contains_key(&format!("tools-{k}"))));
    assert_eq!(after.repositories["auth"].commit.as_deref(), Some("feedface"));
    assert_eq!(after.cross_imports.len(), 2, "billing's imports of auth, resolved again");
    assert!(after.cross_imports.iter().all(|i| i.resolved_at.as_deref() == Some("feedface")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_answers_a_question_about_the_repositories_from_the_store() {
    use crate::bot::{FakeGitHub, event, run_bot, shop_index};
    let Some(server) = tokio::task::spawn_blocking(s3_server).await.unwrap() else { return };
    let bucket = bucket(&server, "bot");
    let org = format!("s3://{bucket}/acme");
    // This repository (the bot tests' `gagbo/ouro-closures`, the shop fixture) and one that imports it.
    let shop = Repo::git("shop");
    let billing = repo(&[("billing/__init__.py", ""), ("billing/invoice.py", "from shop import cart\n")]);
    let (shop_path, billing_path, org_url) = (shop.path().to_path_buf(), billing.path().to_path_buf(), org.clone());
    let endpoint = server.endpoint.clone();
    tokio::task::spawn_blocking(move || {
        let server = S3Server::at(&endpoint);
        for (path, name) in [(&shop_path, "ouro-closures"), (&billing_path, "billing")] {
            let args = ["index", path.to_str().unwrap(), "--org", &org_url, "--name", name, "--json"];
            succeeded(&strata_s3(&server, &args), "strata index --org");
        }
    })
    .await
    .unwrap();

    let github = FakeGitHub::with_index(shop_index().1.clone()).await;
    let env = [
        ("STRATA_ORG", org.as_str()),
        ("AWS_ENDPOINT_URL", server.endpoint.as_str()),
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", "testing"),
        ("AWS_REGION", "us-east-1"),
    ];
    let outcome = run_bot(&github, &event("/ask Which repositories import shop.cart?", "OWNER", false), &env).await;
    assert!(outcome.success, "{}", outcome.stderr);
    let comments = github.comments().await;
    let body = &comments[0];
    assert!(body.contains("2 repositories: **billing**"), "{body}");
    let commit = billing.head();
    assert!(body.contains(&format!("(https://github.com/gagbo/billing/blob/{commit}/billing/invoice.py)")), "{body}");
    // The artifact was never needed: the store answered.
    let downloads = github.requests().await.iter().filter(|r| r.url.path().ends_with("/zip")).count();
    assert_eq!(downloads, 0);

    // Asking for repositories about code: searched in the repositories' own indexes, no artifact.
    let github = FakeGitHub::with_index(shop_index().1.clone()).await;
    let question = "/ask Which repositories retry failed payment charges?";
    let outcome = run_bot(&github, &event(question, "OWNER", false), &env).await;
    assert!(outcome.success, "{}", outcome.stderr);
    let body = &github.comments().await[0];
    assert!(body.contains("In **ouro\\-closures**: "), "{body}");
    assert!(
        body.contains("[`ouro-closures/shop/payments/gateway.py`](https://github.com/gagbo/ouro-closures/blob/"),
        "{body}"
    );
    let downloads = github.requests().await.iter().filter(|r| r.url.path().ends_with("/zip")).count();
    assert_eq!(downloads, 0);

    // Any other question is answered from this repository's artifact, as without a store.
    let github = FakeGitHub::with_index(shop_index().1.clone()).await;
    let outcome = run_bot(&github, &event("/ask Where is PaymentGateway defined?", "OWNER", false), &env).await;
    assert!(outcome.success, "{}", outcome.stderr);
    assert!(github.comments().await[0].contains("/gagbo/ouro-closures/blob/"), "answered from the artifact");
}

/// More repositories than are searched for one question: they are ranked on their lexicons, and only
/// the best by their words are opened and searched, so the one whose module holds the question's words
/// answers even when the question names no package.
#[test]
fn a_question_about_code_in_a_large_organisation_is_searched_where_its_words_are() {
    let Some(server) = s3_server() else { return };
    let bucket = bucket(&server, "many");
    let org = format!("s3://{bucket}/acme");
    let services = ["orders", "catalogue", "shipping", "reviews", "search", "payments"];
    for name in services {
        let body = match name {
            "payments" => {
                "\"\"\"Charge a card and refund a charge through the payment gateway.\"\"\"\n\ndef refund_charge(charge_id, amount):\n    return gateway_refund(charge_id, amount)\n\ndef gateway_refund(charge_id, amount):\n    return {'refunded': amount}\n"
            }
            _ => "\"\"\"Handlers of the service.\"\"\"\n\ndef handle(request):\n    return {'ok': True}\n",
        };
        let repo = repo(&[(&format!("{name}/__init__.py"), ""), (&format!("{name}/service.py"), body)]);
        index_org(&server, &repo, &org, name);
    }
    let answer = ask_org(&server, &org, "Where is a charge refunded through the gateway?");
    assert_eq!(answer["mode"], "retrieval", "{answer}");
    assert!(answer["answer"].as_str().unwrap().starts_with("In **payments**: "), "{answer}");
    let notes = answer["notes"].to_string();
    assert!(notes.contains("searched the code of payments: the first by their words of 6 repositories"), "{notes}");
    assert!(!notes.contains("next by their words"), "no other repository holds the words: {notes}");
    // Only payments holds the words, and only it is opened: the requests are the graph's (every
    // repository's bundle and facts), six lexicons, and one repository's search, not two.
    let requests = |answer: &Value| answer["storage"]["requests"].as_u64().unwrap();
    let read = requests(&answer);
    let graph = requests(&ask_org(&server, &org, "Which repositories import payments?"));
    let payments = &catalog(&store(&server, &bucket)).repositories["payments"].index;
    let index = format!("s3://{bucket}/acme/{payments}");
    let output = strata_s3(&server, &["ask", "--index", &index, "--format", "json", "Where is a charge refunded?"]);
    let one_search = requests(&serde_json::from_str(&succeeded(&output, "strata ask --index")).unwrap());
    assert!(read < graph + 6 + one_search + one_search / 2, "{read} requests: graph {graph}, one search {one_search}");
    // A question that names the repository is searched there, and the others' lexicons are not read
    // (nor their graphs: nothing imports payments).
    let named = ask_org(&server, &org, "Where does Payments refund a charge through the gateway?");
    assert!(named["answer"].as_str().unwrap().starts_with("In **payments**: "), "{named}");
    assert!(named["notes"].to_string().contains("searched the code of payments"), "{named}");
    assert!(requests(&named) < read, "{} requests named, {read} by words", requests(&named));
    // Words no repository holds: nothing is searched, and the organisation declines.
    let answer = ask_org(&server, &org, "Which module renders JavaScript in a headless browser?");
    assert_eq!(answer["mode"], "declined", "{answer}");
    let none = "I don't know: the code of the 6 repositories this question can be about holds none of its words.";
    assert_eq!(answer["answer"], none, "{answer}");
    // A repository whose lexicon is damaged cannot be searched: left out, and the question declined,
    // not an error.
    let path = format!("/{bucket}/acme/{payments}/lexicon.parquet");
    assert_eq!(http(&server.endpoint, "PUT", &path, b"not parquet").unwrap(), 200);
    let answer = ask_org(&server, &org, "Where is a charge refunded through the gateway?");
    assert_eq!(answer["mode"], "declined", "{answer}");
    assert_eq!(answer["answer"], none, "payments was opened: {answer}");
}
