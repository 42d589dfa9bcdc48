//! `strata graph` on fixtures: Mermaid and DOT snapshots at both levels, a module's neighbourhood, the
//! cycles view with runtime edges only, a structural check of the Mermaid text, a bad focus, and the
//! interactive page opening on the view asked for.

use std::collections::BTreeSet;

use crate::support::{Index, Repo, index, strata};

fn graph(index: &Index, args: &[&str]) -> String {
    let mut all = vec!["graph", "--index", index.dir.to_str().unwrap()];
    all.extend_from_slice(args);
    let output = strata(&all);
    assert!(output.status.success(), "graph failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// What a Mermaid parser would reject first: a node used before it is declared, an unquoted label,
/// unbalanced subgraphs, a line that is none of the forms strata writes.
fn check_mermaid(text: &str) {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("graph LR"));
    let mut declared = BTreeSet::new();
    let mut depth = 0;
    for line in lines {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("subgraph ") {
            assert!(rest.contains(" [\"") && rest.ends_with("\"]"), "{line}");
            depth += 1;
        } else if line == "end" {
            depth -= 1;
            assert!(depth >= 0, "unbalanced end");
        } else if line.starts_with("style ") {
            assert!(line.contains("stroke:"), "{line}");
        } else if let Some((id, label)) = line.split_once("[\"") {
            assert!(id.starts_with('n') && id[1..].chars().all(|c| c.is_ascii_digit()), "{line}");
            assert!(label.ends_with("\"]") && !label[..label.len() - 2].contains('"'), "{line}");
            declared.insert(id.to_string());
        } else {
            let parts: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(parts.len(), 3, "{line}");
            assert!(parts[1].starts_with("-->") || parts[1].starts_with("-.->"), "{line}");
            assert!(declared.contains(parts[0]) && declared.contains(parts[2]), "edge before its nodes: {line}");
        }
    }
    assert_eq!(depth, 0, "unbalanced subgraphs");
}

#[test]
fn mermaid_and_dot_views_of_the_shop() {
    let index = index(Repo::git("shop").path(), &[]);
    let package = graph(&index, &[]);
    check_mermaid(&package);
    insta::assert_snapshot!("shop_packages_mermaid", package);
    let modules = graph(&index, &["--level", "module"]);
    check_mermaid(&modules);
    insta::assert_snapshot!("shop_modules_mermaid", modules);
    insta::assert_snapshot!("shop_modules_dot", graph(&index, &["--level", "module", "--format", "dot"]));
    // The neighbourhood of cart: what it imports and what imports it, one step.
    let focus = graph(&index, &["--level", "module", "--focus", "shop.cart", "--format", "json"]);
    let view: serde_json::Value = serde_json::from_str(&focus).unwrap();
    let ids: Vec<&str> = view["nodes"].as_array().unwrap().iter().map(|n| n["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["shop/__init__.py", "shop/api.py", "shop/cart.py", "shop/models.py", "shop/pricing.py"]);
}

#[test]
fn the_cycles_view_and_runtime_edges() {
    let index = index(Repo::git("type_checking_cycle").path(), &[]);
    let cycles = graph(&index, &["--level", "module", "--cycles"]);
    check_mermaid(&cycles);
    insta::assert_snapshot!("type_checking_cycle_cycles_mermaid", cycles);
    // Without the TYPE_CHECKING import there is no cycle left to draw.
    assert_eq!(graph(&index, &["--level", "module", "--cycles", "--runtime"]), "graph LR\n");
    let output =
        strata(&["graph", "--index", index.dir.to_str().unwrap(), "--level", "module", "--focus", "nowhere.py"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--focus nowhere.py names no module"));
}

#[test]
fn the_summary_draws_the_largest_cycle() {
    let index = index(Repo::git("type_checking_cycle").path(), &[]);
    let summary = String::from_utf8(index.read("summary.md")).unwrap();
    let section = summary.split("## The largest import cycle").nth(1).expect("a cycle section");
    let diagram = section.split("```mermaid\n").nth(1).and_then(|rest| rest.split("```").next()).unwrap();
    check_mermaid(diagram);
    assert!(diagram.contains("models.py") && diagram.contains("-.->"), "{diagram}");
    // No cycle, no section.
    let acyclic = crate::support::index(Repo::git("src_layout").path(), &[]);
    assert!(!String::from_utf8(acyclic.read("summary.md")).unwrap().contains("## The largest import cycle"));
}

#[test]
fn the_html_page_opens_on_the_view_asked_for() {
    let index = index(Repo::git("shop").path(), &[]);
    let page = graph(&index, &["--format", "html", "--focus", "shop.cart", "--cycles", "--runtime"]);
    assert!(page.contains("ForceGraph") && page.contains("\"start\":\"module=shop%2Fcart.py&tab=cycles&tc=0\""));
    let package = graph(&index, &["--format", "html", "--focus", "shop/payments/"]);
    assert!(package.contains("\"start\":\"open=shop%2Fpayments\""), "a folder opens as a package");
    let output = strata(&["graph", "--index", index.dir.to_str().unwrap(), "--format", "html", "--focus", "nowhere"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("--focus nowhere names no module or package"));
}

/// A repository of one flat package `big` of `n` modules importing each other in a ring, plus `setup.py`.
fn ring(n: usize) -> Repo {
    let repo = Repo::empty_git();
    repo.write("big/__init__.py", "");
    for i in 0..n {
        repo.write(&format!("big/m{i}.py"), &format!("from big import m{}\n", (i + 1) % n));
    }
    repo.write("setup.py", "import big.m0\n");
    repo.commit_all("a ring");
    repo
}

/// A focused Mermaid cycle group was labelled "cycle 1 (8 modules)": it counted the members shown, and
/// the cycle had 11.
#[test]
fn a_focused_cycle_group_counts_the_whole_cycle() {
    let index = index(ring(11).path(), &[]);
    let focused = graph(&index, &["--level", "module", "--focus", "big/m0.py", "--depth", "2"]);
    check_mermaid(&focused);
    assert!(focused.contains("subgraph c0 [\"cycle 1 (11 modules, 5 shown)\"]"), "{focused}");
    let json = graph(&index, &["--level", "module", "--focus", "big/m0.py", "--depth", "2", "--format", "json"]);
    let view: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(view["groups"][0]["size"], 11, "{view:#}");
    assert_eq!(view["groups"][0]["members"].as_array().unwrap().len(), 5, "{view:#}");
    let whole = graph(&index, &["--level", "module", "--cycles"]);
    assert!(whole.contains("subgraph c0 [\"cycle 1 (11 modules)\"]"), "{whole}");
}

/// rich's package of 78 modules was one box, `rich (78)`, in the default Mermaid: a package with more
/// than 60 modules of its own is drawn as its modules (its subfolders stay boxes).
#[test]
fn a_package_of_more_than_60_modules_is_drawn_as_its_modules() {
    let repo = ring(61);
    repo.write("big/sub/helper.py", "import big.m2\n");
    repo.commit_all("a subfolder");
    let index = index(repo.path(), &[]);
    let packages = graph(&index, &[]);
    check_mermaid(&packages);
    assert!(packages.contains("[\"big/m0.py\"]") && !packages.contains("[\"big (62)\"]"), "{packages}");
    assert!(
        packages.contains("[\". (1)\"]") && packages.contains("[\"big/sub (1)\"]"),
        "other packages stay boxes: {packages}"
    );
    let json: serde_json::Value = serde_json::from_str(&graph(&index, &["--format", "json"])).unwrap();
    let kinds: BTreeSet<&str> = json["nodes"].as_array().unwrap().iter().map(|n| n["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["module", "package"].into());
    // Sixty modules are one box, as before.
    let small = index_of(&ring(59));
    assert!(graph(&small, &[]).contains("[\"big (60)\"]"));
}

fn index_of(repo: &Repo) -> Index {
    index(repo.path(), &[])
}
