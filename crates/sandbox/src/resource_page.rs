//! The page a report answer's `platform_app_url` points at: the resource as the sandbox stores
//! it, as HTML for a browser. Read-only and served without a token (a browser cannot send one);
//! every piece of resource text is escaped, so a resource cannot inject markup or script.

use axum::http::header::{CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::store::SandboxStore;
use crate::api::Resource;

/// The fields shown at the top of the page, before the whole resource as JSON.
const SUMMARY: [&str; 6] = [
    "type",
    "display_name",
    "name",
    "status",
    "external_id",
    "updated_at",
];

/// The page for resource `id` (already percent-decoded by the router), or a 404 page.
pub(crate) fn resource_page(store: &SandboxStore, id: &str) -> Response {
    let (status, title, body) = match store.get(id) {
        Some(resource) => (
            StatusCode::OK,
            format!("Resource {id}"),
            describe(&resource),
        ),
        None => (
            StatusCode::NOT_FOUND,
            format!("No resource {id}"),
            "<p>The sandbox holds no resource with this id.</p>".to_owned(),
        ),
    };
    let title = escape(&title);
    let html = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head>\n\
         <body><h1>{title}</h1>\n{body}\n<p><small>appdeck sandbox</small></p></body></html>\n"
    );
    let headers = [
        (
            CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        ),
        // Belt and braces with the escaping: no script, style or request from this page.
        (
            CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'"),
        ),
    ];
    (status, headers, html).into_response()
}

fn describe(resource: &Resource) -> String {
    let json = serde_json::to_value(resource).unwrap_or_default();
    let mut out = String::from("<table>\n");
    for key in SUMMARY {
        if let Some(value) = json.get(key).and_then(|v| v.as_str()) {
            out.push_str(&format!(
                "<tr><th>{}</th><td>{}</td></tr>\n",
                escape(key),
                escape(value)
            ));
        }
    }
    out.push_str("</table>\n");
    let pretty = serde_json::to_string_pretty(&json).unwrap_or_default();
    out.push_str(&format!("<pre>{}</pre>", escape(&pretty)));
    out
}

/// Escapes text for HTML element content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_resource_text_is_escaped() {
        assert_eq!(
            escape(r#"<script>alert('x')</script> & "q""#),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
    }
}
