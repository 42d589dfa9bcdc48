//! `--embedder wordllama` with a tiny model the test writes itself (a word-level `tokenizer.json` and a
//! 4-dimensional `embeddings.safetensors`), so the loading, embedding and querying code runs without a
//! download; and the download path against a fake mirror on loopback: a wheel whose SHA-256 matches is
//! unpacked into the cache, one that does not is refused and nothing is kept.

use std::io::Write;
use std::path::Path;

use serde_json::{Value, json};
use tempfile::TempDir;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};
use zip::write::SimpleFileOptions;

use crate::support::{Repo, index_with_env, strata_with_env};

const WORDS: [&str; 10] =
    ["[UNK]", "payment", "charge", "retry", "retried", "cart", "price", "discount", "failed", "how"];

fn tokenizer_json() -> String {
    let vocab: serde_json::Map<String, Value> =
        WORDS.iter().enumerate().map(|(i, word)| (word.to_string(), json!(i))).collect();
    json!({
        "version": "1.0", "truncation": null, "padding": null, "added_tokens": [],
        "normalizer": {"type": "Lowercase"}, "pre_tokenizer": {"type": "Whitespace"},
        "post_processor": null, "decoder": null,
        "model": {"type": "WordLevel", "vocab": vocab, "unk_token": "[UNK]"}
    })
    .to_string()
}

/// One F32 tensor `[10, 4]` in the safetensors layout: header length, JSON header, little-endian data.
/// "retry" and "retried" share a direction, as a trained model would give them.
fn safetensors() -> Vec<u8> {
    let rows: [[f32; 4]; 10] = [
        [0.0, 0.0, 0.0, 0.1],
        [1.0, 0.0, 0.0, 0.0],
        [1.0, 0.2, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 1.0, 0.1, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.8, 0.6],
        [0.0, 0.0, 0.6, 0.8],
        [0.3, 0.7, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.2],
    ];
    let data: Vec<u8> = rows.iter().flatten().flat_map(|v| v.to_le_bytes()).collect();
    let header = json!({"embeddings": {"dtype": "F32", "shape": [10, 4], "data_offsets": [0, data.len()]}}).to_string();
    let mut out = (header.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(header.as_bytes());
    out.extend(data);
    out
}

fn write_model(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("tokenizer.json"), tokenizer_json()).unwrap();
    std::fs::write(dir.join("embeddings.safetensors"), safetensors()).unwrap();
}

#[test]
fn a_model_in_the_cache_indexes_and_answers_without_the_network() {
    let models = TempDir::new().unwrap();
    write_model(models.path());
    let env = [("STRATA_MODEL_DIR", models.path().to_str().unwrap())];
    let repo = Repo::git("shop");
    let indexed = index_with_env(repo.path(), &["--embedder", "wordllama"], &env);
    assert_eq!(indexed.report["embedder"], "wordllama-l2-supercat-256");
    let manifest: Value = serde_json::from_slice(&indexed.read("manifest.json")).unwrap();
    assert_eq!(manifest["embedder"], json!({"id": "wordllama-l2-supercat-256", "dimension": 4}));
    let args = ["ask", "--index", indexed.dir.to_str().unwrap(), "--format", "json", "How are failed charges retried?"];
    let output = strata_with_env(&args, &env);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["index"]["embedder"], "wordllama-l2-supercat-256");
    assert!(answer["context"].as_array().is_some_and(|c| !c.is_empty()), "{answer:#}");

    // A damaged model is a clear error naming the file, not a panic.
    std::fs::write(models.path().join("embeddings.safetensors"), b"not a model").unwrap();
    let output = strata_with_env(&args, &env);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("is not a safetensors file"));
}

fn wheel() -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in [
        ("wordllama/tokenizers/l2_supercat_tokenizer_config.json", tokenizer_json().into_bytes()),
        ("wordllama/weights/l2_supercat_256.safetensors", safetensors()),
        ("wordllama/__init__.py", Vec::new()),
    ] {
        writer.start_file(name, SimpleFileOptions::default()).unwrap();
        writer.write_all(&bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_is_downloaded_once_and_checked_against_its_sha256() {
    let mirror = MockServer::start().await;
    let wheel = wheel();
    Mock::given(method("GET"))
        .and(path("/wordllama.whl"))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(wheel.clone()))
        .mount(&mirror)
        .await;
    let url = format!("{}/wordllama.whl", mirror.uri());
    let good = sha256_hex(&wheel);
    let (first, second, refused, models) = tokio::task::spawn_blocking(move || {
        let models = TempDir::new().unwrap();
        let cache = models.path().join("cache");
        let repo = Repo::git("shop");
        let run = |sha: &str, out: &str| {
            let out = models.path().join(out);
            let env = [
                ("STRATA_MODEL_DIR", cache.to_str().unwrap()),
                ("STRATA_WORDLLAMA_URL", url.as_str()),
                ("STRATA_WORDLLAMA_SHA256", sha),
            ];
            let args =
                ["index", repo.path().to_str().unwrap(), "--out", out.to_str().unwrap(), "--embedder", "wordllama"];
            strata_with_env(&args, &env)
        };
        let first = run(&good, "a");
        let second = run(&good, "b");
        std::fs::remove_dir_all(&cache).unwrap();
        let refused = run(&"0".repeat(64), "c");
        let kept = cache.exists() && std::fs::read_dir(&cache).unwrap().next().is_some();
        (first, second, refused, (models, kept))
    })
    .await
    .unwrap();
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert!(second.status.success(), "{}", String::from_utf8_lossy(&second.stderr));
    assert_eq!(mirror.received_requests().await.unwrap().len(), 2, "downloaded once per empty cache");
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("not the pinned"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    assert!(!models.1, "a refused download leaves nothing in the cache");
}
