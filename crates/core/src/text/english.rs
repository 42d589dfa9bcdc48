//! Whether a word is an English word: a dictionary lookup, so that a reader may tell a typo ("cyle",
//! "mnay") from a word it does not know ("must", "core"). The dictionary is `english-words.txt`: the
//! words of 4 to 16 letters of the `word-list` npm package (MIT; see `english-words.LICENSE`), one a
//! line, sorted bytewise, searched in place by bisection (no allocation, nothing parsed at start).

use std::cmp::Ordering;

const WORDS: &str = include_str!("english-words.txt");

/// The shortest and longest words the dictionary holds: a shorter or longer word is never looked up.
pub const DICTIONARY_LENGTHS: std::ops::RangeInclusive<usize> = 4..=16;

/// Whether `word` (lower-case) is in the dictionary. Words outside [`DICTIONARY_LENGTHS`] are not.
pub fn is_dictionary_word(word: &str) -> bool {
    let bytes = WORDS.as_bytes();
    let (mut lo, mut hi) = (0, bytes.len());
    // `lo` is always at the start of a line, and the word, if there, starts in `lo..hi`.
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let start = bytes[lo..mid].iter().rposition(|&b| b == b'\n').map_or(lo, |p| lo + p + 1);
        let end = bytes[start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |p| start + p);
        match bytes[start..end].cmp(word.as_bytes()) {
            Ordering::Equal => return true,
            Ordering::Less => lo = end + 1,
            Ordering::Greater => hi = start,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dictionary_is_sorted_lower_case_words_of_its_lengths() {
        let lines: Vec<&str> = WORDS.lines().collect();
        assert!(lines.len() > 200_000, "{} words", lines.len());
        for pair in lines.windows(2) {
            assert!(pair[0].as_bytes() < pair[1].as_bytes(), "not sorted: {pair:?}");
        }
        for word in &lines {
            assert!(
                DICTIONARY_LENGTHS.contains(&word.len()) && word.bytes().all(|b| b.is_ascii_lowercase()),
                "{word:?}"
            );
        }
    }

    #[test]
    fn every_word_is_found_and_typos_are_not() {
        // Every word, including the first and the last, is found by the bisection.
        assert!(WORDS.lines().all(is_dictionary_word));
        for typo in ["cyle", "mnay", "evrything", "improts", "direclty", "aaaa", "zzzzzzz", ""] {
            assert!(!is_dictionary_word(typo), "{typo}");
        }
        for word in ["cycle", "many", "everything", "imports", "directly", "must"] {
            assert!(is_dictionary_word(word), "{word}");
        }
    }
}
