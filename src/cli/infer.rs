//! `appdeck infer`: samples resources through `resources.list` (the same pager as `list`) and
//! prints a connect payload skeleton whose types are inferred by [`crate::infer`].

use std::io::Write;

use super::Failure;
use super::args::InferArgs;
use crate::api::{Client, PageItem, Pager};
use crate::infer::Inference;
use crate::sanitize;
use crate::text::counted;

/// The largest page the sandbox gives; asking for more would only be capped.
const MAX_PAGE: u32 = 500;

pub async fn run(
    client: &Client,
    args: &InferArgs,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), Failure> {
    let limit = args.limit.map(|n| n as usize);
    let mut pager = Pager::new(
        args.resource_type.clone(),
        args.limit.map(|n| n.min(MAX_PAGE)),
    );
    let mut inference = Inference::new();
    let mut malformed = 0usize;
    'pages: while let Some(page) = pager.next_page(client).await {
        for item in page?.resources {
            if limit.is_some_and(|max| inference.samples() + malformed >= max) {
                break 'pages;
            }
            match item {
                PageItem::Resource(resource) => inference.add_resource(&resource),
                PageItem::Malformed(_) => malformed += 1,
            }
        }
    }
    let payload = inference.connect_payload(&args.app_id, &args.version);
    let text = serde_json::to_string_pretty(&payload).map_err(std::io::Error::from)?;
    writeln!(out, "{}", sanitize::json_for_terminal(&text))?;
    out.flush()?;

    let types: Vec<String> = inference
        .type_names()
        .map(|t| sanitize::line(t).into_owned())
        .collect();
    if let Some(wanted) = args.resource_type.as_deref().filter(|_| types.is_empty()) {
        // "inferred 0 types ()" would leave the user guessing whether the filter matched.
        writeln!(
            err,
            "no resources of type {} were listed, so nothing was inferred and the payload has no \
             types (`appdeck list` shows the types the service has)",
            sanitize::line(wanted)
        )?;
        return Ok(());
    }
    // The resources a type came from: those skipped below said apart, not counted in too.
    let used = inference.samples() - inference.untyped();
    let names = match types.is_empty() {
        true => String::new(),
        false => format!(" ({})", types.join(", ")),
    };
    writeln!(
        err,
        "inferred {}{names} from {}",
        counted(types.len(), "type"),
        counted(used, "resource"),
    )?;
    if inference.untyped() > 0 || malformed > 0 {
        writeln!(
            err,
            "skipped {} without a type and {malformed} malformed",
            inference.untyped()
        )?;
    }
    if types.is_empty() {
        writeln!(
            err,
            "warning: no resources to infer from; the payload has no types"
        )?;
    }
    Ok(())
}
