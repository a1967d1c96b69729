//! `snapsolve serve`: a live camera page and a JSON API over the `snapsolve`
//! front door, so a phone or webcam pointed at a SET table or a sudoku shows
//! the answer on the video.
//!
//! The page (HTML, CSS, JS, icon) is embedded in the binary ([`assets`]); the API
//! ([`api`]) answers with the same JSON as the CLI's `--json`
//! ([`snapsolve::json`]); [`admission`] bounds the work in progress and the time
//! a request may take; [`tls`] makes a certificate so a phone's browser allows
//! the camera on the LAN.
//!
//! ```no_run
//! let config = snapsolve_web::ServeConfig::new("127.0.0.1".parse().unwrap(), 8080);
//! snapsolve_web::serve(config).expect("serves until Ctrl-C");
//! ```
#![deny(missing_docs)]

pub mod admission;
pub mod api;
pub mod assets;
pub mod banner;
pub mod tls;

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum_server::Handle;
use tokio::task::JoinHandle;

/// How the server speaks: plain HTTP, or HTTPS with a certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tls {
    /// Plain HTTP (enough on loopback: browsers give the camera to `localhost`).
    Plain,
    /// HTTPS with a certificate made at start for the machine's addresses.
    SelfSigned,
    /// HTTPS with a certificate and key read from PEM files.
    Files {
        /// The certificate chain (PEM).
        cert: PathBuf,
        /// The private key (PEM).
        key: PathBuf,
    },
}

/// Everything `snapsolve serve` needs to start.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address to listen on.
    pub host: IpAddr,
    /// Port (0 picks a free one).
    pub port: u16,
    /// HTTP or HTTPS.
    pub tls: Tls,
    /// Requests in work at once; more are refused with 503 at once.
    pub max_in_flight: usize,
    /// Longest time from the request's headers to the end of the answer.
    pub request_timeout: Duration,
    /// How long a connection may sit idle (or dribble its headers) before it is closed.
    pub idle_timeout: Duration,
}

impl ServeConfig {
    /// Defaults for a host and port: HTTPS with a made certificate when the host
    /// is reachable from other machines (a phone's browser gives the camera only
    /// to https pages or localhost), plain HTTP on loopback; as many requests in
    /// work as there are cores.
    pub fn new(host: IpAddr, port: u16) -> ServeConfig {
        ServeConfig {
            host,
            port,
            tls: if host.is_loopback() {
                Tls::Plain
            } else {
                Tls::SelfSigned
            },
            max_in_flight: std::thread::available_parallelism().map_or(2, usize::from),
            request_timeout: Duration::from_secs(60),
            idle_timeout: Duration::from_secs(30),
        }
    }
}

/// Why the server could not start or stopped.
#[derive(Debug)]
pub enum ServeError {
    /// A certificate or key file could not be read or used (bad input).
    Certificate(String),
    /// The embedded networks could not be loaded.
    Model(String),
    /// Binding, serving or the runtime failed.
    Io(std::io::Error),
}

impl ServeError {
    /// Whether the user gave something unusable (exit 2) rather than a failure (exit 1).
    pub fn is_bad_input(&self) -> bool {
        matches!(self, ServeError::Certificate(_))
    }
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Certificate(why) => write!(f, "certificate: {why}"),
            ServeError::Model(why) => write!(f, "cannot load the networks: {why}"),
            ServeError::Io(e) => write!(f, "cannot serve: {e}"),
        }
    }
}

impl std::error::Error for ServeError {}

/// A server that is listening.
pub struct Running {
    /// The address it listens on (with the real port when 0 was asked).
    pub addr: SocketAddr,
    /// Whether it speaks HTTPS.
    pub https: bool,
    handle: Handle<SocketAddr>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Running {
    /// The page's URL on this address (`localhost` for loopback).
    pub fn url(&self) -> String {
        banner::url(self.https, self.addr.ip(), self.addr.port())
    }

    /// Stops accepting connections and lets requests in work finish (for at most `grace`).
    pub fn shutdown(&self, grace: Duration) {
        self.handle.graceful_shutdown(Some(grace));
    }

    /// Waits until the server has stopped.
    ///
    /// # Errors
    /// When serving failed.
    pub async fn stopped(self) -> Result<(), ServeError> {
        match self.task.await {
            Ok(result) => result.map_err(ServeError::Io),
            Err(e) => Err(ServeError::Io(std::io::Error::other(e))),
        }
    }
}

/// Starts the server on the current tokio runtime and returns once it listens.
///
/// # Errors
/// Unusable certificate files, networks that do not load, or an address that cannot be bound.
pub async fn start(config: ServeConfig) -> Result<Running, ServeError> {
    let state = Arc::new(api::AppState::new(&config)?);
    let app = api::router(state, &config).into_make_service();
    let handle = Handle::new();
    let addr = SocketAddr::new(config.host, config.port);
    let https = config.tls != Tls::Plain;
    let task = match tls::rustls_config(&config.tls, config.host).await? {
        None => {
            let mut server = axum_server::bind(addr).handle(handle.clone());
            configure_http(server.http_builder(), &config);
            tokio::spawn(server.first_request_timeout(config.idle_timeout).serve(app))
        }
        Some(rustls) => {
            let mut server = axum_server::bind_rustls(addr, rustls).handle(handle.clone());
            configure_http(server.http_builder(), &config);
            tokio::spawn(server.first_request_timeout(config.idle_timeout).serve(app))
        }
    };
    let Some(addr) = handle.listening().await else {
        return Err(match task.await {
            Ok(Err(e)) => ServeError::Io(e),
            _ => ServeError::Io(std::io::Error::other("the server did not start")),
        });
    };
    Ok(Running {
        addr,
        https,
        handle,
        task,
    })
}

/// HTTP/1.1 only, with the idle timeout: hyper's header-read timer also runs
/// while a kept-alive connection waits for its next request, so an idle or
/// dribbling client is dropped after `idle_timeout`.
fn configure_http(
    builder: &mut hyper_util::server::conn::auto::Builder<hyper_util::rt::TokioExecutor>,
    config: &ServeConfig,
) {
    builder
        .http1()
        .keep_alive(true)
        .header_read_timeout(config.idle_timeout)
        .max_buf_size(64 * 1024);
}

/// `snapsolve serve`: starts the server, prints where to point the phone (URL and
/// QR code), and serves until Ctrl-C, then lets requests in work finish.
///
/// # Errors
/// See [`start`].
pub fn serve(config: ServeConfig) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Io)?;
    runtime.block_on(async {
        let running = start(config.clone()).await?;
        println!("{}", banner::banner(&running, config.host));
        // Ctrl-C: stop taking connections, give requests in work a few seconds.
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("stopping: letting requests in work finish");
        }
        running.shutdown(Duration::from_secs(5));
        running.stopped().await
    })
}
