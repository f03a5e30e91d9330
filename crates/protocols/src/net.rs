//! Connecting to a peer that may not be listening yet.

use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// Connects to `address` (`host:port`), trying again every 100 ms until
/// `timeout` has passed (the other program may start a moment later). The
/// error is the last reason the connection failed.
pub fn connect_with_retry(address: &str, timeout: Duration) -> Result<TcpStream, String> {
    let deadline = Instant::now() + timeout;
    loop {
        let attempt = address
            .to_socket_addrs()
            .map_err(|e| e.to_string())
            .and_then(|mut addrs| addrs.next().ok_or_else(|| "no address".to_string()))
            .and_then(|addr| {
                TcpStream::connect_timeout(&addr, Duration::from_secs(2)).map_err(|e| e.to_string())
            });
        match attempt {
            Ok(stream) => {
                let _ = stream.set_nodelay(true);
                return Ok(stream);
            }
            Err(reason) if Instant::now() >= deadline => return Err(reason),
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}
