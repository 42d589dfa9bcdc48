//! One graph, one meaning: on generated repositories (the oracle tests' trees, with test modules),
//! every command gives the same answer to the same question, and that answer is the independent
//! stdlib-`ast` oracle's (`eval/ast_oracle.py`, which knows `TYPE_CHECKING` and `__main__` blocks):
//!
//! - dependents and importers of every module, at runtime and over every import (`ask`);
//! - whether each module depends on each other one (`ask` yes/no, `check`'s forbidden contracts, with
//!   a violation flagged when it holds only through imports that do not run on import);
//! - cycles (`ask`'s count, `graph --cycles`, `diff`'s new cycles with how much holds at runtime);
//! - rankings: direct importers ("imported by") and every dependent ("depended on", as `summary.md`);
//! - tests: the test modules that depend on a module (`ask`) and those `impact` selects;
//! - what a change affects (`impact`: its chains without the package `__init__` rule are the
//!   oracle's dependents, and it holds at runtime exactly when the oracle's runtime dependents say so).
//!
//! Needs `python3` like the oracle tests: without it they say so and pass, except under `CI=true`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use crate::oracle::{generate_tree, oracle, python_available};
use crate::support::{Repo, index, strata};

type Set = BTreeSet<String>;

fn strings(value: &Value) -> Set {
    value.as_array().map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

/// `tests/…`, `test_*.py`, `*_test.py`, `conftest.py`: the default definition of a test module.
fn is_test(id: &str) -> bool {
    let name = id.rsplit('/').next().unwrap_or(id);
    id.split('/').rev().skip(1).any(|f| matches!(f, "tests" | "test" | "testing"))
        || name.starts_with("test_")
        || name.ends_with("_test.py")
        || name == "conftest.py"
}

/// What the oracle says about one generated tree.
struct Oracle {
    modules: Vec<String>,
    /// (src, dst) → (type_checking, main_block).
    edges: BTreeMap<(String, String), (bool, bool)>,
    /// Module → its dependents, over every import and at runtime.
    dependents: BTreeMap<String, (Set, Set)>,
    cycles: BTreeSet<Set>,
    runtime_cycles: BTreeSet<Set>,
}

impl Oracle {
    fn of(root: &Path) -> Oracle {
        let modules: Vec<String> = oracle(root, &["names"]).as_object().unwrap().keys().cloned().collect();
        let edges = oracle(root, &["edge-paths"])
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let key = (e["src"].as_str().unwrap().to_string(), e["dst"].as_str().unwrap().to_string());
                (key, (e["type_checking"] == true, e["main_block"] == true))
            })
            .collect();
        let dependents = modules
            .iter()
            .map(|m| {
                let all = strings(&oracle(root, &["impact", m]));
                let runtime = strings(&oracle(root, &["impact", m, "--runtime"]));
                (m.clone(), (all, runtime))
            })
            .collect();
        let cycles = |args: &[&str]| oracle(root, args).as_array().unwrap().iter().map(strings).collect();
        Oracle {
            modules,
            edges,
            dependents,
            cycles: cycles(&["cycles"]),
            runtime_cycles: cycles(&["cycles", "--runtime"]),
        }
    }

    fn dependents(&self, module: &str, runtime: bool) -> &Set {
        let (all, at_runtime) = &self.dependents[module];
        if runtime { at_runtime } else { all }
    }

    fn importers(&self, module: &str, runtime: bool) -> Set {
        self.edges
            .iter()
            .filter(|((_, dst), (tc, main))| dst == module && !(runtime && (*tc || *main)))
            .map(|((src, _), _)| src.clone())
            .collect()
    }

    /// Modules ranked by `count`, highest first, ties by id, zeros left out.
    fn ranking(&self, count: impl Fn(&str) -> usize) -> Vec<(usize, String)> {
        let mut ranked: Vec<(usize, String)> =
            self.modules.iter().map(|m| (count(m), m.clone())).filter(|(n, _)| *n > 0).collect();
        ranked.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        ranked
    }
}

/// Every question asked at once (`ask --questions`), each answer's first part's result.
fn ask_all(index_dir: &Path, questions: &[String]) -> Vec<Value> {
    let file = index_dir.join("questions.txt");
    std::fs::write(&file, questions.join("\n") + "\n").unwrap();
    let output = strata(&[
        "ask",
        "--index",
        index_dir.to_str().unwrap(),
        "--format",
        "json",
        "--questions",
        file.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "ask failed: {}", String::from_utf8_lossy(&output.stderr));
    let answers: Vec<Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(answers.len(), questions.len());
    for (question, answer) in questions.iter().zip(&answers) {
        assert_eq!(answer["mode"], "structural", "{question} was not answered from the graph: {answer:#}");
    }
    answers.iter().map(|a| a["understood"]["parts"][0]["result"].clone()).collect()
}

fn json(args: &[&str]) -> Value {
    let output = strata(args);
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{args:?}: {}", String::from_utf8_lossy(&output.stderr)))
}

/// A test module importing two of the tree's modules, so test questions have answers.
fn add_tests(repo: &Repo) {
    let mut dotted: Vec<String> = Vec::new();
    for entry in walk(repo.path()) {
        let relative = entry.strip_prefix(repo.path()).unwrap().to_string_lossy().replace('\\', "/");
        if relative.starts_with("app/") && relative.ends_with(".py") {
            dotted.push(relative.trim_end_matches(".py").trim_end_matches("/__init__").replace('/', "."));
        }
    }
    dotted.sort();
    let imports: Vec<String> = dotted.iter().rev().take(2).map(|d| format!("import {d}\n")).collect();
    repo.write("tests/test_generated.py", &imports.concat());
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n == ".git") {
            continue;
        }
        if path.is_dir() { found.extend(walk(&path)) } else { found.push(path) }
    }
    found
}

#[test]
fn every_command_gives_the_oracles_answer_to_the_same_question() {
    if !python_available() {
        return;
    }
    for seed in 0..6 {
        let repo = Repo::empty_git();
        generate_tree(seed, repo.path());
        add_tests(&repo);
        repo.commit_all("tree");
        let base = index(repo.path(), &[]);
        let truth = Oracle::of(repo.path());
        let dir = base.dir.to_str().unwrap();
        let modules = &truth.modules;
        let context = format!("seed {seed} (tree in {})", repo.path().display());

        // ask: dependents, importers, test modules, paths; runtime and every import.
        let mut questions = Vec::new();
        for m in modules {
            for when in ["", " at runtime"] {
                questions.push(format!("What depends on `{m}`{when}?"));
                questions.push(format!("What imports `{m}`{when}?"));
            }
            questions.push(format!("Which test modules depend on `{m}`?"));
            for other in modules.iter().filter(|o| *o != m) {
                questions.push(format!("Does `{other}` depend on `{m}`?"));
                questions.push(format!("Does `{other}` depend on `{m}` at runtime?"));
            }
        }
        let mut results = ask_all(&base.dir, &questions).into_iter();
        for m in modules {
            for runtime in [false, true] {
                let dependents = results.next().unwrap();
                assert_eq!(
                    &strings(&dependents["modules"]),
                    truth.dependents(m, runtime),
                    "dependents of {m}, runtime {runtime}, {context}"
                );
                let importers = results.next().unwrap();
                assert_eq!(
                    strings(&importers["modules"]),
                    truth.importers(m, runtime),
                    "importers of {m}, runtime {runtime}, {context}"
                );
            }
            let tests: Set = truth.dependents(m, false).iter().filter(|d| is_test(d)).cloned().collect();
            assert_eq!(strings(&results.next().unwrap()["modules"]), tests, "test dependents of {m}, {context}");
            for other in modules.iter().filter(|o| *o != m) {
                for runtime in [false, true] {
                    let yes = results.next().unwrap()["yes"].as_bool();
                    assert_eq!(
                        yes,
                        Some(truth.dependents(m, runtime).contains(other)),
                        "{other} depends on {m}, runtime {runtime}, {context}"
                    );
                }
            }
        }

        // Cycles: ask's count, graph's groups, diff's new cycles and how much of each holds at runtime.
        let counts = ask_all(
            &base.dir,
            &["How many import cycles are there?".into(), "How many import cycles are there at runtime?".into()],
        );
        assert_eq!(counts[0]["count"].as_u64(), Some(truth.cycles.len() as u64), "{context}");
        assert_eq!(counts[1]["count"].as_u64(), Some(truth.runtime_cycles.len() as u64), "{context}");
        for (runtime, expected) in [(false, &truth.cycles), (true, &truth.runtime_cycles)] {
            let mut args = vec!["graph", "--index", dir, "--level", "module", "--cycles", "--format", "json"];
            if runtime {
                args.push("--runtime");
            }
            let groups: BTreeSet<Set> =
                json(&args)["groups"].as_array().unwrap().iter().map(|g| strings(&g["members"])).collect();
            assert_eq!(&groups, expected, "graph --cycles, runtime {runtime}, {context}");
        }
        let empty = tempfile::TempDir::new().unwrap();
        for m in modules {
            let path = empty.path().join(m);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        let before = index(empty.path(), &[]);
        let diff = json(&["diff", before.dir.to_str().unwrap(), dir, "--format", "json"]);
        let new_cycles = diff["cycles_new"].as_array().unwrap();
        assert_eq!(
            new_cycles.iter().map(|c| strings(&c["members"])).collect::<BTreeSet<Set>>(),
            truth.cycles,
            "diff, {context}"
        );
        for cycle in new_cycles {
            let members = strings(&cycle["members"]);
            let at_runtime =
                truth.runtime_cycles.iter().filter(|r| r.is_subset(&members)).map(Set::len).max().unwrap_or(0);
            assert_eq!(cycle["runtime_size"].as_u64(), Some(at_runtime as u64), "{members:?}, {context}");
            assert_eq!(
                cycle["only_through"].as_array().unwrap().is_empty(),
                at_runtime == members.len(),
                "{cycle:#}, {context}"
            );
        }

        // Rankings: direct importers and every dependent, as ask and summary.md say them.
        let ranked = ask_all(
            &base.dir,
            &[
                "What are the 5 most imported modules?".into(),
                "What are the 5 most imported modules at runtime?".into(),
                "Which 10 modules are the most depended on?".into(),
                "Which 10 modules are the most depended on at runtime?".into(),
            ],
        );
        let top = |ranking: Vec<(usize, String)>, k: usize| -> Vec<String> {
            ranking.into_iter().take(k).map(|(_, m)| m).collect()
        };
        let listed = |value: &Value| -> Vec<String> {
            value["modules"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect()
        };
        assert_eq!(
            listed(&ranked[0]),
            top(truth.ranking(|m| truth.importers(m, false).len()), 5),
            "imported by, {context}"
        );
        assert_eq!(
            listed(&ranked[1]),
            top(truth.ranking(|m| truth.importers(m, true).len()), 5),
            "imported by at runtime, {context}"
        );
        let depended = top(truth.ranking(|m| truth.dependents(m, false).len()), 10);
        assert_eq!(listed(&ranked[2]), depended, "depended on, {context}");
        assert_eq!(
            listed(&ranked[3]),
            top(truth.ranking(|m| truth.dependents(m, true).len()), 10),
            "depended on at runtime, {context}"
        );
        let summary = String::from_utf8(base.read("summary.md")).unwrap();
        let table: Vec<String> = summary
            .split("## Most depended on")
            .nth(1)
            .unwrap()
            .lines()
            .filter_map(|line| line.strip_prefix("| `").and_then(|rest| rest.split('`').next()).map(str::to_string))
            .take(depended.len())
            .collect();
        assert_eq!(table, depended, "summary.md, {context}");

        // A change to the most depended-on module: impact and check against the oracle.
        let Some(changed) = depended.first() else { continue };
        let pairs: Vec<(&String, &String)> = modules
            .iter()
            .filter(|a| !a.ends_with("__init__.py"))
            .flat_map(|a| modules.iter().filter(move |b| *b != a && !b.ends_with("__init__.py")).map(move |b| (a, b)))
            .take(12)
            .collect();
        let name = |id: &str| base.node(id)["module"].as_str().unwrap().to_string();
        let mut toml = String::new();
        for (i, (a, b)) in pairs.iter().enumerate() {
            toml.push_str(&format!(
                "[[contracts]]\nname = \"c{i}\"\nkind = \"forbidden\"\nsource = [\"{}\"]\nforbidden = [\"{}\"]\n",
                name(a),
                name(b)
            ));
        }
        repo.write("strata.toml", &toml);
        repo.write(
            changed,
            &(String::from_utf8(std::fs::read(repo.path().join(changed)).unwrap()).unwrap() + "# changed\n"),
        );
        repo.commit_all("head");
        let impact = json(&["impact", repo.path().to_str().unwrap(), "--previous", dir, "--format", "json"]);
        let affected = impact["affected"].as_array().unwrap();
        let ids: Set = affected.iter().map(|a| a["id"].as_str().unwrap().to_string()).collect();
        let by_imports = |a: &&Value| a["steps"].as_array().unwrap().iter().all(|s| s.get("submodule").is_none());
        let import_only: Set =
            affected.iter().filter(by_imports).map(|a| a["id"].as_str().unwrap().to_string()).collect();
        let runtime_imports: Set = affected
            .iter()
            .filter(|a| by_imports(a) && a["runtime"] == true)
            .map(|a| a["id"].as_str().unwrap().to_string())
            .collect();
        assert!(truth.dependents(changed, false).is_subset(&ids), "impact of {changed} misses dependents, {context}");
        assert!(import_only.is_subset(truth.dependents(changed, false)), "impact of {changed}, {context}");
        assert_eq!(&runtime_imports, truth.dependents(changed, true), "runtime impact of {changed}, {context}");
        let tests: Set = ids
            .iter()
            .chain([changed])
            .filter(|m| m.rsplit('/').next().unwrap().starts_with("test_"))
            .cloned()
            .collect();
        assert_eq!(strings(&impact["tests"]), tests, "tests to run, {context}");

        let report = json(&["check", repo.path().to_str().unwrap(), "--format", "json"]);
        let violations: BTreeMap<String, &Value> = report["new"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|v| v["contract"].as_str().unwrap().starts_with('c'))
            .map(|v| (v["contract"].as_str().unwrap().to_string(), v))
            .collect();
        for (i, (a, b)) in pairs.iter().enumerate() {
            let violation = violations.get(&format!("c{i}"));
            assert_eq!(
                violation.is_some(),
                truth.dependents(b, false).contains(*a),
                "{a} must not import {b}, {context}"
            );
            if let Some(violation) = violation {
                let runtime = violation["only_through"].as_array().unwrap().is_empty();
                assert_eq!(runtime, truth.dependents(b, true).contains(*a), "{a} → {b} at runtime, {context}");
            }
        }
    }
}
