//! Type-parameter defaults (PEP 696, Python 3.13: `class Box[T: Item = Item]`), which tree-sitter-python
//! 0.25 cannot parse: it reports a syntax error on valid code and recovers the rest. When a file's first
//! parse has errors, the defaults are blanked with spaces (same byte length, newlines kept, so every
//! position and line number stays put) and the file is parsed again. Facts are still read from the
//! original text; a default names a type, never an import, so nothing is lost by hiding it.

/// `source` with the `= default` of every parameter in the type-parameter list of a `class`, `def`,
/// `async def` or `type` header replaced by spaces, or `None` when no header has one.
pub fn blank_type_parameter_defaults(source: &str) -> Option<String> {
    let bytes = source.as_bytes();
    let mut blanked = bytes.to_vec();
    let mut changed = false;
    let mut line_start = 0;
    while line_start < bytes.len() {
        if let Some(open) = type_parameter_list_start(bytes, line_start)
            && let Some(defaults) = defaults_in_list(bytes, open + 1)
        {
            for range in defaults {
                for byte in &mut blanked[range] {
                    if *byte != b'\n' && *byte != b'\r' {
                        *byte = b' ';
                    }
                }
                changed = true;
            }
        }
        line_start = match bytes[line_start..].iter().position(|&b| b == b'\n') {
            Some(newline) => line_start + newline + 1,
            None => bytes.len(),
        };
    }
    // Whole characters are blanked (a default runs from `=` to an ASCII delimiter), so this is UTF-8.
    if changed { String::from_utf8(blanked).ok() } else { None }
}

/// The offset of `[` when the line starting at `start` opens a header with a type-parameter list.
fn type_parameter_list_start(bytes: &[u8], start: usize) -> Option<usize> {
    let mut at = skip_blanks(bytes, start);
    at = skip_keyword(bytes, at, b"async").map_or(at, |after| skip_blanks(bytes, after));
    at = [&b"class"[..], b"def", b"type"].iter().find_map(|keyword| skip_keyword(bytes, at, keyword))?;
    let name_start = skip_blanks(bytes, at);
    if name_start == at {
        return None;
    }
    let name_end = name_start + bytes[name_start..].iter().take_while(|&&b| is_name_byte(b)).count();
    let open = skip_blanks(bytes, name_end);
    (name_end > name_start && bytes.get(open) == Some(&b'[')).then_some(open)
}

/// The byte ranges of `= default` in the list starting at `from` (just after `[`), or `None` when the
/// list does not close: an unbalanced header is a real syntax error, left for the parser to report.
fn defaults_in_list(bytes: &[u8], from: usize) -> Option<Vec<std::ops::Range<usize>>> {
    let mut defaults = Vec::new();
    let mut default_start = None;
    let mut depth = 0usize;
    let mut at = from;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b'}' if depth == 0 => return None,
            b']' | b')' | b'}' if depth > 0 => depth -= 1,
            b']' | b',' if depth == 0 => {
                if let Some(start) = default_start.take() {
                    defaults.push(start..at);
                }
                if byte == b']' {
                    return Some(defaults);
                }
            }
            b'=' if depth == 0 && default_start.is_none() => default_start = Some(at),
            b'#' => at += bytes[at..].iter().position(|&b| b == b'\n')?,
            b'"' | b'\'' => at = string_end(bytes, at)?,
            _ => {}
        }
        at += 1;
    }
    None
}

/// The offset of the closing quote of the string literal opening at `start` (single or triple quoted).
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let quote = bytes[start];
    let triple = bytes.get(start..start + 3) == Some(&[quote; 3][..]);
    let mut at = start + if triple { 3 } else { 1 };
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'\\' => at += 1,
            b'\n' if !triple => return None,
            _ if byte == quote && (!triple || bytes.get(at..at + 3) == Some(&[quote; 3][..])) => {
                return Some(if triple { at + 2 } else { at });
            }
            _ => {}
        }
        at += 1;
    }
    None
}

fn skip_blanks(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t')) {
        at += 1;
    }
    at
}

/// The offset after `keyword` at `at` when it is a whole word there.
fn skip_keyword(bytes: &[u8], at: usize, keyword: &[u8]) -> Option<usize> {
    let end = at + keyword.len();
    (bytes.get(at..end) == Some(keyword) && !bytes.get(end).is_some_and(|&b| is_name_byte(b))).then_some(end)
}

/// Identifier bytes: ASCII letters, digits, `_`, and any byte of a non-ASCII character.
fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80
}

#[cfg(test)]
mod tests {
    use super::blank_type_parameter_defaults as blank;

    #[test]
    fn defaults_are_blanked_in_place() {
        let source = "class Box[T: Item = Item, *Ts = *tuple[int, str]](Base):\n    pass\n";
        let blanked = blank(source).unwrap();
        assert_eq!(blanked, "class Box[T: Item       , *Ts                   ](Base):\n    pass\n");
        assert_eq!(blanked.len(), source.len());
    }

    #[test]
    fn functions_type_aliases_and_indented_headers() {
        assert_eq!(blank("async def f[T = int](x: T = 1): ...").unwrap(), "async def f[T      ](x: T = 1): ...");
        assert_eq!(blank("type Pair[K = str] = tuple[K, K]").unwrap(), "type Pair[K      ] = tuple[K, K]");
        assert_eq!(
            blank("class A:\n    def m[T = 'x,]'](self): ...\n").unwrap(),
            "class A:\n    def m[T        ](self): ...\n"
        );
    }

    #[test]
    fn multi_line_lists_keep_their_newlines() {
        let source = "class C[\n    T = dict[\n        str, int],  # note\n    U = int,\n]: ...\n";
        let blanked = blank(source).unwrap();
        assert_eq!(blanked.matches('\n').count(), source.matches('\n').count());
        assert_eq!(blanked, "class C[\n    T        \n                 ,  # note\n    U      ,\n]: ...\n");
    }

    #[test]
    fn code_without_defaults_is_left_alone() {
        for source in [
            "class Box[T: Item](Base): ...",
            "x = [a for a in b]\nclassic[1] = 2\ntype = 3\n",
            "def f[T = int(: ...",
            "classify[T = 1]",
            "déf[T = 1]",
        ] {
            assert_eq!(blank(source), None, "{source}");
        }
    }
}
