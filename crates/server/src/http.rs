//! The HTTP connections, below the routes: hyper with a header-read timeout
//! (which also closes connections left idle between requests), a cap on the
//! connections one address holds, the client's address (from
//! `X-Forwarded-For` only when the peer is the trusted proxy), the headers
//! every answer carries, JSON bodies on every error (hyper's own included),
//! and the access log.

use crate::app::ServerConfig;
use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, Request, Response, StatusCode, header};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower::Service;

/// What each connection needs to know of the settings.
#[derive(Clone, Copy)]
struct Settings {
    header_timeout: Duration,
    trusted_proxy: Option<IpAddr>,
    access_log: bool,
    request_timeout: Duration,
}

/// Connections the kernel holds for us before we accept them. Tokio's
/// default of 1 024 overflowed when an instance died and its clients all
/// reconnected to this one at once: each connection dropped there waits for
/// the client's SYN to be sent again (1 s, then 3 s), which was most of the
/// latency after a kill. The kernel caps it at `net.core.somaxconn`.
const LISTEN_BACKLOG: u32 = 8192;

/// This process's limit on open files, as raised at start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DescriptorLimit {
    pub before: u64,
    pub soft: u64,
    pub hard: u64,
}

/// Raises the soft limit on open files to the hard limit: every connection
/// is a descriptor, and the soft default (often 1 024) is what a flood of
/// connections exhausts first.
#[cfg(unix)]
#[allow(clippy::unnecessary_cast)] // rlim_t is not u64 on every target
pub(crate) fn raise_descriptor_limit() -> std::io::Result<DescriptorLimit> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the limit into the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let before = limit.rlim_cur as u64;
    if limit.rlim_cur < limit.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: limit.rlim_max,
            rlim_max: limit.rlim_max,
        };
        // SAFETY: setrlimit reads the struct it is given. Refused (an
        // unlimited hard limit on macOS), the soft limit stays as it was.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            limit = raised;
        }
    }
    Ok(DescriptorLimit {
        before,
        soft: limit.rlim_cur as u64,
        hard: limit.rlim_max as u64,
    })
}

#[cfg(not(unix))]
pub(crate) fn raise_descriptor_limit() -> std::io::Result<DescriptorLimit> {
    Err(std::io::Error::other("not known on this system"))
}

/// The per-address connection cap a descriptor limit allows: at most a
/// quarter of the descriptors, so that three abusive addresses still leave
/// room for everyone else.
pub(crate) fn connection_cap(configured: usize, descriptors: u64) -> usize {
    let share = (descriptors / 4).max(8);
    configured.min(usize::try_from(share).unwrap_or(usize::MAX))
}

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
        request_timeout: config.request_timeout,
    };
    let connections = Connections::new(config.connections_per_address);
    // Dropped with this future: the connections see it and end.
    let (_running, stopped) = tokio::sync::watch::channel(());
    let mut backoff = AcceptBackoff::default();
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => {
                backoff.recovered();
                accepted
            }
            Err(err) => {
                // Out of file descriptors, say: wait for some to close
                // rather than give up serving, longer each time, and say so
                // once rather than on every try.
                tokio::time::sleep(backoff.failed(&err)).await;
                continue;
            }
        };
        // The proxy's connections carry many clients: not capped here
        // (limit them at the proxy, docs/deploy.md).
        let slot = if settings.trusted_proxy == Some(canonical(peer.ip())) {
            None
        } else {
            match connections.open(peer.ip()) {
                Some(slot) => Some(slot),
                None => {
                    refuse(stream, connections.cap);
                    continue;
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                handle(app.clone(), request, peer, settings)
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(settings.header_timeout)
                .serve_connection(TokioIo::new(JsonErrors::new(stream)), service);
            tokio::select! {
                _ = connection => {}
                _ = stopped.changed() => {}
            }
        });
    }
}

/// The open connections of each address (IPv4 address or IPv6 /64), so
/// that one client cannot take every file descriptor the server has.
struct Connections {
    cap: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One open connection, counted until dropped.
struct ConnectionSlot {
    address: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Connections {
    fn new(cap: usize) -> Connections {
        Connections {
            cap,
            open: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Counts a connection of `peer`; `None` when it already holds the cap.
    fn open(&self, peer: IpAddr) -> Option<ConnectionSlot> {
        let address = crate::limits::client_key(canonical(peer));
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(address).or_insert(0);
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(ConnectionSlot {
            address,
            open: Arc::clone(&self.open),
        })
    }
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.address);
            }
        }
    }
}

/// Refuses a connection over its address's cap: a 429 if the socket takes
/// it at once, then closed. Nothing waits on it: a client reopening
/// connections in a loop holds no descriptor longer than this.
fn refuse(stream: TcpStream, cap: usize) {
    let body = serde_json::json!({
        "error": format!(
            "your address already has {cap} connections open to this server; close some"
        )
    })
    .to_string();
    let response = format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(response.as_bytes());
}

/// The pause after a failed accept: 10 ms, doubling to 1 s while accepts
/// keep failing; one log line when the failures start and one when they end.
#[derive(Default)]
struct AcceptBackoff {
    failures: u64,
    delay: Duration,
}

impl AcceptBackoff {
    const FIRST: Duration = Duration::from_millis(10);
    const LONGEST: Duration = Duration::from_secs(1);

    fn failed(&mut self, err: &std::io::Error) -> Duration {
        if self.failures == 0 {
            eprintln!("accepting connections: {err}; backing off until they can be accepted");
        }
        self.failures += 1;
        self.delay = if self.delay.is_zero() {
            Self::FIRST
        } else {
            (self.delay * 2).min(Self::LONGEST)
        };
        self.delay
    }

    fn recovered(&mut self) {
        if self.failures > 0 {
            eprintln!(
                "accepting connections again after {} failed attempt(s)",
                self.failures
            );
        }
        self.failures = 0;
        self.delay = Duration::ZERO;
    }
}

/// A connection whose automatic error answers (hyper's own 400, 414 and 431
/// for requests it cannot read, sent before any handler runs) carry a JSON
/// body like every other error. Everything else passes through unchanged.
struct JsonErrors<S> {
    inner: S,
    /// A replacement answer being written, and how much of it is out.
    pending: Option<(Vec<u8>, usize)>,
}

impl<S> JsonErrors<S> {
    fn new(inner: S) -> JsonErrors<S> {
        JsonErrors {
            inner,
            pending: None,
        }
    }
}

/// The JSON answer that replaces `head` when `head` is one of hyper's
/// automatic error answers: a whole response head with an empty body and a
/// status our handlers never send without a body.
fn automatic_error(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let status: u16 = text.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()?;
    let message = match status {
        400 => "the request could not be read as HTTP",
        414 => "the URL is too long",
        431 => "the request's headers are too large",
        _ => return None,
    };
    let lower = text.to_ascii_lowercase();
    if !lower.ends_with("\r\n\r\n") || !lower.contains("\r\ncontent-length: 0\r\n") {
        return None;
    }
    let reason = StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    let body = serde_json::json!({ "error": message }).to_string();
    Some(
        format!(
            "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n\
             x-content-type-options: nosniff\r\nconnection: close\r\n\
             content-length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl<S: AsyncWrite + Unpin> JsonErrors<S> {
    /// Writes out a pending replacement; `Ready(Ok)` once none is left.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        while let Some((bytes, written)) = &mut self.pending {
            if *written == bytes.len() {
                self.pending = None;
                break;
            }
            match Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]) {
                Poll::Ready(Ok(0)) => {
                    return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
                }
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(err)) => return Poll::Ready(Err(err)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonErrors<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonErrors<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = &mut *self;
        std::task::ready!(this.poll_pending(cx))?;
        if let Some(replacement) = automatic_error(buf) {
            this.pending = Some((replacement, 0));
            // Taken: what is left of it goes out on the next write or flush.
            return match this.poll_pending(cx) {
                Poll::Ready(Err(err)) => Poll::Ready(Err(err)),
                _ => Poll::Ready(Ok(buf.len())),
            };
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        std::task::ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        std::task::ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
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
    let response = app.call(request).await?;
    let response = finish(response, &path, settings).await;
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
/// below the handlers (the body limit, the request timeout, the extractors'
/// rejections: an undecodable path, say).
async fn finish(
    response: Response<axum::body::Body>,
    path: &str,
    settings: Settings,
) -> Response<axum::body::Body> {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    let mut response = if (status.is_client_error() || status.is_server_error()) && !is_json {
        as_json(response, settings).await
    } else {
        response
    };
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
    response
}

/// An error answer made below the handlers, rewritten with a JSON body: its
/// text (escaped, bounded), or what its status means.
async fn as_json(
    response: Response<axum::body::Body>,
    settings: Settings,
) -> Response<axum::body::Body> {
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string())
        .unwrap_or_default();
    let message = match parts.status {
        StatusCode::PAYLOAD_TOO_LARGE => "the request body is too large".to_string(),
        StatusCode::REQUEST_TIMEOUT => format!(
            "the request took longer than {} s",
            settings.request_timeout.as_secs_f64()
        ),
        _ if !text.is_empty() => crate::error::bounded_message(&text),
        status => status
            .canonical_reason()
            .unwrap_or("error")
            .to_ascii_lowercase(),
    };
    let body = serde_json::json!({ "error": message }).to_string();
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(body))
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
    fn failed_accepts_back_off_to_a_second_and_recover_at_once() {
        let mut backoff = AcceptBackoff::default();
        let err = std::io::Error::from_raw_os_error(24);
        let delays: Vec<u64> = (0..9)
            .map(|_| backoff.failed(&err).as_millis() as u64)
            .collect();
        assert_eq!(delays, [10, 20, 40, 80, 160, 320, 640, 1000, 1000]);
        assert_eq!(backoff.failures, 9);
        backoff.recovered();
        assert_eq!(backoff.failed(&err), AcceptBackoff::FIRST);
    }

    #[test]
    fn the_connection_cap_keeps_within_a_quarter_of_the_descriptors() {
        assert_eq!(connection_cap(64, 1_048_576), 64);
        assert_eq!(connection_cap(64, 256), 64);
        assert_eq!(connection_cap(64, 128), 32);
        assert_eq!(connection_cap(64, 10), 8);
    }

    #[test]
    fn the_soft_descriptor_limit_is_raised_to_the_hard_one() {
        let limit = raise_descriptor_limit().unwrap();
        assert!(
            limit.before <= limit.soft && limit.soft <= limit.hard,
            "{limit:?}"
        );
        assert_eq!(
            limit.soft, limit.hard,
            "raised to the hard limit: {limit:?}"
        );
    }

    #[test]
    fn hyper_automatic_errors_are_given_json_bodies() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Thu, 03 Dec 2026 18:00:00 GMT\r\n\r\n";
        let replaced = String::from_utf8(automatic_error(head).unwrap()).unwrap();
        assert!(replaced.starts_with("HTTP/1.1 431 "), "{replaced}");
        assert!(replaced.contains("content-type: application/json"));
        let body = replaced.split("\r\n\r\n").nth(1).unwrap();
        let length: usize = replaced
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(body.len(), length);
        let value: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(value["error"].as_str().unwrap().contains("headers"));
        // Answers with a body, and other statuses, pass unchanged.
        assert!(
            automatic_error(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n").is_none()
        );
        assert!(automatic_error(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(automatic_error(b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\n").is_none());
    }

    #[test]
    fn logged_paths_are_bounded() {
        let long = format!("/api/rooms/{}", "A".repeat(10_000));
        assert_eq!(shown_path(&long).len(), 120);
        assert_eq!(shown_path("/api/games"), "/api/games");
    }
}
