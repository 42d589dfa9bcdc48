//! What counts in a question about the graph: which imports (by when they run), whether the package
//! `__init__` rule counts, whether test modules count, and which folder. Also the one definition of a
//! test module ([`TestModules`]), which `ask`, retrieval and `impact` share.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::bundle::{Bundle, BundleEdge};

/// pytest's default `python_files`: the file name patterns of test modules unless configured.
pub const DEFAULT_TEST_FILES: [&str; 2] = ["test_*.py", "*_test.py"];

/// Folders whose modules are test code whatever their file names (django's `tests.py` files,
/// helpers and fixtures next to the tests).
pub const TEST_FOLDERS: [&str; 3] = ["tests", "test", "testing"];

/// When an import runs, which decides whether it is part of the runtime graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    /// Runs when the importing module is imported.
    Runtime,
    /// Every import of the pair is under `if TYPE_CHECKING:`: it never runs.
    TypeChecking,
    /// Every import of the pair is in an `if __name__ == "__main__":` block (or under
    /// `TYPE_CHECKING`): it runs only when the importing file is run as a script.
    MainBlock,
}

impl EdgeKind {
    pub fn of(edge: &BundleEdge) -> EdgeKind {
        EdgeKind::from_flags(edge.type_checking, edge.main_block)
    }

    pub fn from_flags(type_checking: bool, main_block: bool) -> EdgeKind {
        match (type_checking, main_block) {
            (true, _) => EdgeKind::TypeChecking,
            (false, true) => EdgeKind::MainBlock,
            (false, false) => EdgeKind::Runtime,
        }
    }
}

/// Which test modules count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Tests {
    /// Test modules are modules like any other.
    #[default]
    Included,
    /// Test modules and their imports are left out.
    Excluded,
    /// Every module counts for reaching others, but only test modules are listed and counted.
    Only,
}

/// Which imports and modules a question counts. There is no default: every caller says whether it
/// asks about runtime or every import ([`Filter::all`], [`Filter::runtime`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// Count imports under `if TYPE_CHECKING:`.
    pub type_checking: bool,
    /// Count imports in `if __name__ == "__main__":` blocks.
    pub main_blocks: bool,
    /// Count the package `__init__` rule: importing a submodule runs its package's `__init__.py`
    /// first, so the importer depends on it.
    pub package_inits: bool,
    pub tests: Tests,
    /// A folder prefix (`django/`): modules outside it neither count nor are listed.
    pub within: Option<String>,
}

impl Filter {
    /// Every import, as `bundle.json`'s "all" edges.
    pub fn all() -> Filter {
        Filter { type_checking: true, main_blocks: true, package_inits: false, tests: Tests::Included, within: None }
    }

    /// Only imports that run when a module is imported.
    pub fn runtime() -> Filter {
        Filter { type_checking: false, main_blocks: false, ..Filter::all() }
    }

    /// [`Filter::runtime`] when `runtime`, else [`Filter::all`].
    pub fn imports(runtime: bool) -> Filter {
        if runtime { Filter::runtime() } else { Filter::all() }
    }

    /// True when only imports that run on import count.
    pub fn is_runtime(&self) -> bool {
        !self.type_checking && !self.main_blocks
    }

    pub fn keeps(&self, kind: EdgeKind) -> bool {
        match kind {
            EdgeKind::Runtime => true,
            EdgeKind::TypeChecking => self.type_checking,
            EdgeKind::MainBlock => self.main_blocks,
        }
    }

    pub(super) fn inside(&self, id: &str) -> bool {
        self.within.as_deref().is_none_or(|folder| id.starts_with(folder))
    }
}

/// The one definition of a test module: its file name matches the configured patterns (`[impact]
/// test-files` in `strata.toml`, pytest's `python_files`; [`DEFAULT_TEST_FILES`] by default), or it is
/// test support code: a `conftest.py`, or a module inside a `tests`, `test` or `testing` folder.
/// pytest collects the first kind ([`TestModules::is_collected`]), which `impact` lists to run.
///
/// Patterns are matched as pytest matches `python_files`, with `fnmatch`: `*` any run of characters,
/// `?` one, `[seq]` and `[!seq]` one in or not in a set. (A glob engine compiled a regex for each set
/// of patterns: megabytes, for every command.)
#[derive(Debug, Clone)]
pub struct TestModules {
    patterns: Vec<Vec<char>>,
}

impl TestModules {
    /// An invalid pattern (an unclosed `[`) is an error naming it.
    pub fn new(patterns: &[String]) -> Result<TestModules> {
        for pattern in patterns {
            if !sets_closed(pattern) {
                anyhow::bail!("invalid test file pattern `{pattern}`: a `[` without its `]`");
            }
        }
        Ok(TestModules { patterns: patterns.iter().map(|p| p.chars().collect()).collect() })
    }

    /// pytest's defaults.
    pub fn pytest() -> TestModules {
        let patterns: Vec<String> = DEFAULT_TEST_FILES.iter().map(|p| p.to_string()).collect();
        TestModules::new(&patterns).expect("the default patterns are valid")
    }

    /// The patterns the index recorded (`meta.test_files`, validated when it was built).
    pub fn of(bundle: &Bundle) -> TestModules {
        TestModules::new(&bundle.meta.test_files).unwrap_or_else(|_| TestModules::pytest())
    }

    /// A test module or test support code.
    pub fn is_test(&self, id: &str) -> bool {
        let mut folders = id.split('/').rev().skip(1);
        self.is_collected(id) || file_name(id) == "conftest.py" || folders.any(|f| TEST_FOLDERS.contains(&f))
    }

    /// A module pytest collects: its file name matches the patterns.
    pub fn is_collected(&self, id: &str) -> bool {
        let name: Vec<char> = file_name(id).chars().collect();
        self.patterns.iter().any(|pattern| fnmatch(pattern, &name))
    }
}

/// Every `[` has its `]` (the first character of a set, or after `!`, may be `]`).
fn sets_closed(pattern: &str) -> bool {
    let chars: Vec<char> = pattern.chars().collect();
    let mut at = 0;
    while at < chars.len() {
        if chars[at] == '[' {
            match set_end(&chars, at) {
                Some(end) => at = end + 1,
                None => return false,
            }
        } else {
            at += 1;
        }
    }
    true
}

/// The index of the `]` closing the set that opens at `open`.
fn set_end(pattern: &[char], open: usize) -> Option<usize> {
    let mut at = open + 1;
    if pattern.get(at) == Some(&'!') {
        at += 1;
    }
    if pattern.get(at) == Some(&']') {
        at += 1;
    }
    (at..pattern.len()).find(|&i| pattern[i] == ']')
}

/// Python's `fnmatch.fnmatchcase`: `*`, `?`, `[seq]`, `[!seq]` (with `a-z` ranges), the rest literal.
fn fnmatch(pattern: &[char], name: &[char]) -> bool {
    // Greedy with one backtrack point: the last `*` and where its run ended.
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        let step = match pattern.get(p) {
            Some('*') => {
                star = Some((p, n));
                p += 1;
                continue;
            }
            Some('?') => Some(p + 1),
            Some('[') => match set_end(pattern, p) {
                Some(end) if in_set(&pattern[p + 1..end], name[n]) => Some(end + 1),
                Some(_) => None,
                None => (name[n] == '[').then_some(p + 1),
            },
            Some(c) => (*c == name[n]).then_some(p + 1),
            None => None,
        };
        match (step, star) {
            (Some(next), _) => {
                p = next;
                n += 1;
            }
            (None, Some((star_at, run_end))) => {
                p = star_at + 1;
                n = run_end + 1;
                star = Some((star_at, run_end + 1));
            }
            (None, None) => return false,
        }
    }
    pattern[p..].iter().all(|c| *c == '*')
}

fn in_set(set: &[char], c: char) -> bool {
    let (negated, set) = match set.first() {
        Some('!') => (true, &set[1..]),
        _ => (false, set),
    };
    let mut found = false;
    let mut i = 0;
    while i < set.len() {
        if i + 2 < set.len() && set[i + 1] == '-' {
            found |= set[i] <= c && c <= set[i + 2];
            i += 3;
        } else {
            found |= set[i] == c;
            i += 1;
        }
    }
    found != negated
}

fn file_name(id: &str) -> &str {
    id.rsplit('/').next().unwrap_or(id)
}
