//! `strata impact` on a git repository with a base commit (indexed) and a head commit: every kind of
//! change it reports, test selection through chains of imports and packages, the `--tests` list, the
//! JSON, and the errors for a bad base index and a bad `strata.toml`.

use serde_json::Value;

use crate::support::{Index, Repo, index, strata};

/// A small package with a cycle (`models` ↔ `cart`), a chain (`api` → `cart` → `pricing` → `utils`)
/// and tests that reach it through imports and through a package's `__init__.py`.
pub(crate) fn base_repo() -> Repo {
    let repo = Repo::empty_git();
    repo.write("shop/__init__.py", "");
    repo.write("shop/utils.py", "def round_money(x):\n    return round(x, 2)\n");
    repo.write("shop/pricing.py", "from shop.utils import round_money\n");
    repo.write("shop/cart.py", "from shop.pricing import round_money\nfrom shop import models\n");
    repo.write("shop/models.py", "from shop import cart\n");
    repo.write("shop/api.py", "from shop.cart import *\n");
    repo.write("shop/payments/__init__.py", "");
    repo.write("shop/payments/gateway.py", "import time\n");
    repo.write("shop/legacy.py", "X = 1\n");
    repo.write("tests/test_api.py", "import shop.api\n");
    repo.write("tests/test_gateway.py", "import shop.payments.gateway\n");
    repo.write("tests/test_legacy.py", "from shop.legacy import X\n");
    repo.write("tests/helpers.py", "import shop.models\n");
    repo.commit_all("base");
    repo
}

fn impact_json(repo: &Repo, base: &Index, extra: &[&str]) -> Value {
    let mut args =
        vec!["impact", repo.path().to_str().unwrap(), "--previous", base.dir.to_str().unwrap(), "--format", "json"];
    args.extend_from_slice(extra);
    let output = strata(&args);
    assert!(output.status.success(), "impact failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

fn strings(value: &Value) -> Vec<String> {
    value.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
}

#[test]
fn impact_reports_every_kind_of_change_and_the_tests_to_run() {
    let repo = base_repo();
    let base = index(repo.path(), &[]);
    // The head: pricing now imports models (the cycle grows to three), utils is deleted (renamed to
    // money, with a new line so it is not a rename) while payments still imports it, legacy is renamed
    // as is, and a new cycle appears between two new modules.
    repo.write("shop/money.py", "def round_money(x):\n    return round(x, 2)  # cents\n");
    repo.remove("shop/utils.py");
    repo.write("shop/pricing.py", "from shop.money import round_money\nfrom shop import models\n");
    repo.write("shop/payments/__init__.py", "from shop.utils import round_money\n");
    repo.rename("shop/legacy.py", "shop/old.py");
    repo.write("tests/test_legacy.py", "from shop.old import X\n");
    repo.write("shop/a.py", "from shop import b\n");
    repo.write("shop/b.py", "from shop import a\n");
    repo.commit_all("head");

    let impact = impact_json(&repo, &base, &[]);
    assert_eq!(strings(&impact["changed"]), ["shop/payments/__init__.py", "shop/pricing.py", "tests/test_legacy.py"]);
    assert_eq!(strings(&impact["added"]), ["shop/a.py", "shop/b.py", "shop/money.py"]);
    assert_eq!(strings(&impact["removed"]), ["shop/utils.py"]);
    assert_eq!(impact["renamed"], serde_json::json!([{"from": "shop/legacy.py", "to": "shop/old.py"}]));
    let edges = |key: &str| -> Vec<String> {
        impact[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| format!("{} -> {}", e["src"].as_str().unwrap(), e["dst"].as_str().unwrap()))
            .collect()
    };
    assert!(edges("edges_added").contains(&"shop/pricing.py -> shop/models.py".to_string()), "{impact:#}");
    assert!(edges("edges_removed").contains(&"shop/pricing.py -> shop/utils.py".to_string()), "{impact:#}");
    assert_eq!(impact["cycles_new"][0]["members"], serde_json::json!(["shop/a.py", "shop/b.py"]));
    assert_eq!(impact["cycles_grown"][0]["new_size"], 3, "{impact:#}");
    // Deleting a module others import breaks them.
    assert_eq!(impact["breaking"][0]["importer"], "shop/payments/__init__.py");
    assert_eq!(impact["breaking"][0]["removed"], "shop/utils.py");
    // Affected through a chain, with the chain; and through a package's __init__.py.
    let affected = impact["affected"].as_array().unwrap();
    let via = |id: &str| affected.iter().find(|a| a["id"] == id).map(|a| strings(&a["via"]));
    assert_eq!(
        via("tests/test_api.py").unwrap(),
        ["tests/test_api.py", "shop/api.py", "shop/cart.py", "shop/pricing.py"]
    );
    assert_eq!(via("tests/test_gateway.py").unwrap(), ["tests/test_gateway.py", "shop/payments/__init__.py"]);
    assert!(via("shop/payments/gateway.py").is_none(), "a package's module does not import its __init__: {impact:#}");
    // Tests: pytest's file names only (helpers.py is affected, not a test module).
    assert!(via("tests/helpers.py").is_some());
    assert_eq!(strings(&impact["tests"]), ["tests/test_api.py", "tests/test_gateway.py", "tests/test_legacy.py"]);

    let output =
        strata(&["impact", repo.path().to_str().unwrap(), "--previous", base.dir.to_str().unwrap(), "--tests"]);
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "tests/test_api.py\ntests/test_gateway.py\ntests/test_legacy.py\n"
    );
    let output = strata(&["impact", repo.path().to_str().unwrap(), "--previous", base.dir.to_str().unwrap(), "--why"]);
    let markdown = String::from_utf8_lossy(&output.stdout);
    assert!(
        markdown.contains("`shop/utils.py` is removed but `shop/payments/__init__.py` imports `shop.utils` (line 1)"),
        "{markdown}"
    );
    assert!(
        markdown.contains("`tests/test_api.py` → `shop/api.py` → `shop/cart.py` → `shop/pricing.py`"),
        "{markdown}"
    );
    // The diagram: changed modules highlighted, the new and grown cycles' imports in red.
    assert!(markdown.contains("```mermaid\ngraph LR\n"), "{markdown}");
    assert!(
        markdown.contains("class ") && markdown.contains(" changed\n") && markdown.contains("linkStyle "),
        "{markdown}"
    );
}

#[test]
fn runtime_only_impact_leaves_out_type_checking_imports() {
    let repo = base_repo();
    repo.write("tests/test_types.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import shop.pricing\n");
    repo.commit_all("a test that imports pricing for type checking only");
    let base = index(repo.path(), &[]);
    repo.write("shop/pricing.py", "from shop.utils import round_money\nRATE = 2\n");
    repo.commit_all("head");
    let all = impact_json(&repo, &base, &[]);
    assert!(strings(&all["tests"]).contains(&"tests/test_types.py".to_string()), "{all:#}");
    let runtime = impact_json(&repo, &base, &["--runtime"]);
    assert!(!strings(&runtime["tests"]).contains(&"tests/test_types.py".to_string()), "{runtime:#}");
    assert!(strings(&runtime["tests"]).contains(&"tests/test_api.py".to_string()), "{runtime:#}");
}

#[test]
fn configured_test_files_and_conftest_select_tests() {
    let repo = base_repo();
    repo.write("strata.toml", "[impact]\ntest-files = [\"check_*.py\"]\n");
    repo.write("checks/check_cart.py", "import shop.cart\n");
    repo.write("suite/conftest.py", "import shop.utils\n");
    repo.write("suite/check_other.py", "X = 1\n");
    repo.commit_all("configured");
    let base = index(repo.path(), &[]);
    repo.write("shop/utils.py", "def round_money(x):\n    return round(x, 3)\n");
    repo.commit_all("head");
    let impact = impact_json(&repo, &base, &[]);
    // check_cart through cart → pricing → utils; check_other because its folder's conftest.py imports utils.
    assert_eq!(strings(&impact["tests"]), ["checks/check_cart.py", "suite/check_other.py"]);
    // The flag replaces the file's patterns.
    let impact = impact_json(&repo, &base, &["--test-files", "test_*.py"]);
    assert!(strings(&impact["tests"]).contains(&"tests/test_api.py".to_string()), "{impact:#}");
    assert!(!strings(&impact["tests"]).contains(&"checks/check_cart.py".to_string()), "{impact:#}");
}

#[test]
fn bad_inputs_get_clear_errors() {
    let repo = base_repo();
    let output = strata(&["impact", repo.path().to_str().unwrap(), "--previous", "/nonexistent/base-index"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot be used") && stderr.contains("/nonexistent/base-index"), "{stderr}");

    let base = index(repo.path(), &[]);
    repo.write("strata.toml", "[impact]\ntest-file = [\"check_*.py\"]\n");
    repo.commit_all("typo");
    let output = strata(&["impact", repo.path().to_str().unwrap(), "--previous", base.dir.to_str().unwrap()]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("strata.toml") && stderr.contains("test-file"), "{stderr}");
}

const CONTRACTS: &str = r#"
[[contracts]]
name = "layers"
kind = "layers"
layers = ["shop.api", "shop.cart", "shop.pricing"]

[[contracts]]
name = "payments stay out of pricing"
kind = "forbidden"
source = ["shop.pricing"]
forbidden = ["shop.payments"]

[[contracts]]
name = "independent"
kind = "independence"
modules = ["shop.payments", "shop.legacy"]

[[contracts]]
name = "no new cycles"
kind = "no-new-cycles"
"#;

fn check(repo: &Repo, base: Option<&Index>) -> (bool, String) {
    let mut args = vec!["check", repo.path().to_str().unwrap()];
    if let Some(base) = base {
        args.extend(["--previous", base.dir.to_str().unwrap()]);
    }
    let output = strata(&args);
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
}

#[test]
fn check_fails_only_on_violations_the_change_introduces() {
    let repo = base_repo();
    // Debt already on the base: pricing imports the payments package (line 2).
    repo.write("shop/pricing.py", "from shop.utils import round_money\nimport shop.payments.gateway\n");
    repo.write("strata.toml", CONTRACTS);
    repo.commit_all("contracts, with existing debt");
    let base = index(repo.path(), &[]);
    // Without a base everything counts, the existing cycle (cart <-> models) included.
    let (passed, text) = check(&repo, None);
    assert!(!passed, "{text}");
    assert!(text.contains("shop/pricing.py:2: [payments stay out of pricing]"), "{text}");
    assert!(text.contains("[no new cycles] an import cycle: 2 modules"), "{text}");
    // Against its own base nothing is new.
    let (passed, text) = check(&repo, Some(&base));
    assert!(passed, "{text}");
    assert!(text.contains("(already on the base branch)") && text.contains("0 new violation(s)"), "{text}");

    // The head: a lower layer imports a higher one through another module (which also closes a cycle
    // through api → cart → pricing), and legacy joins the models cycle and imports payments.
    repo.write("shop/utils.py", "import shop.api\n");
    repo.write("shop/legacy.py", "from shop import models\n");
    repo.write("shop/models.py", "from shop import cart\nfrom shop import legacy\n");
    repo.write("shop/legacy.py", "from shop import models\nimport shop.payments\n");
    repo.commit_all("violations");
    let (passed, text) = check(&repo, Some(&base));
    assert!(!passed, "{text}");
    // pricing → utils → api: the layer rule, reported on pricing's import of utils (line 1).
    assert!(
        text.contains("shop/pricing.py:1: [layers] `shop/pricing.py` imports `shop/api.py` (through shop/utils.py)"),
        "{text}"
    );
    assert!(text.contains("[independent] `shop/legacy.py` imports `shop/payments/__init__.py`"), "{text}");
    assert!(text.contains("[no new cycles] an import cycle appeared or grew: 6 modules"), "{text}");
    assert!(text.contains("[payments stay out of pricing]") && text.contains("(already on the base branch)"), "{text}");
    assert!(text.contains("new contract violation(s)"), "{text}");
    // In GitHub Actions the new violations are error annotations on the importing line.
    let output = crate::support::strata_with_env(
        &["check", repo.path().to_str().unwrap(), "--previous", base.dir.to_str().unwrap()],
        &[("GITHUB_ACTIONS", "true")],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("::error file=shop/pricing.py,line=1,title=strata check%3A layers::"), "{stderr}");
    assert!(
        !stderr.contains("title=strata check%3A payments stay out of pricing"),
        "existing debt is not annotated: {stderr}"
    );
}

#[test]
fn a_contract_with_a_typo_is_an_error_naming_the_line() {
    let repo = base_repo();
    repo.write("strata.toml", "[[contracts]]\nname = \"layers\"\nkind = \"layer\"\nlayers = [\"shop.api\"]\n");
    repo.commit_all("typo in the kind");
    let (passed, text) = check(&repo, None);
    assert!(!passed);
    assert!(
        text.contains("strata.toml") && text.contains("line 3") && text.contains("unknown variant `layer`"),
        "{text}"
    );
    repo.write(
        "strata.toml",
        "[[contracts]]\nname = \"f\"\nkind = \"forbidden\"\nsource = [\"shop.api\"]\nforbiden = [\"x\"]\n",
    );
    repo.commit_all("typo in a key");
    let (passed, text) = check(&repo, None);
    assert!(!passed);
    assert!(text.contains("forbiden") && text.contains("line"), "{text}");
}

#[test]
fn impact_selects_files_as_the_base_index_did() {
    let repo = base_repo();
    let base = index(repo.path(), &["--exclude", "tests"]);
    repo.write("shop/pricing.py", "from shop.utils import round_money\nRATE = 3\n");
    repo.commit_all("head");
    // Without the same exclusion the tests look added; with it, only the change shows.
    let unlike = impact_json(&repo, &base, &[]);
    assert!(strings(&unlike["added"]).contains(&"tests/test_api.py".to_string()), "{unlike:#}");
    let like = impact_json(&repo, &base, &["--exclude", "tests"]);
    assert_eq!(strings(&like["changed"]), ["shop/pricing.py"]);
    assert!(strings(&like["added"]).is_empty(), "{like:#}");
}

/// Issue 30, Low 8: impact printed its warnings as they were, and the binary its errors, so a line break
/// in one (here in the base index's path, which both quote) started a line that a runner reads as a
/// workflow command. Warnings are escaped into one line, and an error's later lines are indented.
#[test]
fn impact_output_cannot_start_a_workflow_command() {
    let repo = base_repo();
    let base = index(repo.path(), &[]);
    let parent = tempfile::TempDir::new().unwrap();
    let hostile = parent.path().join("base\n::error title=injected::from a path\n");
    std::fs::create_dir(&hostile).unwrap();
    crate::support::copy_tree(&base.dir, &hostile);
    let output = strata(&["impact", repo.path().to_str().unwrap(), "--previous", hostile.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot be used"), "{stderr}");
    assert!(!stderr.lines().any(|line| line.starts_with("::")), "a line starts a workflow command: {stderr}");
}

/// A repository written from `files`, committed.
fn repo_of(files: &[(&str, &str)]) -> Repo {
    let repo = Repo::empty_git();
    for (path, content) in files {
        repo.write(path, content);
    }
    repo.commit_all("files");
    repo
}

/// httpx `impact --why` showed `_auth.py → __init__.py → __version__.py` as if `_auth.py` imported the
/// package, and chains through `TYPE_CHECKING` imports without saying so.
#[test]
fn impact_why_words_the_package_init_rule_and_type_checking_chains() {
    let repo = repo_of(&[
        ("httpx/__init__.py", "from .__version__ import __version__\n"),
        ("httpx/__version__.py", "__version__ = '1'\n"),
        ("httpx/_models.py", ""),
        ("httpx/_auth.py", "from ._models import Request\n"),
        ("typed.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import httpx\n"),
    ]);
    let base = index(repo.path(), &[]);
    repo.write("httpx/__version__.py", "__version__ = '2'\n");
    repo.commit_all("head");
    let impact = impact_json(&repo, &base, &[]);
    let auth = impact["affected"].as_array().unwrap().iter().find(|a| a["id"] == "httpx/_auth.py").unwrap();
    assert_eq!(strings(&auth["via"]), ["httpx/_auth.py", "httpx/__init__.py", "httpx/__version__.py"]);
    assert_eq!(auth["steps"][0]["submodule"], "httpx/_models.py", "{auth:#}");
    assert_eq!(auth["steps"][1]["kind"], "runtime", "{auth:#}");
    let typed = impact["affected"].as_array().unwrap().iter().find(|a| a["id"] == "typed.py").unwrap();
    assert_eq!((typed["runtime"].as_bool(), typed["steps"][0]["kind"].as_str()), (Some(false), Some("type_checking")));
    let output = strata(&["impact", repo.path().to_str().unwrap(), "--previous", base.dir.to_str().unwrap(), "--why"]);
    let markdown = String::from_utf8_lossy(&output.stdout);
    assert!(
        markdown.contains(
            "- `httpx/_auth.py` → `httpx/__init__.py` (`httpx/_auth.py` imports `httpx/_models.py`, and importing a submodule runs its package's `__init__.py` first) → `httpx/__version__.py`\n"
        ),
        "{markdown}"
    );
    assert!(
        markdown.contains("- `typed.py` → `httpx/__init__.py` (`if TYPE_CHECKING:` only, line 3) → `httpx/__version__.py` (only through `if TYPE_CHECKING:` imports, which never run)"),
        "{markdown}"
    );
}

/// httpx 0.27.2 → 0.28.0: `diff` and `impact` reported a new six-module cycle with no note that it
/// exists only under `TYPE_CHECKING`.
#[test]
fn a_new_cycle_that_exists_only_under_type_checking_says_so_in_diff_and_impact() {
    let repo =
        repo_of(&[("pkg/__init__.py", ""), ("pkg/a.py", "X = 1\n"), ("pkg/b.py", "Y = 1\n"), ("pkg/c.py", "Z = 1\n")]);
    let base = index(repo.path(), &[]);
    repo.write("pkg/a.py", "from pkg import b\n");
    repo.write("pkg/b.py", "from pkg import c\n");
    repo.write("pkg/c.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n");
    repo.commit_all("head");
    let impact = impact_json(&repo, &base, &[]);
    let cycle = &impact["cycles_new"][0];
    assert_eq!((cycle["new_size"].as_u64(), cycle["runtime_size"].as_u64()), (Some(3), Some(0)), "{impact:#}");
    assert_eq!(cycle["only_through"], serde_json::json!(["type_checking"]));
    let note = "no cycle at runtime: it exists only through `if TYPE_CHECKING:` imports, which never run";
    let output = strata(&["impact", repo.path().to_str().unwrap(), "--previous", base.dir.to_str().unwrap()]);
    let markdown = String::from_utf8_lossy(&output.stdout);
    assert!(markdown.contains(&format!("- 0 → 3 modules ({note}): ")), "{markdown}");
    let head = index(repo.path(), &[]);
    let output = strata(&["diff", base.dir.to_str().unwrap(), head.dir.to_str().unwrap()]);
    let diff = String::from_utf8_lossy(&output.stdout);
    assert!(diff.contains(&format!("- 0 → 3 modules ({note}): ")), "{diff}");
    // And `check`'s no-new-cycles says it too.
    repo.write("strata.toml", "[[contracts]]\nname = \"cycles\"\nkind = \"no-new-cycles\"\n");
    repo.commit_all("contract");
    let (passed, text) = check(&repo, Some(&base));
    assert!(!passed && text.contains(note), "{text}");
}

/// httpx layers `_urls → _types → _models`: the violation held only through a `TYPE_CHECKING` import
/// and did not say so.
#[test]
fn a_violation_only_through_type_checking_imports_says_so() {
    let repo = repo_of(&[
        ("httpx/__init__.py", ""),
        ("httpx/_models.py", "X = 1\n"),
        ("httpx/_types.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ._models import X\n"),
        ("httpx/_urls.py", "from ._types import T\n"),
        (
            "strata.toml",
            "[[contracts]]\nname = \"layers\"\nkind = \"layers\"\nlayers = [\"httpx._models\", \"httpx._urls\"]\n",
        ),
    ]);
    let (passed, text) = check(&repo, None);
    assert!(!passed, "{text}");
    assert!(
        text.contains("httpx/_urls.py:1: [layers] `httpx/_urls.py` imports `httpx/_models.py` (through httpx/_types.py): layer `httpx._urls` is below `httpx._models` and must not import it; only through `if TYPE_CHECKING:` imports, which never run"),
        "{text}"
    );
    let output = strata(&["check", repo.path().to_str().unwrap(), "--format", "json"]);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["new"][0]["only_through"], serde_json::json!(["type_checking"]), "{report:#}");
}

/// A contract naming `httpx.clientt` passed silently with exit 0: it checked nothing.
#[test]
fn a_contract_naming_a_module_that_does_not_exist_is_an_error_naming_it() {
    let repo = repo_of(&[
        ("httpx/__init__.py", ""),
        ("httpx/_client.py", ""),
        ("httpx/_api.py", "from . import _client\n"),
        (
            "strata.toml",
            "[[contracts]]\nname = \"api above client\"\nkind = \"layers\"\nlayers = [\"httpx._api\", \"httpx._clientt\"]\n",
        ),
    ]);
    let (passed, text) = check(&repo, None);
    assert!(!passed, "{text}");
    assert!(
        text.contains(
            "contract `api above client` names `httpx._clientt`, which is no module of the index (did you mean `httpx._client`?)"
        ),
        "{text}"
    );
}

/// What a test module is was defined twice (a fixed rule in retrieval, the configured patterns in
/// `impact`): `ask` and `impact` now follow the configured patterns alike.
#[test]
fn ask_and_impact_share_the_configured_test_modules() {
    let repo = repo_of(&[
        ("strata.toml", "[impact]\ntest-files = [\"check_*.py\"]\n"),
        ("pkg/__init__.py", ""),
        ("pkg/a.py", "X = 1\n"),
        ("pkg/check_a.py", "from pkg import a\n"),
        ("pkg/test_old.py", "from pkg import a\n"),
    ]);
    let base = index(repo.path(), &[]);
    let output =
        strata(&["ask", "--index", base.dir.to_str().unwrap(), "--format", "json", "Which tests import pkg/a.py?"]);
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        answer["understood"]["parts"][0]["result"]["modules"],
        serde_json::json!(["pkg/check_a.py"]),
        "{answer:#}"
    );
    repo.write("pkg/a.py", "X = 2\n");
    repo.commit_all("head");
    assert_eq!(strings(&impact_json(&repo, &base, &[])["tests"]), ["pkg/check_a.py"]);
}
