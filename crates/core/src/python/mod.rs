//! Python source files in, per-file facts out: imports, symbols, exports, entry points.
//!
//! This stage sees one file at a time and never fails: a file that tree-sitter cannot fully parse still
//! yields whatever was recovered, plus a warning. It knows nothing about other files; turning import
//! statements into edges between repository modules is `graph::resolve`'s job.

mod decorators;
mod facts;
mod parse;
mod text;
mod type_param_defaults;

pub use facts::{
    EntryPoint, EntryPointKind, FileFacts, ImportContext, ImportStatement, ImportTarget, ImportedName, Symbol,
    SymbolKind,
};
pub use parse::{ParsedFile, parse_python_file};

/// The version of what parsing extracts from a file's bytes. Bump it whenever the same bytes would give
/// other facts or warnings (a fix in the walk, a grammar update), so an incremental run parses every
/// file again instead of reusing facts an older strata extracted. 2: type-parameter defaults parse.
/// 3: imported names and `try` fallbacks (exports). 4: imports in `if __name__ == "__main__":` blocks
/// (`main_block`), `elif` guards and parenthesised guards. 5: names concatenated into `__all__`.
pub const FACTS_VERSION: u32 = 5;

/// A file's text as the parser saw it (declared Latin-1 or lossy UTF-8, lone `\r` as line breaks), so
/// code chunks quote the same lines that symbols' line numbers point to.
pub fn decode_python_source(bytes: &[u8]) -> String {
    text::decode_source(bytes).0.into_owned()
}

#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;
