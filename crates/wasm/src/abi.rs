//! The module's exports: memory for a request, the call, and its answer.
//!
//! The host writes a UTF-8 JSON request into memory from `plateau_alloc`,
//! calls `plateau_call(ptr, len)`, which returns the answer's length, reads
//! the answer at `plateau_answer()`, and frees the request with
//! `plateau_free`. The answer stays valid until the next call.

#![cfg(all(target_arch = "wasm32", target_os = "unknown"))]

use std::cell::RefCell;

thread_local! {
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Room for a request of `len` bytes.
#[unsafe(no_mangle)]
pub extern "C" fn plateau_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Gives back what [`plateau_alloc`] lent.
///
/// # Safety
/// `ptr` and `len` must be those of one earlier `plateau_alloc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn plateau_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller passes back an allocation of capacity `len.max(1)`.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len.max(1)) });
}

/// Answers the JSON request at `ptr..ptr+len`; returns the answer's length.
///
/// # Safety
/// `ptr..ptr+len` must be initialised memory the host wrote.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn plateau_call(ptr: *const u8, len: usize) -> usize {
    install_panic_report();
    // SAFETY: the host wrote `len` bytes at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let answer = crate::ops::call(&String::from_utf8_lossy(bytes)).into_bytes();
    let size = answer.len();
    ANSWER.with(|slot| *slot.borrow_mut() = answer);
    size
}

/// Where the last answer lies.
#[unsafe(no_mangle)]
pub extern "C" fn plateau_answer() -> *const u8 {
    ANSWER.with(|slot| slot.borrow().as_ptr())
}

/// A panic aborts the module (a trap in the worker): the message goes out
/// first, so the page can say what went wrong rather than "unreachable".
fn install_panic_report() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            crate::report::send(&serde_json::json!({ "panic": info.to_string() }));
        }));
    });
}
