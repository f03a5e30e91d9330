//! The web page: the files of `web/`, embedded at build time (see `build.rs`),
//! served with their content type, an ETag and `Cache-Control: no-cache`, so a
//! browser revalidates (a cheap 304) and never runs a stale page after an
//! upgrade. `/` and the share links `/r/{code}` are the page itself.

use crate::error::ApiError;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// One embedded file.
pub struct Asset {
    /// Its URL path: `/js/main.js`.
    pub path: &'static str,
    pub content_type: &'static str,
    /// A quoted hash of the content.
    pub etag: &'static str,
    pub body: &'static [u8],
    /// The same bytes gzipped at build time, when that is smaller.
    pub gzip: Option<&'static [u8]>,
}

/// Every file of `web/`.
pub static ASSETS: &[Asset] = include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));

/// The page only talks to its own origin; nothing is inlined; it may start
/// workers (the engine) and a service worker from its own files.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     worker-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// A worker runs under the policy its own script is served with: the
/// engine's worker compiles WebAssembly (`'wasm-unsafe-eval'`, which allows
/// no JavaScript `eval`); the page itself does not need it.
pub const WORKER_SECURITY_POLICY: &str = "default-src 'self'; \
     script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; base-uri 'none'";

pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|asset| asset.path == path)
}

/// Whether the request accepts gzip (`Accept-Encoding: gzip, br`), by the
/// rules of RFC 9110: a `gzip` entry decides, else `*`; `q=0` refuses.
fn accepts_gzip(headers: &HeaderMap) -> bool {
    let mut gzip = None;
    let mut any = None;
    for coding in headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
    {
        let mut parts = coding.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let refused = parts.any(|p| {
            let p = p.to_ascii_lowercase();
            p.strip_prefix("q=")
                .and_then(|q| q.trim().parse::<f32>().ok())
                == Some(0.0)
        });
        if name.eq_ignore_ascii_case("gzip") {
            gzip = Some(!refused);
        } else if name == "*" {
            any = Some(!refused);
        }
    }
    gzip.or(any).unwrap_or(false)
}

fn respond(asset: &'static Asset, headers: &HeaderMap) -> Response {
    let gzip = asset.gzip.filter(|_| accepts_gzip(headers));
    // Each encoding is its own representation, with its own tag.
    let etag = match gzip {
        Some(_) => HeaderValue::from_str(&format!("{}-gz\"", asset.etag.trim_end_matches('"')))
            .unwrap_or_else(|_| HeaderValue::from_static(asset.etag)),
        None => HeaderValue::from_static(asset.etag),
    };
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        // Weak comparison (RFC 9110): a proxy may have weakened the tag.
        .is_some_and(|tags| {
            tags.split(',')
                .any(|t| t.trim().trim_start_matches("W/").as_bytes() == etag.as_bytes())
        });
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static(asset.content_type),
            )],
            gzip.unwrap_or(asset.body),
        )
            .into_response()
    };
    let out = response.headers_mut();
    if asset.gzip.is_some() {
        out.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    if gzip.is_some() {
        out.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    out.insert(header::ETAG, etag);
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    out.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if asset.content_type.starts_with("text/javascript") {
        out.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(WORKER_SECURITY_POLICY),
        );
    }
    if asset.content_type.starts_with("text/html") {
        out.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        );
        out.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        );
    }
    response
}

fn page(headers: &HeaderMap) -> Response {
    match find("/index.html") {
        Some(asset) => respond(asset, headers),
        None => ApiError::internal("the page was not embedded in this build").into_response(),
    }
}

/// `GET /`: the page.
pub async fn index(headers: HeaderMap) -> Response {
    page(&headers)
}

/// `GET /r/{code}`: a share link, the page itself (it reads the code from the
/// address). Codes are checked by the API, not here.
pub async fn room_page(Path(_code): Path<String>, headers: HeaderMap) -> Response {
    page(&headers)
}

/// `GET /local/{id}`, `/analysis`, `/train`, `/bench`: views of the page that
/// run on the in-browser engine; the page reads the address.
pub async fn local_page(headers: HeaderMap) -> Response {
    page(&headers)
}

/// Any other path: an embedded file, else the API's JSON 404.
pub async fn file(uri: axum::http::Uri, headers: HeaderMap) -> Response {
    match find(uri.path()) {
        Some(asset) if !uri.path().starts_with("/api/") => respond(asset, &headers),
        _ => crate::api::not_found().await.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_its_modules_are_embedded_with_types() {
        let index = find("/index.html").expect("index.html");
        assert!(index.content_type.starts_with("text/html"));
        let main = find("/js/main.js").expect("main.js");
        assert!(main.content_type.starts_with("text/javascript"));
        assert!(find("/style.css").is_some());
        let engine = find("/engine/plateau.wasm").expect("the in-browser engine");
        assert_eq!(engine.content_type, "application/wasm");
        assert!(engine.body.starts_with(b"\0asm"), "a WebAssembly module");
        let packed = engine.gzip.expect("the engine is served gzipped");
        assert!(
            packed.len() < 3 * 1024 * 1024,
            "{} bytes gzipped",
            packed.len()
        );
        for asset in ASSETS {
            assert!(asset.etag.starts_with('"') && asset.etag.ends_with('"'));
        }
    }

    #[test]
    fn gzip_is_sent_only_to_browsers_that_take_it() {
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(
                header::ACCEPT_ENCODING,
                HeaderValue::from_str(value).unwrap(),
            );
            accepts_gzip(&headers)
        };
        assert!(with("gzip, deflate, br, zstd"));
        assert!(with("br;q=1.0, gzip;q=0.8"));
        assert!(with("*"));
        assert!(!with("gzip;q=0"));
        assert!(!with("gzip; q=0.0, identity"));
        assert!(!with("br, deflate"));
        assert!(!with("xgzip"));
        assert!(!with("gzip;q=0, *"), "an explicit gzip entry wins over *");
        assert!(!with("GZIP; Q=0"));
        assert!(with("*;q=0.5"));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    /// The service worker keeps a copy of every file the page loads.
    #[test]
    fn the_service_worker_lists_every_file_of_the_page() {
        let sw = std::str::from_utf8(find("/sw.js").expect("sw.js").body).expect("UTF-8");
        let list = &sw[sw.find("const FILES = [").expect("its list")..];
        let list = &list[..list.find("];").expect("the list's end")];
        let mut listed: Vec<&str> = list.split('\'').skip(1).step_by(2).collect();
        listed.sort_unstable();
        let mut files: Vec<&str> = ASSETS
            .iter()
            .map(|a| if a.path == "/index.html" { "/" } else { a.path })
            .filter(|p| *p != "/sw.js")
            .collect();
        files.sort_unstable();
        assert_eq!(listed, files);
    }

    /// Adding a game touches its board module and the games list only: the
    /// shared page code names no game.
    #[test]
    fn the_shared_page_code_names_no_game() {
        for path in [
            "/js/game.js",
            "/js/home.js",
            "/js/main.js",
            "/js/picker.js",
            "/js/stream.js",
            "/js/server.js",
            "/js/local.js",
            "/js/engine.js",
            "/js/analysis.js",
            "/js/train.js",
            "/js/bench.js",
            "/engine/worker.js",
        ] {
            let asset = find(path).unwrap_or_else(|| panic!("{path} is embedded"));
            let text = std::str::from_utf8(asset.body).expect("UTF-8");
            for info in plateau_games::GAMES {
                assert!(
                    !text.contains(&format!("'{}'", info.name))
                        && !text.contains(&format!("/{}.js", info.name)),
                    "{path} names the game {}",
                    info.name
                );
            }
        }
    }
}
