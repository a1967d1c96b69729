//! HTTPS for the LAN: a phone's browser gives the camera only to https pages
//! (or localhost), so `--host 0.0.0.0` serves with a certificate made at start
//! for the machine's own addresses, or one the user gives with `--cert`/`--key`.
//!
//! Crypto is rustls on the pure-Rust `ring` provider (no cmake, no libclang).

use std::net::IpAddr;
use std::sync::Arc;

use axum_server::tls_rustls::RustlsConfig;
use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use crate::{ServeError, Tls};

/// The rustls configuration for `tls` (`None` for plain HTTP).
///
/// # Errors
/// Certificate or key files that cannot be read or do not match.
pub async fn rustls_config(tls: &Tls, host: IpAddr) -> Result<Option<RustlsConfig>, ServeError> {
    let (certs, key) = match tls {
        Tls::Plain => return Ok(None),
        Tls::SelfSigned => self_signed(&certificate_names(host))?,
        Tls::Files { cert, key } => {
            let read = |path: &std::path::Path| {
                std::fs::read(path)
                    .map_err(|e| ServeError::Certificate(format!("{}: {e}", path.display())))
            };
            let (cert_pem, key_pem) = (read(cert)?, read(key)?);
            let certs = CertificateDer::pem_slice_iter(&cert_pem)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| ServeError::Certificate(format!("{}: {e}", cert.display())))?;
            if certs.is_empty() {
                return Err(ServeError::Certificate(format!(
                    "{}: no certificate in the file",
                    cert.display()
                )));
            }
            let key = PrivateKeyDer::from_pem_slice(&key_pem)
                .map_err(|e| ServeError::Certificate(format!("{}: {e}", key.display())))?;
            (certs, key)
        }
    };
    Ok(Some(RustlsConfig::from_config(Arc::new(server_config(
        certs, key,
    )?))))
}

/// A server configuration on the `ring` provider, HTTP/1.1 by ALPN.
fn server_config(
    certs: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
) -> Result<ServerConfig, ServeError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| ServeError::Certificate(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| ServeError::Certificate(format!("the certificate and key: {e}")))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

/// A new self-signed certificate and its key for these names and addresses.
///
/// # Errors
/// When the key cannot be made (never expected).
pub fn self_signed(
    names: &[String],
) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), ServeError> {
    let made = rcgen::generate_simple_self_signed(names.to_vec())
        .map_err(|e| ServeError::Certificate(format!("cannot make a certificate: {e}")))?;
    let key = PrivateKeyDer::try_from(made.signing_key.serialize_der())
        .map_err(|e| ServeError::Certificate(e.to_string()))?;
    Ok((vec![made.cert.der().clone()], key))
}

/// What the made certificate is for: `localhost`, and the address served on, or
/// every address of the machine when it listens on all of them.
pub fn certificate_names(host: IpAddr) -> Vec<String> {
    let mut names = vec!["localhost".to_string()];
    let addresses = if host.is_unspecified() {
        machine_addresses()
    } else {
        vec![host]
    };
    names.extend(addresses.iter().map(ToString::to_string));
    names.sort();
    names.dedup();
    names
}

/// The machine's own IP addresses (loopback included), IPv4 first.
pub fn machine_addresses() -> Vec<IpAddr> {
    let mut addresses: Vec<IpAddr> = if_addrs::get_if_addrs()
        .map(|list| list.iter().map(if_addrs::Interface::ip).collect())
        .unwrap_or_default();
    addresses.sort_by_key(|a| (a.is_ipv6(), a.is_loopback()));
    addresses.dedup();
    addresses
}
