//! The metrics, as pure functions over ids, sets and numbers, following RAGAS: RAGAS's formulas where
//! RAGAS defines one, and their offline equivalents for a module graph. `None` is RAGAS's NaN (the
//! metric does not apply); callers count NaNs instead of dropping them silently.

use std::collections::BTreeSet;

/// Share of the expected modules found among the retrieved ones. NaN without expected modules.
pub fn context_recall(expected: &[String], retrieved: &[String]) -> Option<f64> {
    let expected: BTreeSet<&String> = expected.iter().collect();
    if expected.is_empty() {
        return None;
    }
    let retrieved: BTreeSet<&String> = retrieved.iter().collect();
    Some(expected.intersection(&retrieved).count() as f64 / expected.len() as f64)
}

/// RAGAS context precision: Σ_k P@k · v_k / (Σ_k v_k + 1e-10) over the ranked context (`relevant[k]`
/// is v_k). It only looks at relevant chunks that were retrieved. NaN for an empty context.
pub fn ragas_context_precision(relevant: &[bool]) -> Option<f64> {
    if relevant.is_empty() {
        return None;
    }
    let (hits, numerator) = precision_sum(relevant);
    Some(numerator / (hits as f64 + 1e-10))
}

/// The number of relevant items and Σ_k P@k · v_k, shared by RAGAS's precision and AP.
fn precision_sum(relevant: &[bool]) -> (usize, f64) {
    let (mut hits, mut numerator) = (0usize, 0.0);
    for (k, &is_relevant) in relevant.iter().enumerate() {
        if is_relevant {
            hits += 1;
            numerator += hits as f64 / (k + 1) as f64;
        }
    }
    (hits, numerator)
}

/// Plain average precision: like RAGAS's, but divided by every relevant item, retrieved or not.
pub fn average_precision(relevant: &[bool], n_relevant: usize) -> Option<f64> {
    if n_relevant == 0 {
        return None;
    }
    Some(precision_sum(relevant).1 / n_relevant as f64)
}

/// Reciprocal rank of the first relevant item (0 when none). NaN for an empty context.
pub fn reciprocal_rank(relevant: &[bool]) -> Option<f64> {
    if relevant.is_empty() {
        return None;
    }
    Some(relevant.iter().position(|&r| r).map_or(0.0, |k| 1.0 / (k + 1) as f64))
}

/// F1 of two sets; 1 when both are empty (RAGAS's convention for empty statement lists).
pub fn set_f1(predicted: &[String], expected: &[String]) -> f64 {
    let predicted: BTreeSet<&String> = predicted.iter().collect();
    let expected: BTreeSet<&String> = expected.iter().collect();
    if predicted.is_empty() && expected.is_empty() {
        return 1.0;
    }
    let true_positives = predicted.intersection(&expected).count() as f64;
    if true_positives == 0.0 {
        return 0.0;
    }
    let precision = true_positives / predicted.len() as f64;
    let recall = true_positives / expected.len() as f64;
    2.0 * precision * recall / (precision + recall)
}

/// Share of `supported` among `claims`; NaN when there are no claims (RAGAS faithfulness with no
/// statements).
pub fn supported_share(n_supported: usize, n_claims: usize) -> Option<f64> {
    (n_claims > 0).then(|| n_supported as f64 / n_claims as f64)
}

/// Overlap of a ranking's top k with the expected top k, where modules tied with the k-th place also
/// count (`ties` are groups of equal score): |answer's top k ∩ allowed| / k.
pub fn ranking_overlap(answer: &[String], expected: &[String], k: usize, ties: &[Vec<String>]) -> Option<f64> {
    if k == 0 || expected.is_empty() {
        return None;
    }
    let mut allowed: BTreeSet<&String> = expected.iter().take(k).collect();
    for group in ties {
        if group.iter().any(|module| allowed.contains(module)) {
            allowed.extend(group.iter());
        }
    }
    let mut seen = BTreeSet::new();
    let top: Vec<&String> = answer.iter().filter(|m| seen.insert(*m)).take(k).collect();
    Some(top.iter().filter(|m| allowed.contains(*m)).count() as f64 / k as f64)
}

/// Exact match of a number: does the answer state `expected` (as a whole number in its text)?
/// Whether the answer's count is `expected`: the first number it states, not any number anywhere in
/// it (a line number or a second count must not pass as the answer).
pub fn states_number(answer: &str, expected: f64) -> bool {
    numbers_in(answer).first().is_some_and(|n| (n - expected).abs() < 1e-9)
}

pub fn numbers_in(text: &str) -> Vec<f64> {
    let mut numbers = Vec::new();
    let mut current = String::new();
    // Numbers glued to identifiers (`py3`, `L12-L20`) are not statements of a count.
    let mut previous = ' ';
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit()
            && (current.is_empty() && !previous.is_alphanumeric() && previous != '_' || !current.is_empty())
        {
            current.push(c);
        } else if !current.is_empty() {
            if !c.is_alphabetic() && c != '_' {
                numbers.push(current.parse().unwrap_or(f64::NAN));
            }
            current.clear();
        }
        previous = c;
    }
    numbers
}

/// The yes/no an answer gives: an explicit first word, else a negation in its first sentence.
pub fn yes_no_of(answer: &str) -> Option<bool> {
    let lower = answer.trim().to_lowercase();
    if lower.is_empty() {
        return None;
    }
    let first_word: String = lower.chars().take_while(|c| c.is_alphabetic()).collect();
    match first_word.as_str() {
        "yes" => return Some(true),
        "no" => return Some(false),
        _ => {}
    }
    // A sentence ends at a full stop followed by a space (not at `app.py`).
    let first_sentence = lower.split(". ").next().unwrap_or("").split('\n').next().unwrap_or("");
    let negated = first_sentence
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .any(|word| matches!(word, "not" | "no" | "none" | "never" | "nothing") || word.ends_with("n't"));
    Some(!negated)
}

/// Offline answer relevancy: half for naming the question's subject, half for answering its type; 0 for
/// a noncommittal answer (RAGAS multiplies by 0 when the answer is "I don't know").
pub fn answer_relevancy(names_subject: bool, answers_type: bool, noncommittal: bool) -> f64 {
    if noncommittal {
        return 0.0;
    }
    0.5 * f64::from(u8::from(names_subject)) + 0.5 * f64::from(u8::from(answers_type))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-6)
    }

    #[test]
    fn context_recall_counts_expected_modules_found() {
        assert!(close(context_recall(&ids(&["a", "b", "c", "d"]), &ids(&["b", "x", "d", "b"])), 0.5));
        assert_eq!(context_recall(&[], &ids(&["a"])), None, "no reference: NaN");
        assert!(close(context_recall(&ids(&["a"]), &[]), 0.0), "nothing relevant retrieved");
    }

    #[test]
    fn ragas_precision_only_sees_retrieved_relevant_chunks() {
        // v = [1, 0, 1]: (1/1 + 2/3) / 2 = 0.8333.
        assert!(close(ragas_context_precision(&[true, false, true]), (1.0 + 2.0 / 3.0) / 2.0));
        // One hit at rank 1 scores ~1 even if four more relevant chunks were missed ...
        assert!(close(ragas_context_precision(&[true, false, false]), 1.0));
        // ... which plain average precision does not hide: 1 / 5.
        assert!(close(average_precision(&[true, false, false], 5), 0.2));
        // No relevant chunk retrieved: 0, not NaN (0 / 1e-10).
        assert!(close(ragas_context_precision(&[false, false]), 0.0));
        assert_eq!(ragas_context_precision(&[]), None);
        assert!(close(average_precision(&[false, true], 1), 0.5));
        assert_eq!(average_precision(&[true], 0), None);
        assert!(close(reciprocal_rank(&[false, false, true]), 1.0 / 3.0));
        assert!(close(reciprocal_rank(&[false]), 0.0));
    }

    #[test]
    fn f1_and_faithfulness_edge_cases() {
        assert!((set_f1(&ids(&["a", "b"]), &ids(&["b", "c", "d"])) - 0.4).abs() < 1e-9); // P 1/2, R 1/3
        assert_eq!(set_f1(&[], &[]), 1.0, "both empty: 1, as RAGAS");
        assert_eq!(set_f1(&ids(&["a"]), &[]), 0.0);
        assert_eq!(supported_share(0, 0), None, "no statements: NaN");
        assert_eq!(supported_share(3, 4), Some(0.75));
    }

    #[test]
    fn rankings_accept_ties_at_the_boundary() {
        let expected = ids(&["a", "b", "c"]);
        let ties = vec![ids(&["c", "d"])];
        assert!(close(ranking_overlap(&ids(&["a", "d", "b"]), &expected, 3, &ties), 1.0));
        assert!(close(ranking_overlap(&ids(&["a", "x", "a", "y"]), &expected, 3, &[]), 1.0 / 3.0));
        assert_eq!(ranking_overlap(&[], &[], 3, &[]), None);
    }

    #[test]
    fn numbers_and_yes_no_are_read_from_the_text() {
        assert!(states_number("The largest cycle has 20 modules.", 20.0));
        assert!(!states_number("see lines L120-L200 of py3k", 120.0));
        // The count is the first number stated, not any number in the text.
        assert!(!states_number("3 modules import it; 12 depend on it", 12.0));
        assert_eq!(numbers_in("3 cycles, largest 20; `a.py` (lines 4-9)"), vec![3.0, 20.0, 4.0, 9.0]);
        assert_eq!(yes_no_of("Yes: it is in a cycle of 3."), Some(true));
        assert_eq!(yes_no_of("`flask/app.py` is not part of any import cycle."), Some(false));
        assert_eq!(yes_no_of("`a.py` is in a cycle of 4 modules: ..."), Some(true));
        assert_eq!(yes_no_of("Nothing in the repository depends on it."), Some(false));
        assert_eq!(yes_no_of(""), None);
    }

    #[test]
    fn relevancy_penalises_noncommittal_answers() {
        assert_eq!(answer_relevancy(true, true, false), 1.0);
        assert_eq!(answer_relevancy(true, false, false), 0.5);
        assert_eq!(answer_relevancy(true, true, true), 0.0, "all noncommittal: 0");
    }
}
