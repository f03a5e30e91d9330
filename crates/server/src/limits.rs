//! Per-address rate limits: token buckets, one per (address, kind of request).
//! A five-letter code space can be scanned; room creation can be spammed.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The requests that are limited, each with its own bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    CreateRoom,
    Join,
    /// Reading a room by its code (state, events, record).
    Lookup,
    /// A lookup of a code that does not exist: the scanning signature.
    Miss,
}

/// A rate: `burst` requests at once, refilled at `per_minute`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub per_minute: f64,
    pub burst: f64,
}

/// The rates of every kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rates {
    pub create_room: Rate,
    pub join: Rate,
    pub lookup: Rate,
    pub miss: Rate,
}

impl Default for Rates {
    fn default() -> Rates {
        Rates {
            create_room: Rate {
                per_minute: 30.0,
                burst: 10.0,
            },
            join: Rate {
                per_minute: 60.0,
                burst: 20.0,
            },
            lookup: Rate {
                per_minute: 600.0,
                burst: 120.0,
            },
            miss: Rate {
                per_minute: 20.0,
                burst: 10.0,
            },
        }
    }
}

impl Kind {
    /// What the limit counts, for the refusal's message.
    pub fn counts(self) -> &'static str {
        match self {
            Kind::CreateRoom => "new rooms (created, rematched or carried over)",
            Kind::Join => "joins, offers and checks",
            Kind::Lookup => "room reads",
            Kind::Miss => "unknown room codes",
        }
    }
}

impl Rate {
    /// The rate in words: "10 at once, then one every 2 s".
    pub fn describe(&self) -> String {
        let pace = if self.per_minute >= 60.0 {
            format!(
                "{} a second",
                (self.per_minute / 60.0 * 10.0).round() / 10.0
            )
        } else if self.per_minute > 0.0 {
            format!(
                "one every {} s",
                (60.0 / self.per_minute * 10.0).round() / 10.0
            )
        } else {
            "none after that".to_string()
        };
        format!("{} at once, then {pace}", self.burst)
    }
}

impl Rates {
    /// Practically unlimited (load tests, local use).
    pub fn unlimited() -> Rates {
        let open = Rate {
            per_minute: 1e9,
            burst: 1e9,
        };
        Rates {
            create_room: open,
            join: open,
            lookup: open,
            miss: open,
        }
    }

    pub fn of(&self, kind: Kind) -> Rate {
        match kind {
            Kind::CreateRoom => self.create_room,
            Kind::Join => self.join,
            Kind::Lookup => self.lookup,
            Kind::Miss => self.miss,
        }
    }
}

/// The unit that per-address limits count: an IPv4 address, or an IPv6 /64
/// (one customer's network: its holder can use any address in it, so
/// counting addresses one by one would limit nothing).
pub fn client_key(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let prefix = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(prefix.into())
            }
        },
    }
}

struct Bucket {
    tokens: f64,
    updated: Instant,
}

/// The buckets of every address.
pub struct Limiter {
    rates: Rates,
    buckets: Mutex<HashMap<(IpAddr, Kind), Bucket>>,
}

/// Buckets are forgotten after this long untouched (they are full by then).
const FORGET_AFTER: Duration = Duration::from_secs(600);

impl Limiter {
    pub fn new(rates: Rates) -> Limiter {
        Limiter {
            rates,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `kind` from `address`'s bucket; `false` when empty.
    pub fn allow(&self, address: IpAddr, kind: Kind) -> bool {
        self.take(address, kind, true)
    }

    /// Whether a request would be allowed, without taking a token.
    pub fn would_allow(&self, address: IpAddr, kind: Kind) -> bool {
        self.take(address, kind, false)
    }

    /// Seconds until `kind`'s bucket holds a token again, at worst: the
    /// `Retry-After` of a refusal.
    pub fn retry_after(&self, kind: Kind) -> u64 {
        let rate = self.rates.of(kind);
        if rate.per_minute <= 0.0 {
            return 60;
        }
        (60.0 / rate.per_minute).ceil().clamp(1.0, 3600.0) as u64
    }

    fn take(&self, address: IpAddr, kind: Kind, consume: bool) -> bool {
        let address = client_key(address);
        let rate = self.rates.of(kind);
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            buckets.retain(|_, b| now.duration_since(b.updated) < FORGET_AFTER);
        }
        let bucket = buckets.entry((address, kind)).or_insert(Bucket {
            tokens: rate.burst,
            updated: now,
        });
        let refill = now.duration_since(bucket.updated).as_secs_f64() * rate.per_minute / 60.0;
        bucket.tokens = (bucket.tokens + refill).min(rate.burst);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            if consume {
                bucket.tokens -= 1.0;
            }
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_count_ipv4_addresses_and_ipv6_networks() {
        let key = |text: &str| client_key(text.parse().unwrap()).to_string();
        assert_eq!(key("10.1.2.3"), "10.1.2.3");
        assert_eq!(key("::ffff:10.1.2.3"), "10.1.2.3");
        assert_eq!(key("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::");
        assert_eq!(key("2001:db8:1:2::"), "2001:db8:1:2::");
    }

    #[test]
    fn a_burst_then_refusal_per_address_and_kind() {
        let rates = Rates {
            create_room: Rate {
                per_minute: 1.0,
                burst: 3.0,
            },
            ..Rates::default()
        };
        let limiter = Limiter::new(rates);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        for _ in 0..3 {
            assert!(limiter.allow(a, Kind::CreateRoom));
        }
        assert!(!limiter.allow(a, Kind::CreateRoom));
        assert!(
            limiter.allow(b, Kind::CreateRoom),
            "other addresses are not affected"
        );
        assert!(limiter.allow(a, Kind::Join), "other kinds are not affected");
        assert!(!limiter.would_allow(a, Kind::CreateRoom));
        assert_eq!(limiter.retry_after(Kind::CreateRoom), 60);
        // An IPv6 network's addresses share one allowance.
        let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let same_net: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let other_net: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        for _ in 0..3 {
            assert!(limiter.allow(one, Kind::CreateRoom));
        }
        assert!(!limiter.allow(same_net, Kind::CreateRoom));
        assert!(limiter.allow(other_net, Kind::CreateRoom));
        assert_eq!(limiter.retry_after(Kind::Lookup), 1);
    }

    #[test]
    fn rates_read_as_words() {
        let rates = Rates::default();
        assert_eq!(
            rates.create_room.describe(),
            "10 at once, then one every 2 s"
        );
        assert_eq!(rates.lookup.describe(), "120 at once, then 10 a second");
    }
}
