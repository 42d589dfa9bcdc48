//! The organisation's graph from small repositories built through the real pipeline (parse, resolve,
//! metrics, bundle), and the catalog's merge.

use std::collections::HashMap;

use super::*;
use crate::bundle::{BuildInput, FactsTable, build_bundle};
use crate::graph::{ModuleIndex, build_import_graph, compute_metrics, source_roots};
use crate::python::{FACTS_VERSION, parse_python_file};

/// A repository's bundle and facts, as `strata index` would write them for these files.
fn repository(files: &[(&str, &str)]) -> (Bundle, FactsTable) {
    let mut paths: Vec<String> = files.iter().map(|(path, _)| path.to_string()).collect();
    paths.sort();
    let roots = source_roots(&paths, &[], &[]).unwrap();
    let (index, _) = ModuleIndex::new(&paths, roots);
    let source: HashMap<&str, &str> = files.iter().copied().collect();
    let parsed: Vec<_> = index.modules.iter().map(|m| parse_python_file(source[m.id.as_str()].as_bytes())).collect();
    let facts: Vec<&FileFacts> = parsed.iter().map(|p| &p.facts).collect();
    let warnings = vec![Vec::new(); parsed.len()];
    let graph = build_import_graph(index, &facts);
    let metrics = compute_metrics(&graph);
    let bundle = build_bundle(&BuildInput {
        graph: &graph,
        metrics: &metrics,
        facts: &facts,
        warnings: &warnings,
        commit: Some("0123abcd"),
        source: "git",
        skipped_files: Vec::new(),
        test_files: &[],
    });
    let files = graph.index.modules.iter().zip(parsed).map(|(m, p)| (m.id.clone(), ("blob".to_string(), p))).collect();
    (bundle, FactsTable { facts_version: FACTS_VERSION, files })
}

fn auth() -> (Bundle, FactsTable) {
    repository(&[
        ("acme_auth/__init__.py", "from .tokens import issue\n"),
        ("acme_auth/tokens.py", "def issue(): ...\n"),
        ("acme_auth/util.py", "import os\n"),
        ("tests/__init__.py", ""),
        ("tests/helpers.py", "import acme_auth\n"),
    ])
}

fn billing() -> (Bundle, FactsTable) {
    repository(&[
        ("billing/__init__.py", ""),
        ("billing/invoice.py", "from acme_auth import tokens\nimport acme_auth.util\nimport requests\n"),
        ("billing/app.py", "from billing import invoice\n"),
        ("tests/__init__.py", ""),
        ("tests/helpers.py", ""),
        ("tests/test_app.py", "from tests.helpers import *\nimport billing.app\n"),
    ])
}

fn org(repos: &[(&str, &(Bundle, FactsTable))]) -> OrgGraph {
    let repos: Vec<OrgRepository<'_>> =
        repos.iter().map(|(name, (bundle, facts))| OrgRepository { name, bundle, facts }).collect();
    org_graph(&repos).unwrap()
}

#[test]
fn imports_of_another_repositorys_package_become_edges_to_its_modules() {
    let (auth, billing) = (auth(), billing());
    let graph = org(&[("billing", &billing), ("auth", &auth)]);
    let imports = &graph.bundle.nodes["billing/billing/invoice.py"].imports;
    assert_eq!(imports, &["auth/acme_auth/tokens.py", "auth/acme_auth/util.py"]);
    let external = &graph.bundle.nodes["billing/billing/invoice.py"].external_imports.third_party;
    assert_eq!(external, &["requests"], "acme_auth is no longer third-party");
    // Transitive dependents cross the boundary: invoice, app and the test that imports app.
    let tokens = &graph.bundle.nodes["auth/acme_auth/tokens.py"];
    assert_eq!(tokens.direct_importers_count, 2, "acme_auth/__init__.py and billing's invoice");
    assert!(tokens.importers_count >= 5, "{}", tokens.importers_count);
    let cross = cross_imports(&graph.bundle, |repo| (repo == "auth").then(|| "feedbeef".to_string()));
    let pairs: Vec<(&str, &str)> = cross.iter().map(|c| (c.importer.as_str(), c.imported.as_str())).collect();
    assert_eq!(pairs, [("billing/invoice.py", "acme_auth/tokens.py"), ("billing/invoice.py", "acme_auth/util.py")]);
    assert!(cross.iter().all(|c| c.importer_repo == "billing" && c.imported_repo == "auth"));
    assert_eq!(cross[0].resolved_at.as_deref(), Some("feedbeef"));
    assert_eq!(cross[0].names, ["tokens"]);
}

#[test]
fn a_repository_resolves_its_own_packages_first_and_shared_names_stay_external() {
    let (auth, billing) = (auth(), billing());
    let ops = repository(&[("ops/__init__.py", ""), ("ops/check.py", "import tests.helpers\nimport billing.app\n")]);
    let graph = org(&[("auth", &auth), ("billing", &billing), ("ops", &ops)]);
    assert_eq!(
        graph.bundle.nodes["billing/tests/test_app.py"].imports,
        ["billing/billing/app.py", "billing/tests/helpers.py"],
        "billing's tests import billing's own helpers"
    );
    assert_eq!(graph.bundle.nodes["ops/ops/check.py"].imports, ["billing/billing/app.py"]);
    assert!(graph.warnings.iter().any(|w| w.contains("`tests` is provided by auth, billing")), "{:?}", graph.warnings);
    // Each repository's own graph is unchanged inside the organisation's.
    for (name, (bundle, _)) in [("auth", &auth), ("billing", &billing)] {
        for edge in &bundle.edges {
            let (src, dst) = (format!("{name}/{}", edge.src), format!("{name}/{}", edge.dst));
            assert!(graph.bundle.nodes[&src].imports.contains(&dst), "{src} -> {dst} lost");
        }
    }
}

#[test]
fn bad_repository_names_and_duplicates_are_refused() {
    let auth = auth();
    for name in ["", "a/b", "..", "x y"] {
        assert!(check_repository_name(name).is_err(), "{name:?}");
    }
    let repos = [
        OrgRepository { name: "a", bundle: &auth.0, facts: &auth.1 },
        OrgRepository { name: "a", bundle: &auth.0, facts: &auth.1 },
    ];
    assert!(org_graph(&repos).unwrap_err().to_string().contains("listed twice"));
}

fn entry(packages: &[&str], imports: &[&str]) -> CatalogEntry {
    CatalogEntry {
        index: "repos/x/v".to_string(),
        commit: None,
        bundle_schema: crate::bundle::BUNDLE_SCHEMA_VERSION.to_string(),
        packages: packages.iter().map(|p| p.to_string()).collect(),
        imports_packages: imports.iter().map(|p| p.to_string()).collect(),
        modules: 1,
        generation: 0,
    }
}

fn cross(importer_repo: &str, imported_repo: &str) -> CrossImport {
    CrossImport {
        importer_repo: importer_repo.to_string(),
        importer: "m.py".to_string(),
        imported_repo: imported_repo.to_string(),
        imported: "n.py".to_string(),
        resolved_at: None,
        type_checking: false,
        names: Vec::new(),
    }
}

#[test]
fn a_catalog_commit_replaces_one_repositorys_entry_and_imports_only() {
    let catalog = Catalog::default()
        .with_repository("auth", entry(&["acme_auth"], &[]), Vec::new())
        .with_repository("billing", entry(&["billing"], &["acme_auth"]), vec![cross("billing", "auth")])
        .with_repository("ops", entry(&["ops"], &["billing"]), vec![cross("ops", "billing"), cross("x", "y")]);
    assert_eq!(catalog.generation, 3);
    assert_eq!(catalog.repositories["billing"].generation, 2);
    assert_eq!(catalog.cross_imports, [cross("billing", "auth"), cross("ops", "billing")], "unrelated imports dropped");
    assert_eq!(catalog.related("billing", &catalog.repositories["billing"]), ["auth", "ops"]);
    // Re-indexing billing replaces its imports both ways and keeps the others.
    let next = catalog.with_repository("billing", entry(&["billing"], &[]), Vec::new());
    assert!(next.cross_imports.is_empty());
    let again = Catalog::parse(&next.to_bytes(), "catalog.json").unwrap();
    assert_eq!(again, next);
    let mut old = next.clone();
    old.schema = "strata-catalog@0".to_string();
    assert!(Catalog::parse(&old.to_bytes(), "catalog.json").unwrap_err().to_string().contains("strata-catalog@1"));
}

#[test]
fn a_question_reads_only_the_repositories_its_modules_connect() {
    let catalog = Catalog::default()
        .with_repository("auth", entry(&["acme_auth"], &["requests"]), Vec::new())
        .with_repository("billing", entry(&["billing"], &["acme_auth"]), Vec::new())
        .with_repository("ops", entry(&["ops"], &["billing"]), Vec::new())
        .with_repository("web", entry(&["web"], &[]), Vec::new());
    assert_eq!(catalog.named_in("Which repositories import `acme_auth.tokens`?"), ["auth"]);
    assert!(catalog.named_in("Are there import cycles?").is_empty());
    // A repository or package written as a name in prose; the same word in lower case is a word.
    assert_eq!(catalog.named_in("How does Billing's invoice reach Acme_Auth?"), ["auth", "billing"]);
    assert!(catalog.named_in("Which billing code retries? Web pages?").is_empty(), "lower case; a sentence's start");
    // Dependents reach ops through billing; web neither imports nor is imported.
    assert_eq!(catalog.connected(&["auth".to_string()]), ["auth", "billing", "ops"]);
    assert_eq!(catalog.connected(&["ops".to_string()]), ["auth", "billing", "ops"], "what ops imports, transitively");
    assert_eq!(catalog.connected(&["web".to_string()]), ["web"]);
    assert_eq!(
        catalog.reading_for(&["What imports ops.check?"]),
        Some(vec!["auth".into(), "billing".into(), "ops".into()])
    );
    assert_eq!(catalog.reading_for(&["What imports ops.check?", "Any cycles?"]), None, "one question about everything");
}
