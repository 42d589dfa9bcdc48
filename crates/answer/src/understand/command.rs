//! The command form of a question: `/importers shop.models --runtime`, `/path A B`, `/count-cycles`.
//! A question written as a bot or shell command names what it asks in its command word and gives the
//! modules as arguments, with `--flags` for the modifiers. It is read as the English it abbreviates:
//! the command's hyphenated words and a flag's words as plain words (`words.rs`), and the arguments
//! taken as names and placed where English puts them (`arrange`): after "of" for one argument ("importers of X", "imports
//! of X": a command names what it returns, so `/imports X` is X's imports), around a verb for two
//! ("A depends B" from `/depends A B`), and asked yes or no when the command ends with a question
//! mark ("is X imported?" from `/imported? X`). Commands that need no arrangement (`/path A B`,
//! `/where Cart`, `/most-imported --top 3`) read as written.

use super::lexicon::{self, Cue};
use super::words::Word;

/// Words after which an argument is no "of" object ("/where Cart", "/defined-in Cart").
const NO_OF_AFTER: &[&str] = &["where", "what", "which", "who", "how", "in", "of", "by", "from", "to", "on", "for"];

/// The command word of a token such as `/importers`, `/count-cycles` or `/imported?`, without its
/// slash and question mark: letters and inner hyphens only, so a path (`/src/app.py`) is none.
pub(super) fn name(token: &str) -> Option<&str> {
    let body = token.strip_prefix('/')?.trim_end_matches('?');
    let letters = body.chars().all(|c| c.is_ascii_alphabetic() || c == '-');
    (letters && body.starts_with(|c: char| c.is_ascii_alphabetic())).then_some(body)
}

/// Whether `question` is written as a command.
pub(super) fn is_command(question: &str) -> bool {
    question.split_whitespace().next().and_then(name).is_some()
}

/// `words` of a command question with its arguments placed as English places them; any other
/// question's words unchanged.
pub(super) fn arrange(question: &str, words: Vec<Word>) -> Vec<Word> {
    let Some(token) = question.split_whitespace().next() else {
        return words;
    };
    let Some(command) = name(token) else {
        return words;
    };
    let size = command.split('-').filter(|p| !p.is_empty()).count().min(words.len());
    let is_flag = |w: &Word| question.get(w.start..).is_some_and(|rest| rest.starts_with("--"));
    let arguments = words[size..].iter().take_while(|w| !is_flag(w)).count();
    // A command's arguments are names, however plain the word ("/path shop.api models").
    let mut words = words;
    for word in &mut words[size..size + arguments] {
        word.code = true;
    }
    let (head, rest) = words.split_at(size);
    let (arguments, flags) = rest.split_at(arguments);
    let verb = lexicon::cues(head).iter().any(|h| matches!(h.cue, Cue::Verb(_) | Cue::Passive(_)));
    let mut out: Vec<Word> = match arguments {
        // "/imported? X": "is X imported?"
        [one] if token.ends_with('?') => {
            let is = Word { text: "is".into(), lower: "is".into(), end: one.start, code: false, ..one.clone() };
            [is, one.clone()].into_iter().chain(head.iter().cloned()).chain(flags.iter().cloned()).collect()
        }
        [one] if head.last().is_some_and(|w| !NO_OF_AFTER.contains(&w.lower.as_str())) => {
            let of = Word { text: "of".into(), lower: "of".into(), end: one.start, code: false, ..one.clone() };
            head.iter().cloned().chain([of, one.clone()]).chain(flags.iter().cloned()).collect()
        }
        // "/depends A B": "A depends B".
        [first, second] if verb => [first].into_iter().chain(head).chain([second]).chain(flags).cloned().collect(),
        _ => words.clone(),
    };
    if token.ends_with('?')
        && let Some(last) = out.last_mut()
    {
        last.question_after = true;
        last.boundary_after = true;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::words::words;

    fn read(question: &str) -> String {
        words(question).iter().map(|w| w.lower.as_str()).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn arguments_go_where_english_puts_them() {
        assert_eq!(read("/imports shop.models"), "imports of shop.models");
        assert_eq!(read("/count-importers `shop/utils.py`"), "count importers of shop/utils.py");
        assert_eq!(read("/dependents shop.models --runtime"), "dependents of shop.models runtime");
        assert_eq!(read("/depends shop.api shop.models"), "shop.api depends shop.models");
        assert_eq!(read("/imported? shop/api.py"), "is shop/api.py imported");
        assert!(words("/imported? shop/api.py").last().is_some_and(|w| w.question_after));
        assert_eq!(read("/path shop.api shop.models"), "path shop.api shop.models");
        assert_eq!(read("/where Cart"), "where cart");
        assert_eq!(read("/most-imported --top 3"), "most imported top 3");
    }

    #[test]
    fn a_path_or_prose_is_no_command() {
        assert_eq!(read("/src/app.py imports what?"), "/src/app.py imports what");
        assert_eq!(read("what imports shop.models?"), "what imports shop.models");
        assert!(!super::is_command("src/app.py"));
        assert!(super::is_command("/in-cycle shop.cart"));
    }
}
