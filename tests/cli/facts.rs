//! Correct facts on every layout (issue 18): a package folder indexed on its own names its modules as
//! the package, a missing module is an unresolved import (never an edge to an enclosing package),
//! runtime questions never cross `if TYPE_CHECKING:` edges, "directly" lists only direct importers,
//! exports follow `__all__` or the public names a package binds, nothing to index is an error, a
//! damaged search index still answers structural questions, and the small contracts hold.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::support::{Index, Repo, index, strata, strata_with_env};

/// Edges as `src -> dst` dotted module names (comparable whatever folder was indexed).
fn named_edges(index: &Index) -> BTreeSet<String> {
    let name = |id: &str| index.node(id)["module"].as_str().unwrap().to_string();
    index.bundle["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|edge| format!("{} -> {}", name(edge["src"].as_str().unwrap()), name(edge["dst"].as_str().unwrap())))
        .collect()
}

fn unresolved(index: &Index, id: &str) -> Vec<(String, u64)> {
    index.node(id)["unresolved_imports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| (u["name"].as_str().unwrap().to_string(), u["line"].as_u64().unwrap()))
        .collect()
}

const PACKAGE_EDGES: [&str; 8] = [
    "lib -> lib.models",
    "lib.app -> lib.models",
    "lib.app -> lib.sub.helpers",
    "lib.models -> lib.app",
    "lib.models -> lib.sub.helpers",
    "lib.ns.inner -> lib.app",
    "lib.sub.helpers -> lib.models",
    "lib.sub.helpers -> lib.ns.inner",
];

#[test]
fn a_package_folder_gives_the_same_graph_as_the_repository_root() {
    let repo = Repo::git("package_folder");
    let from_root = index(repo.path(), &[]);
    let package = repo.path().join("src/lib");
    let from_folder = index(&package, &[]);
    let expected: BTreeSet<String> = PACKAGE_EDGES.iter().map(|e| e.to_string()).collect();
    assert_eq!(named_edges(&from_root), expected);
    assert_eq!(named_edges(&from_folder), expected);
    assert_eq!(from_folder.node("__init__.py")["module"], "lib");
    assert_eq!(from_folder.node("sub/helpers.py")["module"], "lib.sub.helpers");
    assert_eq!(from_folder.bundle["meta"]["source_roots"], serde_json::json!([". (package lib)"]));
    // The same from a plain copy of the folder (no git), and with the root named explicitly.
    let plain = Repo::plain("package_folder");
    assert_eq!(named_edges(&index(&plain.path().join("src/lib"), &[])), expected);
    for root in ["..", "src"] {
        let named = index(&package, &["--source-root", root]);
        assert_eq!(named_edges(&named), expected, "--source-root {root}");
    }
}

#[test]
fn relative_imports_above_the_top_level_package_are_reported() {
    let repo = Repo::git("package_folder");
    // Told that the package folder is a source root, its relative imports climb out of it.
    let wrong_root = index(&repo.path().join("src/lib"), &["--source-root", "."]);
    let warnings = wrong_root.report["warnings"].as_array().unwrap();
    let climbing: Vec<&Value> = warnings
        .iter()
        .filter(|w| w["message"].as_str().unwrap().contains("climb above the top-level package"))
        .collect();
    assert_eq!(climbing.len(), 1, "{warnings:?}");
    assert!(climbing[0]["message"].as_str().unwrap().contains("--source-root .."), "{:?}", climbing[0]);
}

#[test]
fn a_missing_module_is_an_unresolved_import_not_an_edge() {
    let repo = Repo::git("package_folder");
    let index = index(repo.path(), &[]);
    // `from .gone import codes` and `from lib.missing import thing`: no edge to `lib/__init__.py`.
    assert!(!index.edges().iter().any(|e| e.ends_with("-> src/lib/__init__.py")), "{:?}", index.edges());
    assert_eq!(unresolved(&index, "src/lib/__init__.py"), [("lib.gone".to_string(), 3)]);
    assert_eq!(unresolved(&index, "src/lib/models.py"), [("lib.missing".to_string(), 4)]);
    // `from ..ns import inner` reaches a module of a namespace folder; `ns` itself is no file and no error.
    assert!(unresolved(&index, "src/lib/sub/helpers.py").is_empty());
    let warned: Vec<(String, u64)> = index.report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["message"].as_str().unwrap().contains("names no module"))
        .map(|w| (w["path"].as_str().unwrap().to_string(), w["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(warned, [("src/lib/__init__.py".to_string(), 3), ("src/lib/models.py".to_string(), 4)]);
    let summary = String::from_utf8(index.read("summary.md")).unwrap();
    assert!(summary.contains("## Unresolved imports"), "{summary}");
    assert!(summary.contains("- `src/lib/models.py` line 4: `lib.missing`"), "{summary}");
}

#[test]
fn a_deleted_module_leaves_no_invented_edge_or_cycle() {
    let repo = Repo::git("package_folder");
    let before = index(repo.path(), &[]);
    repo.remove("src/lib/app.py");
    repo.commit_all("delete app");
    let after = index(repo.path(), &[]);
    assert!(unresolved(&after, "src/lib/ns/inner.py").contains(&("lib.app".to_string(), 1)));
    assert!(!after.edges().iter().any(|e| e.starts_with("src/lib/ns/inner.py ->")), "{:?}", after.edges());
    // The 4-module cycle through app.py shrinks to the two modules that still import each other.
    assert_eq!(before.bundle["counts"]["largest_cycle"], 4);
    assert_eq!(after.bundle["counts"]["largest_cycle"], 2);
}

#[test]
fn exports_are_all_or_public_names_including_package_imports() {
    let repo = Repo::git("package_folder");
    let index = index(repo.path(), &[]);
    let node = index.node("src/lib/__init__.py");
    assert_eq!(node["exports_source"], "public_names");
    // `Model` and `codes` are imported from the package's own modules; `os` is not API; `ssl` is bound
    // only in a try/except fallback, and says so.
    assert_eq!(node["exports"], serde_json::json!(["Model", "codes", "ssl"]));
    assert_eq!(node["exports_fallback"], serde_json::json!(["ssl"]));
    // A name imported under `if TYPE_CHECKING:` (`App`) is bound only for type checkers: not an export.
    assert_eq!(index.node("src/lib/models.py")["exports"], serde_json::json!(["Model", "helpers", "thing"]));
    let dunder_all = crate::support::index(Repo::git("dunder_all").path(), &[]);
    for (_, node) in dunder_all.bundle["nodes"].as_object().unwrap() {
        if node["exports_source"] == "__all__" {
            assert_eq!(node["exports_fallback"], serde_json::json!([]));
        }
    }
}

#[test]
fn an_all_that_concatenates_other_modules_all_holds_their_names() {
    let repo = Repo::empty_git();
    repo.write(
        "pkg/__init__.py",
        "from pkg.fields import *\nfrom pkg.fields import __all__ as fields_all\nfrom . import lookups\n\
         __all__ = fields_all + lookups.__all__\n__all__ += ['extra']\nextra = 1\n",
    );
    repo.write(
        "pkg/fields.py",
        "__all__ = ['Field']\n__all__.extend(['Other', 'Field'])\nclass Field: ...\nOther = 1\n",
    );
    // A chain back to a module being read adds nothing more.
    repo.write("pkg/lookups.py", "from pkg import __all__ as pkg_all\n__all__ = ['Lookup'] + pkg_all\nLookup = 1\n");
    repo.commit_all("packages");
    let index = index(repo.path(), &[]);
    let expected = [
        ("pkg/__init__.py", serde_json::json!(["extra", "Field", "Other", "Lookup"])),
        ("pkg/fields.py", serde_json::json!(["Field", "Other"])),
        ("pkg/lookups.py", serde_json::json!(["Lookup", "extra", "Field", "Other"])),
    ];
    for (module, names) in expected {
        let node = index.node(module);
        assert_eq!((&node["exports_source"], &node["exports"]), (&serde_json::json!("__all__"), &names), "{module}");
        // The independent oracle reads the same names (as a set: it lists them in its own order).
        if crate::oracle::python_available() {
            let oracle = crate::oracle::oracle(repo.path(), &["exports", module]);
            let sorted = |v: &Value| {
                let mut names: Vec<String> =
                    v.as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()).collect();
                names.sort();
                names
            };
            assert_eq!(sorted(&oracle["names"]), sorted(&names), "{module}");
        }
    }
}

fn ask_text(index: &Index, question: &str) -> String {
    let output = strata(&["ask", "--index", index.dir.to_str().unwrap(), "--format", "json", question]);
    assert!(output.status.success(), "ask failed: {}", String::from_utf8_lossy(&output.stderr));
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["mode"], "structural", "{answer}");
    answer["answer"].as_str().unwrap().to_string()
}

/// `a.json` reaches `a.app` only through an `if TYPE_CHECKING:` import in `a.globals`.
fn type_checking_path_repo() -> Repo {
    let repo = Repo::empty_git();
    repo.write("a/__init__.py", "");
    repo.write("a/json.py", "from . import globals\n");
    repo.write("a/globals.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .app import App\n");
    repo.write("a/app.py", "from . import helpers\n");
    repo.write("a/helpers.py", "X = 1\n");
    repo.commit_all("a");
    repo
}

#[test]
fn runtime_and_direct_qualifiers_change_path_answers() {
    let repo = type_checking_path_repo();
    let index = index(repo.path(), &[]);
    let runtime = ask_text(&index, "does a.json depend on a.app at runtime?");
    assert!(runtime.starts_with("No:"), "{runtime}");
    assert!(runtime.contains("only through `if TYPE_CHECKING:` imports"), "{runtime}");
    let all = ask_text(&index, "does a.json depend on a.app?");
    // Yes over every import, but saying it holds only through the TYPE_CHECKING import (httpx's
    // `_api` → `_transports.wsgi` was a plain "Yes").
    assert!(
        all.starts_with("Yes, but only through `if TYPE_CHECKING:` imports") && all.contains("`a/globals.py`"),
        "{all}"
    );
    let direct = ask_text(&index, "does a.json import a.app directly?");
    assert!(direct.starts_with("No:") && direct.contains("indirectly"), "{direct}");
    let direct_yes = ask_text(&index, "does a/json.py import a/globals.py directly?");
    assert!(direct_yes.starts_with("Yes:"), "{direct_yes}");
}

#[test]
fn impact_labels_only_real_importers_as_direct() {
    let repo = type_checking_path_repo();
    let index = index(repo.path(), &[]);
    let answer = ask_text(&index, "what would be affected if I modify a/helpers.py?");
    // helpers ← app ← globals (TYPE_CHECKING) ← json: one direct importer, two indirect dependents.
    assert!(answer.contains("1 import it directly: `a/app.py`."), "{answer}");
    assert!(answer.contains("2 more depend on it indirectly, through those: `a/globals.py`, `a/json.py`."), "{answer}");
    let runtime = ask_text(&index, "what would be affected if I modify a/helpers.py at runtime?");
    assert!(
        runtime.starts_with("1 module(s) depend on `a/helpers.py` at runtime") && !runtime.contains("indirectly"),
        "{runtime}"
    );
}

fn index_fails(path: &std::path::Path, args: &[&str]) -> String {
    let out = tempfile::TempDir::new().unwrap();
    let out_dir = out.path().join("index");
    let mut all = vec!["index", path.to_str().unwrap(), "--out", out_dir.to_str().unwrap()];
    all.extend_from_slice(args);
    let output = strata(&all);
    assert_eq!(output.status.code(), Some(1), "stdout: {}", String::from_utf8_lossy(&output.stdout));
    assert!(!out_dir.join("manifest.json").exists());
    String::from_utf8(output.stderr).unwrap()
}

#[test]
fn nothing_to_index_is_an_error_that_says_what_was_looked_at() {
    let empty = tempfile::TempDir::new().unwrap();
    let message = index_fails(empty.path(), &[]);
    assert!(message.contains("nothing to index") && message.contains("holds no files"), "{message}");
    let unborn = Repo::empty_git();
    assert!(index_fails(unborn.path(), &[]).contains("no commits yet"));
    let docs = Repo::empty_git();
    docs.write("README.md", "no python here\n");
    docs.commit_all("docs only");
    let message = index_fails(docs.path(), &[]);
    assert!(message.contains("none of its 1 file(s) is a `.py` file"), "{message}");
    assert!(message.contains(docs.path().to_str().unwrap()), "{message}");
    let junk = Repo::empty_git();
    junk.write("a.py", "\u{0}\u{1}((((\n");
    junk.write("b.py", "}}}} ]]]\n");
    junk.commit_all("not python");
    let message = index_fails(junk.path(), &[]);
    assert!(message.contains("none of the 2 Python file(s)") && message.contains("could be parsed"), "{message}");
}

#[test]
fn a_missing_or_damaged_search_index_or_lexicon_still_answers_structural_questions() {
    let repo = Repo::git("package_folder");
    let index = index(repo.path(), &[]);
    let lancedb = index.dir.join("lancedb");
    let data: Vec<_> = walk(&lancedb).into_iter().filter(|p| p.extension().is_some_and(|e| e == "lance")).collect();
    assert!(!data.is_empty());
    for file in &data {
        std::fs::write(file, b"damaged").unwrap();
    }
    check_degraded(&index, "is damaged");
    std::fs::remove_dir_all(&lancedb).unwrap();
    check_degraded(&index, &format!("the search index in {} cannot be used", index.dir.display()));
    // The lexical index is part of the search index: damaged, the same degradation, named.
    std::fs::write(index.dir.join("lexicon.parquet"), b"damaged").unwrap();
    check_degraded(&index, "the lexicon is damaged");
}

fn check_degraded(index: &Index, expected: &str) {
    let dir = index.dir.to_str().unwrap();
    let structural = strata(&["ask", "--index", dir, "--format", "json", "What imports lib.models?"]);
    assert!(structural.status.success(), "{}", String::from_utf8_lossy(&structural.stderr));
    let answer: Value = serde_json::from_slice(&structural.stdout).unwrap();
    assert_eq!(answer["mode"], "structural");
    let other = strata(&["ask", "--index", dir, "--format", "json", "How are models shouted?"]);
    assert!(other.status.success(), "{}", String::from_utf8_lossy(&other.stderr));
    let all = format!("{}{}", String::from_utf8_lossy(&other.stdout), String::from_utf8_lossy(&other.stderr));
    let answer: Value = serde_json::from_slice(&other.stdout).unwrap();
    assert_eq!(answer["mode"], "declined");
    let text = answer["answer"].as_str().unwrap();
    assert!(text.contains(expected) && text.contains("re-run `strata index`"), "{text}");
    assert!(!all.contains(".rs:") && !all.contains(".cargo"), "no crate source paths: {all}");
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() { found.extend(walk(&path)) } else { found.push(path) }
    }
    found
}

#[test]
fn small_contracts_hold() {
    let repo = Repo::git("package_folder");
    let index = index(repo.path(), &[]);
    let dir = index.dir.to_str().unwrap();
    // STRATA_FORMAT is `ask`'s; `diff` has its own variable.
    let diff = strata_with_env(&["diff", dir, dir], &[("STRATA_FORMAT", "text")]);
    assert!(diff.status.success(), "{}", String::from_utf8_lossy(&diff.stderr));
    let json = strata_with_env(&["diff", dir, dir], &[("STRATA_DIFF_FORMAT", "json")]);
    assert!(serde_json::from_slice::<Value>(&json.stdout).is_ok());
    // `index` prints one line, naming where it wrote.
    let out = tempfile::TempDir::new().unwrap();
    let out_dir = out.path().join("i");
    let run = strata(&["index", repo.path().to_str().unwrap(), "--out", out_dir.to_str().unwrap()]);
    let stdout = String::from_utf8(run.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.contains(out_dir.to_str().unwrap()) && stdout.contains("ms"), "{stdout}");
    // An eval set written for another layout is refused, naming the first path it cannot find.
    let questions = out.path().join("q.jsonl");
    let question = serde_json::json!({
        "id": "q1", "repo": "lib", "version": "1", "category": "imports", "question": "What does lib.app import?",
        "answerable": true, "expected": {"modules": ["lib/app.py"], "reference": "models and helpers"},
        "provenance": {}
    });
    std::fs::write(&questions, format!("{question}\n")).unwrap();
    let eval = strata(&[
        "eval",
        "--index",
        dir,
        "--questions",
        questions.to_str().unwrap(),
        "--out",
        out.path().join("e").to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&eval.stderr);
    assert_eq!(eval.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("`lib/app.py`") && stderr.contains("q1"), "{stderr}");
}
