//! `strata eval` on the shop fixture with a hand-written question set (`tests/fixtures/eval/shop.jsonl`):
//! the report, the Markdown, the Parquet history, and the baseline gate.

use serde_json::Value;
use tempfile::TempDir;

use crate::support::{Index, Repo, index, strata};

const QUESTIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eval/shop.jsonl");

fn shop_index() -> Index {
    index(Repo::plain("shop").path(), &[])
}

fn eval(index: &Index, out: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let mut args =
        vec!["eval", "--index", index.dir.to_str().unwrap(), "--questions", QUESTIONS, "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    strata(&args)
}

#[test]
fn eval_scores_every_question_and_keeps_a_history() {
    let index = shop_index();
    let out = TempDir::new().unwrap();
    let output = eval(&index, out.path(), &[]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&std::fs::read(out.path().join("report.json")).unwrap()).unwrap();
    assert_eq!(report["schema_version"], "strata-eval@1");
    let questions = report["questions"].as_array().unwrap();
    assert_eq!(questions.len(), 7);
    let by_id = |id: &str| questions.iter().find(|q| q["id"] == id).unwrap();
    // Exact graph answers: full marks against the hand-written truth.
    for id in ["shop-001", "shop-002", "shop-003", "shop-004", "shop-005"] {
        assert_eq!(by_id(id)["answer_correctness"], 1.0, "{id}: {:#}", by_id(id));
        assert_eq!(by_id(id)["mode"], "structural");
    }
    assert_eq!(by_id("shop-006")["context_recall"], 1.0, "{:#}", by_id("shop-006"));
    assert_eq!(by_id("shop-007")["abstention"], 1.0, "the Kubernetes question is declined");
    assert!(by_id("shop-007")["answer_correctness"].is_null(), "NaN for unanswerable");
    let overall = &report["aggregate"]["overall"];
    assert_eq!(overall["abstention"]["n"], 1);
    assert_eq!(overall["answer_correctness"]["nan"], 1, "the unanswerable question is a NaN, counted");
    assert!(overall["answer_correctness"]["ci95"].as_array().unwrap().len() == 2);
    let markdown = String::from_utf8(output.stdout).unwrap();
    assert!(markdown.contains("| **overall** | 7 |") && markdown.contains("| imports_of | 1 |"), "{markdown}");
    assert!(markdown.contains("Weakest answerable questions"));

    // A second run appends a row; the same code against its own report is not a regression.
    let baseline = out.path().join("report.json");
    let second = TempDir::new().unwrap();
    let history = out.path().join("history.parquet");
    let output = eval(
        &index,
        second.path(),
        &["--baseline", baseline.to_str().unwrap(), "--history", history.to_str().unwrap()],
    );
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stderr).contains("has 2 rows"));
}

#[test]
fn a_regression_beyond_the_baseline_interval_fails() {
    let index = shop_index();
    let out = TempDir::new().unwrap();
    assert!(eval(&index, out.path(), &[]).status.success());
    // A baseline that claims perfect context precision with a tight interval.
    let path = out.path().join("report.json");
    let mut baseline: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    baseline["aggregate"]["overall"]["faithfulness"] =
        serde_json::json!({"mean": 1.5, "n": 7, "nan": 0, "ci95": [1.4, 1.6]});
    let baseline_path = out.path().join("baseline.json");
    std::fs::write(&baseline_path, serde_json::to_vec(&baseline).unwrap()).unwrap();
    let again = TempDir::new().unwrap();
    let output = eval(&index, again.path(), &["--baseline", baseline_path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("regressed"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let markdown = std::fs::read_to_string(again.path().join("report.md")).unwrap();
    assert!(markdown.contains("overall / faithfulness"), "{markdown}");
}

#[test]
fn a_broken_question_set_is_a_clear_error() {
    let index = shop_index();
    let dir = TempDir::new().unwrap();
    let questions = dir.path().join("bad.jsonl");
    std::fs::write(&questions, "{\"id\": \"x\"}\n").unwrap();
    let output = strata(&[
        "eval",
        "--index",
        index.dir.to_str().unwrap(),
        "--questions",
        questions.to_str().unwrap(),
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("line 1"), "{}", String::from_utf8_lossy(&output.stderr));
}

/// A find-the-code set (`gold_files`, as in SWE-QA): file-level metrics per category, the reference
/// row, and `--require` failing the run when a figure is not met.
#[test]
fn a_find_the_code_set_gets_file_metrics_a_reference_row_and_requirements() {
    let index = shop_index();
    let dir = TempDir::new().unwrap();
    let questions = dir.path().join("locate.jsonl");
    std::fs::write(
        &questions,
        concat!(
            "{\"id\": \"l1\", \"question\": \"How is the seasonal discount applied to an amount?\", \"gold_files\": [\"shop/pricing.py\"], \"category\": \"how\"}\n",
            "{\"id\": \"l2\", \"question\": \"Where are prices rounded to money?\", \"gold_files\": [\"shop/utils.py\", \"shop/pricing.py\"], \"category\": \"where\"}\n",
        ),
    )
    .unwrap();
    let reference = dir.path().join("bm25.txt");
    std::fs::write(
        &reference,
        "bm25-files locate.jsonl: n=2 files=8 hit@5=0.500 recall@5=0.250 hit@1=0.000 mrr@5=0.100\n",
    )
    .unwrap();
    let run = |require: &str| {
        strata(&[
            "eval",
            "--index",
            index.dir.to_str().unwrap(),
            "--questions",
            questions.to_str().unwrap(),
            "--out",
            dir.path().join("out").to_str().unwrap(),
            "--reference",
            reference.to_str().unwrap(),
            "--require",
            require,
        ])
    };
    let output = run("declined<=0.05");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&std::fs::read(dir.path().join("out/report.json")).unwrap()).unwrap();
    assert_eq!(report["schema_version"], "strata-locate-report@1");
    assert_eq!(report["overall"]["n"], 2);
    assert_eq!(report["overall"]["declined"], 0.0);
    assert_eq!(report["questions"][0]["ranked"][0], "shop/pricing.py", "{}", report["questions"][0]);
    assert!(report["by_category"]["how"]["hit_at_1"].as_f64().unwrap() == 1.0);
    let markdown = String::from_utf8_lossy(&output.stdout);
    assert!(markdown.contains("| bm25-files (reference) | 2 | 0.000 | 0.500 | 0.250 |"), "{markdown}");
    // Every gold file in the top five on both questions is more than this index gives: the run fails.
    let output = run("all_gold@5>=1.01");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("all_gold@5 is"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let output = run("recall>=0.4");
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown metric"));
}

/// A judge on loopback: answers each of RAGAS's prompts with the JSON it asks for.
struct FakeJudge;

impl wiremock::Respond for FakeJudge {
    fn respond(&self, request: &wiremock::Request) -> wiremock::ResponseTemplate {
        let body = String::from_utf8_lossy(&request.body);
        let reply = if body.contains("Break the answer into standalone statements") {
            r#"{"statements": ["The answer names a module.", "It names another."]}"#
        } else if body.contains("verdict 1 if it can be directly inferred") {
            r#"{"verdicts": [{"statement": "a", "reason": "in the context", "verdict": 1}, {"statement": "b", "reason": "not there", "verdict": 0}]}"#
        } else if body.contains("Write the question this answer answers") {
            r#"{"question": "What imports shop.pricing?", "noncommittal": 0}"#
        } else if body.contains("Classify the answer's statements") {
            r#"{"TP": ["The answer names a module."], "FP": [], "FN": []}"#
        } else {
            "unexpected prompt"
        };
        crate::support::chat_reply(reply)
    }
}

/// `--judge`: the judged metrics are aggregated, shown and gateable, and a second run replays the
/// recorded exchanges with no server at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judged_metrics_are_aggregated_gated_and_replayed_from_the_cache() {
    let server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::method("POST"))
        .and(wiremock::matchers::path("/v1/chat/completions"))
        .respond_with(FakeJudge)
        .mount(&server)
        .await;
    let base_url = format!("{}/v1", server.uri());
    let index = shop_index();
    let out = TempDir::new().unwrap();
    let cache = out.path().join("judge-cache");
    let (dir, cache_arg) = (out.path().join("first"), cache.to_str().unwrap().to_string());
    let judged = |dir: std::path::PathBuf, env: Vec<(String, String)>, extra: Vec<String>| {
        let (index_dir, cache_arg) = (index.dir.clone(), cache_arg.clone());
        let mut args: Vec<String> = ["eval", "--index", index_dir.to_str().unwrap(), "--questions", QUESTIONS]
            .into_iter()
            .map(String::from)
            .collect();
        args.extend(["--out".into(), dir.to_str().unwrap().into(), "--judge".into(), "--offline".into()]);
        args.extend(["--judge-cache".into(), cache_arg, "--chat-model".into(), "judge-model".into()]);
        args.extend(extra);
        move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            crate::support::strata_with_env(&args, &env)
        }
    };
    let env = vec![("OPENAI_BASE_URL".to_string(), base_url), ("OPENAI_API_KEY".to_string(), "k".to_string())];
    let output = tokio::task::spawn_blocking(judged(dir.clone(), env, vec![])).await.unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap();
    let overall = &report["aggregate"]["overall"];
    // Two statements, one supported: 0.5 on every question that has an answer.
    assert_eq!(overall["judged_faithfulness"]["mean"], 0.5, "{overall:#}");
    assert!(overall["judged_relevancy"]["n"].as_u64().unwrap() > 0);
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(markdown.contains("judged faithfulness") && markdown.contains("judged by `judge-model`"), "{markdown}");
    server.reset().await;

    // No server now: every exchange comes from the cache, and the same figures come out.
    let replay = out.path().join("replay");
    let baseline = dir.join("report.json").to_str().unwrap().to_string();
    let output =
        tokio::task::spawn_blocking(judged(replay.clone(), vec![], vec!["--baseline".into(), baseline])).await.unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let again: Value = serde_json::from_slice(&std::fs::read(replay.join("report.json")).unwrap()).unwrap();
    assert_eq!(again["aggregate"]["overall"]["judged_faithfulness"], overall["judged_faithfulness"]);

    // A baseline that claims better judged faithfulness than this makes the run fail.
    let mut claimed = report.clone();
    claimed["aggregate"]["overall"]["judged_faithfulness"] =
        serde_json::json!({"mean": 0.9, "n": 6, "nan": 1, "ci95": [0.8, 1.0]});
    let claimed_path = out.path().join("claimed.json");
    std::fs::write(&claimed_path, serde_json::to_vec(&claimed).unwrap()).unwrap();
    let gated = out.path().join("gated");
    let output = tokio::task::spawn_blocking(judged(
        gated,
        vec![],
        vec!["--baseline".into(), claimed_path.to_str().unwrap().into()],
    ))
    .await
    .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stderr).contains("regressed"));
}
