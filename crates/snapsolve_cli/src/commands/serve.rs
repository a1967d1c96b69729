//! `snapsolve serve`: the live camera page (the work is in `snapsolve_web`).

use std::net::IpAddr;
use std::path::PathBuf;

use clap::Args;
use snapsolve_web::{ServeConfig, Tls};

use crate::error::{CliError, CliResult};

/// Arguments of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on: 0.0.0.0 serves phones on your network (over HTTPS,
    /// with a certificate made at start, since phones give the camera only to
    /// https pages).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Port to listen on.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// A trusted certificate (PEM) to serve HTTPS with, instead of a made one.
    #[arg(long, requires = "key")]
    cert: Option<PathBuf>,
    /// The private key (PEM) of --cert.
    #[arg(long, requires = "cert")]
    key: Option<PathBuf>,
}

/// Starts the server; it runs until Ctrl-C.
pub fn run(args: ServeArgs) -> CliResult {
    let mut config = ServeConfig::new(args.host, args.port);
    if let (Some(cert), Some(key)) = (args.cert, args.key) {
        config.tls = Tls::Files { cert, key };
    }
    snapsolve_web::serve(config).map_err(|e| {
        if e.is_bad_input() {
            CliError::usage(e)
        } else {
            CliError::failed(e)
        }
    })
}
