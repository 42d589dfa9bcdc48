//! Recognising entry-point decorators (HTTP routes, CLI commands, task queues) from their text.
//!
//! Matching is on the called name only (`app.get`, `router.post`, `click.command`, `shared_task`):
//! strata does not know what `app` is bound to, so it errs towards the conventions of Flask, FastAPI,
//! Starlette, click, typer, celery and dramatiq.

use super::EntryPointKind;

const HTTP_METHODS: &[&str] =
    &["get", "post", "put", "delete", "patch", "head", "options", "trace", "route", "api_route", "websocket"];

/// The entry-point kind a decorator declares, if any. `callee` is the decorator expression without its
/// call arguments (`app.get` for `@app.get("/x")`); `first_arg_is_string` tells whether the call's first
/// argument is a string literal, which is what separates `@app.get("/path")` from `@cache.get`.
pub fn entry_point_kind(callee: &str, is_call: bool, first_arg_is_string: bool) -> Option<EntryPointKind> {
    let (receiver, last) = match callee.rsplit_once('.') {
        Some((receiver, last)) => (Some(receiver), last),
        None => (None, callee),
    };
    if receiver.is_some() && is_call && first_arg_is_string && HTTP_METHODS.contains(&last) {
        return Some(EntryPointKind::HttpRoute);
    }
    match last {
        "command" | "group" if receiver.is_some() => Some(EntryPointKind::CliCommand),
        "shared_task" | "actor" | "periodic_task" => Some(EntryPointKind::Task),
        "task" if receiver.is_some() => Some(EntryPointKind::Task),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_need_a_receiver_a_call_and_a_path() {
        assert_eq!(entry_point_kind("app.get", true, true), Some(EntryPointKind::HttpRoute));
        assert_eq!(entry_point_kind("bp.route", true, true), Some(EntryPointKind::HttpRoute));
        assert_eq!(entry_point_kind("cache.get", true, false), None);
        assert_eq!(entry_point_kind("get", true, true), None);
    }

    #[test]
    fn commands_and_tasks() {
        assert_eq!(entry_point_kind("click.command", true, false), Some(EntryPointKind::CliCommand));
        assert_eq!(entry_point_kind("app.command", false, false), Some(EntryPointKind::CliCommand));
        assert_eq!(entry_point_kind("shared_task", false, false), Some(EntryPointKind::Task));
        assert_eq!(entry_point_kind("celery_app.task", true, false), Some(EntryPointKind::Task));
        assert_eq!(entry_point_kind("dramatiq.actor", false, false), Some(EntryPointKind::Task));
        assert_eq!(entry_point_kind("task", false, false), None);
        assert_eq!(entry_point_kind("property", false, false), None);
    }
}
