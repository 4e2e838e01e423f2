//! `appdeck report` and `appdeck connect`: the payload is checked offline first and is not sent
//! when it is broken (exit 2), so the service only ever sees payloads that make sense. Every send
//! is recorded in the history of the local store, whatever the answer.

use std::io::Write;
use std::time::Instant;

use serde_json::value::RawValue;

use super::args::{AnswerOutput, GlobalArgs, SendArgs};
use super::validate::{describe, finding_line, summary};
use super::{Failure, input};
use crate::api::{Answer, Field, Operation, ReportResponse};
use crate::config;
use crate::json_text;
use crate::sanitize;
use crate::store::{SendKind, Sent, Store};
use crate::validate::{self as checks, PayloadKind, Validation};

/// What a send does besides sending, by kind.
#[derive(Clone, Copy, Debug, Default)]
pub struct Guard {
    /// A connect: send even when it breaks the version last accepted.
    pub allow_breaking: bool,
    /// A report: say what it changed in its resource (`report --diff`).
    pub diff: bool,
}

/// Checks and sends a payload. A connect is first compared with the version of the same app this
/// base URL last accepted (from the local store): its changes are listed, and breaking ones stop
/// the send unless `allow_breaking`. A report with `diff` finds its resource in the listing
/// before and after (see [`super::report_diff`]).
pub async fn run(
    global: &GlobalArgs,
    file: &std::path::Path,
    args: &SendArgs,
    operation: Operation,
    guard: Guard,
) -> Result<(), Failure> {
    let allow_breaking = guard.allow_breaking;
    let jq = super::shape::compile_jq(args.jq.as_deref())?;
    let payload = input::read(file)?;
    let invalid =
        |e: checks::ValidateError| Failure::Invalid(describe(&e, &payload.name, "--types"));
    let value = checks::parse_json(&payload.text).map_err(invalid)?;
    // What is sent, printed for curl and recorded: the file's text, compact (its numbers and
    // strings as written, which the parsed value does not keep: `1E2` would be `1e+2`).
    let body = crate::json_text::body(&payload.text)
        .ok_or_else(|| Failure::Invalid(format!("{}: not JSON", payload.name)))?;
    let mut validation = checks::validate_as(&value, kind_of(operation)).map_err(invalid)?;
    validation.note_duplicate_keys(&payload.text);
    check_kind(&validation.kind, operation, &payload.name)?;
    for finding in &validation.findings {
        eprintln!("appdeck: {}", finding_line(finding));
    }
    if args.curl {
        return print_curl(
            global,
            operation,
            (&value, body.get()),
            &validation,
            &payload.name,
            allow_breaking,
        );
    }
    if validation.has_errors() {
        return Err(Failure::Invalid(format!(
            "{}: not sent ({})",
            payload.name,
            summary(&validation)
        )));
    }

    let configured = super::configured(global)?;
    if let Some(read_only) = &configured.read_only {
        // Checked and, with --curl, printed: only the send itself is a write.
        return Err(Failure::Usage(format!(
            "{read_only}: {} not sent ({} is a write; a read-only profile or --read-only \
             refuses every write)",
            payload.name,
            operation.path()
        )));
    }
    let settings = configured.settings;
    let client = super::client(&settings, global)?;
    // Opened once (and a store that cannot be used said once): the send never depends on it.
    let store = super::open_store();
    if operation == Operation::VersionConnect {
        compare_with_sent(store.as_ref(), &settings.base_url, &value, allow_breaking)?;
    }
    let before = match guard.diff {
        true => super::report_diff::before(&client, &value).await,
        false => None,
    };
    let (sent_at, started) = (chrono::Utc::now(), Instant::now());
    let (http_status, outcome) = client.send_with_status(operation, &body).await;
    let mut recorded = None;
    if let Some(kind) = SendKind::of(operation) {
        let sent = Sent::from_outcome(
            &settings.base_url,
            kind,
            body.get(),
            sent_at,
            http_status,
            Some(started.elapsed()),
            outcome.as_ref(),
        );
        let sent = Sent {
            resource_before: before.as_ref().map(|b| b.text.clone()),
            ..sent
        };
        recorded = record_in_history(store.as_ref(), &sent);
    }
    let answer = outcome?;
    let diff = match (&before, answer.rejection()) {
        (Some(before), None) => Some(super::report_diff::after(&client, before, body.get()).await),
        _ => None,
    };
    // The history then says what --diff prints: against the resource listed again.
    let listed_again = diff
        .as_ref()
        .and_then(super::report_diff::Diff::listed_again);
    if let (Some(store), Some(id), Some(listed)) = (store.as_ref(), recorded, listed_again)
        && let Err(e) = store.set_resource_after(id, listed)
    {
        super::warn(&[format!(
            "the history keeps the report, but not the resource listed again: {e}"
        )]);
    }
    // The spec shows no connect answer: a 2xx with no body is taken as accepted, and said.
    let empty = answer.raw.is_null();
    if empty {
        super::warn(&[format!(
            "the service accepted the connect (HTTP {}) with an empty answer; recorded {}",
            http_status.map_or_else(|| "2xx".to_owned(), |s| s.to_string()),
            app_version(&value)
        )]);
    }
    if let Some(warning) = answer.unclear_status(operation) {
        let warning = match operation {
            Operation::VersionConnect => format!("{warning}; recorded {}", app_version(&value)),
            _ => warning,
        };
        super::warn(&[warning]);
    }
    if operation == Operation::VersionConnect && answer.rejection().is_none() {
        let answer = (!empty).then_some(answer.text.as_str());
        record_connect(store.as_ref(), &settings.base_url, body.get(), answer);
    }
    let mut out = crate::cli::stdout::out();
    match args.output {
        // An empty answer is printed as what it was: nothing.
        AnswerOutput::Json | AnswerOutput::Ndjson if empty => {}
        // Whatever the HTTP status, as with json.
        _ if jq.is_some() => {
            if let Some(jq) = &jq {
                // A connect answered with no body is `null` to jq.
                let text = if empty { "null" } else { answer.text.as_str() };
                jq.run(text.as_bytes(), &mut out)
                    .map_err(super::shape::jq_failure)?;
            }
        }
        // With --diff: the answer (its text as it came) and what the report changed, in one
        // object.
        AnswerOutput::Json | AnswerOutput::Ndjson if guard.diff => {
            let both = AnswerAndDiff {
                answer: as_it_came(&answer).map_err(std::io::Error::from)?,
                diff: diff.as_ref().map(super::report_diff::Diff::to_json),
            };
            let both = serde_json::to_string(&both).map_err(std::io::Error::from)?;
            write_json(&both, args.output, &mut out)?;
        }
        // Whatever the HTTP status: a script reads the service's body as it came (laid out).
        AnswerOutput::Json | AnswerOutput::Ndjson => {
            write_json(&answer.text, args.output, &mut out)?;
        }
        // An error status is worded on stderr from the same body; its lines would repeat it.
        AnswerOutput::Text if answer.http_error.is_some() => {}
        AnswerOutput::Text => {
            for line in answer_lines(&answer.response) {
                writeln!(out, "{line}")?;
            }
            if let Some(diff) = &diff {
                for line in diff.lines() {
                    writeln!(out, "{line}")?;
                }
            }
        }
    }
    out.flush()?;
    // The answer is printed first, even a refusal, so that what the service said is on stdout.
    match answer.rejection() {
        Some(refusal) => Err(Failure::Api(refusal)),
        None => Ok(()),
    }
}

/// `report --diff -o json`: the service's answer spliced in as it came, and what the report
/// changed.
#[derive(serde::Serialize)]
struct AnswerAndDiff<'a> {
    answer: Box<RawValue>,
    diff: Option<super::report_diff::DiffJson<'a>>,
}

/// The answer's text as it came (compact), which serialising writes unchanged: the parsed value
/// would write `1E400` back as `1e+400`. Its parsed value only for an answer with no text.
fn as_it_came(answer: &Answer) -> serde_json::Result<Box<RawValue>> {
    match json_text::body(&answer.text) {
        Some(text) => Ok(text),
        None => serde_json::value::to_raw_value(&answer.raw),
    }
}

/// JSON text laid out for `-o json` (as serde_json lays out a value) or compact for `-o ndjson`,
/// every number and string as written, escaped by [`sanitize::json_for_terminal`].
fn write_json(text: &str, output: AnswerOutput, out: &mut impl Write) -> std::io::Result<()> {
    let text = match output {
        AnswerOutput::Json => json_text::pretty(text),
        _ => json_text::compact(text),
    };
    writeln!(out, "{}", sanitize::json_for_terminal(&text))
}

/// `--curl`: the same checks and exit status as a send, but the command is printed whatever they
/// say (people test how the service reacts to a broken payload), the findings on stderr. It needs
/// the base URL only: the command reads the token from `$APPDECK_TOKEN` when it runs.
fn print_curl(
    global: &GlobalArgs,
    operation: Operation,
    (value, body): (&serde_json::Value, &str),
    validation: &Validation,
    name: &str,
    allow_breaking: bool,
) -> Result<(), Failure> {
    let settings = config::load(&global.flags())?;
    super::warn(&settings.warnings);
    let base_url = settings
        .base_url
        .as_ref()
        .map(|u| u.value.clone())
        .ok_or_else(|| {
            config::ConfigError::MissingBaseUrl(
                settings.config_path.as_ref().map(|p| p.value.clone()),
            )
        })?;
    crate::api::client::check_base_url(&base_url)?;
    // A connect is compared with the version sent before, as a send would be.
    let compared = if operation == Operation::VersionConnect {
        compare_with_sent(
            super::open_store().as_ref(),
            &base_url,
            value,
            allow_breaking,
        )
    } else {
        Ok(())
    };
    let line = crate::api::curl::command(&base_url, operation, body);
    let mut out = crate::cli::stdout::out();
    writeln!(out, "{}", sanitize::json_for_terminal(&line))?;
    out.flush()?;
    let env_token = config::Env::from_process()?.token;
    if let Some(note) = token_note(settings.token.as_ref(), env_token.as_ref()) {
        super::warn(&[note]);
    }
    if validation.has_errors() {
        return Err(Failure::Invalid(format!(
            "{name}: the checks fail ({}); the command is printed all the same",
            summary(validation)
        )));
    }
    compared
}

/// What to know about the token of the printed command, which reads `$APPDECK_TOKEN` when it
/// runs: how to set it when it is not set here, and that it is another token than appdeck's own
/// when a flag (which beats the environment) gave appdeck a different one. Neither token is said.
fn token_note(
    token: Option<&config::Sourced<config::TokenSource>>,
    env_token: Option<&crate::api::Token>,
) -> Option<String> {
    let env = config::ENV_TOKEN;
    let Some(env_token) = env_token else {
        let how = match token {
            Some(config::Sourced {
                value: config::TokenSource::File(path),
                ..
            }) => format!("export {env}=\"$(cat {})\" first", shell_path(path)),
            Some(t) => format!("set it to the token of {} first", t.source),
            None => "set it to your token first".to_owned(),
        };
        return Some(format!(
            "the command reads the token from ${env}, which is not set here: {how}"
        ));
    };
    let token = token.filter(|t| t.source != config::Source::Env(config::ENV_TOKEN))?;
    let (ours, what, fix) = match &token.value {
        config::TokenSource::Value(t) => (
            Ok(t.clone()),
            format!("the token of {}", token.source),
            String::new(),
        ),
        config::TokenSource::File(path) => (
            config::read_token_file(path).map(|(t, _)| t),
            format!(
                "the token in {} ({})",
                sanitize::line(&path.display().to_string()),
                token.source
            ),
            format!(
                ": `export {env}=\"$(cat {})\"` first to send with it",
                shell_path(path)
            ),
        ),
    };
    match ours {
        Ok(ours) if ours.expose() == env_token.expose() => None,
        Ok(_) => Some(format!(
            "the command uses ${env}, which differs from {what}, the one appdeck itself would use{fix}"
        )),
        Err(e) => Some(format!(
            "the command uses ${env}, not {what}, which cannot be read: {e}"
        )),
    }
}

/// A path as the shell reads it, quoted, safe to print.
fn shell_path(path: &std::path::Path) -> String {
    sanitize::line(&crate::api::curl::quote(&path.display().to_string())).into_owned()
}

/// The kind of payload an operation takes.
pub(super) fn kind_of(operation: Operation) -> PayloadKind {
    match operation {
        Operation::VersionConnect => PayloadKind::Connect,
        Operation::OperationsReport | Operation::ResourcesList => PayloadKind::Report,
    }
}

/// Lists, on stderr, what `payload` changes against the newest version of the same app sent to
/// this base URL (as recorded in the store), and refuses breaking changes unless allowed. With no
/// earlier version (or no usable store) there is nothing to compare, and the send goes on.
fn compare_with_sent(
    store: Option<&Store>,
    base_url: &str,
    payload: &serde_json::Value,
    allow_breaking: bool,
) -> Result<(), Failure> {
    let Some(app_id) = payload.get("app_id").and_then(|v| v.as_str()) else {
        return Ok(());
    };
    let Some(store) = store else {
        return Ok(());
    };
    let known = match store.app_versions(base_url) {
        Ok(known) => known,
        Err(e) => {
            super::warn(&[format!("{e}; not compared with the version sent before")]);
            return Ok(());
        }
    };
    let Some(previous) = known.iter().find(|v| v.app_id == app_id) else {
        return Ok(());
    };
    let old = match serde_json::from_str(&previous.payload) {
        Ok(old) => old,
        Err(e) => {
            super::warn(&[format!(
                "the recorded connect of {} {} is unreadable ({e}); not compared",
                sanitize::line(&previous.app_id),
                sanitize::line(&previous.version)
            )]);
            return Ok(());
        }
    };
    // As the terminal UI's connect composer warns: a version that goes back is most likely a typo.
    if let Some(why) = payload
        .get("version")
        .and_then(|v| v.as_str())
        .and_then(|version| crate::diff::version_not_after(version, &previous.version))
    {
        super::warn(&[format!(
            "{} (the newest version of {} sent to this service, {})",
            sanitize::line(&why.to_string()),
            sanitize::line(&previous.app_id),
            previous.recorded_at.format("%Y-%m-%d %H:%M UTC")
        )]);
    }
    let changes = crate::diff::compare(&old, payload);
    if changes.is_empty() {
        return Ok(());
    }
    let against = format!(
        "{} {} (sent {})",
        sanitize::line(&previous.app_id),
        sanitize::line(&previous.version),
        previous.recorded_at.format("%Y-%m-%d %H:%M UTC")
    );
    let mut err = std::io::stderr().lock();
    writeln!(err, "appdeck: changes against {against}:")?;
    super::diff::write_text(&changes, &mut err)?;
    let breaking = changes.breaking().count();
    if breaking > 0 && !allow_breaking {
        return Err(Failure::Invalid(format!(
            "not sent: {} or may break {against}; send with --allow-breaking if that is \
             intended",
            match breaking {
                1 => "1 change breaks".to_owned(),
                n => format!("{n} changes break"),
            }
        )));
    }
    Ok(())
}

/// Records a successful connect in the local store as the text sent (`payload`) and the answer
/// as it came, so that `appdeck types` (and the TUI) know its types from now on. The send has
/// happened: a store that cannot be used is a warning only.
fn record_connect(store: Option<&Store>, base_url: &str, payload: &str, answer: Option<&str>) {
    let Some(store) = store else {
        return;
    };
    if let Err(e) = store.record_connect(base_url, payload, answer, chrono::Utc::now()) {
        super::warn(&[format!("the connect was sent, but not recorded: {e}")]);
    }
}

/// `app_id version` of a connect payload, safe for one line.
fn app_version(payload: &serde_json::Value) -> String {
    let text = |key: &str| {
        payload
            .get(key)
            .and_then(serde_json::Value::as_str)
            .map_or_else(|| format!("(no {key})"), |v| sanitize::line(v).into_owned())
    };
    format!("{} {}", text("app_id"), text("version"))
}

/// Records a send in the history, whatever its outcome (`appdeck history` lists it). The send has
/// happened: a store that cannot be used is a warning only.
fn record_in_history(store: Option<&Store>, sent: &Sent) -> Option<i64> {
    match store?.record_send(sent) {
        Ok(id) => Some(id),
        Err(e) => {
            super::warn(&[format!(
                "the {} was sent, but not recorded in the history: {e}",
                sent.kind
            )]);
            None
        }
    }
}

/// A report sent to `connect` (or the reverse) would only be refused by the service: said as
/// [`checks::wrong_kind`] says it.
pub(super) fn check_kind(
    kind: &PayloadKind,
    operation: Operation,
    name: &str,
) -> Result<(), Failure> {
    let expected = kind_of(operation);
    match *kind == expected {
        true => Ok(()),
        false => Err(Failure::Invalid(format!(
            "{name}: {}",
            checks::wrong_kind(*kind, expected)
        ))),
    }
}

/// `status`, `message`, `platform_app_url` and `error` as `key: value` lines, those present only.
fn answer_lines(response: &ReportResponse) -> Vec<String> {
    let url = response
        .metadata
        .get()
        .map_or(&Field::Absent, |m| &m.platform_app_url);
    [
        ("status", &response.status),
        ("message", &response.message),
        ("platform_app_url", url),
        ("error", &response.error),
    ]
    .into_iter()
    .filter_map(|(key, field)| shown(field).map(|v| format!("{key}: {v}")))
    .collect()
}

/// A field's value safe for one line; a value of an unexpected type is shown as its JSON.
fn shown(field: &Field<String>) -> Option<String> {
    match field {
        Field::Valid(s) => Some(sanitize::line(s).into_owned()),
        Field::Invalid(v) => Some(sanitize::line(&v.to_string()).into_owned()),
        Field::Absent | Field::Null => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn response(value: Value) -> ReportResponse {
        ReportResponse::from_map(value.as_object().cloned().unwrap_or_default())
    }

    /// `report --diff -o json`: the answer spliced in as it came (`1E400`, `-0`, its key order
    /// and unknown fields), which the parsed value would write back otherwise.
    #[test]
    fn the_answer_beside_the_diff_is_its_text_as_it_came() {
        let text = r#"{"status": "ok", "z": -0, "n": 1E400, "s": "\u202E\"\\"}"#;
        let answer = Answer {
            raw: serde_json::from_str(text).unwrap(),
            text: text.to_owned(),
            response: response(json!({"status": "ok"})),
            http_error: None,
        };
        let both = AnswerAndDiff {
            answer: as_it_came(&answer).unwrap(),
            diff: None,
        };
        assert_eq!(
            serde_json::to_string(&both).unwrap(),
            r#"{"answer":{"status":"ok","z":-0,"n":1E400,"s":"\u202E\"\\"},"diff":null}"#
        );
    }

    /// The refusal's words are the core's, which the TUI's connect composer shows too.
    #[test]
    fn a_payload_of_the_other_kind_is_refused_in_the_cores_words() {
        let err = check_kind(&PayloadKind::Report, Operation::VersionConnect, "r.json")
            .unwrap_err()
            .to_string();
        let said = checks::wrong_kind(PayloadKind::Report, PayloadKind::Connect);
        assert_eq!(err, format!("r.json: {said}"));
    }

    #[test]
    fn the_answer_is_shown_as_key_value_lines() {
        let r = response(json!({
            "status": "ok", "message": "saved\u{1b}[2J",
            "metadata": {"platform_app_url": "https://x/r/1"}, "error": null
        }));
        assert_eq!(
            answer_lines(&r),
            vec![
                "status: ok",
                "message: saved␛[2J",
                "platform_app_url: https://x/r/1"
            ]
        );
    }

    #[test]
    fn a_payload_of_the_other_kind_is_refused() {
        assert!(check_kind(&PayloadKind::Report, Operation::OperationsReport, "r").is_ok());
        let err = check_kind(&PayloadKind::Connect, Operation::OperationsReport, "c.json")
            .unwrap_err()
            .to_string();
        assert!(err.contains("appdeck connect"), "{err}");
    }
}
