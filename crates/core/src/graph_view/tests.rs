//! `GraphView` on small hand-made graphs: runtime-first chains, the kinds of imports, the package
//! `__init__` rule, rankings against a search per module, cycles and the test module definition.

use super::*;

const R: EdgeKind = EdgeKind::Runtime;
const TC: EdgeKind = EdgeKind::TypeChecking;
const MAIN: EdgeKind = EdgeKind::MainBlock;

fn view<'a>(edges: &[(&'a str, &'a str, EdgeKind)]) -> GraphView<'a> {
    GraphView::from_edges(
        [],
        edges.iter().enumerate().map(|(i, (s, d, k))| (*s, *d, *k, i as u32 + 1)),
        &TestModules::pytest(),
    )
}

/// httpx: `_api` reaches `_transports/wsgi` only through a `TYPE_CHECKING` import in `default.py`,
/// and "Does `_api` depend on `wsgi`?" answered a plain "Yes".
#[test]
fn a_path_through_type_checking_imports_says_so_and_a_runtime_path_wins() {
    let graph = view(&[("api.py", "client.py", R), ("client.py", "default.py", R), ("default.py", "wsgi.py", TC)]);
    let chain = graph.path("api.py", "wsgi.py", &Filter::all()).unwrap();
    assert_eq!(chain.modules, ["api.py", "client.py", "default.py", "wsgi.py"]);
    assert!(!chain.runtime());
    assert_eq!(chain.kinds(), [TC]);
    assert!(graph.path("api.py", "wsgi.py", &Filter::runtime()).is_none());
    // A longer runtime path is preferred to a shorter one through TYPE_CHECKING.
    let graph = view(&[("a.py", "d.py", TC), ("a.py", "b.py", R), ("b.py", "c.py", R), ("c.py", "d.py", R)]);
    let chain = graph.path("a.py", "d.py", &Filter::all()).unwrap();
    assert_eq!(chain.modules, ["a.py", "b.py", "c.py", "d.py"]);
    assert!(chain.runtime());
}

/// rich: 50 of 399 edges come from `if __name__ == "__main__":` blocks, and "Does rich.style depend on
/// rich.console?" answered yes through `color.py`'s.
#[test]
fn main_block_imports_are_left_out_of_runtime_reach_and_kept_in_all() {
    let graph = view(&[("style.py", "color.py", R), ("color.py", "console.py", MAIN)]);
    let all = graph.reach(&["console.py"], Direction::Importers, &Filter::all());
    assert_eq!(all.ids(), ["color.py", "style.py"]);
    assert!(!all.at_runtime("style.py"));
    assert_eq!(all.chain("style.py").unwrap().kinds(), [MAIN]);
    assert!(graph.reach(&["console.py"], Direction::Importers, &Filter::runtime()).ids().is_empty());
    let text = chain_text(&all.chain("style.py").unwrap(), &|m| format!("`{m}`"));
    assert_eq!(text, "`style.py` → `color.py` → `console.py` (in a `__main__` block only, line 2)");
    assert!(only_through(&[MAIN]).unwrap().contains("__main__"));
    assert!(graph.cycles(&Filter::runtime()).is_empty());
}

/// httpx `impact --why` showed `_auth.py → __init__.py → __version__.py` as if `_auth.py` imported
/// the package: it imports a submodule, which runs the package's `__init__.py` first.
#[test]
fn the_package_init_rule_is_a_step_of_its_own_and_only_when_asked_for() {
    let graph = view(&[
        ("httpx/_auth.py", "httpx/_models.py", R),
        ("httpx/__init__.py", "httpx/__version__.py", R),
        ("httpx/__init__.py", "httpx/_models.py", R),
    ]);
    let plain = graph.reach(&["httpx/__version__.py"], Direction::Importers, &Filter::all());
    assert_eq!(plain.ids(), ["httpx/__init__.py"]);
    let with_rule = Filter { package_inits: true, ..Filter::all() };
    let reached = graph.reach(&["httpx/__version__.py"], Direction::Importers, &with_rule);
    assert_eq!(reached.ids(), ["httpx/__init__.py", "httpx/_auth.py"]);
    assert!(reached.at_runtime("httpx/_auth.py"));
    let chain = reached.chain("httpx/_auth.py").unwrap();
    assert!(chain.uses_package_init());
    assert_eq!(
        chain_text(&chain, &|m| format!("`{m}`")),
        "`httpx/_auth.py` → `httpx/__init__.py` (`httpx/_auth.py` imports `httpx/_models.py`, and importing a submodule runs its package's `__init__.py` first) → `httpx/__version__.py`"
    );
}

#[test]
fn rankings_count_direct_importers_or_every_dependent_as_a_search_would() {
    let graph = view(&[
        ("a.py", "b.py", R),
        ("b.py", "c.py", R),
        ("c.py", "b.py", R),
        ("d.py", "c.py", TC),
        ("tests/test_c.py", "c.py", R),
        ("e.py", "a.py", MAIN),
    ]);
    for filter in [Filter::all(), Filter::runtime(), Filter { tests: Tests::Excluded, ..Filter::all() }] {
        let counts = graph.dependents_counts(&filter);
        let dependencies = graph.transitive_counts(&filter, Direction::Imports);
        for (m, id) in graph.ids().iter().enumerate() {
            let searched = graph.reach(&[id], Direction::Importers, &filter).ids().len();
            let expected = if graph.in_graph(m as u32, &filter) { searched } else { counts[m] };
            assert_eq!(counts[m], expected, "{id} with {filter:?}");
            let searched = graph.reach(&[id], Direction::Imports, &filter).ids().len();
            let expected = if graph.in_graph(m as u32, &filter) { searched } else { dependencies[m] };
            assert_eq!(dependencies[m], expected, "dependencies of {id} with {filter:?}");
        }
    }
    // The other way: what a module imports, and every module it depends on.
    assert_eq!(
        graph.ranking(Measure::Imports, &Filter::all()),
        [(1, "a.py"), (1, "b.py"), (1, "c.py"), (1, "d.py"), (1, "e.py"), (1, "tests/test_c.py")]
    );
    assert_eq!(graph.ranking(Measure::DependsOn, &Filter::all())[..2], [(3, "e.py"), (2, "a.py")]);
    assert_eq!(graph.ranking(Measure::DependsOn, &Filter::runtime())[0], (2, "a.py"));
    let depended = graph.ranking(Measure::DependedOn, &Filter::all());
    assert_eq!(depended[..2], [(5, "b.py"), (5, "c.py")]);
    assert_eq!(graph.ranking(Measure::ImportedBy, &Filter::runtime()), [(2, "b.py"), (2, "c.py")]);
    assert_eq!(graph.ranking(Measure::ImportedBy, &Filter::all()), [(3, "c.py"), (2, "b.py"), (1, "a.py")]);
    let only_tests = Filter { tests: Tests::Only, ..Filter::all() };
    assert_eq!(graph.ranking(Measure::DependedOn, &only_tests), []);
    let without_tests = Filter { tests: Tests::Excluded, ..Filter::all() };
    assert_eq!(graph.ranking(Measure::ImportedBy, &without_tests)[0], (2, "b.py"));
}

#[test]
fn cycles_under_a_filter_and_how_much_of_one_holds_at_runtime() {
    // httpx 0.28.0: a new six-module cycle that exists only under TYPE_CHECKING.
    let graph = view(&[
        ("a.py", "b.py", R),
        ("b.py", "c.py", R),
        ("c.py", "a.py", TC),
        ("c.py", "d.py", R),
        ("d.py", "c.py", R),
    ]);
    let all = graph.cycles(&Filter::all());
    assert_eq!(all, [vec!["a.py", "b.py", "c.py", "d.py"]]);
    assert_eq!(graph.cycles(&Filter::runtime()), [vec!["c.py", "d.py"]]);
    let members: Vec<String> = all[0].iter().map(|m| m.to_string()).collect();
    assert_eq!(graph.cycle_status(&members), CycleStatus { runtime_size: 2, only_through: vec![TC] });
    let whole = ["c.py".to_string(), "d.py".to_string()];
    assert_eq!(graph.cycle_status(&whole), CycleStatus { runtime_size: 2, only_through: vec![] });
    assert_eq!(graph.cycle_of("a.py", &Filter::runtime()), None);
}

#[test]
fn neighbours_neighbourhoods_and_modules_without_imports() {
    let graph = view(&[("a.py", "b.py", R), ("b.py", "c.py", TC), ("tests/test_a.py", "a.py", R)]);
    let importers: Vec<&str> =
        graph.neighbours("a.py", Direction::Importers, &Filter::all()).iter().map(|n| n.id).collect();
    assert_eq!(importers, ["tests/test_a.py"]);
    assert!(
        graph.neighbours("a.py", Direction::Importers, &Filter { tests: Tests::Excluded, ..Filter::all() }).is_empty()
    );
    assert_eq!(graph.neighbourhood("b.py", 1, &Filter::runtime()), ["a.py", "b.py"].into());
    assert_eq!(graph.neighbourhood("b.py", 2, &Filter::all()), ["a.py", "b.py", "c.py", "tests/test_a.py"].into());
    assert_eq!(graph.without_links(Direction::Imports, &Filter::runtime()), ["b.py", "c.py"]);
    let within = Filter { within: Some("tests/".into()), ..Filter::all() };
    assert_eq!(graph.without_links(Direction::Imports, &within), ["tests/test_a.py"]);
}

#[test]
fn test_modules_follow_the_configured_patterns_and_the_test_folders() {
    let pytest = TestModules::pytest();
    for path in ["tests/csrf_tests/views.py", "src/pkg/test_util.py", "a/conftest.py", "a/b_test.py", "testing/x.py"] {
        assert!(pytest.is_test(path), "{path}");
    }
    for path in ["django/middleware/csrf.py", "src/testing_tools.py", "contest.py", "latest/x.py", "tests.py/x"] {
        assert!(!pytest.is_test(path), "{path}");
    }
    assert!(pytest.is_collected("pkg/test_cart.py") && !pytest.is_collected("tests/helpers.py"));
    let custom = TestModules::new(&["check_*.py".to_string()]).unwrap();
    assert!(custom.is_collected("pkg/check_cart.py") && !custom.is_test("pkg/test_cart.py"));
    // pytest's fnmatch: `*`, `?`, sets and negated sets, the rest literal.
    let fn_patterns = ["t?st_*.py", "[!_]*_spec.py", "test[0-9].py", "*.py[c]"].map(String::from);
    let fnmatched = TestModules::new(&fn_patterns).unwrap();
    for name in ["a/test_x.py", "tost_.py", "a_spec.py", "test7.py", "x.pyc"] {
        assert!(fnmatched.is_collected(name), "{name}");
    }
    for name in ["a/tst_x.py", "_a_spec.py", "testx.py", "test_x.pyi", "x.py"] {
        assert!(!fnmatched.is_collected(name), "{name}");
    }
    let error = TestModules::new(&["check_[.py".to_string()]).unwrap_err().to_string();
    assert!(error.contains("check_[.py"), "{error}");
}
