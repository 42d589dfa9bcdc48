//! Words: identifiers split at snake_case, CamelCase, digits, dots and slashes, lowercased; one list of
//! stop words (English function words and the words every question about code uses); Snowball
//! English stemming.

use std::collections::BTreeSet;
use std::sync::LazyLock;

/// Words that carry no meaning in a question about code or in code itself: English function words,
/// and words that name code in general ("module", "function") rather than what it does.
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
    "been",
    "being",
    "by",
    "can",
    "class",
    "code",
    "codebase",
    "could",
    "def",
    "did",
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
    "had",
    "has",
    "have",
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
    "may",
    "me",
    "might",
    "module",
    "modules",
    "must",
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
    "shall",
    "should",
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
    "were",
    "what",
    "when",
    "where",
    "whether",
    "which",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "work",
    "works",
    "would",
    "you",
];

static STEMMER: LazyLock<frostem::Stemmer> = LazyLock::new(|| frostem::Stemmer::new(frostem::Algorithm::English));

/// Whether `word` (lowercase) is a stop word.
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

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
    if is_plural_acronym(chunk) {
        words.push(chunk.to_ascii_lowercase());
        return;
    }
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

/// An acronym in the plural (`URLs`, `UUIDs`, `APIs`): one English word, not `UUI` + `Ds`.
pub(super) fn is_plural_acronym(chunk: &str) -> bool {
    chunk.strip_suffix('s').is_some_and(|stem| stem.chars().count() >= 2 && stem.chars().all(char::is_uppercase))
}

/// One run of alphanumeric characters split at case and digit boundaries, lowercased.
fn split_word(chunk: &str, words: &mut Vec<String>) {
    if is_plural_acronym(chunk) {
        words.push(chunk.to_lowercase());
        return;
    }
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

/// Content terms: split words without stop words and single characters (`s` of `Django's`, loop
/// variables), stemmed. What matching, hashing and the lexical index use.
pub fn content_terms(text: &str) -> Vec<String> {
    split_words(text).into_iter().filter(|word| is_content_word(word)).map(|word| stem(&word)).collect()
}

/// A word that can carry meaning: not a stop word, longer than one character.
pub fn is_content_word(word: &str) -> bool {
    word.chars().nth(1).is_some() && !is_stop_word(word)
}

/// The Snowball English stem of a lowercase word (`handles`, `handling` → `handl`); words of one or
/// two letters and words that are not ASCII letters are kept as they are.
pub fn stem(word: &str) -> String {
    if word.len() <= 2 || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return word.to_string();
    }
    STEMMER.stem(word).into_owned()
}

/// Words people use to talk *about* code rather than name what it does: how it is built (architecture,
/// component, layer, flow), how a question is framed (purpose, relationship, definition). That no
/// module says "mechanism" is no sign that the question is about something the repository lacks, so
/// these words never count as unseen.
const DISCOURSE: &str = "\
    abstraction accomplish achieve actual actually additional after again against aim approach architectural \
    architecture aspect because before behave behavior behaviour behind benefit best better between both \
    boundary brief central characteristic choice clean cohesion collaborate collaboration component \
    concept conceptual concern consequence consider consideration coordinate coordination core coupling \
    decision definition delegate delegation describe design detail difference different during each \
    effect effective efficient enable ensure entire establish example exist explain extensibility \
    facilitate feature flow framework functionality further general goal happen impact implication \
    implementation implement importance important influence instead integrate integration intent \
    intention interact interaction interplay involve key layer lifecycle main maintain maintainability \
    manner meaning mechanism modular modularity more most motivation nature necessary need other over \
    overall own part particular pattern perform pipeline play possible precise primary principle process \
    purpose rationale reason relate relation relationship rely responsibility responsible result role \
    same scenario semantic separation serve significance similar specific stage step strategy structure \
    such support system than then through throughout together trade tradeoff typical under underlying \
    understand until various very way while within without workflow";

static DISCOURSE_WORDS: LazyLock<BTreeSet<&'static str>> = LazyLock::new(|| DISCOURSE.split_whitespace().collect());

/// Whether a lowercase word is a word about code in general ("mechanisms", "architectural",
/// "delegates"): in a question it frames the question rather than names its topic. Matched as a word
/// with its plural or adverb ending, never by stem: "responsible" frames, "responses" does not.
pub fn is_discourse(word: &str) -> bool {
    let known = |w: &str| DISCOURSE_WORDS.contains(w);
    known(word)
        || word.strip_suffix('s').is_some_and(known)
        || word.strip_suffix("es").is_some_and(known)
        || word.strip_suffix("ies").is_some_and(|base| known(&format!("{base}y")))
        || word.strip_suffix("ly").is_some_and(known)
        || word.strip_suffix("ed").is_some_and(|base| known(base) || known(&format!("{base}e")))
        || word.strip_suffix('d').is_some_and(known)
}

/// A question's content terms, each once, in order, with whether every word it came from frames the
/// question rather than names its topic (see [`is_discourse`]); then its [`versioned_names`].
pub fn question_terms(text: &str) -> Vec<(String, bool)> {
    let mut terms: Vec<(String, bool)> = Vec::new();
    for word in split_words(text).into_iter().filter(|word| is_content_word(word)) {
        let (term, discourse) = (stem(&word), is_discourse(&word));
        match terms.iter_mut().find(|(seen, _)| *seen == term) {
            Some((_, all_discourse)) => *all_discourse &= discourse,
            None => terms.push((term, discourse)),
        }
    }
    for name in versioned_names(text) {
        if !terms.iter().any(|(seen, _)| *seen == name) {
            terms.push((name, false));
        }
    }
    terms
}

/// The words of `text` written in mixed case (`LaTeX`, `MathML`, `WebSocket`, `SQLite`, `iOS`,
/// `TypeScript`, `SessionInterface`), lowercased whole, not stemmed. Split at their case they are
/// pieces (`type`, `script`) that say little of the name, while code writes such a name as one
/// lowercase word (`latex`, `websocket`) or as the identifier itself: whether the code holds the glued
/// form says whether it knows the name. Letters only (a name with digits is a [`versioned_names`]
/// one), at least four of them.
pub fn glued_names(text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for chunk in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        if chunk.len() < 4 || !chunk.bytes().all(|b| b.is_ascii_alphabetic()) || is_plural_acronym(chunk) {
            continue;
        }
        let mut pieces = Vec::new();
        split_ascii_word(chunk, &mut pieces);
        let glued = chunk.to_ascii_lowercase();
        if pieces.len() > 1 && !names.contains(&glued) {
            names.push(glued);
        }
    }
    names
}

/// The names of `text` written with their version or number (`HTTP/2`, `HTTP/1.1`, `OAuth2`, `IPv6`,
/// `base64`), glued as code writes them (`http2`, `http1`, `oauth2`, `ipv6`, `base64`): split into
/// words the number is lost, and `HTTP/2` and `HTTP/3` would be one topic. Two or more letters, an
/// optional `/`, then digits (a minor version after a dot is left out); a hyphen (`UTF-8`) is not
/// taken, since code writes those in strings.
pub fn versioned_names(text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for token in text.split_whitespace() {
        let token = token.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        let letters = token.len() - token.trim_start_matches(|c: char| c.is_ascii_alphabetic()).len();
        let rest = &token[letters..];
        let rest = rest.strip_prefix('/').unwrap_or(rest);
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let minor = rest[digits..]
            .strip_prefix('.')
            .is_none_or(|minor| !minor.is_empty() && minor.bytes().all(|b| b.is_ascii_digit() || b == b'.'));
        if letters >= 2 && digits >= 1 && minor && (digits == rest.len() || rest[digits..].starts_with('.')) {
            let name = format!("{}{}", token[..letters].to_ascii_lowercase(), &rest[..digits]);
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// Whether `term` has the shape of a [`versioned_names`] term: two or more lowercase letters, then
/// digits (`http2`).
pub fn is_versioned(term: &str) -> bool {
    let letters = term.trim_end_matches(|c: char| c.is_ascii_digit());
    letters.len() < term.len() && letters.len() >= 2 && letters.bytes().all(|b| b.is_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_their_version() {
        let question = "Does it speak HTTP/2 or HTTP/1.1, OAuth2, IPv6 and base64, not UTF-8, S3, v2 or 3.5?";
        assert_eq!(versioned_names(question), ["http2", "http1", "oauth2", "ipv6", "base64"]);
        assert!(versioned_names(question).iter().all(|name| is_versioned(name)));
        assert!(!is_versioned("http") && !is_versioned("x509") && !is_versioned("2"));
        assert!(versioned_names("HTTP/2.x OAuth2Session http/ 2 x509").is_empty());
        let terms: Vec<String> = question_terms("Where is HTTP/3?").into_iter().map(|(term, _)| term).collect();
        assert_eq!(terms, ["http", "http3"]);
    }

    #[test]
    fn names_in_mixed_case_are_also_glued() {
        let question =
            "Is LaTeX, MathML or SQLite output built by SessionInterface on iOS? Not HTTP, URLs, Django, OAuth2";
        assert_eq!(glued_names(question), ["latex", "mathml", "sqlite", "sessioninterface"]);
    }

    #[test]
    fn identifiers_split_at_case_digits_and_punctuation() {
        assert_eq!(split_words("parseHTML2JSON"), ["parse", "html", "2", "json"]);
        assert_eq!(split_words("scrapy/core/engine.py"), ["scrapy", "core", "engine", "py"]);
        assert_eq!(split_words("JWTValidator get_user_id"), ["jwt", "validator", "get", "user", "id"]);
        assert_eq!(split_words("UUIDs and URLs"), ["uuids", "and", "urls"]);
        assert_eq!(content_terms("UUIDs"), content_terms("uuid"));
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
    fn discourse_words_are_words_not_stems() {
        for word in ["mechanisms", "architectural", "delegates", "responsibilities", "relies", "designed"] {
            assert!(is_discourse(word), "{word}");
        }
        for word in ["redirect", "responses", "response", "designer"] {
            assert!(!is_discourse(word), "{word}");
        }
        let terms = question_terms("The responsible mechanism for responses and the mechanisms");
        assert_eq!(terms, [("respons".to_string(), false), ("mechan".to_string(), true)]);
    }

    #[test]
    fn content_terms_drop_stop_words_and_stem_like_snowball() {
        assert_eq!(content_terms("Where are the requests handled?"), ["request", "handl"]);
        assert_eq!(content_terms("handle handling handles"), ["handl", "handl", "handl"]);
        assert_eq!(stem("class"), "class");
        assert_eq!(stem("policies"), "polici");
        assert_eq!(stem("policy"), "polici");
        assert_eq!(stem("retried"), stem("retries"));
        // Not ASCII letters: kept whole.
        assert_eq!(stem("naïve"), "naïve");
        assert_eq!(stem("utf8"), "utf8");
    }
}
