//! What `snapsolve serve` prints at start: the URLs to open and, for the LAN, a
//! QR code a phone's camera can read straight from the terminal.

use std::net::IpAddr;

use qrcode::QrCode;
use qrcode::render::unicode::Dense1x2;

use crate::Running;
use crate::tls::machine_addresses;

/// The page's URL at an address (`localhost` for loopback, brackets for IPv6).
pub fn url(https: bool, ip: IpAddr, port: u16) -> String {
    let scheme = if https { "https" } else { "http" };
    let host = match ip {
        ip if ip.is_loopback() => "localhost".to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
        IpAddr::V4(v4) => v4.to_string(),
    };
    format!("{scheme}://{host}:{port}/")
}

/// The start banner: every URL the page answers on, and a QR code of the first
/// one a phone on the LAN can reach.
pub fn banner(running: &Running, host: IpAddr) -> String {
    let port = running.addr.port();
    let addresses = served_addresses(host, running.addr.ip());
    let mut urls: Vec<String> = Vec::new();
    for ip in &addresses {
        let u = url(running.https, *ip, port);
        if !urls.contains(&u) {
            urls.push(u);
        }
    }
    let mut text = format!(
        "snapsolve is serving the camera page at {}\n",
        urls.join("  ")
    );
    let lan = addresses
        .iter()
        .find(|ip| !ip.is_loopback() && ip.is_ipv4())
        .map(|&ip| url(running.https, ip, port));
    if let Some(lan) = lan {
        text.push_str(&format!("on a phone on this network, open {lan}"));
        if running.https {
            text.push_str(
                "\n(the certificate was made just now: the browser asks once to trust it)",
            );
        }
        if let Some(code) = qr_text(&lan) {
            text.push('\n');
            text.push_str(&code);
        }
    }
    text.push_str("\nCtrl-C stops the server.");
    text
}

/// The addresses a server listening on `host` answers on: the machine's own
/// of the same family when it listens on all of them (0.0.0.0 is IPv4 only).
pub fn served_addresses(host: IpAddr, bound: IpAddr) -> Vec<IpAddr> {
    if !host.is_unspecified() {
        return vec![bound];
    }
    machine_addresses()
        .into_iter()
        .filter(|ip| host.is_ipv6() || ip.is_ipv4())
        .collect()
}

/// A QR code of `data` drawn with half-block characters, two rows per line,
/// for a terminal with light text on a dark background: the dark modules are
/// left blank (background) and the light ones drawn.
pub fn qr_text(data: &str) -> Option<String> {
    let code = QrCode::new(data.as_bytes()).ok()?;
    Some(
        code.render::<Dense1x2>()
            .dark_color(Dense1x2::Light)
            .light_color(Dense1x2::Dark)
            .quiet_zone(true)
            .build(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_localhost_and_bracket_ipv6() {
        let v4: IpAddr = "192.168.1.20".parse().expect("an address");
        assert_eq!(url(true, v4, 8443), "https://192.168.1.20:8443/");
        let lo: IpAddr = "127.0.0.1".parse().expect("an address");
        assert_eq!(url(false, lo, 8080), "http://localhost:8080/");
        let v6: IpAddr = "fe80::1".parse().expect("an address");
        assert_eq!(url(true, v6, 1), "https://[fe80::1]:1/");
    }

    #[test]
    fn qr_codes_are_square_blocks() {
        let code = qr_text("https://192.168.1.20:8080/").expect("encodes");
        let lines: Vec<&str> = code.lines().collect();
        assert!(lines.len() > 10);
        let width = lines[0].chars().count();
        assert!(lines.iter().all(|l| l.chars().count() == width));
        // Two module rows per line: about half as many lines as columns.
        assert!(
            (lines.len() * 2).abs_diff(width) <= 2,
            "{width} x {}",
            lines.len()
        );
    }
}
