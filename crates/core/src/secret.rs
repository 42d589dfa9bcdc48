//! A secret value (the GitHub token, an API key). Its `Debug` never shows it, so a settings struct that
//! holds one can derive `Debug` and be logged or printed in a panic message without leaking it; the
//! value is read only where it is sent, through [`Secret::expose`].

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    /// The value, for the one place that sends it (an `Authorization` header) or redacts it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() { "Secret(empty)" } else { "Secret([redacted])" })
    }
}

impl FromStr for Secret {
    type Err = std::convert::Infallible;

    fn from_str(value: &str) -> Result<Secret, Self::Err> {
        Ok(Secret::new(value))
    }
}

#[cfg(test)]
mod tests {
    use super::Secret;

    #[test]
    fn debug_output_never_shows_the_value() {
        let secret = Secret::new("ghp_abcdefghijklmnopqrstuvwxyz0123");
        assert_eq!(format!("{secret:?}"), "Secret([redacted])");
        assert_eq!(format!("{:?}", Some(secret.clone())), "Some(Secret([redacted]))");
        assert_eq!(secret.expose(), "ghp_abcdefghijklmnopqrstuvwxyz0123");
    }
}
