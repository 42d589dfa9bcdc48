//! Splitting a question into words with their byte spans: contractions expanded, arrows read as "to", possessives cut,
//! hyphenated English split, and code-like tokens (`flask/app.py`, `flask.json.tag`, `url_for`,
//! `` `x` ``, `ExecutionEngine`) kept whole and marked, because only those are module or symbol names
//! for sure (the one rule for that is `strata_core::text::is_code`).

use strata_core::graph_view::TEST_FOLDERS;
use strata_core::text::is_code;

/// One word of the question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// As written, without surrounding punctuation or quotes.
    pub text: String,
    /// Lower-cased, for matching cue words.
    pub lower: String,
    /// Byte span in the question.
    pub start: usize,
    pub end: usize,
    /// Written as code: backticks, a path, a dotted or snake_case name, an inner capital.
    pub code: bool,
    /// A clause ends here (`;` `?` `:` `!`, or a full stop).
    pub boundary_after: bool,
    /// A comma follows: a clause may end here.
    pub comma_after: bool,
    /// A question mark follows.
    pub question_after: bool,
    /// Written with a possessive `'s` (`flask.app's imports`).
    pub possessive: bool,
}

/// What a written word stands for: contractions ("doesn't"), chat shorthand ("mods", "wat") and
/// common misspellings of question words ("wich", "wher"), each with the words it expands to.
const EXPANSIONS: &[(&str, &[&str])] = &[
    ("what's", &["what", "is"]),
    ("who's", &["who", "is"]),
    ("where's", &["where", "is"]),
    ("which's", &["which", "is"]),
    ("that's", &["that", "is"]),
    ("there's", &["there", "is"]),
    ("how's", &["how", "is"]),
    ("isn't", &["is", "not"]),
    ("aren't", &["are", "not"]),
    ("doesn't", &["does", "not"]),
    ("don't", &["do", "not"]),
    ("didn't", &["did", "not"]),
    ("won't", &["will", "not"]),
    ("can't", &["can", "not"]),
    ("cannot", &["can", "not"]),
    ("hasn't", &["has", "not"]),
    ("haven't", &["have", "not"]),
    ("wasn't", &["was", "not"]),
    ("weren't", &["were", "not"]),
    ("shouldn't", &["should", "not"]),
    ("wouldn't", &["would", "not"]),
    ("couldn't", &["could", "not"]),
    ("i'd", &["i", "would"]),
    ("i'm", &["i", "am"]),
    ("let's", &["let", "us"]),
    // Chat shorthand ("wat mods r imported by u", "w/o tests"); "mod" only after a determiner
    // (`sympy/core/mod.py`).
    ("w/", &["with"]),
    ("w/o", &["without"]),
    ("mods", &["modules"]),
    ("wat", &["what"]),
    ("wut", &["what"]),
    ("r", &["are"]),
    ("u", &["you"]),
    ("ur", &["your"]),
    ("hw", &["how"]),
    ("smth", &["something"]),
    ("sth", &["something"]),
    ("em", &["them"]),
    ("'em", &["them"]),
    // Common misspellings of question words, and "circ" for circular ("wich mods r in a circ import").
    ("wich", &["which"]),
    ("whcih", &["which"]),
    ("wher", &["where"]),
    ("circ", &["circular"]),
];

/// Words before "mod" that make it the noun "module": "which mod", "a mod".
const BEFORE_MOD: &[&str] = &["what", "which", "a", "the", "each", "every", "any", "one", "that", "this", "whose"];

/// The words of `question`, in order.
pub fn words(question: &str) -> Vec<Word> {
    let mut out = split_words(question);
    for word in &mut out {
        let rest = question.get(word.end..).unwrap_or_default();
        word.question_after = rest.trim_start_matches(|c: char| "`\"')]".contains(c)).starts_with('?');
    }
    super::command::arrange(question, out)
}

fn split_words(question: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let bytes = question.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let c = question[at..].chars().next().unwrap_or(' ');
        if c.is_whitespace() {
            at += c.len_utf8();
            continue;
        }
        // A backticked span is one code word, spaces and all.
        if c == '`' {
            let body_start = at + 1;
            let close = question[body_start..].find('`').map(|i| body_start + i);
            let end = close.unwrap_or(question.len());
            // `def round_money`, `class Cart`: the name.
            let body = question[body_start..end].trim();
            let text = body
                .strip_prefix("def ")
                .or_else(|| body.strip_prefix("class "))
                .or_else(|| body.strip_prefix("async def "))
                .unwrap_or(body)
                .trim_end_matches("()")
                .to_string();
            let mut next = close.map_or(end, |c| c + 1);
            let mut possessive = false;
            for suffix in ["'s", "’s"] {
                if question[next..].starts_with(suffix) {
                    next += suffix.len();
                    possessive = true;
                }
            }
            if !text.is_empty() {
                let boundary_after = boundary_follows(question, next);
                let comma_after = comma_follows(question, next);
                let lower = text.to_lowercase();
                out.push(Word {
                    lower,
                    text,
                    start: at,
                    end: next,
                    code: true,
                    boundary_after,
                    comma_after,
                    question_after: false,
                    possessive,
                });
            }
            at = next;
            continue;
        }
        let end = question[at..].find(|c: char| c.is_whitespace() || c == '`').map_or(question.len(), |i| at + i);
        // Chat's arrow between two names ("trace imports A -> B"): from the one to the other.
        if ["->", "-->", "→", "⟶", "=>"].contains(&&question[at..end]) {
            // Read as "to", written as the arrow: an arrow also marks the name before it as the start.
            out.push(Word { text: question[at..end].to_string(), ..plain("to", at, end, false) });
        } else {
            push_token(&mut out, question, at, end);
        }
        at = end;
    }
    out
}

/// A contraction as chat writes it without its apostrophe (`dont`, `isnt`, `whats`): only the
/// negations and the "'s" of question words, which spell no other word (`lets`, `id`, `im` do).
fn unmarked(contraction: &str) -> Option<String> {
    let negation_or_is = contraction.ends_with("n't") || (contraction.ends_with("'s") && contraction != "let's");
    negation_or_is.then(|| contraction.replace('\'', ""))
}

fn boundary_follows(question: &str, at: usize) -> bool {
    question[at..].trim_start().starts_with([';', '?', ':', '!', '.'])
}

fn comma_follows(question: &str, at: usize) -> bool {
    question[at..].trim_start().starts_with(',')
}

/// Splits a whitespace-delimited token into words.
fn push_token(out: &mut Vec<Word>, question: &str, start: usize, end: usize) {
    let raw = &question[start..end];
    let trimmed_start = raw.len() - raw.trim_start_matches(is_wrapping).len();
    let inner = raw.trim_matches(is_wrapping);
    let abbreviation =
        ["i.e.", "e.g.", "etc.", "vs."].iter().any(|a| raw.to_lowercase().trim_start_matches('(').starts_with(a));
    let boundary_after = raw.ends_with([';', '?', ':', '!', '.']) && !raw.ends_with("...") && !abbreviation;
    let comma_after = raw.ends_with(',');
    if inner.is_empty() {
        if let Some(last) = out.last_mut() {
            last.boundary_after |= boundary_after;
            last.comma_after |= comma_after;
        }
        return;
    }
    // "/count-importers X": a command's words, not a path (`command.rs`).
    if out.is_empty()
        && let Some(command) = super::command::name(raw)
    {
        out.extend(command.split('-').filter(|p| !p.is_empty()).map(|p| plain(p, start, end, false)));
        return;
    }
    let start = start + trimmed_start;
    let inner = inner.replace(['’', '‘'], "'");
    let lower = inner.to_lowercase();
    // "which mod imports X": the noun, after a determiner.
    let noun_mod = lower == "mod" && out.last().is_some_and(|w| BEFORE_MOD.contains(&w.lower.as_str()));
    let expansion = if noun_mod {
        Some(&["module"][..])
    } else {
        EXPANSIONS.iter().find(|(c, _)| *c == lower || unmarked(c).as_deref() == Some(lower.as_str())).map(|(_, p)| *p)
    };
    if let Some(parts) = expansion {
        let count = parts.len();
        for (i, part) in parts.iter().enumerate() {
            let mut word = plain(part, start, start + inner.len(), boundary_after && i + 1 == count);
            word.comma_after = comma_after && i + 1 == count;
            out.push(word);
        }
        return;
    }
    // Possessive: `flask.app's imports`.
    let stripped = inner.strip_suffix("'s").or_else(|| inner.strip_suffix("'"));
    let possessive = stripped.is_some();
    let text = stripped.unwrap_or(&inner).replace("(s)", "s");
    // `route()`: written as a call, so a name.
    let called = raw.contains("()") && text.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '(' | ')'));
    let text = text.strip_suffix("()").unwrap_or(&text).to_string();
    // "yes/no", "and/or", "y/n": English, not a path.
    let english_pair = text.eq_ignore_ascii_case("y/n")
        || text.split_once('/').is_some_and(|(a, b)| {
            let words = ["yes", "no", "and", "or", "true", "false", "import", "export", "imports", "exports"];
            words.contains(&a.to_lowercase().as_str()) && words.contains(&b.to_lowercase().as_str())
        });
    if let Some(folder) = test_folder(&text) {
        let mut word = plain(folder, start, start + text.len(), boundary_after);
        word.comma_after = comma_after;
        out.push(word);
        return;
    }
    if (is_code(&text) || called) && !english_pair {
        let lower = text.to_lowercase();
        out.push(Word {
            end: start + text.len(),
            text,
            lower,
            start,
            code: true,
            boundary_after,
            comma_after,
            question_after: false,
            possessive,
        });
        return;
    }
    let mut english = plain(&text, start, start + text.len(), boundary_after);
    english.possessive = possessive;
    english.comma_after = comma_after;
    push_english(out, english);
}

/// English: `type-checking`, `depended-on`, `run-time` are two words; so are "top5" and "first3", a
/// count glued to the word that ranks. The last piece takes the token's punctuation and possessive.
fn push_english(out: &mut Vec<Word>, token: Word) {
    let pieces: Vec<&str> =
        token.text.split(['-', '/', '+']).filter(|p| !p.is_empty()).flat_map(glued_count).flatten().collect();
    let count = pieces.len();
    for (i, piece) in pieces.into_iter().enumerate() {
        let last = i + 1 == count;
        let mut word = plain(piece, token.start, token.end, token.boundary_after && last);
        word.possessive = token.possessive && last;
        word.comma_after = token.comma_after && last;
        out.push(word);
    }
}

/// "top5" → "top", "5": a ranking word with its count glued on; any other piece whole.
fn glued_count(piece: &str) -> [Option<&str>; 2] {
    let digits = piece.len() - piece.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (word, count) = piece.split_at(piece.len() - digits);
    if digits > 0 && ["top", "first", "last"].contains(&word.to_lowercase().as_str()) {
        [Some(word), Some(count)]
    } else {
        [Some(piece), None]
    }
}

/// "tests/", "/tests", "tests/**": a test folder (the one list of them, `graph_view::TEST_FOLDERS`)
/// written as a path is the word for the tests.
fn test_folder(text: &str) -> Option<&str> {
    let folder = text.trim_matches(['/', '*']);
    (text.contains('/') && TEST_FOLDERS.contains(&folder.to_lowercase().as_str())).then_some(folder)
}

fn plain(text: &str, start: usize, end: usize, boundary_after: bool) -> Word {
    // "users of both A & B": the ampersand is the conjunction it stands for.
    let lower = if text == "&" { "and".to_string() } else { text.to_lowercase() };
    Word {
        text: text.to_string(),
        lower,
        start,
        end,
        code: false,
        boundary_after,
        comma_after: false,
        question_after: false,
        possessive: false,
    }
}

fn is_wrapping(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | '(' | ')' | '[' | ']' | '{' | '}' | '<' | '>' | '?' | '!' | ',' | ';' | ':' | '*' | '“' | '”'
    ) || c == '.'
}

/// Python's own exception and warning classes (`builtins` of Python 3.12): a question that names one
/// the repository does not define ("keeps causing ImportErrors") says what went wrong, not which code.
#[rustfmt::skip]
const PYTHON_EXCEPTIONS: &[&str] = &[
    "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup", "BlockingIOError",
    "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError", "ConnectionAbortedError",
    "ConnectionError", "ConnectionRefusedError", "ConnectionResetError", "DeprecationWarning", "EOFError",
    "EncodingWarning", "EnvironmentError", "Exception", "ExceptionGroup", "FileExistsError", "FileNotFoundError",
    "FloatingPointError", "FutureWarning", "GeneratorExit", "IOError", "ImportError", "ImportWarning",
    "IndentationError", "IndexError", "InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt",
    "LookupError", "MemoryError", "ModuleNotFoundError", "NameError", "NotADirectoryError", "NotImplementedError",
    "OSError", "OverflowError", "PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
    "RecursionError", "ReferenceError", "ResourceWarning", "RuntimeError", "RuntimeWarning", "StopAsyncIteration",
    "StopIteration", "SyntaxError", "SyntaxWarning", "SystemError", "SystemExit", "TabError", "TimeoutError",
    "TypeError", "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError", "UnicodeError",
    "UnicodeTranslateError", "UnicodeWarning", "UserWarning", "ValueError", "Warning", "ZeroDivisionError",
];

/// `ImportError`, `ImportErrors`: one of Python's own exception or warning classes.
pub fn python_exception(name: &str) -> bool {
    PYTHON_EXCEPTIONS.binary_search(&name).is_ok()
        || name.strip_suffix('s').is_some_and(|one| PYTHON_EXCEPTIONS.binary_search(&one).is_ok())
}

/// `3`, `three`, `ten`...: a small count written as digits or a word.
pub fn number(word: &str) -> Option<usize> {
    const NAMED: &[&str] =
        &["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
    word.parse().ok().or_else(|| NAMED.iter().position(|n| *n == word)).or(match word {
        "fifteen" => Some(15),
        "twenty" => Some(20),
        "dozen" => Some(12),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(question: &str) -> Vec<(String, bool)> {
        words(question).into_iter().map(|w| (w.lower, w.code)).collect()
    }

    #[test]
    fn code_words_stay_whole_and_english_splits() {
        let got = texts("What's `flask/app.py`'s type-checking importer of src/a/b.py, url_for and Model.save()?");
        let expected = [
            ("what", false),
            ("is", false),
            ("flask/app.py", true),
            ("type", false),
            ("checking", false),
            ("importer", false),
            ("of", false),
            ("src/a/b.py", true),
            ("url_for", true),
            ("and", false),
            ("model.save", true),
        ];
        let expected: Vec<(String, bool)> = expected.iter().map(|(w, c)| (w.to_string(), *c)).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn contractions_possessives_and_boundaries() {
        let words = words("Doesn't flask.app's loader, import x?");
        let lower: Vec<&str> = words.iter().map(|w| w.lower.as_str()).collect();
        assert_eq!(lower, ["does", "not", "flask.app", "loader", "import", "x"]);
        let both = super::words("users of both a & b");
        assert_eq!(both.iter().map(|w| w.lower.as_str()).collect::<Vec<_>>(), ["users", "of", "both", "a", "and", "b"]);
        let chat = super::words("wat mods r imported by mod, and which mod imports u");
        let lower: Vec<&str> = chat.iter().map(|w| w.lower.as_str()).collect();
        assert_eq!(
            lower,
            ["what", "modules", "are", "imported", "by", "mod", "and", "which", "module", "imports", "you"]
        );
        assert!(words[3].comma_after && words[5].boundary_after && !words[4].boundary_after);
    }

    #[test]
    fn numbers() {
        assert_eq!(number("five"), Some(5));
        assert_eq!(number("12"), Some(12));
        assert_eq!(number("many"), None);
        assert!(python_exception("ImportErrors") && python_exception("KeyError") && !python_exception("Errors"));
        assert!(PYTHON_EXCEPTIONS.windows(2).all(|w| w[0] < w[1]), "sorted, for the binary search");
        let lower: Vec<String> = words("top5 by importers, py3").into_iter().map(|w| w.lower).collect();
        assert_eq!(lower, ["top", "5", "by", "importers", "py3"]);
    }
}
