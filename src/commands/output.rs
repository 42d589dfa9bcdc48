//! Printing for people and for GitHub Actions: workflow-command escaping and log groups.
//!
//! Anything that came from the repository (paths, messages quoting its text) is escaped before it is
//! written as a workflow command, so a file name cannot inject `::` commands into the runner.

/// True when running inside a GitHub Actions job.
pub fn in_github_actions() -> bool {
    std::env::var("GITHUB_ACTIONS").is_ok_and(|value| value == "true")
}

/// GitHub shows at most 10 warning annotations per step; the rest go to the log as plain lines.
pub const MAX_ANNOTATIONS: usize = 10;

/// Escapes an annotation message (`%`, `\r`, `\n`).
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes an annotation property (also `:` and `,`).
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// Text of several lines for the log with every line after the first indented, so that none can start a
/// workflow command (`::`) whatever it quotes, and a person still reads it as lines.
pub fn indent_continuation(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n").replace('\n', "\n  ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_lines_cannot_start_a_workflow_command() {
        let text = indent_continuation("base index /tmp/x\n::error::injected\r::warning::too\r\nend");
        assert_eq!(text, "base index /tmp/x\n  ::error::injected\n  ::warning::too\n  end");
        assert!(!text.lines().skip(1).any(|line| line.starts_with("::")));
    }

    #[test]
    fn workflow_command_text_is_escaped() {
        assert_eq!(escape_data("50%\n::error::x"), "50%25%0A::error::x");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
    }
}
