//! The page, embedded in the binary: no CDN, no network, no build step outside
//! cargo. Each file is served with its type and without caching between
//! versions of the binary.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// One embedded file: its URL path, type and bytes.
pub struct Asset {
    /// Path under `/`.
    pub path: &'static str,
    /// Content type.
    pub mime: &'static str,
    /// The bytes.
    pub bytes: &'static [u8],
}

macro_rules! asset {
    ($path:literal, $mime:expr) => {
        Asset {
            path: $path,
            mime: $mime,
            bytes: include_bytes!(concat!("../web/", $path)),
        }
    };
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file of the page.
pub const ASSETS: &[Asset] = &[
    asset!("index.html", "text/html; charset=utf-8"),
    asset!("style.css", "text/css; charset=utf-8"),
    asset!("icon.svg", "image/svg+xml"),
    asset!("app.js", JS),
    asset!("camera.js", JS),
    asset!("frames.js", JS),
    asset!("vote.js", JS),
    asset!("geometry.js", JS),
    asset!("overlay.js", JS),
    asset!("fix.js", JS),
    asset!("hints.js", JS),
    asset!("picture.js", JS),
];

/// The embedded file at `path` (`""` is the page itself).
pub fn find(path: &str) -> Option<&'static Asset> {
    let path = if path.is_empty() { "index.html" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}

/// The response for a path: the file, or a 404 in words.
pub fn respond(path: &str) -> Response {
    match find(path) {
        Some(asset) => (
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(asset.mime)),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            asset.bytes,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such page").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_module_the_page_imports_is_embedded() {
        for asset in ASSETS
            .iter()
            .filter(|a| a.mime == JS || a.path == "index.html")
        {
            let text = std::str::from_utf8(asset.bytes).expect("text");
            for part in text
                .split("from \"./")
                .skip(1)
                .chain(text.split("src=\"").skip(1))
            {
                let name = part.split('"').next().unwrap_or_default();
                let name = name.trim_start_matches("./");
                assert!(
                    find(name).is_some(),
                    "{} imports {name}, not embedded",
                    asset.path
                );
            }
        }
    }

    #[test]
    fn the_page_loads_nothing_from_elsewhere() {
        for asset in ASSETS.iter().filter(|a| !a.mime.starts_with("image/")) {
            let text = std::str::from_utf8(asset.bytes).expect("text");
            assert!(
                !text.contains("http://") && !text.contains("https://"),
                "{} names another site",
                asset.path
            );
        }
    }
}
