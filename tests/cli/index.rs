//! `strata index` over one-behaviour fixture repositories, plus determinism, schema and error cases.

use std::collections::BTreeSet;

use crate::support::{Repo, index, index_with_env, strata};

/// Snapshot of the bundle with the tool version redacted, so a release does not rewrite every snapshot.
fn assert_bundle_snapshot(name: &str, bundle: &serde_json::Value) {
    insta::assert_json_snapshot!(name, bundle, { ".meta.generator.version" => "[version]" });
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|item| item.to_string()).collect()
}

#[test]
fn relative_imports_at_several_levels() {
    let index = index(Repo::git("relative_imports").path(), &[]);
    // grimp's convention: `from .sub import deep` is an edge to the submodule only, not to `pkg.sub`.
    assert_eq!(
        index.edges(),
        set(&["pkg/__init__.py -> pkg/a.py", "pkg/a.py -> pkg/sub/deep.py", "pkg/sub/deep.py -> pkg/a.py"])
    );
    assert_eq!(index.edge("pkg/sub/deep.py", "pkg/a.py")["names"], serde_json::json!(["a", "helper"]));
    assert_eq!(
        index.node("pkg/sub/deep.py")["unresolved_imports"],
        serde_json::json!([{"name": "...beyond_the_root", "line": 3}])
    );
    assert_eq!(index.node("pkg/__init__.py")["docstring"], "Top package.");
    assert_bundle_snapshot("relative_imports", &index.bundle);
}

#[test]
fn src_layout_names_modules_from_src() {
    let index = index(Repo::git("src_layout").path(), &[]);
    assert_eq!(index.node("src/app/core.py")["module"], "app.core");
    assert_eq!(index.bundle["meta"]["source_roots"], serde_json::json!([".", "src"]));
    assert_eq!(index.edges(), set(&["src/app/__init__.py -> src/app/core.py", "src/app/core.py -> src/app/util.py"]));
    assert_bundle_snapshot("src_layout", &index.bundle);
}

#[test]
fn namespace_package_files_are_modules() {
    let index = index(Repo::git("namespace_package").path(), &[]);
    assert_eq!(index.node("ns/sub/a.py")["module"], "ns.sub.a");
    assert_eq!(index.edges(), set(&["main.py -> ns/sub/a.py", "ns/sub/a.py -> ns/sub/b.py"]));
    assert_eq!(index.node("main.py")["entry_points"][0]["kind"], "main");
    assert_bundle_snapshot("namespace_package", &index.bundle);
}

#[test]
fn star_imports_are_edges_to_the_module() {
    let index = index(Repo::git("star_import").path(), &[]);
    assert_eq!(index.edge("pkg/__init__.py", "pkg/helpers.py")["kind"], "star");
    assert_eq!(index.edge("user.py", "pkg/__init__.py")["kind"], "star");
    assert_eq!(index.node("pkg/helpers.py")["exports"], serde_json::json!(["visible"]));
    assert_bundle_snapshot("star_import", &index.bundle);
}

#[test]
fn cycle_sizes_and_transitive_dependents() {
    let index = index(Repo::git("cycle").path(), &[]);
    for id in ["a.py", "b.py", "c.py"] {
        assert_eq!(index.node(id)["scc_size"], 3, "{id}");
        // The other two cycle members plus d.py.
        assert_eq!(index.node(id)["importers_count"], 3, "{id}");
    }
    assert_eq!(index.node("d.py")["scc_size"], 1);
    assert_eq!(index.node("a.py")["direct_importers_count"], 2);
    assert_eq!(index.bundle["cycles"][0]["members"], serde_json::json!(["a.py", "b.py", "c.py"]));
    assert_bundle_snapshot("cycle", &index.bundle);
}

#[test]
fn type_checking_only_cycle_is_not_a_runtime_cycle() {
    let index = index(Repo::git("type_checking_cycle").path(), &[]);
    assert_eq!(index.edge("services.py", "models.py")["type_checking"], true);
    assert_eq!(index.edge("models.py", "services.py")["type_checking"], false);
    assert_eq!(index.node("models.py")["scc_size"], 2);
    assert_eq!(index.node("models.py")["scc_size_runtime"], 1);
    assert_eq!(index.bundle["counts"]["cycles_runtime"], 0);
    assert_bundle_snapshot("type_checking_cycle", &index.bundle);
}

#[test]
fn syntax_error_is_indexed_partially_with_a_warning() {
    let index = index(Repo::git("syntax_error").path(), &[]);
    assert_eq!(index.edges(), set(&["broken.py -> good.py"]));
    let broken = index.node("broken.py");
    assert_eq!(broken["parse_status"], "partial");
    assert!(broken["warnings"][0].as_str().unwrap().contains("syntax error near line 3"));
    assert_eq!(index.report["warnings"][0]["path"], "broken.py");
    assert_eq!(index.report["warnings"][0]["line"], 3);
    assert!(index.stderr.contains("broken.py:3"), "{}", index.stderr);
    assert_bundle_snapshot("syntax_error", &index.bundle);
}

#[test]
fn non_utf8_files_are_decoded_by_declaration_or_lossily() {
    let index = index(Repo::git("non_utf8").path(), &[]);
    assert_eq!(index.edges(), set(&["latin1.py -> helper.py", "undeclared.py -> helper.py"]));
    assert_eq!(index.node("latin1.py")["parse_status"], "ok");
    assert_eq!(index.node("undeclared.py")["parse_status"], "partial");
    assert!(index.node("undeclared.py")["warnings"][0].as_str().unwrap().contains("not valid UTF-8"));
    assert_bundle_snapshot("non_utf8", &index.bundle);
}

#[test]
fn dunder_all_wins_over_public_names() {
    let index = index(Repo::git("dunder_all").path(), &[]);
    assert_eq!(index.node("api.py")["exports"], serde_json::json!(["public_one", "Public", "late"]));
    assert_eq!(index.node("api.py")["exports_source"], "__all__");
    assert_eq!(index.node("plain.py")["exports"], serde_json::json!(["CONSTANT", "Klass", "function"]));
    assert_eq!(index.node("plain.py")["exports_source"], "public_names");
    assert_bundle_snapshot("dunder_all", &index.bundle);
}

#[test]
fn conditional_imports_are_flagged_and_externals_split() {
    let index = index(Repo::git("conditional_import").path(), &[]);
    assert_eq!(index.edge("compat.py", "fast_json.py")["conditional"], true);
    assert_eq!(index.edge("compat.py", "slow_json.py")["conditional"], true);
    let externals = &index.node("compat.py")["external_imports"];
    assert_eq!(externals["stdlib"], serde_json::json!(["sys", "tomllib"]));
    assert_eq!(externals["third_party"], serde_json::json!(["tomli"]));
    assert_bundle_snapshot("conditional_import", &index.bundle);
}

#[test]
fn local_imports_are_flagged() {
    let index = index(Repo::git("local_import").path(), &[]);
    let edge = index.edge("app.py", "heavy.py");
    assert_eq!((edge["local"].as_bool(), edge["conditional"].as_bool()), (Some(true), Some(false)));
    assert_eq!(index.node("heavy.py")["external_imports"]["third_party"], serde_json::json!(["numpy"]));
    assert_bundle_snapshot("local_import", &index.bundle);
}

#[test]
fn entry_points_are_recognised() {
    let index = index(Repo::git("entry_points").path(), &[]);
    let kinds: Vec<&str> = index.node("web.py")["entry_points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["http_route", "cli_command", "task", "main"]);
    assert_bundle_snapshot("entry_points", &index.bundle);
}

#[test]
fn built_in_and_configured_exclusions() {
    let index = index(Repo::git("excluded_dirs").path(), &[]);
    let ids: Vec<&String> = index.bundle["nodes"].as_object().unwrap().keys().collect();
    assert_eq!(ids, ["pkg/__init__.py"]);
    // Excluding the last module leaves nothing to index: an error, not an empty index.
    let repo = Repo::git("excluded_dirs");
    let out = tempfile::TempDir::new().unwrap();
    let out_dir = out.path().join("index");
    let args = ["index", repo.path().to_str().unwrap(), "--out", out_dir.to_str().unwrap(), "--exclude", "pkg"];
    let again = crate::support::strata(&args);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("check --exclude"));
}

#[test]
fn same_commit_gives_byte_identical_files() {
    let repo = Repo::git("relative_imports");
    let first = index(repo.path(), &[]);
    let second = index(repo.path(), &[]);
    for name in ["bundle.json", "nodes.parquet", "edges.parquet", "symbols.parquet", "graph.html", "summary.md"] {
        assert!(first.read(name) == second.read(name), "{name} differs between runs");
    }
    let manifest: serde_json::Value = serde_json::from_slice(&first.read("manifest.json")).unwrap();
    assert_eq!(manifest["commit"], first.bundle["meta"]["commit"]);
    assert_eq!(manifest["files"].as_object().unwrap().len(), 4);
}

#[test]
fn every_fixture_bundle_is_valid_against_the_committed_schema() {
    let schema_path = concat!(env!("CARGO_MANIFEST_DIR"), "/schemas/pviz-bundle.schema.json");
    let schema: serde_json::Value = serde_json::from_slice(&std::fs::read(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the committed schema compiles");
    for entry in std::fs::read_dir(crate::support::FIXTURES).unwrap() {
        let fixture = entry.unwrap().file_name().into_string().unwrap();
        let index = index(Repo::plain(&fixture).path(), &[]);
        let errors: Vec<String> =
            validator.iter_errors(&index.bundle).map(|e| format!("{e} at {}", e.instance_path())).collect();
        assert!(errors.is_empty(), "{fixture}: {errors:#?}");
    }
}

#[test]
fn parquet_tables_have_one_row_per_node_edge_and_symbol() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let index = index(Repo::git("dunder_all").path(), &[]);
    let rows = |name: &str| {
        let reader = SerializedFileReader::new(std::fs::File::open(index.file(name)).unwrap()).unwrap();
        reader.metadata().file_metadata().num_rows()
    };
    assert_eq!(rows("nodes.parquet"), 2);
    assert_eq!(rows("edges.parquet"), 0);
    assert_eq!(rows("symbols.parquet"), 6);
}

#[test]
fn graph_html_is_self_contained() {
    let index = index(Repo::git("cycle").path(), &["--repository-url", "https://github.com/acme/cycle/"]);
    let html = String::from_utf8(index.read("graph.html")).unwrap();
    assert!(html.contains("ForceGraph") && html.contains("\"a.py\""));
    assert!(!html.contains("src=\"http") && !html.contains("/*STRATA_DATA*/"));
    // Module panels link the code at the indexed commit.
    assert!(html.contains("\"repository\":\"https://github.com/acme/cycle\""), "the repository link is packed");
    assert!(html.contains(&format!("\"commit\":\"{}\"", index.report["commit"].as_str().unwrap())));
}

#[test]
fn an_older_revision_can_be_indexed() {
    let repo = Repo::git("cycle");
    let first_commit = repo.head();
    repo.write("e.py", "import d\n");
    repo.commit_all("add e");
    let latest = index(repo.path(), &[]);
    let older = index(repo.path(), &["--rev", "HEAD~1"]);
    assert_eq!(latest.bundle["counts"]["modules"], 5);
    assert_eq!(older.bundle["counts"]["modules"], 4);
    assert_eq!(older.bundle["meta"]["commit"], first_commit.as_str());
}

#[test]
fn uncommitted_changes_are_not_indexed() {
    let repo = Repo::git("cycle");
    repo.write("uncommitted.py", "import a\n");
    let index = index(repo.path(), &[]);
    assert_eq!(index.bundle["counts"]["modules"], 4);
    assert_eq!(index.bundle["meta"]["source"], "git");
}

#[test]
fn a_subfolder_of_a_repository_is_indexed_alone() {
    let repo = Repo::git("src_layout");
    let index = index(&repo.path().join("src"), &[]);
    let ids: Vec<&String> = index.bundle["nodes"].as_object().unwrap().keys().collect();
    assert_eq!(ids, ["app/__init__.py", "app/core.py", "app/util.py"]);
    assert_eq!(index.node("app/core.py")["module"], "app.core");
}

#[test]
fn not_a_git_repository_reads_the_directory() {
    let index = index(Repo::plain("cycle").path(), &[]);
    assert_eq!(index.bundle["meta"]["source"], "worktree");
    assert_eq!(index.bundle["meta"]["commit"], serde_json::Value::Null);
    assert_eq!(index.bundle["counts"]["modules"], 4);
}

#[cfg(unix)]
#[test]
fn symlink_loops_are_not_followed() {
    let repo = Repo::plain("cycle");
    std::os::unix::fs::symlink(repo.path(), repo.path().join("loop")).unwrap();
    std::os::unix::fs::symlink("a.py", repo.path().join("alias.py")).unwrap();
    let plain = index(repo.path(), &[]);
    assert_eq!(plain.bundle["counts"]["modules"], 4);
    repo.init_git();
    repo.commit_all("with symlinks");
    let committed = index(repo.path(), &[]);
    assert_eq!(committed.bundle["counts"]["modules"], 4);
}

/// A 5 MB generated module skipped for its size turned `from gen import huge` into an edge to
/// `gen/__init__.py`: the skipped file is still the module imported, never an ancestor of it.
#[test]
fn a_file_skipped_for_its_size_is_still_the_module_its_importers_import() {
    let repo = Repo::empty_git();
    repo.write("gen/__init__.py", "");
    repo.write("gen/huge.py", &"import gen.other\nX = 1\n".repeat(50));
    repo.write("gen/other.py", "");
    repo.write("user.py", "from gen import huge\n");
    repo.commit_all("add generated code");
    let index = index(repo.path(), &["--max-file-bytes", "100"]);
    assert_eq!(index.bundle["counts"]["modules"], 4);
    assert_eq!(index.bundle["counts"]["skipped_files"], 1);
    assert_eq!(index.bundle["counts"]["partial_files"], 0);
    assert_eq!(index.bundle["meta"]["skipped_files"][0]["path"], "gen/huge.py");
    assert!(index.stderr.contains("gen/huge.py: skipped: 1150 bytes"), "{}", index.stderr);
    assert_eq!(index.edges(), ["user.py -> gen/huge.py"].map(String::from).into());
    let huge = index.node("gen/huge.py");
    assert_eq!(huge["parse_status"], "skipped");
    assert!(huge["warnings"][0].as_str().unwrap().contains("over the 100-byte limit"), "{huge:#}");
    assert_eq!(index.node("user.py")["unresolved_imports"], serde_json::json!([]));
    // Its own imports are unknown, and every answer about it says so.
    let dir = index.dir.to_str().unwrap();
    let output = strata(&["ask", "--index", dir, "What does gen/huge.py import?"]);
    let answer = String::from_utf8_lossy(&output.stdout);
    assert!(answer.contains("`gen/huge.py` was not read"), "{answer}");
    let output = strata(&["ask", "--index", dir, "What imports gen/huge.py?"]);
    let answer = String::from_utf8_lossy(&output.stdout);
    assert!(answer.contains("`user.py`"), "{answer}");
    let output = strata(&["ask", "--index", dir, "What does user.py import?"]);
    let answer = String::from_utf8_lossy(&output.stdout);
    assert!(answer.contains("`gen/huge.py` (not read: skipped for its size)"), "{answer}");
}

#[test]
fn github_actions_gets_log_groups_and_escaped_annotations() {
    let repo = Repo::git("syntax_error");
    let index = index_with_env(repo.path(), &[], &[("GITHUB_ACTIONS", "true")]);
    assert!(index.stderr.contains("::group::strata parse (2 files)"), "{}", index.stderr);
    assert!(index.stderr.contains("::warning file=broken.py,line=3::syntax error"), "{}", index.stderr);
}

#[test]
fn json_report_has_stage_timings() {
    let index = index(Repo::git("cycle").path(), &[]);
    for stage in ["source", "parse", "graph", "write", "total"] {
        assert!(index.report["timings_ms"][stage].is_u64(), "{stage}");
    }
    assert_eq!(index.report["n_files_parsed"], 4);
}

#[test]
fn a_bad_revision_is_a_clear_error() {
    let repo = Repo::git("cycle");
    let output =
        strata(&["index", repo.path().to_str().unwrap(), "--rev", "no-such-branch", "--out", "/nonexistent/x"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot resolve revision \"no-such-branch\""), "{stderr}");
}

#[test]
fn a_bad_strata_toml_is_a_clear_error() {
    let repo = Repo::git("cycle");
    repo.write("strata.toml", "[index]\nexclud = []\n");
    repo.commit_all("bad config");
    let out = tempfile::TempDir::new().unwrap();
    let output = strata(&["index", repo.path().to_str().unwrap(), "--out", out.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("invalid strata.toml"));
}

#[test]
fn bad_usage_exits_with_two() {
    assert_eq!(strata(&["index", "--no-such-flag"]).status.code(), Some(2));
    assert_eq!(strata(&["--version"]).status.code(), Some(0));
}

/// Issue 30, Low 3: the library crates had no version of their own, so the manifest and the bundle (like
/// the bot's footer) said "0.0.0". Every crate takes the workspace's version.
#[test]
fn the_manifest_and_the_bundle_name_the_released_version() {
    let repo = Repo::git("relative_imports");
    let indexed = index(repo.path(), &[]);
    let manifest: serde_json::Value = serde_json::from_slice(&indexed.read("manifest.json")).unwrap();
    assert_eq!(manifest["tool"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        indexed.bundle["meta"]["generator"]["version"],
        env!("CARGO_PKG_VERSION"),
        "{:#}",
        indexed.bundle["meta"]
    );
    assert_ne!(env!("CARGO_PKG_VERSION"), "0.0.0");
}
