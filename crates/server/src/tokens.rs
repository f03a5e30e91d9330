//! Room codes and seat tokens.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Room code alphabet: no 0/O nor 1/I, so a code read aloud or typed is unambiguous.
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
pub const CODE_LENGTH: usize = 5;

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    // The operating system's generator; failing it is not something to play on.
    if let Err(err) = getrandom::fill(&mut bytes) {
        panic!("the operating system's random generator failed: {err}");
    }
    bytes
}

/// A fresh random room code.
pub fn new_code() -> String {
    random_bytes::<CODE_LENGTH>()
        .iter()
        // 256 is a multiple of the alphabet's 32 letters: no bias.
        .map(|b| CODE_ALPHABET[*b as usize % CODE_ALPHABET.len()] as char)
        .collect()
}

/// Whether `text` could be a room code (upper case letters of the alphabet).
pub fn is_code(text: &str) -> bool {
    text.len() == CODE_LENGTH && text.bytes().all(|b| CODE_ALPHABET.contains(&b))
}

/// A fresh seat token: 128 random bits, as 32 hex digits.
pub fn new_token() -> String {
    random_bytes::<16>()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What is stored instead of a token, so a copy of the database does not hand
/// out seats.
pub fn hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Constant-time comparison of a token with a stored hash.
pub fn matches(token: &str, stored: &[u8; 32]) -> bool {
    hash(token).ct_eq(stored).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_use_the_unambiguous_alphabet() {
        for _ in 0..200 {
            let code = new_code();
            assert!(is_code(&code), "{code}");
            assert!(!code.contains(['0', 'O', '1', 'I']));
        }
        assert!(!is_code("ABCD"));
        assert!(!is_code("abcde"));
        assert!(!is_code("ABCD0"));
    }

    #[test]
    fn tokens_are_128_bits_and_match_only_themselves() {
        let token = new_token();
        assert_eq!(token.len(), 32);
        assert_ne!(token, new_token());
        let stored = hash(&token);
        assert!(matches(&token, &stored));
        assert!(!matches(&new_token(), &stored));
    }
}
