//! Indexes on S3-compatible object storage, against a real S3 server over HTTP: moto's server
//! (`moto_server` from `moto[server]`, which `.ci/run` installs into `~/.cache/strata-ci-moto`),
//! started on 127.0.0.1 by each test, or the server at `STRATA_TEST_S3_ENDPOINT` (plain `http://`)
//! when that is set (a server that, like moto, does not check signatures: the tests damage objects with
//! plain requests). Nothing of the object-store client is mocked: `strata` itself talks to the
//! server. Without a server the tests say so and pass, except under CI (`CI=true`), where that is a
//! failure.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{Repo, index, strata_with_env};

/// A running S3 server, stopped on drop when the test started it.
pub(crate) struct S3Server {
    pub(crate) endpoint: String,
    child: Option<Child>,
}

impl S3Server {
    /// A server another test handle started (used from a blocking task); never stopped by this one.
    pub(crate) fn at(endpoint: &str) -> S3Server {
        S3Server { endpoint: endpoint.to_string(), child: None }
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The server the test runs against, or `None` (the test is skipped) when there is none outside CI.
pub(crate) fn s3_server() -> Option<S3Server> {
    if let Ok(endpoint) = std::env::var("STRATA_TEST_S3_ENDPOINT") {
        return Some(S3Server { endpoint: endpoint.trim_end_matches('/').to_string(), child: None });
    }
    let required = std::env::var("CI").is_ok_and(|value| value == "true");
    let started = moto_program().and_then(|program| start_moto(&program));
    assert!(
        started.is_some() || !required,
        "an S3 server is needed for the object-storage tests under CI: moto_server (`pip install 'moto[server]'`; .ci/run installs it) or STRATA_TEST_S3_ENDPOINT"
    );
    if started.is_none() {
        eprintln!(
            "no S3 server (moto_server not found, STRATA_TEST_S3_ENDPOINT not set): the object-storage test is skipped"
        );
    }
    started
}

/// `moto_server` on `PATH`, or in the virtualenv `.ci/run` makes.
fn moto_program() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join("moto_server"));
    let in_cache = std::env::var_os("HOME").map(|home| Path::new(&home).join(".cache/strata-ci-moto/bin/moto_server"));
    on_path.chain(in_cache).find(|program| program.is_file())
}

fn start_moto(program: &Path) -> Option<S3Server> {
    // A free port: bound, read, released, then handed to moto.
    let port = TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
    let child = Command::new(program)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let server = S3Server { endpoint: format!("http://127.0.0.1:{port}"), child: Some(child) };
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if http(&server.endpoint, "GET", "/", b"").is_some() {
            return Some(server);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    None
}

/// One plain HTTP request; the status code, or `None` when the server cannot be reached. moto does
/// not check signatures, only whose credentials a request names: objects strata wrote with the test's
/// key can be replaced only by a request naming the same key.
pub(crate) fn http(endpoint: &str, method: &str, path: &str, body: &[u8]) -> Option<u16> {
    let address = endpoint.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Length: {}\r\nConnection: close\r\n\
         Authorization: AWS4-HMAC-SHA256 Credential=testing/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body).ok()?;
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response.split_whitespace().nth(1)?.parse().ok()
}

/// A bucket of its own for each test (a shared server may run several at once).
pub(crate) fn bucket(server: &S3Server, test: &str) -> String {
    let name = format!("strata-{test}-{}", std::process::id());
    let status = http(&server.endpoint, "PUT", &format!("/{name}"), b"").expect("the S3 server answers");
    assert!((200..300).contains(&status), "creating bucket {name} answered {status}");
    name
}

pub(crate) fn strata_s3(server: &S3Server, args: &[&str]) -> Output {
    strata_with_env(
        args,
        &[
            ("AWS_ENDPOINT_URL", server.endpoint.as_str()),
            ("AWS_ACCESS_KEY_ID", "testing"),
            ("AWS_SECRET_ACCESS_KEY", "testing"),
            ("AWS_REGION", "us-east-1"),
            // Never a developer's own profile or session.
            ("AWS_PROFILE", ""),
            ("AWS_SESSION_TOKEN", ""),
        ],
    )
}

pub(crate) fn succeeded(output: &Output, what: &str) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(output.status.success(), "{what} failed: {stderr}");
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn index_to(server: &S3Server, repo: &Repo, url: &str, extra: &[&str]) -> Value {
    let mut args = vec!["index", repo.path().to_str().unwrap(), "--out", url, "--json"];
    args.extend_from_slice(extra);
    serde_json::from_str(&succeeded(&strata_s3(server, &args), "strata index to object storage")).unwrap()
}

/// JSON answers, one a line, to every question of `questions`.
fn ask_all(server: &S3Server, index: &str, questions: &[&str]) -> Vec<Value> {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), questions.join("\n")).unwrap();
    let output =
        strata_s3(server, &["ask", "--index", index, "--format", "json", "--questions", file.path().to_str().unwrap()]);
    succeeded(&output, "strata ask").lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

fn size_of_tree(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap())
        .map(|entry| {
            if entry.file_type().unwrap().is_dir() {
                size_of_tree(&entry.path())
            } else {
                entry.metadata().unwrap().len()
            }
        })
        .sum()
}

const FIXTURE_CYCLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/repos/cycle");

const QUESTIONS: &[&str] = &[
    "What imports shop.models?",
    "What does shop.cart import?",
    "Are there import cycles?",
    "Where are prices computed?",
    "How is the cart total calculated?",
];

#[test]
fn an_index_on_object_storage_answers_as_the_local_one_reading_a_part_of_it() {
    let Some(server) = s3_server() else { return };
    let repo = Repo::git("shop");
    let local = index(repo.path(), &[]);
    let url = format!("s3://{}/org/shop", bucket(&server, "answers"));
    let report = index_to(&server, &repo, &url, &[]);
    assert_eq!(report["out_dir"], url.as_str());
    assert!(report["timings_ms"]["upload"].is_u64(), "{report}");

    let remote_answers = ask_all(&server, &url, QUESTIONS);
    let local_answers = ask_all(&server, local.dir.to_str().unwrap(), QUESTIONS);
    let index_bytes = size_of_tree(&local.dir);
    assert_eq!(remote_answers.len(), QUESTIONS.len());
    for ((question, mut remote), local) in QUESTIONS.iter().zip(remote_answers).zip(local_answers) {
        let storage = remote.as_object_mut().unwrap().remove("storage").expect("a storage key");
        assert_eq!(remote, local, "{question}");
        assert!(local.get("storage").is_none(), "a local answer has no storage key");
        assert_eq!(storage["location"], url.as_str());
        let (requests, bytes) = (storage["requests"].as_u64().unwrap(), storage["bytes_read"].as_u64().unwrap());
        assert!(bytes < index_bytes, "{question}: read {bytes} bytes of an index of {index_bytes}");
        assert!(requests > 0 || bytes == 0, "{question}: {storage}");
        if question.starts_with("Where") || question.starts_with("How") {
            // Retrieval reads the chunk table after the index was opened: LanceDB's reads are counted.
            assert!(bytes > 0, "{question}: {storage}");
        } else {
            // The graph answers: the manifest and the bundle are read (by the first question, which opens
            // the index), and nothing of the search index.
            assert_eq!(local["mode"], "structural", "{question}");
            assert!(requests <= 2, "{question}: {storage}");
        }
    }

    // The commands that read a bundle give the same output from either place.
    for args in [vec!["graph", "--format", "json", "--index"], vec!["graph", "--level", "module", "--index"]] {
        let of = |location: &str| {
            let mut full = args.clone();
            full.push(location);
            succeeded(&strata_s3(&server, &full), "strata graph")
        };
        assert_eq!(of(&url), of(local.dir.to_str().unwrap()));
    }
    let diff = succeeded(&strata_s3(&server, &["diff", &url, local.dir.to_str().unwrap(), "--format", "json"]), "diff");
    let same = succeeded(
        &strata_s3(&server, &["diff", local.dir.to_str().unwrap(), local.dir.to_str().unwrap(), "--format", "json"]),
        "diff",
    );
    assert_eq!(diff, same);
}

#[test]
fn the_bundle_is_read_compressed_and_from_bundle_json_when_an_index_has_no_compressed_copy() {
    let Some(server) = s3_server() else { return };
    let repo = Repo::git("shop");
    let local = index(repo.path(), &[]);
    let compressed = local.read("bundle.json.zst");
    let from_copy = strata_core::bundle::parse_compressed_bundle(&compressed, "bundle.json.zst").unwrap();
    assert_eq!(from_copy, strata_core::bundle::read_bundle(&local.dir).unwrap());
    assert!(compressed.len() * 3 < local.read("bundle.json").len(), "the copy is compressed");

    let name = bucket(&server, "compressed");
    let url = format!("s3://{name}/shop");
    index_to(&server, &repo, &url, &[]);
    let question = ["What imports shop.models?"];
    let mut read = ask_all(&server, &url, &question).remove(0);
    let compressed_bytes = read.as_object_mut().unwrap().remove("storage").unwrap()["bytes_read"].as_u64().unwrap();
    // An index written before the compressed copy existed: only `bundle.json`.
    let status = http(&server.endpoint, "DELETE", &format!("/{name}/shop/bundle.json.zst"), b"");
    assert!(status.is_some_and(|status| (200..300).contains(&status)), "{status:?}");
    let mut old = ask_all(&server, &url, &question).remove(0);
    let old_bytes = old.as_object_mut().unwrap().remove("storage").unwrap()["bytes_read"].as_u64().unwrap();
    assert_eq!(read, old);
    let saved = (local.read("bundle.json").len() - compressed.len()) as u64;
    assert_eq!(old_bytes, compressed_bytes + saved, "the compressed copy is read instead of bundle.json");
    let graph =
        |location: &str| succeeded(&strata_s3(&server, &["graph", "--format", "json", "--index", location]), "graph");
    assert_eq!(graph(&url), graph(local.dir.to_str().unwrap()));
}

#[test]
fn previous_on_object_storage_reuses_unchanged_files_and_updates_in_place() {
    let Some(server) = s3_server() else { return };
    let repo = Repo::git("shop");
    let url = format!("s3://{}/shop", bucket(&server, "previous"));
    let first = index_to(&server, &repo, &url, &[]);
    let n_files = first["n_files_parsed"].as_u64().unwrap();
    assert!(n_files > 1);

    repo.write(
        "shop/cart.py",
        &(std::fs::read_to_string(repo.path().join("shop/cart.py")).unwrap() + "\n\ndef emptied():\n    return []\n"),
    );
    repo.commit_all("change one file");
    let second = index_to(&server, &repo, &url, &["--previous", &url]);
    assert_eq!(second["previous"], "used", "{second}");
    assert_eq!(second["n_files_parsed"], 1, "{second}");
    assert_eq!(second["n_files_reused"].as_u64().unwrap(), n_files - 1);

    // The updated index answers, and knows the new function.
    let answers = ask_all(&server, &url, &["Where is emptied defined?"]);
    assert!(answers[0].to_string().contains("shop/cart.py"), "{}", answers[0]);

    // impact and check read the base index from object storage.
    repo.write("shop/extra.py", "from shop import cart\n");
    repo.write("strata.toml", "[[contracts]]\nname = \"no payments in utils\"\nkind = \"forbidden\"\nsource = [\"shop.utils\"]\nforbidden = [\"shop.payments\"]\n");
    repo.commit_all("add a module");
    let path = repo.path().to_str().unwrap();
    let impact = succeeded(&strata_s3(&server, &["impact", path, "--previous", &url, "--format", "json"]), "impact");
    let impact: Value = serde_json::from_str(&impact).unwrap();
    assert_eq!(impact["added"].to_string(), r#"["shop/extra.py"]"#, "{impact}");
    succeeded(&strata_s3(&server, &["check", path, "--previous", &url]), "check");
}

#[test]
fn a_missing_or_damaged_remote_index_is_a_clear_error_and_a_clean_rebuild_as_previous() {
    let Some(server) = s3_server() else { return };
    let name = bucket(&server, "damaged");
    let missing = format!("s3://{name}/nothing");
    let output = strata_s3(&server, &["ask", "--index", &missing, "Where are prices computed?"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&format!("{missing} is not a strata index")), "{stderr}");
    let output = strata_s3(&server, &["graph", "--index", &missing]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("is not a strata index"));
    // A bucket that does not exist: the server's word for it, in one line.
    let output = strata_s3(&server, &["index", FIXTURE_CYCLE, "--out", "s3://no-such-bucket-strata/x"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot upload the index to s3://no-such-bucket-strata/x"), "{stderr}");
    assert!(stderr.contains("NoSuchBucket") && stderr.lines().count() == 1, "{stderr}");

    let repo = Repo::git("shop");
    // A previous index that is not there: a warning and a full build, as for a missing directory.
    let url = format!("s3://{name}/shop");
    let report = index_to(&server, &repo, &url, &["--previous", &missing]);
    assert!(report["previous"].as_str().unwrap().starts_with("rebuilt"), "{report}");
    assert!(!report.to_string().contains("strata-index-"), "the temporary copy is named by its URL: {report}");

    // A damaged bundle: ask says so; --previous rebuilds from scratch.
    for file in ["bundle.json", "bundle.json.zst"] {
        let status = http(&server.endpoint, "PUT", &format!("/{name}/shop/{file}"), b"{ not json").unwrap();
        assert_eq!(status, 200);
    }
    let output = strata_s3(&server, &["ask", "--index", &url, "What imports shop.models?"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&format!("{url}/bundle.json.zst is damaged")), "{stderr}");
    let rebuilt = index_to(&server, &repo, &url, &["--previous", &url]);
    assert!(rebuilt["previous"].as_str().unwrap().starts_with("rebuilt"), "{rebuilt}");
    assert_eq!(rebuilt["n_files_reused"], 0);
    assert!(!ask_all(&server, &url, &["What imports shop.models?"]).is_empty());
}

#[test]
fn only_s3_urls_are_taken_for_object_storage() {
    let output = strata_with_env(&["ask", "--index", "gs://bucket/x", "what?"], &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("only s3:// object-store URLs are supported"));
}

/// The credentials of a named AWS profile sign strata's own requests when the environment holds no key.
/// The endpoint is wiremock, not an S3 server: what is checked is the key id each request is signed with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_named_profile_signs_the_requests_when_the_environment_has_no_key() {
    let server = wiremock::MockServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let credentials = dir.path().join("credentials");
    std::fs::write(
        &credentials,
        "[strata-test]\naws_access_key_id = AKIDFROMPROFILE\naws_secret_access_key = secret\n",
    )
    .unwrap();
    let config = dir.path().join("config");
    std::fs::write(&config, "[profile strata-test]\nregion = us-east-1\n").unwrap();
    let endpoint = server.uri();
    let output = strata_with_env(
        &["ask", "--index", "s3://bucket/index", "What imports shop.models?"],
        &[
            ("AWS_ENDPOINT_URL", endpoint.as_str()),
            ("AWS_REGION", "us-east-1"),
            ("AWS_PROFILE", "strata-test"),
            ("AWS_SHARED_CREDENTIALS_FILE", credentials.to_str().unwrap()),
            ("AWS_CONFIG_FILE", config.to_str().unwrap()),
            ("AWS_ACCESS_KEY_ID", ""),
            ("AWS_SECRET_ACCESS_KEY", ""),
            ("AWS_SESSION_TOKEN", ""),
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("is not a strata index"), "{stderr}");
    let requests = server.received_requests().await.unwrap();
    let manifest: Vec<_> = requests.iter().filter(|r| r.url.path().ends_with("/manifest.json")).collect();
    assert!(!manifest.is_empty(), "{:?}", requests.iter().map(|r| r.url.to_string()).collect::<Vec<_>>());
    for request in manifest {
        let signed = request.headers.get("authorization").and_then(|value| value.to_str().ok()).unwrap_or_default();
        assert!(signed.contains("Credential=AKIDFROMPROFILE/"), "{signed}");
    }
}
