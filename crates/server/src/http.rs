//! The HTTP connections, below the routes: hyper with a header-read timeout
//! (which also closes connections left idle between requests), the client's
//! address (from `X-Forwarded-For` only when the peer is the trusted proxy),
//! the headers every answer carries, and the access log.

use crate::app::ServerConfig;
use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, Request, Response, StatusCode, header};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tower::Service;

/// What each connection needs to know of the settings.
#[derive(Clone, Copy)]
struct Settings {
    header_timeout: Duration,
    trusted_proxy: Option<IpAddr>,
    access_log: bool,
}

/// Connections the kernel holds for us before we accept them. Tokio's
/// default of 1 024 overflowed when an instance died and its clients all
/// reconnected to this one at once: each connection dropped there waits for
/// the client's SYN to be sent again (1 s, then 3 s), which was most of the
/// latency after a kill. The kernel caps it at `net.core.somaxconn`.
const LISTEN_BACKLOG: u32 = 8192;

/// Binds `addr` (a host name may give several addresses: the first that
/// binds) with the larger backlog.
pub(crate) async fn bind(addr: &str) -> std::io::Result<TcpListener> {
    let named = |err: std::io::Error| std::io::Error::new(err.kind(), format!("{addr}: {err}"));
    let mut last_error = None;
    for address in tokio::net::lookup_host(addr).await.map_err(named)? {
        match listen(address) {
            Ok(listener) => return Ok(listener),
            // Another of its addresses may bind (IPv6 turned off, say).
            Err(err) => last_error = Some(named(err)),
        }
    }
    Err(last_error.unwrap_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{addr:?} names no address"),
        )
    }))
}

fn listen(address: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = match address {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    // As `TcpListener::bind` does: a restart may reuse the port at once.
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Accepts connections until the returned future is dropped; then every
/// connection it opened is closed too.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    config: &ServerConfig,
) -> std::io::Result<()> {
    let settings = Settings {
        header_timeout: config.header_timeout,
        trusted_proxy: config.trusted_proxy.map(canonical),
        access_log: config.access_log,
    };
    // Dropped with this future: the connections see it and end.
    let (_running, stopped) = tokio::sync::watch::channel(());
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(err) => {
                // Out of file descriptors, say: wait for some to close
                // rather than give up serving.
                eprintln!("accepting a connection: {err}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                handle(app.clone(), request, peer, settings)
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(settings.header_timeout)
                .serve_connection(TokioIo::new(stream), service);
            tokio::select! {
                _ = connection => {}
                _ = stopped.changed() => {}
            }
        });
    }
}

async fn handle(
    mut app: Router,
    request: Request<Incoming>,
    peer: SocketAddr,
    settings: Settings,
) -> Result<Response<axum::body::Body>, Infallible> {
    let started = Instant::now();
    let client = client_address(request.headers(), peer, settings.trusted_proxy);
    let method = request.method().clone();
    // The path only: a query string could carry anything.
    let path = request.uri().path().to_string();
    let mut request = request.map(axum::body::Body::new);
    request.extensions_mut().insert(ConnectInfo(client));
    let mut response = app.call(request).await?;
    finish(&mut response, &path);
    if settings.access_log {
        eprintln!(
            "{} {method} {} {} {:.1}ms",
            client.ip(),
            shown_path(&path),
            response.status().as_u16(),
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
    Ok(response)
}

/// The headers every answer carries, and a JSON body for the refusals made
/// below the handlers.
fn finish(response: &mut Response<axum::body::Body>, path: &str) {
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE
        && !response
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"application/json"))
    {
        let body = serde_json::json!({ "error": "the request body is too large" }).to_string();
        *response.body_mut() = axum::body::Body::from(body);
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        headers.remove(header::CONTENT_LENGTH);
    }
    let headers = response.headers_mut();
    headers
        .entry(header::X_CONTENT_TYPE_OPTIONS)
        .or_insert(HeaderValue::from_static("nosniff"));
    // API answers carry tokens and live state: never stored by a cache.
    if path.starts_with("/api/") {
        headers
            .entry(header::CACHE_CONTROL)
            .or_insert(HeaderValue::from_static("no-store"));
    }
}

/// A path as logged: bounded, so a 10 000-character URL stays one short line.
fn shown_path(path: &str) -> &str {
    const SHOWN: usize = 120;
    match path.char_indices().nth(SHOWN) {
        Some((cut, _)) => &path[..cut],
        None => path,
    }
}

/// The client of a request: the peer, unless the peer is the trusted proxy,
/// whose `X-Forwarded-For` then names the client (its last entry: the one the
/// proxy itself added; earlier entries are the client's word).
fn client_address(
    headers: &axum::http::HeaderMap,
    peer: SocketAddr,
    trusted_proxy: Option<IpAddr>,
) -> SocketAddr {
    let peer = SocketAddr::new(canonical(peer.ip()), peer.port());
    if trusted_proxy != Some(peer.ip()) {
        return peer;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .next_back()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|v| v.trim().parse::<IpAddr>().ok())
        .map_or(peer, |ip| SocketAddr::new(canonical(ip), peer.port()))
}

/// An IPv4 address seen through an IPv6 socket is the IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderMap;

    #[tokio::test]
    async fn binds_an_address_or_a_host_name_and_names_what_fails() {
        let first = bind("127.0.0.1:0").await.unwrap();
        let taken = first.local_addr().unwrap();
        assert!(taken.port() > 0);
        let by_name = bind("localhost:0").await.unwrap();
        assert!(by_name.local_addr().unwrap().ip().is_loopback());
        // A port with a listener on it stays refused (the address is named).
        let err = bind(&taken.to_string()).await.unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::AddrInUse, "{err}");
        assert!(err.to_string().contains(&taken.to_string()), "{err}");
        let err = bind("127.0.0.1:99999").await.unwrap_err();
        assert!(err.to_string().contains("127.0.0.1:99999"), "{err}");
    }

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", value.parse().unwrap());
        }
        headers
    }

    #[test]
    fn forwarded_for_is_read_only_from_the_trusted_proxy() {
        let proxy: SocketAddr = "10.0.0.1:5000".parse().unwrap();
        let stranger: SocketAddr = "10.0.0.9:5000".parse().unwrap();
        let trusted = Some("10.0.0.1".parse().unwrap());
        let headers = forwarded(&["1.2.3.4, 5.6.7.8"]);
        // The proxy's own entry (the last) names the client.
        assert_eq!(
            client_address(&headers, proxy, trusted).ip(),
            "5.6.7.8".parse::<IpAddr>().unwrap()
        );
        // Anyone else's header is ignored, as is any header with no proxy set.
        assert_eq!(client_address(&headers, stranger, trusted), stranger);
        assert_eq!(client_address(&headers, proxy, None), proxy);
        // The last header line wins; a garbled entry leaves the peer.
        let two = forwarded(&["1.1.1.1", "2.2.2.2"]);
        assert_eq!(
            client_address(&two, proxy, trusted).ip(),
            "2.2.2.2".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            client_address(&forwarded(&["nonsense"]), proxy, trusted),
            proxy
        );
        assert_eq!(client_address(&HeaderMap::new(), proxy, trusted), proxy);
        // A mapped IPv4 peer is the IPv4 proxy.
        let mapped: SocketAddr = "[::ffff:10.0.0.1]:5000".parse().unwrap();
        assert_eq!(
            client_address(&headers, mapped, trusted).ip(),
            "5.6.7.8".parse::<IpAddr>().unwrap()
        );
    }

    #[test]
    fn logged_paths_are_bounded() {
        let long = format!("/api/rooms/{}", "A".repeat(10_000));
        assert_eq!(shown_path(&long).len(), 120);
        assert_eq!(shown_path("/api/games"), "/api/games");
    }
}
