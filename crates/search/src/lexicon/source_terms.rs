//! One Python file's words, by field: the names it defines (`def`/`class`), its signatures (a
//! function's parameters, annotations and defaults; a class's bases), its prose (docstrings, other strings, comments), its other code identifiers, and every
//! identifier whole (for names a question writes as code). A small lexer over the text, not a parse:
//! it needs only strings, comments, identifiers and brackets, never fails, and costs one pass.
//!
//! Words go through the one text layer (`strata_core::text`): split at case and underscores, stop
//! words dropped, stemmed.

use std::collections::HashMap;

use strata_core::text::{code_names, is_content_word, split_words, stem};

use super::{FIELDS, Field};

/// A file's terms: per field, term → count, in first-seen order of the map's keys (sorted on write).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileTerms {
    pub fields: [HashMap<String, u32>; FIELDS],
}

impl FileTerms {
    pub fn add(&mut self, field: Field, term: &str) {
        match self.fields[field as usize].get_mut(term) {
            Some(count) => *count += 1,
            None => {
                self.fields[field as usize].insert(term.to_string(), 1);
            }
        }
    }

    /// The number of terms in `field` (its length for BM25).
    pub fn length(&self, field: Field) -> u32 {
        self.fields[field as usize].values().sum()
    }
}

/// Python keywords and the two conventional receivers: they say nothing about what code does.
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "cls", "continue", "def",
    "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
    "nonlocal", "not", "or", "pass", "raise", "return", "self", "try", "while", "with", "yield",
];

/// The terms of a module: its path and its source text.
pub fn file_terms(module_id: &str, source: &str) -> FileTerms {
    let mut terms = FileTerms::default();
    let mut stems = Stems::default();
    let path = module_id.strip_suffix(".py").unwrap_or(module_id);
    stems.add_words(&mut terms, Field::Path, path);
    Lexer { source: source.as_bytes(), at: 0 }.run(|token| match token {
        Token::Prose(text) => {
            stems.add_words(&mut terms, Field::Doc, text);
            // Names written as code in prose (`FastAPI`, `max_retries`) count as identifiers too.
            for name in code_names(text) {
                let last = name.text.rsplit(['.', '/']).next().unwrap_or(&name.text);
                if last.len() >= 3 && last.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    terms.add(Field::Ident, &last.to_lowercase());
                }
            }
        }
        Token::Identifier(name, role) => {
            if KEYWORDS.binary_search(&name).is_ok() {
                return;
            }
            if name.len() >= 3 && name.chars().any(|c| c.is_alphabetic()) {
                terms.add(Field::Ident, &name.to_lowercase());
            }
            let field = match role {
                Role::Definition => Field::Names,
                Role::Parameter => Field::Sig,
                Role::Code => Field::Code,
            };
            stems.add_words(&mut terms, field, name);
        }
    });
    terms
}

/// Stems already computed for this file (words repeat, stemming is the cost).
#[derive(Default)]
struct Stems(HashMap<String, Option<String>>);

impl Stems {
    fn add_words(&mut self, terms: &mut FileTerms, field: Field, text: &str) {
        for word in split_words(text) {
            let term = self.0.entry(word).or_insert_with_key(|word| is_content_word(word).then(|| stem(word)));
            if let Some(term) = term {
                terms.add(field, term);
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// The name after `def` or `class`.
    Definition,
    /// In a definition's header: a function's parameters, a class's bases.
    Parameter,
    Code,
}

enum Token<'a> {
    Prose(&'a str),
    Identifier(&'a str, Role),
}

struct Lexer<'a> {
    source: &'a [u8],
    at: usize,
}

impl<'a> Lexer<'a> {
    fn run(mut self, mut emit: impl FnMut(Token<'a>)) {
        // After `def`/`class` the next identifier is a definition; its header (a function's parameters,
        // annotations, defaults and return annotation, a class's bases) runs to the `:` outside
        // brackets.
        let mut definition_pending = false;
        let mut in_header = false;
        let mut depth = 0usize;
        while self.at < self.source.len() {
            let byte = self.source[self.at];
            match byte {
                b'#' => {
                    let end = self.find_from(self.at, b'\n');
                    emit(Token::Prose(self.text(self.at + 1, end)));
                    self.at = end;
                }
                b'\'' | b'"' => {
                    let (start, end, next) = self.string(self.at);
                    emit(Token::Prose(self.text(start, end)));
                    self.at = next;
                }
                b'(' | b'[' | b'{' if in_header => {
                    depth += 1;
                    self.at += 1;
                }
                b')' | b']' | b'}' if in_header => {
                    depth = depth.saturating_sub(1);
                    self.at += 1;
                }
                b':' | b'\n' if in_header && depth == 0 => {
                    in_header = false;
                    self.at += 1;
                }
                _ if byte == b'_' || byte.is_ascii_alphabetic() || byte >= 0x80 => {
                    let start = self.at;
                    while self.at < self.source.len() && {
                        let b = self.source[self.at];
                        b == b'_' || b.is_ascii_alphanumeric() || b >= 0x80
                    } {
                        self.at += 1;
                    }
                    // A string prefix (`r"..."`, `f'...'`, `rb"""..."""`).
                    if self.at - start <= 2
                        && self.at < self.source.len()
                        && matches!(self.source[self.at], b'\'' | b'"')
                        && self.source[start..self.at].iter().all(|b| b"rRbBuUfFtT".contains(b))
                    {
                        let (body_start, end, next) = self.string(self.at);
                        emit(Token::Prose(self.text(body_start, end)));
                        self.at = next;
                        continue;
                    }
                    let name = self.text(start, self.at);
                    if name.is_empty() {
                        // Not UTF-8 here: skip the byte.
                        self.at = start + 1;
                        continue;
                    }
                    let role = if std::mem::take(&mut definition_pending) {
                        (in_header, depth) = (true, 0);
                        Role::Definition
                    } else if in_header {
                        Role::Parameter
                    } else {
                        Role::Code
                    };
                    definition_pending = matches!(name, "def" | "class");
                    emit(Token::Identifier(name, role));
                }
                _ => self.at += 1,
            }
        }
    }

    /// A string literal opening at `at` (a quote): its body's span and where the literal ends. An
    /// unterminated string runs to the end of the line (or of the file, when triple-quoted).
    fn string(&self, at: usize) -> (usize, usize, usize) {
        let quote = self.source[at];
        let triple = self.source.get(at..at + 3).is_some_and(|s| s.iter().all(|&b| b == quote));
        let start = at + if triple { 3 } else { 1 };
        let mut i = start;
        while i < self.source.len() {
            let b = self.source[i];
            if b == b'\\' {
                i += 2;
                continue;
            }
            if b == quote {
                if !triple {
                    return (start, i, i + 1);
                }
                if self.source.get(i..i + 3).is_some_and(|s| s.iter().all(|&b| b == quote)) {
                    return (start, i, i + 3);
                }
            }
            if b == b'\n' && !triple {
                return (start, i, i);
            }
            i += 1;
        }
        let end = self.source.len();
        (start.min(end), end, end)
    }

    fn find_from(&self, from: usize, byte: u8) -> usize {
        self.source[from..].iter().position(|&b| b == byte).map_or(self.source.len(), |i| from + i)
    }

    /// The text of a span, empty when it does not fall on UTF-8 boundaries of valid text.
    fn text(&self, start: usize, end: usize) -> &'a str {
        let end = end.min(self.source.len());
        self.source.get(start.min(end)..end).and_then(|bytes| std::str::from_utf8(bytes).ok()).unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(terms: &FileTerms, field: Field) -> Vec<(String, u32)> {
        let mut pairs: Vec<(String, u32)> =
            terms.fields[field as usize].iter().map(|(term, count)| (term.clone(), *count)).collect();
        pairs.sort();
        pairs
    }

    fn words(pairs: Vec<(String, u32)>) -> Vec<String> {
        pairs.into_iter().map(|(term, _)| term).collect()
    }

    #[test]
    fn fields_of_a_small_module() {
        let source = r#""""Session handling."""
import os

class RetryPolicy(BasePolicy):
    """Retries failed requests."""

    def should_retry(self, response, *, max_attempts: int = 3) -> bool:
        # give up after max attempts
        return response.status_code in RETRY_CODES

def to_native_string(value, encoding="ascii"):
    return value.decode(f"{encoding}")
"#;
        let terms = file_terms("requests/retry_policy.py", source);
        assert_eq!(words(sorted(&terms, Field::Path)), ["polici", "request", "retri"]);
        assert_eq!(words(sorted(&terms, Field::Names)), ["nativ", "polici", "retri", "string"]);
        let sig = ["attempt", "base", "bool", "encod", "int", "max", "polici", "respons", "valu"];
        assert_eq!(words(sorted(&terms, Field::Sig)), sig);
        let doc = words(sorted(&terms, Field::Doc));
        for word in ["session", "retri", "fail", "request", "give", "attempt", "ascii"] {
            assert!(doc.contains(&word.to_string()), "{word} in {doc:?}");
        }
        let code = words(sorted(&terms, Field::Code));
        assert!(code.contains(&"status".to_string()) && code.contains(&"decod".to_string()), "{code:?}");
        assert!(!code.contains(&"def".to_string()) && !code.contains(&"return".to_string()));
        let ident = words(sorted(&terms, Field::Ident));
        for name in ["to_native_string", "retrypolicy", "retry_codes", "status_code", "should_retry"] {
            assert!(ident.contains(&name.to_string()), "{name} in {ident:?}");
        }
    }

    #[test]
    fn keywords_are_sorted_for_binary_search() {
        assert!(KEYWORDS.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn broken_text_never_panics() {
        for source in ["'''unterminated", "\"\\", "def (", "x = 'é", "\u{0}\u{ff}#", "r", "f'''", "def f(((", ")))"] {
            let _ = file_terms("a.py", source);
        }
        let bytes = [b'x', 0xff, 0xfe, b' ', b'y'];
        let lossy = String::from_utf8_lossy(&bytes);
        let _ = file_terms("a.py", &lossy);
    }
}
