//! The GitHub REST client: octocrab for transport (authentication, base URI, redirects that drop the
//! token on a cross-origin hop), with strata's own retry rules on top, because octocrab's retry re-sends
//! any request after a 5xx and could post a comment twice:
//!
//! - a rate-limited request (403/429 with `retry-after`, or `x-ratelimit-remaining: 0` and
//!   `x-ratelimit-reset`; a 429 without either waits a minute) is retried, POSTs included: GitHub did
//!   not act on it;
//! - a 403 with neither header whose message says a secondary rate limit was hit waits as GitHub asks
//!   (a minute unless configured) and is retried once; any other 403 is a refusal;
//! - a GET is also retried after a 5xx or a transport error;
//! - a POST is never retried after a 5xx or a transport error: it may have been applied.
//!
//! Every request sends `x-github-api-version`.

use std::time::Duration;

use anyhow::{Context, Result};
use http::{HeaderMap, StatusCode};
use http_body_util::BodyExt;
use octocrab::Octocrab;
use serde::Serialize;
use serde::de::DeserializeOwned;

use strata_core::secret::Secret;

pub const API_VERSION: &str = "2022-11-28";
/// Attempts for a GET that fails with a 5xx or a transport error.
const SERVER_ERROR_ATTEMPTS: u32 = 3;
/// The largest API answer read into memory (artifact downloads go to disk).
const API_BODY_LIMIT: u64 = 256 << 20;
/// Rate-limit waits before giving up.
const RATE_LIMIT_RETRIES: u32 = 2;

/// Where and how to talk to GitHub.
#[derive(Debug, Clone)]
pub struct ClientSettings {
    pub api_url: String,
    pub token: Secret,
    /// The longest rate-limit wait accepted; a longer one fails with a clear error instead.
    pub max_rate_limit_wait: Duration,
    /// The wait after a secondary rate limit that names no time (GitHub asks for at least a minute).
    pub secondary_rate_limit_wait: Duration,
}

pub struct GitHub {
    crab: Octocrab,
    max_rate_limit_wait: Duration,
    secondary_rate_limit_wait: Duration,
}

/// What to do with a response after the rate-limit rules: use it, or wait and send the request again.
enum Step {
    Use(Response),
    Wait(Duration),
}

/// Rate-limit waits so far for one request.
#[derive(Default)]
struct Waits {
    rate_limit: u32,
    secondary: u32,
}

/// A failed request, with what the bot needs to decide what to tell the user.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    #[error("GitHub answered {status} to {method} {route}: {message}")]
    Status { method: &'static str, route: String, status: StatusCode, message: String },
    #[error("the response to GET {route} is larger than the {limit}-byte limit")]
    TooLarge { route: String, limit: u64 },
    #[error("{method} {route} failed: {source:#}")]
    Transport {
        method: &'static str,
        route: String,
        #[source]
        source: anyhow::Error,
    },
}

impl RequestError {
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            RequestError::Status { status, .. } => Some(*status),
            RequestError::Transport { .. } | RequestError::TooLarge { .. } => None,
        }
    }
}

type Response = http::Response<http_body_util::combinators::BoxBody<bytes::Bytes, octocrab::Error>>;

impl GitHub {
    pub fn new(settings: &ClientSettings) -> Result<GitHub> {
        let mut builder = Octocrab::builder()
            .base_uri(settings.api_url.trim_end_matches('/'))
            .context("GITHUB_API_URL is not a valid URL")?
            .add_header(http::header::HeaderName::from_static("x-github-api-version"), API_VERSION.to_string())
            .set_connect_timeout(Some(Duration::from_secs(10)))
            .set_read_timeout(Some(Duration::from_secs(60)));
        if !settings.token.is_empty() {
            builder = builder.personal_token(settings.token.expose().to_string());
        }
        let crab = builder.build().context("cannot build the GitHub client")?;
        Ok(GitHub {
            crab,
            max_rate_limit_wait: settings.max_rate_limit_wait,
            secondary_rate_limit_wait: settings.secondary_rate_limit_wait,
        })
    }

    /// GET `route` (a path under the API URL, with its query) and decode the JSON body.
    pub async fn get_json<T: DeserializeOwned>(&self, route: &str) -> Result<T, RequestError> {
        self.get_json_within(route, API_BODY_LIMIT).await
    }

    /// [`GitHub::get_json`] for an answer of at most `max_bytes`: a larger one is
    /// [`RequestError::TooLarge`], and reading stops there.
    pub async fn get_json_within<T: DeserializeOwned>(&self, route: &str, max_bytes: u64) -> Result<T, RequestError> {
        let response = self.send_get(route).await?;
        let body = read_body(response, max_bytes).await.map_err(|source| too_large_or(route, max_bytes, source))?;
        serde_json::from_slice(&body).map_err(|error| transport("GET", route, error.into()))
    }

    /// POST a JSON body to `route` and decode the JSON answer. Retried only when rate-limited.
    pub async fn post_json<B: Serialize, T: DeserializeOwned>(&self, route: &str, body: &B) -> Result<T, RequestError> {
        let mut waits = Waits::default();
        loop {
            let response = self.crab._post(route, Some(body)).await.map_err(|e| transport("POST", route, e.into()))?;
            let response = match self.rate_limit_step(response, &mut waits, "POST", route).await? {
                Step::Use(response) => response,
                Step::Wait(wait) => {
                    tokio::time::sleep(wait).await;
                    continue;
                }
            };
            let response = check_status(response, "POST", route).await?;
            let body = read_body(response, API_BODY_LIMIT).await.map_err(|source| transport("POST", route, source))?;
            return serde_json::from_slice(&body).map_err(|error| transport("POST", route, error.into()));
        }
    }

    /// GET `route`, following redirects, and write the body to `file`, streamed: at most `max_bytes`
    /// (more is an error). Returns the bytes written.
    pub async fn download_to(
        &self,
        route: &str,
        file: &mut std::fs::File,
        max_bytes: u64,
    ) -> Result<u64, RequestError> {
        let response = self.send_get(route).await?;
        copy_body(response, file, max_bytes).await.map_err(|source| too_large_or(route, max_bytes, source))
    }

    async fn send_get(&self, route: &str) -> Result<Response, RequestError> {
        let (mut server_errors, mut waits) = (0, Waits::default());
        loop {
            let response = match self.crab._get(route).await {
                Ok(response) => response,
                Err(error) => {
                    server_errors += 1;
                    if server_errors < SERVER_ERROR_ATTEMPTS {
                        tokio::time::sleep(backoff(server_errors)).await;
                        continue;
                    }
                    return Err(transport("GET", route, error.into()));
                }
            };
            let response = match self.rate_limit_step(response, &mut waits, "GET", route).await? {
                Step::Use(response) => response,
                Step::Wait(wait) => {
                    tokio::time::sleep(wait).await;
                    continue;
                }
            };
            if response.status().is_server_error() {
                server_errors += 1;
                if server_errors < SERVER_ERROR_ATTEMPTS {
                    tokio::time::sleep(backoff(server_errors)).await;
                    continue;
                }
            }
            return check_status(response, "GET", route).await;
        }
    }

    /// Whether `response` is a rate limit to wait out. A 403 without rate-limit headers is read: GitHub's
    /// secondary limit says so only in its message. Any other 403 is returned as the refusal it is.
    async fn rate_limit_step(
        &self,
        response: Response,
        waits: &mut Waits,
        method: &'static str,
        route: &str,
    ) -> Result<Step, RequestError> {
        if let Some(wait) = self.rate_limit_wait(&response, &mut waits.rate_limit, method, route)? {
            return Ok(Step::Wait(wait));
        }
        if response.status() != StatusCode::FORBIDDEN {
            return Ok(Step::Use(response));
        }
        let refusal = match check_status(response, method, route).await {
            Ok(response) => return Ok(Step::Use(response)),
            Err(error) => error,
        };
        let secondary = matches!(&refusal, RequestError::Status { message, .. }
            if message.to_ascii_lowercase().contains("secondary rate limit"));
        if secondary && waits.secondary == 0 && self.secondary_rate_limit_wait <= self.max_rate_limit_wait {
            waits.secondary += 1;
            return Ok(Step::Wait(self.secondary_rate_limit_wait));
        }
        Err(refusal)
    }

    /// How long to wait before retrying a rate-limited response, or `None` when it was not one.
    fn rate_limit_wait(
        &self,
        response: &Response,
        retries: &mut u32,
        method: &'static str,
        route: &str,
    ) -> Result<Option<Duration>, RequestError> {
        let Some(wait) = rate_limit_wait(response.status(), response.headers(), now_unix()) else {
            return Ok(None);
        };
        *retries += 1;
        let limited = |message: String| RequestError::Status {
            method,
            route: route.to_string(),
            status: response.status(),
            message,
        };
        if *retries > RATE_LIMIT_RETRIES {
            return Err(limited("still rate-limited after waiting; try again later".to_string()));
        }
        if wait > self.max_rate_limit_wait {
            return Err(limited(format!("rate-limited for {}s, longer than strata waits", wait.as_secs())));
        }
        Ok(Some(wait))
    }
}

/// GitHub's documented rate-limit signals: `retry-after` first, then an exhausted quota's reset time;
/// a 429 with neither waits a minute. A 403 with neither is a real refusal, not a rate limit.
pub fn rate_limit_wait(status: StatusCode, headers: &HeaderMap, now_unix: u64) -> Option<Duration> {
    if status != StatusCode::FORBIDDEN && status != StatusCode::TOO_MANY_REQUESTS {
        return None;
    }
    let number = |name: &str| headers.get(name)?.to_str().ok()?.trim().parse::<u64>().ok();
    if let Some(seconds) = number("retry-after") {
        return Some(Duration::from_secs(seconds));
    }
    if number("x-ratelimit-remaining") == Some(0)
        && let Some(reset) = number("x-ratelimit-reset")
    {
        return Some(Duration::from_secs(reset.saturating_sub(now_unix).max(1)));
    }
    (status == StatusCode::TOO_MANY_REQUESTS).then(|| Duration::from_secs(60))
}

fn now_unix() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

fn backoff(attempt: u32) -> Duration {
    Duration::from_millis(250 * 2u64.pow(attempt))
}

/// A GET whose body failed: too large, or a transport error.
fn too_large_or(route: &str, max_bytes: u64, source: anyhow::Error) -> RequestError {
    match source.downcast_ref::<BodyTooLarge>() {
        Some(_) => RequestError::TooLarge { route: route.to_string(), limit: max_bytes },
        None => transport("GET", route, source),
    }
}

fn transport(method: &'static str, route: &str, source: anyhow::Error) -> RequestError {
    RequestError::Transport { method, route: route.to_string(), source }
}

async fn check_status(response: Response, method: &'static str, route: &str) -> Result<Response, RequestError> {
    let status = response.status();
    if status.is_success() {
        return Ok(response);
    }
    // GitHub's error bodies are `{"message": ...}`; keep the message only, short.
    let body = read_body(response, 64 * 1024).await.unwrap_or_default();
    let message = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|value| value.get("message").and_then(|m| m.as_str()).map(str::to_string))
        .unwrap_or_else(|| String::from_utf8_lossy(&body).chars().take(200).collect());
    Err(RequestError::Status { method, route: route.to_string(), status, message })
}

#[derive(Debug, thiserror::Error)]
#[error("the response is larger than the limit")]
struct BodyTooLarge;

/// Reads a body into memory (API answers; an artifact goes to a file with [`copy_body`]).
async fn read_body(response: Response, max_bytes: u64) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    copy_body(response, &mut bytes, max_bytes).await?;
    Ok(bytes)
}

/// Copies a body frame by frame into `out`, failing as soon as it exceeds `max_bytes` (an oversized
/// download stops at the cap instead of filling the disk or memory).
async fn copy_body(response: Response, out: &mut impl std::io::Write, max_bytes: u64) -> Result<u64> {
    let mut body = response.into_body();
    let mut written: u64 = 0;
    while let Some(frame) = body.frame().await {
        let frame = frame.context("the connection failed while reading the response")?;
        if let Some(data) = frame.data_ref() {
            written = written.saturating_add(data.len() as u64);
            if written > max_bytes {
                return Err(BodyTooLarge.into());
            }
            out.write_all(data).context("cannot write the download")?;
        }
    }
    out.flush().context("cannot write the download")?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        pairs.iter().map(|(name, value)| (http::HeaderName::from_static(name), value.parse().unwrap())).collect()
    }

    #[test]
    fn rate_limits_follow_githubs_headers() {
        let wait = |status: u16, pairs: &[(&'static str, &str)]| {
            rate_limit_wait(StatusCode::from_u16(status).unwrap(), &headers(pairs), 1_000)
        };
        assert_eq!(wait(403, &[("retry-after", "7")]), Some(Duration::from_secs(7)));
        assert_eq!(wait(429, &[("retry-after", "2")]), Some(Duration::from_secs(2)));
        let exhausted = [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1030")];
        assert_eq!(wait(403, &exhausted), Some(Duration::from_secs(30)));
        assert_eq!(wait(429, &[]), Some(Duration::from_secs(60)));
        // A plain 403 is a refusal (no permission), not a reason to wait.
        assert_eq!(wait(403, &[("x-ratelimit-remaining", "4999")]), None);
        assert_eq!(wait(500, &[("retry-after", "1")]), None);
        assert_eq!(wait(200, &[]), None);
    }
}
