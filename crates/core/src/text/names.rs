//! Whether a token is written as code, and the code names a text contains: backticked spans, paths,
//! dotted names, snake_case, CamelCase and calls (`send()`). Only these are names for sure; an English
//! word may still name a module or symbol, but that is for the caller to decide against the index.

/// How a name was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameShape {
    /// Between backticks (shape of the inside aside).
    Backticked,
    /// Contains `/` or ends in `.py`.
    Path,
    /// `a.b.c`.
    Dotted,
    /// Contains `_`.
    Snake,
    /// An inner capital (`WebSocket`, `JSONProvider`).
    Camel,
    /// Followed by `()`.
    Call,
}

/// A code name in a text, with its byte span (the span covers backticks and a trailing `()`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeName {
    /// As written, without backticks, quotes, `def `/`class ` or a trailing `()`.
    pub text: String,
    pub start: usize,
    pub end: usize,
    pub shape: NameShape,
}

/// A path, a dotted or snake_case name, or a name with an inner capital (`WebSocket`, `JSONProvider`).
pub fn is_code(text: &str) -> bool {
    shape_of(text).is_some()
}

fn shape_of(text: &str) -> Option<NameShape> {
    let has_inner =
        |c: char| text.trim_matches(c).contains(c) && text.split(c).all(|part| !part.is_empty() || text.starts_with(c));
    let inner_capital = text.chars().skip(1).any(char::is_uppercase)
        && text.chars().any(char::is_lowercase)
        && !super::words::is_plural_acronym(text);
    if !text.chars().any(char::is_alphabetic) || ["e.g", "i.e", "etc"].contains(&text.to_lowercase().as_str()) {
        return None;
    }
    // Chat's `w/`, `w/o`, `b/c`, `y/n`: no part longer than a letter, so no folder or file.
    let shorthand = text.split('/').all(|part| part.chars().count() <= 1);
    if text.ends_with(".py") || (text.contains('/') && !shorthand && text.chars().any(char::is_alphabetic)) {
        Some(NameShape::Path)
    } else if has_inner('.') && text.chars().all(|c| c.is_alphanumeric() || c == '.' || c == '_') {
        Some(NameShape::Dotted)
    } else if !text.chars().all(|c| c.is_alphanumeric() || c == '_') {
        // `Set-Cookie`, `HTTP/2`-like words and hyphenated English are not identifiers.
        None
    } else if text.contains('_') {
        Some(NameShape::Snake)
    } else if inner_capital {
        Some(NameShape::Camel)
    } else {
        None
    }
}

/// The words `text` writes as names, in order, as written without the punctuation around them or a
/// possessive (`Flask's`, `Requests'`): code (`max_retries`, `WebSocket`), all capitals (`JWT`), or a
/// capital letter inside a sentence (`Kafka`, `Redis`). A capital at a sentence's start says nothing.
pub fn written_as_names(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut sentence_start = true;
    for token in text.split_whitespace() {
        let word = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
        let word = word.strip_suffix("'s").or_else(|| word.strip_suffix("\u{2019}s")).unwrap_or(word);
        let capitalised = word.chars().next().is_some_and(char::is_uppercase);
        let letters: Vec<char> = word.chars().filter(|c| c.is_alphabetic()).collect();
        let all_capitals = letters.len() >= 2 && letters.iter().all(|c| c.is_uppercase());
        if is_code(word) || all_capitals || (capitalised && !sentence_start) {
            names.push(word);
        }
        sentence_start = token.ends_with(['.', '?', '!', ':']);
    }
    names
}

/// The code names of `text`, in order.
pub fn code_names(text: &str) -> Vec<CodeName> {
    let mut names = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let Some(c) = text[at..].chars().next() else { break };
        if c.is_whitespace() {
            at += c.len_utf8();
            continue;
        }
        if c == '`' {
            let body_start = at + 1;
            let close = text[body_start..].find('`').map(|i| body_start + i);
            let body_end = close.unwrap_or(text.len());
            let end = close.map_or(body_end, |close| close + 1);
            let body = text[body_start..body_end].trim();
            let body = ["def ", "async def ", "class "].iter().find_map(|p| body.strip_prefix(p)).unwrap_or(body);
            let body = body.trim_end_matches("()").trim();
            // A command line or a phrase in backticks (`conan install`) is not one name.
            if !body.is_empty() && !body.contains(char::is_whitespace) {
                names.push(CodeName { text: body.to_string(), start: at, end, shape: NameShape::Backticked });
            }
            at = end;
            continue;
        }
        let end = text[at..].find(|c: char| c.is_whitespace() || c == '`').map_or(text.len(), |i| at + i);
        if let Some(name) = token_name(&text[at..end], at) {
            names.push(name);
        }
        at = end;
    }
    names
}

/// The code name one whitespace-delimited token writes, if any.
fn token_name(raw: &str, offset: usize) -> Option<CodeName> {
    let wrapping = |c: char| "\"'()[]{}<>?!,;:*“”‘’".contains(c);
    let lead = raw.len() - raw.trim_start_matches(wrapping).len();
    let mut inner = raw.trim_start_matches(wrapping);
    // `Session.send()`, `send()?`, `flask/app.py,`: punctuation after the name is not part of it.
    let called_at = inner.find("()");
    if let Some(at) = called_at {
        inner = &inner[..at];
    }
    let inner = inner.trim_end_matches(|c: char| wrapping(c) || c == '.');
    let inner = inner.strip_suffix("'s").or_else(|| inner.strip_suffix("’s")).unwrap_or(inner);
    if inner.is_empty() {
        return None;
    }
    let identifier_like = inner.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.');
    let shape = match shape_of(inner) {
        Some(shape) => shape,
        None if called_at.is_some() && identifier_like && inner.chars().any(char::is_alphabetic) => NameShape::Call,
        None => return None,
    };
    let start = offset + lead;
    let end = if called_at.is_some() { start + inner.len() + 2 } else { start + inner.len() };
    Some(CodeName { text: inner.to_string(), start, end, shape })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_written_as_names() {
        let names = written_as_names("Where does Flask's app read JWT settings, and Requests' max_retries? Ask Kafka.");
        assert_eq!(names, ["Flask", "JWT", "Requests", "max_retries", "Kafka"]);
        // A capital that starts a sentence is not a name; plain words never are.
        assert!(written_as_names("Where are cookies kept? Which part retries?").is_empty());
    }

    #[test]
    fn code_shapes() {
        for code in ["a.b", "a/b.py", "snake_case", "WebSocket", "app.py", "src/flask", "__init__"] {
            assert!(is_code(code), "{code}");
        }
        for word in [
            "imports",
            "Flask",
            "JWT",
            "e.g",
            "3.5",
            "x",
            "Set-Cookie",
            "User-Agent",
            "UUIDs",
            "APIs",
            "w/",
            "w/o",
            "y/n",
        ] {
            assert!(!is_code(word), "{word}");
        }
    }

    #[test]
    fn names_in_a_question_with_their_shapes() {
        let question = "Where is `Session.request` called from to_native_string(), ConanFile's base, \
                        requests/sessions.py or sympy.core.add, and send()?";
        let names = code_names(question);
        let found: Vec<(&str, NameShape)> = names.iter().map(|n| (n.text.as_str(), n.shape)).collect();
        assert_eq!(
            found,
            [
                ("Session.request", NameShape::Backticked),
                ("to_native_string", NameShape::Snake),
                ("ConanFile", NameShape::Camel),
                ("requests/sessions.py", NameShape::Path),
                ("sympy.core.add", NameShape::Dotted),
                ("send", NameShape::Call),
            ]
        );
        assert_eq!(&question[names[1].start..names[1].end], "to_native_string()");
        assert_eq!(&question[names[0].start..names[0].end], "`Session.request`");
    }

    #[test]
    fn english_is_not_code() {
        assert!(code_names("How are redirects handled, e.g. for POST requests? (i.e. 3.5 times)").is_empty());
        assert_eq!(code_names("the `def round_money` helper")[0].text, "round_money");
        assert!(code_names("Where is `conan install` implemented?").is_empty());
    }
}
