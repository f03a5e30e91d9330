//! Progress messages from inside a long call (search iterations, tuning
//! generations): handed to the host as they happen, since the worker's event
//! loop is blocked until the call returns.

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    #[link(wasm_import_module = "plateau")]
    unsafe extern "C" {
        /// The worker reads `len` bytes of UTF-8 JSON at `ptr` and posts them on.
        fn report(ptr: *const u8, len: usize);
    }

    pub fn send(message: &str) {
        // SAFETY: the pointer and length describe a live string; the host
        // copies the bytes before returning.
        unsafe { report(message.as_ptr(), message.len()) }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod host {
    use std::cell::RefCell;

    thread_local! {
        pub static SENT: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    }

    pub fn send(message: &str) {
        SENT.with(|sent| sent.borrow_mut().push(message.to_string()));
    }
}

/// Sends one progress message (a JSON object) to the host.
pub(crate) fn send(message: &serde_json::Value) {
    host::send(&message.to_string());
}

/// The messages sent on this thread since the last call (native builds
/// only keep them: for tests).
pub fn take_reports() -> Vec<String> {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        host::SENT.with(|sent| std::mem::take(&mut *sent.borrow_mut()))
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        Vec::new()
    }
}
