//! Decoding source bytes and reading string literals out of the syntax tree.

use std::borrow::Cow;

use tree_sitter::Node;

/// Source bytes as text: UTF-8 as is, anything else decoded lossily (the caller warns).
pub fn decode_source(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (Cow::Borrowed(text), false),
        Err(_) => (String::from_utf8_lossy(bytes), true),
    }
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
