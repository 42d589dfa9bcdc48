//! GitHub, at the edge of the pipeline: the `/ask` bot (`strata bot`) and fetching the latest index
//! artifact (`strata fetch`, used by the index workflow for `--previous`). `event` and `comment` are pure;
//! `client` is the only place that talks HTTP; `artifact` and `unzip` get an index safely; `bot` runs
//! the flow. Conventions, API calls and threats: GITHUB.md.

pub mod artifact;
pub mod bot;
pub mod client;
pub mod comment;
pub mod event;
pub mod unzip;
