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
    EntryPoint, EntryPointKind, FileFacts, ImportContext, ImportStatement, ImportTarget, Symbol, SymbolKind,
};
pub use parse::{ParsedFile, parse_python_file};

/// A file's text as the parser saw it (declared Latin-1 or lossy UTF-8, lone `\r` as line breaks), so
/// code chunks quote the same lines that symbols' line numbers point to.
pub fn decode_python_source(bytes: &[u8]) -> String {
    text::decode_source(bytes).0.into_owned()
}

#[cfg(test)]
mod tests;
