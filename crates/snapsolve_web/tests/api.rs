//! The API over loopback: answers, JSON errors with the right status, 503 with
//! Retry-After at once when every place is taken, and the request and idle
//! time limits. No data or browser needed (pictures are rendered).

mod support;

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpStream};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use snapsolve::set_photo::example::example_photo;
use snapsolve_web::{ServeConfig, Tls};
use support::start_server;

async fn post(url: &str, route: &str, body: impl Into<reqwest::Body>) -> (StatusCode, Value) {
    let response = reqwest::Client::new()
        .post(format!("{url}{route}"))
        .body(body)
        .send()
        .await
        .expect("the server answers");
    let status = response.status();
    (status, response.json().await.expect("a JSON body"))
}

fn png(image: &image::RgbImage) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    image
        .write_to(&mut out, image::ImageFormat::Png)
        .expect("encodes");
    out.into_inner()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn photos_and_corrections_are_answered_as_the_library_answers_them() {
    let server = start_server(Tls::Plain).await;
    let url = server.url();
    let photo = example_photo();
    let (status, answer) = post(&url, "api/set/photo", png(&photo.image)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        answer["cards"].as_array().map(Vec::len),
        Some(12),
        "{answer}"
    );

    let names: Vec<Value> = answer["cards"]
        .as_array()
        .expect("cards")
        .iter()
        .map(|c| c["card"].clone())
        .collect();
    let (status, solved) = post(&url, "api/set/solve", json!({"cards": names}).to_string()).await;
    assert_eq!(status, StatusCode::OK, "{solved}");
    assert_eq!(
        solved["sets"], answer["sets"],
        "the same cards have the same SETs"
    );
    assert_eq!(solved["engine"], "fast");

    let puzzle =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let (status, sudoku) = post(
        &url,
        "api/sudoku/solve",
        json!({"puzzle": puzzle}).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(sudoku["status"], "unique");
    let clash = format!("11{}", &puzzle[2..]);
    let (_, none) = post(
        &url,
        "api/sudoku/solve",
        json!({"puzzle": clash}).to_string(),
    )
    .await;
    assert_eq!(none["status"], "none");
    assert_eq!(none["clashes"], json!([[0, 1], [0, 20]]), "{none}");
    let (status, hint) = post(
        &url,
        "api/sudoku/hint",
        json!({"puzzle": puzzle}).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        hint["steps"].as_array().is_some_and(|s| !s.is_empty()),
        "{hint}"
    );

    // A white page has no grid: an answer, not an error.
    let blank = image::RgbImage::from_pixel(320, 240, image::Rgb([250, 250, 250]));
    let (status, nothing) = post(&url, "api/sudoku/photo", png(&blank)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(nothing["digits"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_a_json_error_with_a_4xx_status() {
    let server = start_server(Tls::Plain).await;
    let url = server.url();
    let cases: Vec<(&str, Vec<u8>, StatusCode, &str)> = vec![
        (
            "api/set/photo",
            b"not an image".to_vec(),
            StatusCode::BAD_REQUEST,
            "not an image",
        ),
        (
            "api/sudoku/photo",
            Vec::new(),
            StatusCode::BAD_REQUEST,
            "empty",
        ),
        (
            "api/set/solve",
            b"{\"cards\": [\"4-red-solid-oval\"]}".to_vec(),
            StatusCode::BAD_REQUEST,
            "card 1",
        ),
        (
            "api/set/solve",
            b"{\"cards\": [\"1-red-solid-oval\", \"1-red-solid-oval\"]}".to_vec(),
            StatusCode::BAD_REQUEST,
            "twice",
        ),
        (
            "api/sudoku/solve",
            b"{\"puzzle\": \"12\"}".to_vec(),
            StatusCode::BAD_REQUEST,
            "",
        ),
        (
            "api/sudoku/solve",
            b"not json".to_vec(),
            StatusCode::BAD_REQUEST,
            "",
        ),
        (
            "api/sudoku/hint",
            b"{\"puzzle\": \"11\"}".to_vec(),
            StatusCode::BAD_REQUEST,
            "",
        ),
        (
            "api/nothing",
            Vec::new(),
            StatusCode::NOT_FOUND,
            "no such API route",
        ),
    ];
    for (route, body, status, words) in cases {
        let (got, answer) = post(&url, route, body).await;
        assert_eq!(got, status, "{route}: {answer}");
        let error = answer["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{route}: {answer}"));
        assert!(error.contains(words), "{route}: {error}");
    }
    // A body announced larger than 20 MB is refused before it is sent: a
    // client writing all of it first may find the connection closed (so
    // this one waits for the answer, as a browser does).
    let answer = announce_body(server.addr, "/api/set/photo", 21 * 1024 * 1024);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("20 MB"), "{answer}");
    // A PNG header claiming more pixels than the CLI's limits: refused before decoding.
    let mut huge = png(&image::RgbImage::new(4, 4));
    huge[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    huge[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    let (got, answer) = post(&url, "api/set/photo", huge).await;
    assert_eq!(got, StatusCode::BAD_REQUEST, "{answer}");
}

/// Sends the head of a POST to `route` announcing a body of `length`
/// bytes, none of it, and returns the server's answer as text (read until
/// the server closes the connection or 10 seconds pass).
fn announce_body(addr: std::net::SocketAddr, route: &str, length: usize) -> String {
    let mut stream = TcpStream::connect(addr).expect("connects");
    write!(
        stream,
        "POST {route} HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n"
    )
    .expect("writes");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("sets a timeout");
    let mut answer = Vec::new();
    let mut chunk = [0u8; 4096];
    while let Ok(n @ 1..) = stream.read(&mut chunk) {
        answer.extend_from_slice(&chunk[..n]);
    }
    String::from_utf8_lossy(&answer).into_owned()
}

/// Opens a request whose body never comes: it holds a place until its time limit.
fn stalled_request(addr: std::net::SocketAddr) -> TcpStream {
    let mut stream = TcpStream::connect(addr).expect("connects");
    write!(
        stream,
        "POST /api/set/photo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n"
    )
    .expect("writes");
    stream
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_server_refuses_at_once_and_slow_requests_time_out() {
    let mut config = ServeConfig::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);
    config.max_in_flight = 1;
    config.request_timeout = Duration::from_secs(1);
    let server = snapsolve_web::start(config).await.expect("starts");
    let url = server.url();
    let mut stalled = stalled_request(server.addr);
    tokio::time::sleep(Duration::from_millis(200)).await;

    let started = Instant::now();
    let response = reqwest::Client::new()
        .post(format!("{url}api/set/solve"))
        .body("{\"cards\": []}")
        .send()
        .await
        .expect("answers");
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(response.headers()["retry-after"], "1");
    assert!(
        started.elapsed() < Duration::from_millis(500),
        "refused at once, not queued"
    );

    // The stalled request is cut off by the time limit, which frees its place.
    let mut answer = String::new();
    stalled
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let _ = stalled.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let (status, _) = post(&url, "api/set/solve", "{\"cards\": []}").await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_closed() {
    let mut config = ServeConfig::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);
    config.idle_timeout = Duration::from_millis(500);
    let server = snapsolve_web::start(config).await.expect("starts");
    let mut idle = TcpStream::connect(server.addr).expect("connects");
    idle.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let started = Instant::now();
    let mut buffer = [0u8; 64];
    let read = idle.read(&mut buffer);
    assert!(matches!(read, Ok(0)), "closed by the server: {read:?}");
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_its_files_are_served_from_the_binary() {
    let server = start_server(Tls::Plain).await;
    let url = server.url();
    let page = reqwest::get(&url).await.expect("the page");
    assert_eq!(page.status(), StatusCode::OK);
    assert!(
        page.headers()["content-security-policy"]
            .to_str()
            .expect("text")
            .contains("default-src 'self'")
    );
    let html = page.text().await.expect("text");
    assert!(html.contains("id=\"answer\""));
    for file in snapsolve_web::assets::ASSETS {
        let response = reqwest::get(format!("{url}{}", file.path))
            .await
            .expect("a file");
        assert_eq!(response.status(), StatusCode::OK, "{}", file.path);
        assert_eq!(response.headers()["content-type"], file.mime);
    }
    let missing = reqwest::get(format!("{url}nothing.js"))
        .await
        .expect("answers");
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    server.shutdown(Duration::from_secs(1));
    server.stopped().await.expect("stops cleanly");
}
