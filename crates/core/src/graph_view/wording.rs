//! The words for what a fact about the graph depends on, one sentence for each kind of qualifier, so
//! every command says it the same way: imports under `if TYPE_CHECKING:` (never run), imports in
//! `__main__` blocks (run only as a script), the package `__init__` rule, and what "at runtime" leaves
//! out. Callers quote module ids their own way (`code`).

use super::{Chain, ChainStep, EdgeKind};

/// What a runtime answer leaves out, after "at runtime".
pub const AT_RUNTIME: &str = "at runtime (leaving out `if TYPE_CHECKING:` imports and imports in `__main__` blocks)";

/// The package `__init__` rule, as a clause.
pub const PACKAGE_INIT: &str = "importing a submodule runs its package's `__init__.py` first";

/// Why something holds only through imports that do not run when a module is imported; `None` when
/// `kinds` holds none of those.
pub fn only_through(kinds: &[EdgeKind]) -> Option<&'static str> {
    let type_checking = kinds.contains(&EdgeKind::TypeChecking);
    let main_block = kinds.contains(&EdgeKind::MainBlock);
    match (type_checking, main_block) {
        (true, false) => Some("only through `if TYPE_CHECKING:` imports, which never run"),
        (false, true) => Some(
            "only through imports in `if __name__ == \"__main__\":` blocks, which run only when the file is run as a script",
        ),
        (true, true) => Some(
            "only through `if TYPE_CHECKING:` imports and imports in `__main__` blocks, none of which runs when a module is imported",
        ),
        (false, false) => None,
    }
}

/// What a cycle found over every import holds at runtime, when not all of it: none of it (it exists
/// only through imports that do not run on import), or a smaller cycle of `runtime_size` modules.
pub fn cycle_at_runtime(runtime_size: usize, only_through_kinds: &[EdgeKind]) -> Option<String> {
    let words = only_through(only_through_kinds)?;
    Some(match runtime_size {
        0 => format!("no cycle at runtime: it exists {words}"),
        n => format!("{n} of its modules form a cycle at runtime; the rest are in it {words}"),
    })
}

/// A short label for one import of that kind; `None` for a runtime import.
pub fn kind_label(kind: EdgeKind) -> Option<&'static str> {
    match kind {
        EdgeKind::Runtime => None,
        EdgeKind::TypeChecking => Some("`if TYPE_CHECKING:` only"),
        EdgeKind::MainBlock => Some("in a `__main__` block only"),
    }
}

/// What to say after the module a step from `importer` leads to, if anything: the package rule, or an
/// import that does not run on import (with its line).
pub fn step_note(importer: &str, step: &ChainStep, code: &dyn Fn(&str) -> String) -> Option<String> {
    let kind = kind_label(step.kind).map(|label| format!("{label}, line {}", step.line));
    match (&step.submodule, kind) {
        (Some(submodule), kind) => {
            let when = kind.map(|k| format!("; {k}")).unwrap_or_default();
            Some(format!("{} imports {}, and {PACKAGE_INIT}{when}", code(importer), code(submodule)))
        }
        (None, kind) => kind,
    }
}

/// A chain as text, importer first: `a` → `b` (`if TYPE_CHECKING:` only, line 36) → `c`.
pub fn chain_text(chain: &Chain, code: &dyn Fn(&str) -> String) -> String {
    let mut text = chain.modules.first().map(|m| code(m)).unwrap_or_default();
    for ((importer, module), step) in chain.modules.iter().zip(chain.modules.iter().skip(1)).zip(&chain.steps) {
        text.push_str(" → ");
        text.push_str(&code(module));
        if let Some(note) = step_note(importer, step, code) {
            text.push_str(&format!(" ({note})"));
        }
    }
    text
}
