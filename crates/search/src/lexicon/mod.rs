//! The lexical index (`lexicon.parquet`): for every term, the modules whose fields hold it and how
//! often, so retrieval can score whole modules field by field (BM25F) and the decline decision can
//! ask how rare a word is, without a query per word. Fields: the module's path, the names it defines,
//! its signatures, its prose (docstrings, strings, comments), its other code identifiers, and its
//! identifiers whole. Module `i` is the `i`-th module of the bundle in id order.
//!
//! Written once per run from every file's [`FileTerms`] (an incremental run takes the unchanged files'
//! terms back out of the previous lexicon, see [`Lexicon::file_terms`]), rows sorted by term then
//! field, so the same files give the same bytes. Read whole into memory: a few megabytes for the
//! largest packages, searched by binary search without building a map.

mod source_terms;
mod store;

use std::collections::BTreeMap;

use anyhow::Result;
use arrow_array::{Array, BinaryArray, StringArray, UInt8Array};
use rayon::prelude::*;

pub use source_terms::{FileTerms, file_terms};
pub use store::{LEXICON_FILE, LEXICON_VERSION, parse_lexicon, parse_lexicon_alone, read_lexicon, write_lexicon};

/// The fields of a module, in the order they are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Field {
    /// The words of the module's path.
    Path = 0,
    /// Names after `def` and `class`.
    Names = 1,
    /// Parameters, annotations and defaults of `def` headers.
    Sig = 2,
    /// Docstrings, other strings and comments.
    Doc = 3,
    /// Every other identifier, split into words.
    Code = 4,
    /// Every identifier of three or more characters whole, lowercased (`to_native_string`).
    Ident = 5,
}

pub const FIELDS: usize = 6;
pub const ALL_FIELDS: [Field; FIELDS] = [Field::Path, Field::Names, Field::Sig, Field::Doc, Field::Code, Field::Ident];
/// The fields of words (every field but whole identifiers).
pub const WORD_FIELDS: [Field; 5] = [Field::Path, Field::Names, Field::Sig, Field::Doc, Field::Code];

impl Field {
    fn from_u8(value: u8) -> Option<Field> {
        ALL_FIELDS.get(usize::from(value)).copied()
    }
}

/// The lexical index in memory: rows sorted by (term, field).
#[derive(Debug, Clone)]
pub struct Lexicon {
    n_modules: usize,
    /// Per field, each module's number of terms.
    lengths: [Vec<u32>; FIELDS],
    terms: StringArray,
    fields: UInt8Array,
    postings: BinaryArray,
}

impl Lexicon {
    /// The index of `files`, one per module in module order.
    pub fn build(files: &[FileTerms]) -> Lexicon {
        let mut rows: BTreeMap<(&str, u8), Vec<u8>> = BTreeMap::new();
        let mut last: BTreeMap<(&str, u8), u32> = BTreeMap::new();
        let mut lengths: [Vec<u32>; FIELDS] = Default::default();
        for (module, terms) in files.iter().enumerate() {
            let module = module as u32;
            for field in ALL_FIELDS {
                lengths[field as usize].push(terms.length(field));
                let mut sorted: Vec<(&String, &u32)> = terms.fields[field as usize].iter().collect();
                sorted.sort();
                for (term, count) in sorted {
                    let key = (term.as_str(), field as u8);
                    let previous = last.insert(key, module + 1).unwrap_or(0);
                    let bytes = rows.entry(key).or_default();
                    push_varint(bytes, module + 1 - previous);
                    push_varint(bytes, *count);
                }
            }
        }
        let terms = StringArray::from_iter_values(rows.keys().map(|(term, _)| *term));
        let fields = UInt8Array::from_iter_values(rows.keys().map(|(_, field)| *field));
        let postings = BinaryArray::from_iter_values(rows.values());
        Lexicon { n_modules: files.len(), lengths, terms, fields, postings }
    }

    pub fn n_modules(&self) -> usize {
        self.n_modules
    }

    /// Module `module`'s number of terms in `field`.
    pub fn length(&self, field: Field, module: usize) -> u32 {
        self.lengths[field as usize].get(module).copied().unwrap_or(0)
    }

    /// The mean length of `field` over the modules (at least 1).
    pub fn mean_length(&self, field: Field) -> f32 {
        let lengths = &self.lengths[field as usize];
        let total: u64 = lengths.iter().map(|&l| u64::from(l)).sum();
        (total as f32 / lengths.len().max(1) as f32).max(1.0)
    }

    /// (module, count) of every module whose `field` holds `term`, in module order.
    pub fn postings(&self, term: &str, field: Field) -> Vec<(u32, u32)> {
        let Some(row) = self.row(term, field) else { return Vec::new() };
        decode_postings(self.postings.value(row))
    }

    /// How many modules hold `term` in any word field.
    pub fn document_frequency(&self, term: &str) -> usize {
        let mut modules: Vec<u32> =
            WORD_FIELDS.iter().flat_map(|&field| self.postings(term, field)).map(|(module, _)| module).collect();
        modules.sort_unstable();
        modules.dedup();
        modules.len()
    }

    /// The modules whose code holds the identifier `name` whole (`to_native_string`; any case), in
    /// code or written as code in prose. Shorter than three characters, no identifier is kept.
    pub fn identifier_users(&self, name: &str) -> Vec<u32> {
        self.postings(&name.to_lowercase(), Field::Ident).into_iter().map(|(module, _)| module).collect()
    }

    /// The modules whose identifiers contain `part` (`http2` in `http2_enabled`), each with how often
    /// (a scan of every term: for the rare question term no word field can hold, a name with its number).
    pub fn identifier_users_containing(&self, part: &str) -> BTreeMap<u32, u32> {
        let mut users: BTreeMap<u32, u32> = BTreeMap::new();
        for row in (0..self.terms.len()).filter(|&row| self.fields.value(row) == Field::Ident as u8) {
            if self.terms.value(row).contains(part) {
                for (module, count) in decode_postings(self.postings.value(row)) {
                    *users.entry(module).or_default() += count;
                }
            }
        }
        users
    }

    /// The terms of the index that start with `prefix`, each once, in order.
    pub fn terms_with_prefix(&self, prefix: &str) -> Vec<&str> {
        let (mut low, mut high) = (0, self.terms.len());
        while low < high {
            let middle = (low + high) / 2;
            if self.terms.value(middle) < prefix { low = middle + 1 } else { high = middle }
        }
        let mut found: Vec<&str> = Vec::new();
        for row in low..self.terms.len() {
            let term = self.terms.value(row);
            if !term.starts_with(prefix) {
                break;
            }
            if found.last() != Some(&term) {
                found.push(term);
            }
        }
        found
    }

    /// Every module's terms again (for an incremental run to keep the unchanged ones).
    pub fn file_terms(&self) -> Vec<FileTerms> {
        let mut files = vec![FileTerms::default(); self.n_modules];
        for row in 0..self.terms.len() {
            let Some(field) = Field::from_u8(self.fields.value(row)) else { continue };
            let term = self.terms.value(row);
            for (module, count) in decode_postings(self.postings.value(row)) {
                if let Some(file) = files.get_mut(module as usize) {
                    file.fields[field as usize].insert(term.to_string(), count);
                }
            }
        }
        files
    }

    /// The row of (`term`, `field`), by binary search over the sorted rows.
    fn row(&self, term: &str, field: Field) -> Option<usize> {
        let key = (term, field as u8);
        let (mut low, mut high) = (0, self.terms.len());
        while low < high {
            let middle = (low + high) / 2;
            match (self.terms.value(middle), self.fields.value(middle)).cmp(&key) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Some(middle),
            }
        }
        None
    }
}

/// The lexicon of `module_ids` (in module order): the terms of the modules in `sources` (id → text)
/// computed, the others taken from `previous` (a lexicon with its own module ids). An error names the
/// first module that has neither.
pub fn assemble(
    module_ids: &[&str],
    sources: &BTreeMap<String, String>,
    previous: Option<(&Lexicon, &[&str])>,
) -> Result<Lexicon> {
    let mut kept: BTreeMap<&str, FileTerms> = BTreeMap::new();
    if let Some((lexicon, ids)) = previous {
        let wanted: std::collections::BTreeSet<&str> =
            module_ids.iter().copied().filter(|id| !sources.contains_key(*id)).collect();
        if !wanted.is_empty() {
            for (id, terms) in ids.iter().zip(lexicon.file_terms()) {
                if wanted.contains(id) {
                    kept.insert(id, terms);
                }
            }
        }
    }
    let files: Vec<Result<FileTerms>> = module_ids
        .par_iter()
        .map(|id| match sources.get(*id) {
            Some(source) => Ok(file_terms(id, source)),
            None => kept.get(id).cloned().ok_or_else(|| anyhow::anyhow!("no text and no previous terms for {id}")),
        })
        .collect();
    Ok(Lexicon::build(&files.into_iter().collect::<Result<Vec<_>>>()?))
}

fn push_varint(bytes: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        bytes.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    bytes.push(value as u8);
}

/// The next varint of `bytes` from `at`, or `None` at the end or on a malformed one.
fn read_varint(bytes: &[u8], at: &mut usize) -> Option<u32> {
    let mut value: u32 = 0;
    for shift in (0..35).step_by(7) {
        let byte = *bytes.get(*at)?;
        *at += 1;
        value |= u32::from(byte & 0x7f).checked_shl(shift)?;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

/// Postings as stored: pairs of (module delta, count); a malformed tail is dropped.
fn decode_postings(bytes: &[u8]) -> Vec<(u32, u32)> {
    let mut postings = Vec::new();
    let (mut at, mut module) = (0, 0u32);
    while at < bytes.len() {
        let (Some(delta), Some(count)) = (read_varint(bytes, &mut at), read_varint(bytes, &mut at)) else { break };
        module = module.saturating_add(delta);
        postings.push((module - 1, count));
    }
    postings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lexicon() -> Lexicon {
        let files = [
            file_terms("pkg/sessions.py", "class Session:\n    def send(self, request):\n        '''Send it.'''\n"),
            file_terms("pkg/adapters.py", "def send(request, timeout=None):\n    return request.session\n"),
            file_terms("pkg/empty.py", ""),
        ];
        Lexicon::build(&files)
    }

    #[test]
    fn postings_lengths_and_frequencies() {
        let lexicon = lexicon();
        assert_eq!(lexicon.n_modules(), 3);
        assert_eq!(lexicon.postings("send", Field::Names), [(0, 1), (1, 1)]);
        assert_eq!(lexicon.postings("session", Field::Names), [(0, 1)]);
        assert_eq!(lexicon.postings("session", Field::Code), [(1, 1)]);
        assert_eq!(lexicon.postings("session", Field::Path), [(0, 1)]);
        assert_eq!(lexicon.document_frequency("session"), 2);
        assert_eq!(lexicon.document_frequency("absent"), 0);
        assert_eq!(lexicon.postings("timeout", Field::Sig), [(1, 1)]);
        assert_eq!(lexicon.length(Field::Code, 2), 0);
        assert!(lexicon.mean_length(Field::Path) >= 1.0);
    }

    #[test]
    fn file_terms_come_back_out() {
        let files = [file_terms("a/b.py", "x_y = 1 # note"), file_terms("a/c.py", "def f(q): pass")];
        assert_eq!(Lexicon::build(&files).file_terms(), files);
    }

    #[test]
    fn varints_round_trip_and_bad_bytes_stop() {
        let mut bytes = Vec::new();
        for value in [0, 1, 127, 128, 300, u32::MAX] {
            push_varint(&mut bytes, value);
        }
        let mut at = 0;
        let values: Vec<u32> = std::iter::from_fn(|| read_varint(&bytes, &mut at)).collect();
        assert_eq!(values, [0, 1, 127, 128, 300, u32::MAX]);
        assert!(decode_postings(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff]).is_empty());
    }
}
