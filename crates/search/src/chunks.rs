//! Chunks: the units retrieval returns. One "local subgraph" chunk per module (what it is, what it
//! exports, what it imports and what imports it) and one code chunk per class or function (at most
//! `MAX_CODE_LINES` lines; longer ones are cut into windows). Pure: bundle and source text in, chunks out.

use std::collections::BTreeMap;
use std::fmt::Write;

use strata_core::bundle::{Bundle, Node, NodeSymbol};

/// Longest code chunk, in lines.
pub const MAX_CODE_LINES: u32 = 100;
/// How many neighbours a module chunk lists before "and N more", so hub modules do not drown the text.
const MAX_NEIGHBOURS: usize = 25;
/// How many exports of each imported module a module chunk repeats.
const MAX_NEIGHBOUR_EXPORTS: usize = 6;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChunkKind {
    Module,
    Code,
}

impl ChunkKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChunkKind::Module => "module",
            ChunkKind::Code => "code",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// `module:{path}` or `code:{path}:{start}-{end}`; unique within an index.
    pub id: String,
    pub kind: ChunkKind,
    /// The module's id (repo-relative path).
    pub module: String,
    pub folder: String,
    /// The class or function a code chunk holds (`Class.method` for methods).
    pub symbol: Option<String>,
    pub line_start: u32,
    pub line_end: u32,
    pub text: String,
}

/// All chunks of a bundle, sorted by id. `sources` maps module ids to their decoded text; modules
/// without a source get no code chunks.
pub fn build_chunks(bundle: &Bundle, sources: &BTreeMap<String, String>) -> Vec<Chunk> {
    let mut importers_of: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for edge in &bundle.edges {
        importers_of.entry(edge.dst.as_str()).or_default().push(edge.src.as_str());
    }
    let mut chunks = Vec::new();
    for node in bundle.nodes.values() {
        let importers = importers_of.get(node.id.as_str()).map_or(&[][..], Vec::as_slice);
        chunks.push(module_chunk(bundle, node, importers));
        if let Some(source) = sources.get(&node.id) {
            let lines: Vec<&str> = source.lines().collect();
            for symbol in &node.symbols {
                code_chunks(node, symbol, None, &lines, &mut chunks);
            }
        }
    }
    chunks.sort_by(|a, b| a.id.cmp(&b.id));
    chunks.dedup_by(|a, b| a.id == b.id);
    chunks
}

fn module_chunk(bundle: &Bundle, node: &Node, importers: &[&str]) -> Chunk {
    let mut text = String::new();
    let _ = writeln!(text, "module {} ({})", node.id, node.module);
    if let Some(docstring) = &node.docstring {
        let _ = writeln!(text, "summary: {docstring}");
    }
    if !node.exports.is_empty() {
        let _ = writeln!(text, "exports: {}", limited(&node.exports, 40));
    }
    let defines: Vec<String> = node
        .symbols
        .iter()
        .map(|symbol| match symbol.methods.len() {
            0 => format!("{} {}", symbol.kind, symbol.name),
            _ => {
                let methods: Vec<String> = symbol.methods.iter().map(|m| m.name.clone()).collect();
                format!("{} {} (methods: {})", symbol.kind, symbol.name, limited(&methods, 15))
            }
        })
        .collect();
    if !defines.is_empty() {
        let _ = writeln!(text, "defines: {}", limited(&defines, 30));
    }
    for entry in &node.entry_points {
        let _ = writeln!(text, "entry point: {} {}", entry.kind, entry.detail);
    }
    // No transitive-dependent count: one new edge deep in the graph would change hundreds of chunks
    // and re-embed them all. The exact figure is the graph's to answer.
    let _ = writeln!(text, "direct importers: {}; import cycle size: {}", node.direct_importers_count, node.scc_size);
    let imports: Vec<String> = node
        .imports
        .iter()
        .map(|id| match bundle.nodes.get(id).filter(|n| !n.exports.is_empty()) {
            Some(imported) => format!("{id} ({})", limited(&imported.exports, MAX_NEIGHBOUR_EXPORTS)),
            None => id.clone(),
        })
        .collect();
    if !imports.is_empty() {
        let _ = writeln!(text, "imports from: {}", limited(&imports, MAX_NEIGHBOURS));
    }
    let importers: Vec<String> = importers.iter().map(|id| id.to_string()).collect();
    if !importers.is_empty() {
        let _ = writeln!(text, "imported by: {}", limited(&importers, MAX_NEIGHBOURS));
    }
    let external: Vec<String> =
        node.external_imports.third_party.iter().chain(&node.external_imports.stdlib).cloned().collect();
    if !external.is_empty() {
        let _ = writeln!(text, "external imports: {}", limited(&external, 20));
    }
    Chunk {
        id: format!("module:{}", node.id),
        kind: ChunkKind::Module,
        module: node.id.clone(),
        folder: node.folder.clone(),
        symbol: None,
        line_start: 1,
        line_end: node.n_lines.max(1),
        text,
    }
}

/// A class that fits in one chunk is one chunk; a longer class gets a chunk for its header and one per
/// method; anything still too long is cut into windows of `MAX_CODE_LINES`.
fn code_chunks(node: &Node, symbol: &NodeSymbol, class: Option<&str>, lines: &[&str], chunks: &mut Vec<Chunk>) {
    let qualname = match class {
        Some(class) => format!("{class}.{}", symbol.name),
        None => symbol.name.clone(),
    };
    let span = symbol.line_end.saturating_sub(symbol.line_start) + 1;
    if symbol.methods.is_empty() || span <= MAX_CODE_LINES {
        let mut start = symbol.line_start;
        while start <= symbol.line_end {
            let end = (start + MAX_CODE_LINES - 1).min(symbol.line_end);
            push_code_chunk(node, &qualname, &symbol.kind, start, end, lines, chunks);
            start = end + 1;
        }
        return;
    }
    let header_end = symbol.methods.first().map_or(symbol.line_end, |m| m.line_start.saturating_sub(1));
    let header_end = header_end.min(symbol.line_start + MAX_CODE_LINES - 1).max(symbol.line_start);
    push_code_chunk(node, &qualname, &symbol.kind, symbol.line_start, header_end, lines, chunks);
    for method in &symbol.methods {
        code_chunks(node, method, Some(&qualname), lines, chunks);
    }
}

fn push_code_chunk(
    node: &Node,
    qualname: &str,
    kind: &str,
    start: u32,
    end: u32,
    lines: &[&str],
    chunks: &mut Vec<Chunk>,
) {
    let from = (start as usize).saturating_sub(1).min(lines.len());
    let to = (end as usize).min(lines.len());
    let body = lines[from..to].join("\n");
    if body.trim().is_empty() {
        return;
    }
    // Lines live in their own columns, not in the text: code that merely moves keeps its text hash and
    // so its vector (an edit above it shifts every later chunk's lines).
    let text = format!("{kind} {qualname} in {} ({})\n{body}\n", node.id, node.module);
    chunks.push(Chunk {
        id: format!("code:{}:{start}-{end}", node.id),
        kind: ChunkKind::Code,
        module: node.id.clone(),
        folder: node.folder.clone(),
        symbol: Some(qualname.to_string()),
        line_start: start,
        line_end: end,
        text,
    });
}

/// `a, b, c and N more`: the first `max` items joined, with a count of the rest.
pub fn limited(items: &[String], max: usize) -> String {
    let mut text = items.iter().take(max).cloned().collect::<Vec<_>>().join(", ");
    if items.len() > max {
        let _ = write!(text, " and {} more", items.len() - max);
    }
    text
}
