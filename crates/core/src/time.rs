//! A monotonic clock that also runs in a browser.
//!
//! `std::time::Instant::now()` panics on `wasm32-unknown-unknown`, where the
//! standard library has no clock. Native builds use the standard `Instant`;
//! the WebAssembly build asks its host for `performance.now()` through one
//! import (`plateau.now_ms`), which the page's worker provides. Search, the
//! arena and the tuner measure time through this type so one code base runs
//! in both places.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use self::browser::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod browser {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    #[link(wasm_import_module = "plateau")]
    unsafe extern "C" {
        /// Milliseconds from a fixed origin, never going back (`performance.now()`).
        fn now_ms() -> f64;
    }

    /// A point in time, in milliseconds from the host's origin.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct Instant(f64);

    impl Instant {
        pub fn now() -> Instant {
            // SAFETY: the import takes nothing and returns a number; the
            // module cannot be instantiated without it.
            Instant(unsafe { now_ms() })
        }

        pub fn elapsed(&self) -> Duration {
            Instant::now().saturating_duration_since(*self)
        }

        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }

        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64((self.0 - earlier.0).max(0.0) / 1000.0)
        }

        pub fn checked_add(&self, duration: Duration) -> Option<Instant> {
            Some(Instant(self.0 + duration.as_secs_f64() * 1000.0))
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, duration: Duration) -> Instant {
            Instant(self.0 + duration.as_secs_f64() * 1000.0)
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }

    impl Eq for Instant {}

    impl Ord for Instant {
        fn cmp(&self, other: &Instant) -> std::cmp::Ordering {
            self.0.total_cmp(&other.0)
        }
    }

    impl PartialOrd for Instant {
        fn partial_cmp(&self, other: &Instant) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }
}
