//! Load test of `snapsolve serve`, on loopback only, bounded in time: many
//! clients post 960x720 frames for a fixed time; reports requests per second,
//! latency percentiles, how many were shed with 503, any other 5xx (there must
//! be none), the server's own time per frame, and the process's peak memory;
//! then checks that the server still answers right.
//!
//! ```text
//! cargo run --release -p snapsolve_web --example load -- --clients 16 --seconds 20
//! cargo run --release -p snapsolve_web --example load -- --clients 1 --seconds 10 --sudoku
//! ```
//!
//! The frame is shrunk to 960 pixels on its long side and encoded as a
//! quality-85 JPEG, as the page sends it: the tomwhite webcam photo of
//! `../shared/data` (960x720), or with `--sudoku` a phone photo of a printed
//! sudoku (960x1280, sent as 720x960); without the data, the built-in rendered
//! table (said so; `--sudoku` needs the data). Some clients misbehave on purpose: every eighth
//! sends bytes that are no image, and every eighth (from the fifth) a body over
//! the 20 MB limit. The server runs in a child process (this program with
//! `--serve`), so its peak memory is its own; it is stopped with Ctrl-C (SIGINT).

use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use snapsolve::data::shared_data_dir;
use snapsolve_web::{ServeConfig, Tls};

const SET_FRAME: &str = "set/tomwhite/photos/data/webcam/20170529_184024.png";
const SUDOKU_FRAME: &str = "sudoku/wichtounet/images/image1000.jpg";

/// What one client does.
#[derive(Clone, Copy, PartialEq)]
enum Client {
    Frames,
    Garbage,
    Oversize,
}

#[derive(Default)]
struct Tally {
    ok_ms: Vec<f64>,
    server_ms: Vec<f64>,
    shed: usize,
    client_errors: usize,
    other_5xx: usize,
    failed: usize,
}

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name} takes a number"))
        })
}

/// The frame every client sends, as the page would: at most 960 pixels a side, JPEG.
fn frame(sudoku: bool) -> (Vec<u8>, String) {
    let data = shared_data_dir();
    let (image, what) = match (data, sudoku) {
        (Some(data), _) => {
            let path = if sudoku { SUDOKU_FRAME } else { SET_FRAME };
            (
                image::open(data.join(path)).expect("the photo").to_rgb8(),
                path.to_string(),
            )
        }
        (None, true) => panic!("--sudoku needs the shared data (../shared/data or SNAPSOLVE_DATA)"),
        (None, false) => {
            eprintln!("no shared data: sending the built-in rendered table instead");
            (
                snapsolve::set_photo::example::example_photo().image,
                "built-in rendered table".to_string(),
            )
        }
    };
    let scale = 960.0 / f64::from(image.width().max(image.height()));
    let image = if scale < 1.0 {
        let (w, h) = (
            f64::from(image.width()) * scale,
            f64::from(image.height()) * scale,
        );
        image::imageops::resize(
            &image,
            w.round() as u32,
            h.round() as u32,
            image::imageops::FilterType::Triangle,
        )
    } else {
        image
    };
    let what = format!("{what} at {}x{}", image.width(), image.height());
    let mut out = std::io::Cursor::new(Vec::new());
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85)
        .encode_image(&image)
        .expect("encodes");
    (out.into_inner(), what)
}

/// Server-Timing stages summed, in ms.
fn server_ms(headers: &reqwest::header::HeaderMap) -> Option<f64> {
    let text = headers.get("server-timing")?.to_str().ok()?;
    Some(
        text.split(',')
            .filter_map(|p| p.split("dur=").nth(1)?.trim().parse::<f64>().ok())
            .sum(),
    )
}

async fn client(kind: Client, url: String, body: Arc<Vec<u8>>, until: Instant) -> Tally {
    let http = reqwest::Client::new();
    let mut tally = Tally::default();
    while Instant::now() < until {
        let started = Instant::now();
        let payload = match kind {
            Client::Frames => body.as_ref().clone(),
            Client::Garbage => vec![0x42; 4096],
            Client::Oversize => vec![0xFF; 21 * 1024 * 1024],
        };
        let response = http.post(&url).body(payload).send().await;
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        match response {
            // The server refuses an oversize body without reading it all and
            // closes the connection: the client sees its send cut short.
            Err(_) if kind == Client::Oversize => tally.client_errors += 1,
            Err(_) => tally.failed += 1,
            Ok(r) => {
                let status = r.status().as_u16();
                match status {
                    200 => {
                        tally.ok_ms.push(ms);
                        tally.server_ms.extend(server_ms(r.headers()));
                    }
                    503 => {
                        tally.shed += 1;
                        // An impatient client: back after a tenth of a second, not the second asked for.
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    400..=499 => tally.client_errors += 1,
                    _ => tally.other_5xx += 1,
                }
                let _ = r.bytes().await;
            }
        }
    }
    tally
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Peak resident memory of a process (Linux), in MB.
fn peak_memory_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// With `--serve`: the server alone (a child of the load test, so its memory
/// is measured apart from the clients'), until Ctrl-C (SIGINT).
fn serve() {
    let mut config = ServeConfig::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);
    config.tls = Tls::Plain;
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let server = snapsolve_web::start(config)
            .await
            .expect("the server starts");
        println!("{}", server.url());
        let _ = tokio::signal::ctrl_c().await;
        server.shutdown(Duration::from_secs(5));
        server.stopped().await.expect("stops cleanly");
    });
}

/// The server in a child process, stopped by SIGINT when dropped.
struct ServerProcess {
    child: Child,
    url: String,
}

impl ServerProcess {
    fn start() -> ServerProcess {
        let exe = std::env::current_exe().expect("this program");
        let mut child = Command::new(exe)
            .arg("--serve")
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let mut url = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut url)
            .expect("the server's URL");
        ServerProcess {
            child,
            url: url.trim().to_string(),
        }
    }

    /// Ctrl-C, then the exit status (graceful shutdown gives success).
    fn interrupt(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .expect("kill runs");
        self.child.wait().expect("the server stops")
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--serve") {
        serve();
    } else {
        let runtime = tokio::runtime::Runtime::new().expect("a runtime");
        runtime.block_on(load(&args));
    }
}

/// The clients, against the server in a child process.
async fn load(args: &[String]) {
    let clients = arg(args, "--clients", 16).clamp(1, 256) as usize;
    let seconds = arg(args, "--seconds", 20).clamp(1, 300);
    let sudoku = args.iter().any(|a| a == "--sudoku");
    let (body, what) = frame(sudoku);
    let body = Arc::new(body);
    let in_flight = ServeConfig::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0).max_in_flight;
    let server = ServerProcess::start();
    let url = format!(
        "{}api/{}/photo",
        server.url,
        if sudoku { "sudoku" } else { "set" }
    );
    println!(
        "{clients} clients for {seconds} s against {url} ({in_flight} in work at once), frame: {what}, {} KB",
        body.len() / 1024
    );
    let started = Instant::now();
    let until = started + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..clients)
        .map(|i| {
            let kind = match i % 8 {
                7 => Client::Garbage,
                4 if clients >= 8 => Client::Oversize,
                _ => Client::Frames,
            };
            tokio::spawn(client(kind, url.clone(), Arc::clone(&body), until))
        })
        .collect();
    let mut all = Tally::default();
    for task in tasks {
        let t = task.await.expect("a client finished");
        all.ok_ms.extend(t.ok_ms);
        all.server_ms.extend(t.server_ms);
        all.shed += t.shed;
        all.client_errors += t.client_errors;
        all.other_5xx += t.other_5xx;
        all.failed += t.failed;
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.ok_ms.sort_by(f64::total_cmp);
    all.server_ms.sort_by(f64::total_cmp);
    println!(
        "answered 200: {} ({:.1} per second)",
        all.ok_ms.len(),
        all.ok_ms.len() as f64 / elapsed
    );
    println!(
        "latency of answered frames: p50 {:.1} ms, p99 {:.1} ms; server time per frame p50 {:.1} ms",
        percentile(&all.ok_ms, 0.5),
        percentile(&all.ok_ms, 0.99),
        percentile(&all.server_ms, 0.5)
    );
    println!(
        "shed with 503: {}; refused (4xx, or an oversize body cut off): {}; other 5xx: {}; transport errors of frame clients: {}",
        all.shed, all.client_errors, all.other_5xx, all.failed
    );
    if let Some(mb) = peak_memory_mb(server.child.id()) {
        println!("peak memory of the server process: {mb:.0} MB");
    }

    // Right after: the server still answers, and answers right.
    let check = reqwest::Client::new()
        .post(&url)
        .body(body.as_ref().clone())
        .send()
        .await
        .expect("the server answers after the load");
    assert_eq!(check.status(), 200, "the server answers after the load");
    let reading: serde_json::Value = check.json().await.expect("JSON");
    if sudoku {
        println!("after the load: 200, status {}", reading["status"]);
    } else {
        let cards = reading["cards"].as_array().map_or(0, Vec::len);
        let sets = reading["sets"].as_array().map_or(0, Vec::len);
        println!("after the load: 200, {cards} cards, {sets} SETs");
    }
    assert_eq!(all.other_5xx, 0, "no 5xx but 503");
    assert_eq!(all.failed, 0, "frame clients always get an answer");
    let status = server.interrupt();
    assert!(
        status.success(),
        "Ctrl-C stops the server cleanly: {status}"
    );
    println!("Ctrl-C: the server stopped cleanly");
}
