//! Keeps `schemas/pviz-bundle.schema.json` equal to the schema derived from the bundle types, so the
//! committed contract cannot drift from what strata writes. Run with `STRATA_UPDATE_SCHEMA=1` to
//! rewrite the file after an intended change (and bump `BUNDLE_SCHEMA_VERSION` if it is incompatible).

use super::{Bundle, to_canonical_json};

const SCHEMA_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../schemas/pviz-bundle.schema.json");

#[test]
fn committed_schema_matches_the_bundle_types() {
    let mut schema = serde_json::to_value(schemars::schema_for!(Bundle)).unwrap();
    schema["$id"] = "https://strata.invalid/schemas/pviz-bundle.schema.json".into();
    schema["title"] = "strata PViz bundle (bundle.json)".into();
    let generated = to_canonical_json(&schema, true).unwrap();
    if std::env::var_os("STRATA_UPDATE_SCHEMA").is_some() {
        std::fs::write(SCHEMA_PATH, &generated).unwrap();
    }
    let committed = std::fs::read(SCHEMA_PATH).unwrap_or_default();
    assert!(
        committed == generated,
        "schemas/pviz-bundle.schema.json is out of date; run `STRATA_UPDATE_SCHEMA=1 cargo test committed_schema` and commit it"
    );
}
