//! `snapsolve serve`: the API answers with exactly the JSON the CLI prints for
//! `--json` (the same photo, cards or puzzle through both), and Ctrl-C stops the
//! server cleanly.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use snapsolve::set_photo::example::example_photo;
use support::TempFile;

const BIN: &str = env!("CARGO_BIN_EXE_snapsolve");
const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const CARDS: [&str; 6] = [
    "1-red-solid-oval",
    "2-green-striped-diamond",
    "3-purple-open-squiggle",
    "1-green-solid-squiggle",
    "2-purple-open-oval",
    "3-red-striped-diamond",
];

/// `snapsolve serve --port 0`, stopped with SIGINT when dropped.
struct Server {
    child: Child,
    port: u16,
    _stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("snapsolve serve starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("the banner");
        let port = line
            .split("http://localhost:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no URL in {line:?}"));
        Server {
            child,
            port,
            _stdout: stdout,
        }
    }

    /// POSTs a body; returns the status and the JSON answer.
    fn post(&self, route: &str, body: &[u8]) -> (u16, Value) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connects");
        write!(
            stream,
            "POST {route} HTTP/1.1\r\nHost: localhost\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .expect("writes");
        stream.write_all(body).expect("writes the body");
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).expect("reads");
        let text = String::from_utf8(answer).expect("UTF-8");
        let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
        let status = head[9..12].parse().expect("a status");
        (
            status,
            serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}")),
        )
    }

    fn interrupt(&mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .expect("kill runs");
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("waits") {
                return status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the server did not stop"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The JSON the CLI prints for these arguments.
fn cli_json(args: &[&str]) -> Value {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("snapsolve runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

#[test]
fn the_api_answers_with_the_clis_json_and_ctrl_c_stops_it() {
    let mut server = Server::start();

    let mut png = std::io::Cursor::new(Vec::new());
    example_photo()
        .image
        .write_to(&mut png, image::ImageFormat::Png)
        .expect("encodes");
    let png = png.into_inner();
    let file = TempFile::new("table.png", &png);
    let (status, api) = server.post("/api/set/photo", &png);
    assert_eq!(status, 200, "{api}");
    assert_eq!(api, cli_json(&["set", "photo", file.path(), "--json"]));

    let (_, api) = server.post(
        "/api/set/solve",
        json!({"cards": CARDS}).to_string().as_bytes(),
    );
    let mut args = vec!["set", "solve", "--json"];
    args.extend(CARDS);
    assert_eq!(api, cli_json(&args));

    let (_, api) = server.post(
        "/api/sudoku/solve",
        json!({"puzzle": PUZZLE}).to_string().as_bytes(),
    );
    assert_eq!(api, cli_json(&["sudoku", "solve", PUZZLE, "--json"]));
    let clash = format!("55{}", &PUZZLE[2..]);
    let (_, api) = server.post(
        "/api/sudoku/solve",
        json!({"puzzle": clash}).to_string().as_bytes(),
    );
    assert_eq!(api, cli_json(&["sudoku", "solve", &clash, "--json"]));

    let (_, api) = server.post(
        "/api/sudoku/hint",
        json!({"puzzle": PUZZLE}).to_string().as_bytes(),
    );
    assert_eq!(api, cli_json(&["sudoku", "hint", PUZZLE, "--json"]));

    if let Some(data) = snapsolve::data::shared_data_dir() {
        let photo = data.join("sudoku/wichtounet/images/image1.jpg");
        let bytes = std::fs::read(&photo).expect("the photo");
        let (_, api) = server.post("/api/sudoku/photo", &bytes);
        assert_eq!(
            api,
            cli_json(&["sudoku", "photo", photo.to_str().expect("UTF-8"), "--json"])
        );
    } else {
        eprintln!("(no shared data: the sudoku photo comparison is left out)");
    }

    let (status, error) = server.post("/api/set/photo", b"no picture");
    assert_eq!(status, 400);
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|e| e.contains("not an image")),
        "{error}"
    );

    let status = server.interrupt();
    assert!(
        status.success(),
        "Ctrl-C stops the server cleanly: {status}"
    );
}

#[test]
fn unusable_certificate_files_are_bad_input() {
    let missing = Command::new(BIN)
        .args([
            "serve",
            "--port",
            "0",
            "--cert",
            "/nonexistent/cert.pem",
            "--key",
            "/nonexistent/key.pem",
        ])
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(stderr.contains("/nonexistent/cert.pem"), "{stderr}");
}
