//! The facts extracted from one Python file, independent of every other file.
//!
//! These types are what the parser produces and what later stages consume; they are plain data, serde
//! friendly so an incremental run can keep them in the previous artifact instead of parsing again.

use serde::{Deserialize, Serialize};

/// Everything strata knows about one file after parsing it once.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileFacts {
    /// Import statements in source order, one per imported module (`import a, b` gives two).
    pub imports: Vec<ImportStatement>,
    /// First non-empty line of the module docstring.
    pub docstring: Option<String>,
    /// The literal strings of `__all__`, when the module defines it.
    pub dunder_all: Option<Vec<String>>,
    /// Names concatenated into `__all__` (`__all__ = models_all + [...]`): when one is another
    /// module's `__all__` imported under that name, its names are this module's too (`bundle::build`).
    #[serde(default)]
    pub dunder_all_parts: Vec<String>,
    /// Public names bound at module level (classes, functions, assignments, explicit re-exports
    /// `x as x`), sorted and unique.
    pub public_names: Vec<String>,
    /// Public names bound by module-level `from … import` statements, in source order.
    #[serde(default)]
    pub imported_names: Vec<ImportedName>,
    /// Public names (of the two lists above) bound only inside `try` statements: compatibility
    /// fallbacks such as `try: import ssl except ImportError: ssl = None`. Sorted.
    #[serde(default)]
    pub fallback_names: Vec<String>,
    /// Classes, top-level functions and methods, in source order.
    pub symbols: Vec<Symbol>,
    pub entry_points: Vec<EntryPoint>,
    pub n_lines: u32,
    /// 1-based line of the first syntax error tree-sitter recovered from, if any.
    pub first_syntax_error_line: Option<u32>,
}

/// A name a module-level `from … import` binds, and the statement (index into `imports`) binding it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportedName {
    pub name: String,
    pub statement: usize,
    pub in_try: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportStatement {
    pub target: ImportTarget,
    /// 1-based line of the statement.
    pub line: u32,
    pub context: ImportContext,
}

/// What an import statement names, before resolution against the repository.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "form", rename_all = "snake_case")]
pub enum ImportTarget {
    /// `import a.b.c` (an alias does not change what is imported).
    Module { module: String },
    /// `from ..p.q import x, y`: `level` leading dots, then `module` (possibly empty).
    From { level: u32, module: String, names: Vec<String> },
    /// `from p import *`.
    Star { level: u32, module: String },
}

/// Where an import sits, which decides whether it runs at import time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportContext {
    /// Inside `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`): never runs.
    pub type_checking: bool,
    /// Inside a module-level `if __name__ == "__main__":` block: runs only when the file is run as a
    /// script, never when it is imported.
    #[serde(default)]
    pub main_block: bool,
    /// Inside `try`/`except`, `if`/`else`, a loop or `match`: may not run.
    pub conditional: bool,
    /// Inside a function body: runs when the function is called.
    pub local: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Symbol {
    pub name: String,
    /// `Class.method` for methods, the name otherwise.
    pub qualname: String,
    pub kind: SymbolKind,
    pub line_start: u32,
    pub line_end: u32,
    /// Base class expressions as written (classes only).
    pub bases: Vec<String>,
    /// Decorator expressions as written, without the `@`.
    pub decorators: Vec<String>,
    pub is_async: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SymbolKind {
    Class,
    Function,
    Method,
}

impl SymbolKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SymbolKind::Class => "class",
            SymbolKind::Function => "function",
            SymbolKind::Method => "method",
        }
    }
}

/// A way into the program: `__main__` blocks, HTTP routes, CLI commands, background tasks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryPoint {
    pub kind: EntryPointKind,
    /// The decorated function or class, when there is one.
    pub symbol: Option<String>,
    pub line: u32,
    /// The decorator as written (`app.get("/items")`), or `__main__`.
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryPointKind {
    Main,
    HttpRoute,
    CliCommand,
    Task,
}

impl EntryPointKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EntryPointKind::Main => "main",
            EntryPointKind::HttpRoute => "http_route",
            EntryPointKind::CliCommand => "cli_command",
            EntryPointKind::Task => "task",
        }
    }
}
