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
