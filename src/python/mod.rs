//! Python source files in, per-file facts out: imports, symbols, exports, entry points.
//!
//! This stage sees one file at a time and never fails: a file that tree-sitter cannot fully parse still
//! yields whatever was recovered, plus a warning. It knows nothing about other files; turning import
//! statements into edges between repository modules is `graph::resolve`'s job.

mod decorators;
mod facts;
mod parse;
mod text;

pub use facts::{
    EntryPoint, EntryPointKind, FileFacts, ImportContext, ImportStatement, ImportTarget, Symbol,
    SymbolKind,
};
pub use parse::{ParsedFile, parse_python_file};

#[cfg(test)]
mod tests;
