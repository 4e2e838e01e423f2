//! The pager of appdeck-core over real HTTP: the sandbox on loopback, or a one-answer server
//! for what the sandbox never sends.

use appdeck_core::api::paging::MAX_EMPTY_PAGES;
use appdeck_core::api::{ApiError, Client, ClientSettings, PageItem, Pager, Token};
use appdeck_sandbox::{Fault, Sandbox, SandboxOptions};

async fn sandbox(generate: usize, fault: Option<Fault>) -> Sandbox {
    let options = SandboxOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        seed_demo: generate == 0,
        generate,
        fault,
        ..SandboxOptions::default()
    };
    Sandbox::start(options).await.expect("the sandbox starts")
}

fn client(base_url: &str, token: &str) -> Client {
    Client::new(&ClientSettings::new(base_url, Token::new(token))).expect("a client")
}

/// Every page until the pager says the listing is over (at most 20), as row counts.
async fn pages(pager: &mut Pager, client: &Client) -> Vec<Result<usize, ApiError>> {
    let mut pages = Vec::new();
    while let Some(page) = pager.next_page(client).await {
        pages.push(page.map(|p| p.resources.len()));
        assert!(pages.len() <= 20, "the listing never ends: {pages:?}");
    }
    pages
}

#[tokio::test]
async fn follows_the_cursors_to_the_end_and_stays_ended() {
    let sandbox = sandbox(25, None).await;
    let client = client(sandbox.base_url(), sandbox.token());
    let mut pager = Pager::new(None, Some(10));
    assert_eq!(pages(&mut pager, &client).await, [Ok(10), Ok(10), Ok(5)]);
    assert!(pager.next_page(&client).await.is_none(), "still over");
    sandbox.shutdown().await;
}

#[tokio::test]
async fn asks_for_its_type() {
    let sandbox = sandbox(0, None).await;
    let client = client(sandbox.base_url(), sandbox.token());
    let mut everything = Pager::new(None, Some(500));
    let mut repositories = 0;
    while let Some(page) = everything.next_page(&client).await {
        repositories += page
            .unwrap()
            .resources
            .iter()
            .filter_map(PageItem::resource)
            .filter(|r| r.resource_type.get().is_some_and(|t| t == "repository"))
            .count();
    }
    assert!(repositories > 0);
    let mut pager = Pager::new(Some("repository".into()), Some(3));
    let mut listed = 0;
    while let Some(page) = pager.next_page(&client).await {
        let page = page.unwrap();
        assert!(page.resources.len() <= 3);
        for item in &page.resources {
            let resource = item.resource().expect("a resource");
            assert_eq!(resource.resource_type.get().unwrap(), "repository");
            listed += 1;
        }
    }
    assert_eq!(listed, repositories);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_repeated_cursor_hands_out_the_page_then_the_fault() {
    let sandbox = sandbox(25, Some(Fault::RepeatCursor)).await;
    let client = client(sandbox.base_url(), sandbox.token());
    let mut pager = Pager::new(None, Some(10));
    let pages = pages(&mut pager, &client).await;
    assert_eq!(pages.len(), 3, "{pages:?}");
    assert_eq!(pages[..2], [Ok(10), Ok(10)]);
    assert!(
        matches!(pages[2], Err(ApiError::RepeatedCursor(_))),
        "{pages:?}"
    );
    sandbox.shutdown().await;
}

/// Over real HTTP: the first page's rows, then empty pages each with a new cursor; the
/// pager hands out the first page and the empty ones, then the fault, and stops.
#[tokio::test]
async fn endless_empty_pages_end_the_listing_with_a_fault() {
    let sandbox = sandbox(25, Some(Fault::EmptyPages)).await;
    let client = client(sandbox.base_url(), sandbox.token());
    let mut pager = Pager::new(None, Some(10));
    let mut pages = Vec::new();
    while let Some(page) = pager.next_page(&client).await {
        pages.push(page.map(|p| p.resources.len()));
        assert!(pages.len() <= 2 * MAX_EMPTY_PAGES, "never ends: {pages:?}");
    }
    let (last, before) = pages.split_last().unwrap();
    assert_eq!(*last, Err(ApiError::EmptyPages(MAX_EMPTY_PAGES)));
    assert_eq!(before.len(), MAX_EMPTY_PAGES + 1, "{pages:?}");
    assert_eq!(before[0], Ok(10));
    assert!(before[1..].iter().all(|p| *p == Ok(0)), "{pages:?}");
    sandbox.shutdown().await;
}

#[tokio::test]
async fn an_error_ends_the_listing() {
    let sandbox = sandbox(25, Some(Fault::Status(503))).await;
    let client = client(sandbox.base_url(), sandbox.token());
    let mut pager = Pager::new(None, Some(10));
    let pages = pages(&mut pager, &client).await;
    assert!(
        matches!(pages[..], [Err(ApiError::Http { status: 503, .. })]),
        "{pages:?}"
    );
    sandbox.shutdown().await;
}

/// A server on loopback that answers one request with a 200 and `body`.
async fn answer_once(body: &'static str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let (mut stream, _) = listener.accept().await.unwrap();
        let mut request = Vec::new();
        let mut buf = [0u8; 4096];
        // Headers, then as many body bytes as content-length says.
        loop {
            let n = stream.read(&mut buf).await.unwrap();
            request.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&request).to_ascii_lowercase();
            if let Some(end) = text.find("\r\n\r\n") {
                let length = text
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .map_or(0, |v| v.trim().parse().unwrap_or(0));
                if request.len() >= end + 4 + length {
                    break;
                }
            }
            if n == 0 {
                break;
            }
        }
        let answer = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = stream.write_all(answer.as_bytes()).await;
    });
    format!("http://{addr}/api/v1")
}

#[tokio::test]
async fn a_next_that_is_not_a_string_hands_out_the_page_then_the_fault() {
    let base_url = answer_once(r#"{"resources": [{"id": "a"}], "next": 5}"#).await;
    let client = client(&base_url, "t");
    let mut pager = Pager::new(None, None);
    let pages = pages(&mut pager, &client).await;
    assert_eq!(pages.len(), 2, "{pages:?}");
    assert_eq!(pages[0], Ok(1));
    assert!(
        matches!(&pages[1], Err(ApiError::Decode { problem, .. }) if problem.contains("`next`")),
        "{pages:?}"
    );
}
