//! `strata index --previous` and `strata diff` between two commits of a fixture repository: an
//! incremental run equals a full one, reuses what did not change, and rebuilds from scratch when the
//! previous artifact cannot be trusted.

use serde_json::Value;
use strata_search::embed::HashingEmbedder;
use strata_search::store::ChunkStore;

use crate::support::{Index, Repo, index, strata};

/// The shop fixture, then a second commit that modifies, adds, deletes and renames files.
fn two_commits() -> (Repo, String) {
    let repo = Repo::git("shop");
    let first = repo.head();
    repo.write("shop/pricing.py", "\"\"\"Prices, taxes and discount rules.\"\"\"\nfrom shop.utils import round_money\n\nDISCOUNT_RATE = 0.2\n\n\ndef apply_discount(amount):\n    return round_money(amount * (1 - DISCOUNT_RATE))\n");
    repo.write("shop/shipping.py", "\"\"\"Shipping costs.\"\"\"\nfrom shop.pricing import apply_discount\n\n\ndef shipping_cost(weight):\n    return apply_discount(weight * 2)\n");
    repo.write("shop/cart.py", "\"\"\"Shopping carts.\"\"\"\nfrom shop.pricing import apply_discount\n\n\nclass Cart:\n    def total(self):\n        return apply_discount(0)\n");
    repo.remove("shop/models.py");
    repo.rename("shop/payments/gateway.py", "shop/payments/processor.py");
    repo.commit_all("second");
    (repo, first)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// Every row of an index's chunk table, sorted by id, with its vector.
fn table_rows(dir: &std::path::Path) -> Vec<(String, String, String, Vec<f32>)> {
    runtime().block_on(async {
        let store = ChunkStore::open(dir).await.unwrap();
        let chunks = store.all_chunks().await.unwrap();
        let hashes: Vec<&str> = chunks.iter().map(|(_, hash)| hash.as_str()).collect();
        let vectors = store.vectors_by_text_hash(&hashes).await.unwrap();
        let mut rows: Vec<_> = chunks
            .iter()
            .map(|(chunk, hash)| (chunk.id.clone(), chunk.text.clone(), hash.clone(), vectors[hash].clone()))
            .collect();
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        rows
    })
}

fn manifest(index: &Index) -> Value {
    serde_json::from_slice(&index.read("manifest.json")).unwrap()
}

fn chunk_hashes(index: &Index) -> Value {
    serde_json::from_slice::<Value>(&index.read("chunks.json")).unwrap()["chunks"].clone()
}

fn previous_args(previous: &Index) -> Vec<String> {
    vec!["--previous".to_string(), previous.dir.to_str().unwrap().to_string()]
}

fn index_with_previous(repo: &Repo, previous: &Index) -> Index {
    let args = previous_args(previous);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    index(repo.path(), &args)
}

#[test]
fn incremental_equals_full_and_reuses_the_rest() {
    let (repo, first) = two_commits();
    let old = index(repo.path(), &["--rev", &first]);
    let incremental = index_with_previous(&repo, &old);
    let full = index(repo.path(), &[]);
    for file in ["bundle.json", "nodes.parquet", "edges.parquet", "symbols.parquet", "facts.parquet", "graph.html"] {
        assert!(incremental.read(file) == full.read(file), "{file} differs between incremental and full");
    }
    assert_eq!(chunk_hashes(&incremental), chunk_hashes(&full), "chunk texts differ");
    assert_eq!(table_rows(&incremental.dir), table_rows(&full.dir), "the updated table differs from a fresh one");
    // The in-place update leaves one version of the table, and the new rows are found by full-text search.
    let versions = std::fs::read_dir(incremental.dir.join("lancedb/chunks.lance/_versions")).unwrap();
    assert_eq!(versions.filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "manifest")).count(), 1);
    let hits = runtime().block_on(async {
        let store = ChunkStore::open(&incremental.dir).await.unwrap();
        let vector = HashingEmbedder.embed_one("shipping cost weight");
        store.search("shipping cost weight", &vector, 3, None).await.unwrap()
    });
    assert_eq!(hits[0].module, "shop/shipping.py", "{hits:?}");
    let report = &incremental.report;
    assert_eq!(report["previous"], "used");
    // pricing.py and cart.py (modified) and shipping.py (new) are parsed; the renamed file keeps its parse.
    assert_eq!(report["n_files_parsed"], 3, "{report:#}");
    assert_eq!(report["n_files_reused"], 5);
    let embedded = report["n_chunks_embedded"].as_u64().unwrap();
    let total = report["n_chunks"].as_u64().unwrap();
    assert!(embedded > 0 && embedded < total, "{embedded} of {total} chunks embedded");
    assert!(report["n_chunks_removed"].as_u64().unwrap() > 0, "models.py's chunks are gone");
    let ask = strata(&[
        "ask",
        "--index",
        incremental.dir.to_str().unwrap(),
        "--format",
        "json",
        "Where is PaymentGateway defined?",
    ]);
    let answer: Value = serde_json::from_slice(&ask.stdout).unwrap();
    assert_eq!(answer["citations"][0]["path"], "shop/payments/processor.py");
}

#[test]
fn the_structural_diff_reports_every_kind_of_change() {
    let (repo, first) = two_commits();
    let old = index(repo.path(), &["--rev", &first]);
    let new = index_with_previous(&repo, &old);
    let output = strata(&["diff", old.dir.to_str().unwrap(), new.dir.to_str().unwrap(), "--format", "json"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let diff: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(diff["modules_added"], serde_json::json!(["shop/shipping.py"]));
    assert_eq!(diff["modules_removed"], serde_json::json!(["shop/models.py"]));
    assert_eq!(
        diff["modules_renamed"],
        serde_json::json!([{"from": "shop/payments/gateway.py", "to": "shop/payments/processor.py"}])
    );
    assert_eq!(diff["cycles_resolved"][0]["members"], serde_json::json!(["shop/cart.py", "shop/models.py"]));
    let edges_added: Vec<String> =
        diff["edges_added"].as_array().unwrap().iter().map(|e| format!("{} -> {}", e["src"], e["dst"])).collect();
    // api.py still imports `shop.payments.gateway`, which no longer exists: an unresolved import with
    // its line, not an edge to the `shop.payments` package.
    assert_eq!(edges_added, ["\"shop/shipping.py\" -> \"shop/pricing.py\""]);
    assert!(
        diff["import_changes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["unified_diff"].as_str().unwrap().contains("-shop/models.py"))
    );
    // The same diff is in the summary the Action posts.
    let summary = String::from_utf8(new.read("summary.md")).unwrap();
    assert!(summary.contains("## What changed since the previous index"), "{summary}");
    assert!(summary.contains("`shop/payments/gateway.py` → `shop/payments/processor.py`"), "{summary}");
    // And drawn: the new module highlighted with the module it imports.
    let diagram = summary.split("### The change as a diagram").nth(1).expect("a diagram of the change");
    assert!(diagram.contains("```mermaid\ngraph LR") && diagram.contains("[\"shop/shipping.py\"]"), "{diagram}");
    let markdown = strata(&["diff", old.dir.to_str().unwrap(), new.dir.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&markdown.stdout).contains("| modules added |"));
}

#[test]
fn a_corrupt_previous_artifact_triggers_a_full_rebuild() {
    let (repo, first) = two_commits();
    let old = index(repo.path(), &["--rev", &first]);
    std::fs::write(old.file("facts.parquet"), b"not parquet").unwrap();
    let rebuilt = index_with_previous(&repo, &old);
    assert!(rebuilt.report["previous"].as_str().unwrap().starts_with("rebuilt: "), "{:#}", rebuilt.report);
    assert!(rebuilt.stderr.contains("is unusable"), "{}", rebuilt.stderr);
    assert_eq!(rebuilt.report["n_files_reused"], 0);
    assert!(rebuilt.read("bundle.json") == index(repo.path(), &[]).read("bundle.json"));
}

#[test]
fn a_damaged_previous_table_is_rebuilt_from_every_file() {
    let (repo, first) = two_commits();
    let old = index(repo.path(), &["--rev", &first]);
    // The manifest, bundle and facts are fine and the table opens, but its rows are gone.
    let data = old.dir.join("lancedb/chunks.lance/data");
    for entry in std::fs::read_dir(&data).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }
    let rebuilt = index_with_previous(&repo, &old);
    assert_eq!(rebuilt.report["previous"], "used", "{:#}", rebuilt.report);
    let warnings = rebuilt.report["warnings"].to_string();
    assert!(warnings.contains("could not update the previous search table in place"), "{warnings}");
    // Files that would have kept their chunks were read after all: nothing is missing.
    let full = index(repo.path(), &[]);
    assert_eq!(table_rows(&rebuilt.dir), table_rows(&full.dir));
    assert_eq!(chunk_hashes(&rebuilt), chunk_hashes(&full));
}

#[test]
fn a_damaged_file_of_the_previous_table_is_rewritten_when_no_row_changes() {
    let repo = Repo::git("shop");
    let full = index(repo.path(), &[]);
    // The table opens (its manifest is fine) and nothing changed since, so no row would be touched:
    // one file of the full-text index damaged, or one data file.
    let in_index = |table: &std::path::Path| {
        let indices = std::fs::read_dir(table.join("_indices")).unwrap();
        indices.map(|entry| entry.unwrap().path().join("part_0_invert.lance")).find(|path| path.is_file()).unwrap()
    };
    let in_data =
        |table: &std::path::Path| std::fs::read_dir(table.join("data")).unwrap().next().unwrap().unwrap().path();
    let choices: [&dyn Fn(&std::path::Path) -> std::path::PathBuf; 2] = [&in_index, &in_data];
    for damaged_file in choices {
        let old = index(repo.path(), &[]);
        std::fs::write(damaged_file(&old.dir.join("lancedb/chunks.lance")), b"not lance").unwrap();
        let rebuilt = index_with_previous(&repo, &old);
        assert_eq!(rebuilt.report["previous"], "used", "{:#}", rebuilt.report);
        let warnings = rebuilt.report["warnings"].to_string();
        assert!(warnings.contains("could not update the previous search table in place"), "{warnings}");
        let output = strata(&["ask", "--index", rebuilt.dir.to_str().unwrap(), "How is the cart total calculated?"]);
        let answer = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success() && !answer.contains("damaged"), "{answer}");
        assert_eq!(table_rows(&rebuilt.dir), table_rows(&full.dir));
    }
}

#[test]
fn missing_chunk_hashes_rewrite_the_table_keeping_vectors_found_by_their_text() {
    let (repo, first) = two_commits();
    let old = index(repo.path(), &["--rev", &first]);
    std::fs::remove_file(old.file("chunks.json")).unwrap();
    let rebuilt = index_with_previous(&repo, &old);
    assert_eq!(rebuilt.report["previous"], "used", "{:#}", rebuilt.report);
    let warnings = rebuilt.report["warnings"].to_string();
    assert!(warnings.contains("chunks.json"), "{warnings}");
    // The table is written whole; vectors come from the old table's rows with the same text.
    assert!(rebuilt.report["n_chunks_reused"].as_u64().unwrap() > 0, "{:#}", rebuilt.report);
    let full = index(repo.path(), &[]);
    assert_eq!(table_rows(&rebuilt.dir), table_rows(&full.dir));
    assert_eq!(chunk_hashes(&rebuilt), chunk_hashes(&full));
}

#[test]
fn a_missing_or_incompatible_previous_artifact_is_rebuilt_with_one_warning() {
    let repo = Repo::git("shop");
    let missing = index(repo.path(), &["--previous", "/nonexistent/strata-index"]);
    assert!(missing.report["previous"].as_str().unwrap().contains("not a strata index"), "{:#}", missing.report);
    assert_eq!(missing.stderr.matches("is unusable").count(), 1);
    let old = index(repo.path(), &[]);
    let mut old_manifest = manifest(&old);
    old_manifest["tool"]["version"] = "9.0.0".into();
    std::fs::write(old.file("manifest.json"), serde_json::to_vec(&old_manifest).unwrap()).unwrap();
    let rebuilt = index_with_previous(&repo, &old);
    assert!(rebuilt.report["previous"].as_str().unwrap().contains("written by strata 9.0.0"), "{:#}", rebuilt.report);
}

/// Rewrites an index's `facts.parquet` as if another facts version had written it, with rows that
/// cannot be read: a run that reused or even read them would fail or differ from a full index.
pub(crate) fn make_facts_stale(index: &Index) {
    use arrow_array::{ArrayRef, RecordBatch, StringArray};
    use parquet::arrow::ArrowWriter;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::file::metadata::KeyValue;
    use parquet::file::properties::WriterProperties;
    let path = index.file("facts.parquet");
    let file = std::fs::File::open(&path).unwrap();
    let batch = ParquetRecordBatchReaderBuilder::try_new(file).unwrap().build().unwrap().next().unwrap().unwrap();
    let garbage: ArrayRef =
        std::sync::Arc::new(StringArray::from_iter_values((0..batch.num_rows()).map(|_| "not json")));
    let batch = RecordBatch::try_from_iter([
        ("path", batch.column_by_name("path").unwrap().clone()),
        ("blob_id", batch.column_by_name("blob_id").unwrap().clone()),
        ("parse_json", garbage),
    ])
    .unwrap();
    let version = KeyValue::new("strata.facts_version".to_string(), "1".to_string());
    let properties = WriterProperties::builder().set_key_value_metadata(Some(vec![version])).build();
    let mut writer =
        ArrowWriter::try_new(std::fs::File::create(&path).unwrap(), batch.schema(), Some(properties)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
}

#[test]
fn facts_of_another_parser_version_are_parsed_again_and_vectors_kept() {
    let (repo, first) = two_commits();
    let old = index(repo.path(), &["--rev", &first]);
    make_facts_stale(&old);
    let again = index_with_previous(&repo, &old);
    assert_eq!(again.report["previous"], "used", "{:#}", again.report);
    assert_eq!(again.report["n_files_parsed"], again.report["n_modules"]);
    assert!(again.report["n_chunks_reused"].as_u64().unwrap() > 0, "{:#}", again.report);
    assert_eq!(again.report["warnings"].to_string().matches("holds facts version 1").count(), 1);
    let full = index(repo.path(), &[]);
    assert!(again.read("bundle.json") == full.read("bundle.json"));
    assert_eq!(table_rows(&again.dir), table_rows(&full.dir));
}

#[test]
fn an_embedder_change_re_embeds_everything_but_keeps_the_parses() {
    let repo = Repo::git("shop");
    let old = index(repo.path(), &[]);
    let mut old_manifest = manifest(&old);
    old_manifest["embedder"]["id"] = "openai:some-other-model".into();
    std::fs::write(old.file("manifest.json"), serde_json::to_vec(&old_manifest).unwrap()).unwrap();
    let again = index_with_previous(&repo, &old);
    assert_eq!(again.report["previous"], "used");
    assert_eq!(again.report["n_files_parsed"], 0);
    assert_eq!(again.report["n_chunks_embedded"], again.report["n_chunks"]);
    assert_eq!(again.report["n_chunks_reused"], 0);
}

#[test]
fn the_previous_directory_can_be_updated_in_place() {
    let (repo, first) = two_commits();
    let old = index(repo.path(), &["--rev", &first]);
    let dir = old.dir.to_str().unwrap();
    let output = strata(&["index", repo.path().to_str().unwrap(), "--out", dir, "--previous", dir, "--json"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["previous"], "used");
    assert!(old.read("bundle.json") == index(repo.path(), &[]).read("bundle.json"));
}

/// Fragments, versions and index segments of a chunk table on disk.
fn table_files(index: &std::path::Path) -> (usize, usize, usize) {
    let entries = |folder: &str| std::fs::read_dir(index.join("lancedb/chunks.lance").join(folder)).unwrap();
    let count = |folder: &str, extension: &str| {
        entries(folder)
            .filter(|entry| entry.as_ref().unwrap().path().extension().is_some_and(|x| x == extension))
            .count()
    };
    (count("data", "lance"), count("_versions", "manifest"), entries("_indices").count())
}

/// The chunk ids `ask` retrieves for a behavioural question.
fn retrieved(index: &std::path::Path, question: &str) -> Vec<String> {
    let output = strata(&["ask", "--index", index.to_str().unwrap(), "--format", "json", question]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    answer["context"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_string()).collect()
}

#[test]
fn many_merges_keep_the_table_bounded_and_equal_to_a_full_build() {
    let repo = Repo::git("shop");
    let dir = tempfile::TempDir::new().unwrap();
    let out = dir.path().join("index");
    let out_arg = out.to_str().unwrap();
    let run = |previous: bool| {
        let mut args = vec!["index", repo.path().to_str().unwrap(), "--out", out_arg, "--json"];
        if previous {
            args.extend(["--previous", out_arg]);
        }
        let output = strata(&args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice::<Value>(&output.stdout).unwrap()
    };
    run(false);
    let (mut most_fragments, mut most_segments) = (0, 0);
    for merge in 0..12 {
        repo.write("shop/utils.py", &format!("\"\"\"Helpers.\"\"\"\n\n\ndef round_money(value):\n    return round(value, 2)\n\n\ndef helper_{merge}():\n    return {merge}\n"));
        repo.commit_all(&format!("merge {merge}"));
        let report = run(true);
        assert_eq!(report["previous"], "used", "{report:#}");
        assert!(report["warnings"].as_array().unwrap().is_empty(), "{report:#}");
        let (fragments, versions, segments) = table_files(&out);
        assert_eq!(versions, 1, "old versions are pruned after merge {merge}");
        most_fragments = most_fragments.max(fragments);
        most_segments = most_segments.max(segments);
    }
    // Each in-place update adds a fragment and a text index segment; compaction folds them back into
    // one before they pass the limit.
    assert!(most_fragments <= 9, "{most_fragments} data files");
    assert!((2..=9).contains(&most_segments), "{most_segments} index segments: updates append, compaction merges");
    let full = index(repo.path(), &[]);
    assert_eq!(table_rows(&out), table_rows(&full.dir));
    for question in ["How are failed payment charges retried?", "helper that rounds money values"] {
        assert_eq!(retrieved(&out, question), retrieved(&full.dir, question), "{question}");
    }
}
