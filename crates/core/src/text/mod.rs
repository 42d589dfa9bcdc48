//! The one text layer: how every part of strata turns text into words. Questions, code, paths and
//! chunk texts are all split here (`words`), stop words and stemming are decided here (the Snowball
//! English stemmer, the same algorithm LanceDB's full-text index stems with), and so is whether a
//! token is written as code (`names`), and whether a word is English at all (`english`). Search,
//! answers, the bot and the eval use these functions and no other splitter, stop-word list or
//! stemmer, so they agree on what a word is.
//!
//! Pure and allocation-light; no I/O.

mod english;
mod names;
mod words;

pub use english::{DICTIONARY_LENGTHS, is_dictionary_word};
pub use names::{CodeName, NameShape, code_names, is_code, written_as_names};
pub use words::{
    content_terms, glued_names, is_content_word, is_discourse, is_stop_word, is_versioned, question_terms, split_words,
    stem, versioned_names,
};
