//! GitHub, at the edge of the pipeline: the `/ask` bot (`strata bot`) and fetching the latest index
//! artifact (`strata fetch`, used by the index workflow for `--previous`). `event` and `comment` are pure;
//! `client` is the only place that talks HTTP; `artifact` and `unzip` get an index safely; `limits`
//! counts the answers a language model gave; `bot` runs the flow. What the bot does and trusts: the
//! README's "What the bot does"; its invariants: ARCHITECTURE.md.

pub mod artifact;
pub mod bot;
pub mod client;
pub(crate) mod comment;
pub mod event;
pub(crate) mod inert;
pub mod limits;
pub(crate) mod pull;
pub mod unzip;

/// Percent-encodes everything but RFC 3986's unreserved characters: a branch or artifact name in a query
/// string, a path segment in a link.
pub fn percent_encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn query_values_are_escaped() {
        assert_eq!(super::percent_encode("release/1.x"), "release%2F1.x");
        assert_eq!(super::percent_encode("strata-index"), "strata-index");
    }
}
