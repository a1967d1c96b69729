//! Helpers for the server's tests: a server on a free loopback port, real
//! headless Chromium driven through chromedriver (WebDriver), a fake camera
//! fed from a `.y4m` made from a real photo, and screenshots read back.
#![allow(dead_code)] // each test binary uses a different part

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use image::RgbImage;
use serde_json::Value;
use snapsolve_web::{Running, ServeConfig, Tls};
use thirtyfour::prelude::*;

/// A server on a free loopback port.
pub async fn start_server(tls: Tls) -> Running {
    let mut config = ServeConfig::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);
    config.tls = tls;
    snapsolve_web::start(config)
        .await
        .expect("the server starts")
}

/// Whether the test runs under CI (where a missing tool is a failure).
fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// A program on PATH (or named by an environment variable), if any.
fn program(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env) {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// The browser and its driver.
pub struct Browser {
    chromium: PathBuf,
    chromedriver: PathBuf,
}

/// Chromium and chromedriver, or `None` after saying the test is skipped (Debian
/// `chromium` and `chromium-driver`; `$CHROMIUM`, `$CHROMEDRIVER` override).
///
/// # Panics
/// When either is missing under `CI=true` (`.ci/run` installs them).
pub fn browser_or_skip(test: &str) -> Option<Browser> {
    let chromium = program(
        "CHROMIUM",
        &["chromium", "chromium-browser", "google-chrome"],
    );
    let chromedriver = program("CHROMEDRIVER", &["chromedriver"]);
    match (chromium, chromedriver) {
        (Some(chromium), Some(chromedriver)) => Some(Browser {
            chromium,
            chromedriver,
        }),
        (chromium, _) => {
            let missing = if chromium.is_none() {
                "chromium"
            } else {
                "chromedriver (Debian chromium-driver)"
            };
            assert!(
                !under_ci(),
                "{test}: {missing} is missing; CI=true requires it"
            );
            eprintln!(
                "SKIPPED {test}: {missing} is not installed (apt-get install chromium chromium-driver)"
            );
            None
        }
    }
}

/// A running chromedriver, stopped when dropped.
pub struct Driver {
    child: Child,
    port: u16,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// What the fake camera shows.
pub enum Camera<'a> {
    /// Chromium's own moving test pattern.
    Pattern,
    /// A `.y4m` file, looped.
    File(&'a Path),
}

impl Browser {
    /// Starts chromedriver and a headless Chromium session with a fake camera.
    pub async fn open(
        &self,
        name: &str,
        camera: Camera<'_>,
        extra: &[&str],
    ) -> (Driver, WebDriver) {
        let port = free_port();
        let child = Command::new(&self.chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let profile =
            std::env::temp_dir().join(format!("snapsolve-web-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let driver = Driver {
            child,
            port,
            profile: profile.clone(),
        };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut caps = DesiredCapabilities::chrome();
        caps.set_binary(self.chromium.to_str().expect("a UTF-8 path"))
            .expect("binary");
        let mut args: Vec<String> = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
            "--window-size=1024,768",
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        if let Camera::File(path) = camera {
            args.push(format!(
                "--use-file-for-fake-video-capture={}",
                path.display()
            ));
        }
        args.extend(extra.iter().map(ToString::to_string));
        for arg in &args {
            caps.add_arg(arg).expect("argument");
        }
        let session = WebDriver::new(format!("http://127.0.0.1:{}", driver.port), caps)
            .await
            .expect("a Chromium session");
        (driver, session)
    }
}

/// Polls an element's text until `done` accepts it; panics with the last text
/// after `timeout`.
pub async fn wait_text(
    driver: &WebDriver,
    id: &str,
    timeout: Duration,
    done: impl Fn(&str) -> bool,
) -> String {
    let started = Instant::now();
    let mut last = String::new();
    while started.elapsed() < timeout {
        last = text(driver, id).await;
        if done(&last) {
            return last;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let notice = text(driver, "notice").await;
    panic!("#{id} still says {last:?} after {timeout:?} (notice: {notice:?})");
}

/// The text of an element by id (through JS, so hidden ones read too).
pub async fn text(driver: &WebDriver, id: &str) -> String {
    js(
        driver,
        &format!("return document.getElementById({id:?}).textContent"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Runs a script in the page and returns its value.
pub async fn js(driver: &WebDriver, script: &str) -> Value {
    driver
        .execute(script, Vec::new())
        .await
        .expect("the script runs")
        .json()
        .clone()
}

/// Where frame pixel (x, y) of a `frame_width`-wide frame is on the page:
/// the stage's box, scaled.
pub async fn stage_mapping(
    driver: &WebDriver,
    frame_width: f64,
) -> impl Fn([f64; 2]) -> [f64; 2] + use<> {
    let rect = js(
        driver,
        "const r = document.getElementById('stage').getBoundingClientRect(); \
         return [r.left, r.top, r.width, window.devicePixelRatio];",
    )
    .await;
    let n = |i: usize| rect[i].as_f64().expect("a number");
    let (left, top, width, dpr) = (n(0), n(1), n(2), n(3));
    let scale = width / frame_width;
    move |[x, y]| [(left + x * scale) * dpr, (top + y * scale) * dpr]
}

/// The page as it looks now.
pub async fn screenshot(driver: &WebDriver) -> RgbImage {
    let png = driver.screenshot_as_png().await.expect("a screenshot");
    image::load_from_memory(&png).expect("a PNG").to_rgb8()
}

/// Saves a screenshot for the docs when `SNAPSOLVE_SCREENSHOTS` names a folder
/// (`docs/web`, from the workspace root), shrunk to fit 640x480.
pub fn keep_screenshot(image: &RgbImage, name: &str) {
    let Some(dir) = std::env::var_os("SNAPSOLVE_SCREENSHOTS") else {
        return;
    };
    // A relative folder is taken from the workspace root (tests run in the crate's folder).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(dir);
    std::fs::create_dir_all(&dir).expect("the screenshot folder can be made");
    let scale = (640.0 / f64::from(image.width())).min(480.0 / f64::from(image.height()));
    let (width, height) = (
        f64::from(image.width()) * scale,
        f64::from(image.height()) * scale,
    );
    let small = image::imageops::resize(
        image,
        width.round() as u32,
        height.round() as u32,
        image::imageops::FilterType::Triangle,
    );
    small
        .save(dir.join(format!("{name}.png")))
        .expect("the screenshot is written");
}

/// A short `.y4m` video (4:2:0, BT.601 studio range, as cameras send) of one
/// picture, for Chromium's fake camera, which loops it. Odd sizes lose a pixel.
pub fn write_y4m(image: &RgbImage, path: &Path, frames: usize) {
    let (w, h) = (image.width() & !1, image.height() & !1);
    let mut y = Vec::with_capacity((w * h) as usize);
    let mut u = Vec::with_capacity((w * h / 4) as usize);
    let mut v = Vec::with_capacity((w * h / 4) as usize);
    let rgb = |x: u32, y: u32| image.get_pixel(x, y).0.map(|c| f32::from(c) / 255.0);
    for row in 0..h {
        for col in 0..w {
            let [r, g, b] = rgb(col, row);
            y.push((16.0 + 65.481 * r + 128.553 * g + 24.966 * b).round() as u8);
        }
    }
    for row in (0..h).step_by(2) {
        for col in (0..w).step_by(2) {
            // The mean colour of the 2x2 block, then its chroma.
            let mut sum = [0.0f32; 3];
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let p = rgb(col + dx, row + dy);
                (0..3).for_each(|c| sum[c] += p[c] / 4.0);
            }
            let [r, g, b] = sum;
            u.push((128.0 - 37.797 * r - 74.203 * g + 112.0 * b).round() as u8);
            v.push((128.0 + 112.0 * r - 93.786 * g - 18.214 * b).round() as u8);
        }
    }
    let mut file =
        std::io::BufWriter::new(std::fs::File::create(path).expect("the video can be written"));
    writeln!(file, "YUV4MPEG2 W{w} H{h} F30:1 Ip A1:1 C420jpeg").expect("write");
    for _ in 0..frames {
        file.write_all(b"FRAME\n").expect("write");
        file.write_all(&y).expect("write");
        file.write_all(&u).expect("write");
        file.write_all(&v).expect("write");
    }
    file.flush().expect("write");
}

/// A file in the temporary folder, removed when dropped.
pub struct TempPath(pub PathBuf);

impl TempPath {
    pub fn new(name: &str) -> TempPath {
        TempPath(std::env::temp_dir().join(format!("snapsolve-web-{}-{name}", std::process::id())))
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
