//! Code-aware tokens: identifiers split at snake_case, CamelCase, digits, dots and slashes, lowercased,
//! lightly stemmed, with English and Python stop words dropped. Shared by the built-in embedder, folder
//! scoring, entity linking and the confidence check, so all of them agree on what a "word" is.

/// Words that carry no meaning in a question about code.
/// Sorted, for binary search (a test checks).
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "all",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "by",
    "can",
    "class",
    "code",
    "codebase",
    "def",
    "do",
    "does",
    "false",
    "file",
    "files",
    "find",
    "for",
    "from",
    "function",
    "functions",
    "get",
    "how",
    "i",
    "if",
    "import",
    "in",
    "into",
    "is",
    "it",
    "its",
    "logic",
    "me",
    "module",
    "modules",
    "none",
    "of",
    "on",
    "or",
    "package",
    "pass",
    "py",
    "repo",
    "repository",
    "return",
    "self",
    "set",
    "show",
    "so",
    "tell",
    "that",
    "the",
    "their",
    "them",
    "there",
    "these",
    "this",
    "to",
    "true",
    "use",
    "used",
    "uses",
    "using",
    "was",
    "what",
    "when",
    "where",
    "which",
    "who",
    "why",
    "will",
    "with",
    "work",
    "works",
    "you",
];

/// The raw identifier-like words of a text, split at every non-alphanumeric character and at case and
/// digit boundaries (`parseHTML2JSON` → `parse`, `html`, `2`, `json`), lowercased. No stemming.
pub fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    for chunk in text.split(|c: char| !c.is_alphanumeric()) {
        if chunk.is_empty() {
            continue;
        }
        if chunk.is_ascii() {
            split_ascii_word(chunk, &mut words);
        } else {
            split_word(chunk, &mut words);
        }
    }
    words
}

/// [`split_word`] for the common all-ASCII case, without decoding characters.
fn split_ascii_word(chunk: &str, words: &mut Vec<String>) {
    let bytes = chunk.as_bytes();
    let mut start = 0;
    for i in 1..bytes.len() {
        let (previous, current) = (bytes[i - 1], bytes[i]);
        let next_is_lower = bytes.get(i + 1).is_some_and(u8::is_ascii_lowercase);
        let boundary = (previous.is_ascii_lowercase() && current.is_ascii_uppercase())
            || (previous.is_ascii_uppercase() && current.is_ascii_uppercase() && next_is_lower)
            || (previous.is_ascii_alphabetic() && current.is_ascii_digit())
            || (previous.is_ascii_digit() && current.is_ascii_alphabetic());
        if boundary {
            words.push(chunk[start..i].to_ascii_lowercase());
            start = i;
        }
    }
    words.push(chunk[start..].to_ascii_lowercase());
}

/// One run of alphanumeric characters split at case and digit boundaries, lowercased.
fn split_word(chunk: &str, words: &mut Vec<String>) {
    let chars: Vec<char> = chunk.chars().collect();
    let mut start = 0;
    for i in 1..chars.len() {
        let (previous, current) = (chars[i - 1], chars[i]);
        let next_is_lower = chars.get(i + 1).is_some_and(|c| c.is_lowercase());
        let boundary = (previous.is_lowercase() && current.is_uppercase())
            || (previous.is_uppercase() && current.is_uppercase() && next_is_lower)
            || (previous.is_alphabetic() && current.is_numeric())
            || (previous.is_numeric() && current.is_alphabetic());
        if boundary {
            words.push(chars[start..i].iter().collect::<String>().to_lowercase());
            start = i;
        }
    }
    words.push(chars[start..].iter().collect::<String>().to_lowercase());
}

/// Content terms: split words without stop words, stemmed. This is what matching and hashing use.
pub fn content_terms(text: &str) -> Vec<String> {
    split_words(text)
        .into_iter()
        .filter(|word| STOP_WORDS.binary_search(&word.as_str()).is_err())
        .map(|word| stem(&word))
        .filter(|word| !word.is_empty())
        .collect()
}

/// A deliberately small English suffix stripper: enough to meet `handles`/`handling`/`handler` halfway.
pub fn stem(word: &str) -> String {
    if word.len() <= 3 || !word.is_ascii() {
        return word.to_string();
    }
    for (suffix, replacement, min_stem) in
        [("ies", "y", 2), ("ing", "", 3), ("ers", "", 3), ("er", "", 3), ("ed", "", 3), ("es", "", 4), ("s", "", 3)]
    {
        if let Some(base) = word.strip_suffix(suffix)
            && base.len() >= min_stem
            && !word.ends_with("ss")
        {
            return format!("{base}{replacement}");
        }
    }
    word.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_at_case_digits_and_punctuation() {
        assert_eq!(split_words("parseHTML2JSON"), ["parse", "html", "2", "json"]);
        assert_eq!(split_words("scrapy/core/engine.py"), ["scrapy", "core", "engine", "py"]);
        assert_eq!(split_words("JWTValidator get_user_id"), ["jwt", "validator", "get", "user", "id"]);
    }

    #[test]
    fn ascii_and_unicode_splitting_agree() {
        for text in ["parseHTML2JSON", "HTTPServer_v2Handler", "get_user_ID9x", "ABC", "a1B2c3", "x"] {
            let mut ascii = Vec::new();
            split_ascii_word(text, &mut ascii);
            let mut unicode = Vec::new();
            split_word(text, &mut unicode);
            assert_eq!(ascii, unicode, "{text}");
        }
        assert_eq!(split_words("ÜberParser naïveHTML"), ["über", "parser", "naïve", "html"]);
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(content_terms("the def of a class").is_empty());
    }

    #[test]
    fn content_terms_drop_stop_words_and_stem() {
        assert_eq!(content_terms("Where are the requests handled?"), ["request", "handl"]);
        assert_eq!(content_terms("handler handling handles"), ["handl", "handl", "handl"]);
        assert_eq!(stem("class"), "class");
        assert_eq!(stem("policies"), "policy");
    }
}
