//! Reading newline-terminated (or, for DamExchange, NUL-terminated) messages
//! from a byte stream without trusting it: a bounded length, any bytes (decoded
//! leniently), and clear errors.

use std::io::{self, BufRead, BufReader};
use std::net::TcpStream;
use std::time::Instant;

/// Why no line could be read.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error("the connection was closed")]
    Closed,
    #[error("no message within the time allowed")]
    TimedOut,
    #[error("a line longer than {0} bytes")]
    TooLong(usize),
    #[error("read error: {0}")]
    Io(#[from] io::Error),
}

/// Reads one line (up to `\n`, which is not returned) of at most `limit` bytes.
/// The trailing `\r` and NUL bytes the Java arbiter puts before the newline are
/// removed; the rest is decoded as UTF-8, or as Latin-1 when it is not UTF-8
/// (the course's Java programs may write `Egalité` either way). An over-long
/// line is consumed up to its newline and reported.
pub fn read_line(reader: &mut impl BufRead, limit: usize) -> Result<String, LineError> {
    read_line_inner(reader, b'\n', limit, |_| Ok(()))
}

/// [`read_line`] from a socket, giving up at `deadline` however slowly the
/// bytes trickle in.
pub fn read_line_until(
    reader: &mut BufReader<TcpStream>,
    limit: usize,
    deadline: Instant,
) -> Result<String, LineError> {
    read_line_inner(reader, b'\n', limit, |reader| wait_until(reader, deadline))
}

/// Reads one NUL-terminated message (the DamExchange framing) of at most
/// `limit` bytes from a socket, giving up at `deadline`. Newlines and carriage
/// returns around it are removed (some programs add them); an over-long message
/// is consumed up to its NUL and reported.
pub fn read_message_until(
    reader: &mut BufReader<TcpStream>,
    limit: usize,
    deadline: Instant,
) -> Result<String, LineError> {
    let text = read_line_inner(reader, b'\0', limit, |reader| wait_until(reader, deadline))?;
    Ok(text.trim_matches(['\r', '\n']).to_string())
}

fn wait_until(reader: &mut BufReader<TcpStream>, deadline: Instant) -> Result<(), LineError> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(LineError::TimedOut);
    }
    reader.get_ref().set_read_timeout(Some(left))?;
    Ok(())
}

fn read_line_inner<R: BufRead>(
    reader: &mut R,
    delimiter: u8,
    limit: usize,
    mut before_read: impl FnMut(&mut R) -> Result<(), LineError>,
) -> Result<String, LineError> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        before_read(reader)?;
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err)
                if matches!(
                    err.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Err(LineError::TimedOut);
            }
            Err(err) => return Err(LineError::Io(err)),
        };
        if buffer.is_empty() {
            // End of stream: a last unterminated line still counts.
            if bytes.is_empty() && !too_long {
                return Err(LineError::Closed);
            }
            break;
        }
        let (chunk, found) = match buffer.iter().position(|&b| b == delimiter) {
            Some(end) => (&buffer[..end], Some(end + 1)),
            None => (buffer, None),
        };
        if !too_long {
            if bytes.len() + chunk.len() > limit {
                too_long = true;
                bytes.clear();
            } else {
                bytes.extend_from_slice(chunk);
            }
        }
        let consumed = found.unwrap_or(buffer.len());
        reader.consume(consumed);
        if found.is_some() {
            break;
        }
    }
    if too_long {
        return Err(LineError::TooLong(limit));
    }
    while matches!(bytes.last(), Some(b'\r' | b'\0')) {
        bytes.pop();
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => err.into_bytes().iter().map(|&b| b as char).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn strips_nul_and_carriage_return() {
        let mut input = Cursor::new(b"Blanc\0\nJOUEUR Noir\0\r\nMOUVEMENT E\n".to_vec());
        assert_eq!(read_line(&mut input, 100).unwrap(), "Blanc");
        assert_eq!(read_line(&mut input, 100).unwrap(), "JOUEUR Noir");
        assert_eq!(read_line(&mut input, 100).unwrap(), "MOUVEMENT E");
        assert!(matches!(read_line(&mut input, 100), Err(LineError::Closed)));
    }

    #[test]
    fn latin1_is_accepted() {
        let mut input = Cursor::new(b"FIN! Egalit\xe9\0\n".to_vec());
        assert_eq!(read_line(&mut input, 100).unwrap(), "FIN! Egalité");
        let mut input = Cursor::new("FIN! Egalité\0\n".as_bytes().to_vec());
        assert_eq!(read_line(&mut input, 100).unwrap(), "FIN! Egalité");
    }

    #[test]
    fn overlong_lines_are_skipped_and_reported() {
        let mut data = vec![b'x'; 5000];
        data.extend_from_slice(b"\nnext\n");
        let mut input = std::io::BufReader::with_capacity(64, Cursor::new(data));
        assert!(matches!(
            read_line(&mut input, 100),
            Err(LineError::TooLong(100))
        ));
        assert_eq!(read_line(&mut input, 100).unwrap(), "next");
    }

    #[test]
    fn a_last_line_without_newline_counts() {
        let mut input = Cursor::new(b"B1-D1".to_vec());
        assert_eq!(read_line(&mut input, 100).unwrap(), "B1-D1");
        assert!(matches!(read_line(&mut input, 100), Err(LineError::Closed)));
    }
}
