//! Decoding source bytes and reading string literals out of the syntax tree.

use std::borrow::Cow;

use tree_sitter::Node;

/// Source bytes as text, and whether decoding was lossy. UTF-8 is taken as is; a file that declares a
/// Latin-1 coding (PEP 263) is decoded as Latin-1; anything else is decoded lossily (the caller warns).
/// A lone `\r` is a line break to Python but not to tree-sitter, so it becomes `\n` (same byte length,
/// so line numbers agree with Python's and offsets do not move).
pub fn decode_source(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    let (text, lossy) = match std::str::from_utf8(bytes) {
        Ok(text) => (Cow::Borrowed(text), false),
        Err(_) if declares_latin1(bytes) => (Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()), false),
        Err(_) => (String::from_utf8_lossy(bytes), true),
    };
    (normalise_lone_carriage_returns(text), lossy)
}

fn normalise_lone_carriage_returns(text: Cow<'_, str>) -> Cow<'_, str> {
    let has_lone_cr =
        text.as_bytes().windows(2).any(|pair| pair[0] == b'\r' && pair[1] != b'\n') || text.ends_with('\r');
    if !has_lone_cr {
        return text;
    }
    let mut normalised = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        normalised.push(if c == '\r' && chars.peek() != Some(&'\n') { '\n' } else { c });
    }
    Cow::Owned(normalised)
}

/// A PEP 263 declaration of Latin-1 on one of the first two lines.
fn declares_latin1(bytes: &[u8]) -> bool {
    bytes.split(|&b| b == b'\n').take(2).any(|line| {
        let line = String::from_utf8_lossy(line).to_ascii_lowercase();
        let Some(position) = line.find("coding").filter(|_| line.trim_start().starts_with('#')) else {
            return false;
        };
        let declared = line[position + "coding".len()..].trim_start_matches([':', '=']).trim_start();
        let name: String =
            declared.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
        matches!(name.replace('_', "-").as_str(), "latin-1" | "latin1" | "iso-8859-1" | "iso8859-1" | "l1")
    })
}

/// The text a node spans; empty for spans that are not on character boundaries (never for UTF-8 input).
pub fn node_text<'a>(node: Node<'_>, source: &'a str) -> &'a str {
    source.get(node.byte_range()).unwrap_or("")
}

/// The value of a plain string literal (`"abc"`, `'''abc'''`, `r"abc"`): its content pieces joined.
/// Interpolations in f-strings are left out, escapes are kept as written.
pub fn string_literal_value(node: Node<'_>, source: &str) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let mut value = String::new();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.kind() == "string_content" {
            value.push_str(node_text(child, source));
        }
    }
    Some(value)
}

/// 1-based line where a node starts.
pub fn start_line(node: Node<'_>) -> u32 {
    u32::try_from(node.start_position().row + 1).unwrap_or(u32::MAX)
}

/// 1-based line where a node ends.
pub fn end_line(node: Node<'_>) -> u32 {
    u32::try_from(node.end_position().row + 1).unwrap_or(u32::MAX)
}
