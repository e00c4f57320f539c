//! What keeps the class server safe: a connection cap, a rate per connection, idle timeouts, a
//! lockout after wrong codes, and the check that a WebSocket comes from the server's own page.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use axum::http::HeaderMap;

/// The server's limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Open connections at most (pupils and teachers together).
    pub connections: usize,
    /// Messages a connection may send in a burst, and then a second.
    pub burst: u32,
    pub per_second: u32,
    /// A connection that sends nothing this long is closed.
    pub idle: Duration,
    /// Wrong codes from one address before it is locked out, and for how long.
    pub tries: u32,
    pub lockout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connections: 400,
            burst: 30,
            per_second: 10,
            idle: Duration::from_secs(15 * 60),
            tries: 5,
            lockout: Duration::from_secs(60),
        }
    }
}

/// A token bucket: `burst` messages at once, refilled at `per_second`.
pub struct Rate {
    tokens: f64,
    last: Instant,
    burst: f64,
    per_second: f64,
}

impl Rate {
    pub fn new(limits: &Limits) -> Rate {
        Rate {
            tokens: limits.burst as f64,
            last: Instant::now(),
            burst: limits.burst as f64,
            per_second: limits.per_second as f64,
        }
    }
    /// Whether one more message may pass now.
    pub fn allow(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Wrong join codes by address.
#[derive(Default)]
pub struct Lockout {
    wrong: HashMap<IpAddr, (u32, Instant)>,
}

impl Lockout {
    /// Whether `ip` is locked out now.
    pub fn locked(&mut self, ip: IpAddr, limits: &Limits) -> bool {
        match self.wrong.get(&ip) {
            Some(&(n, since)) if n >= limits.tries => {
                if since.elapsed() < limits.lockout {
                    return true;
                }
                self.wrong.remove(&ip);
                false
            }
            _ => false,
        }
    }
    /// Counts a wrong code from `ip`.
    pub fn wrong(&mut self, ip: IpAddr) {
        // Bounded: a flood of addresses cannot grow the map without end.
        if self.wrong.len() > 10_000 {
            self.wrong.clear();
        }
        let e = self.wrong.entry(ip).or_insert((0, Instant::now()));
        e.0 += 1;
        e.1 = Instant::now();
    }
}

/// Whether a request's `Origin` (if any) is the server's own address, as the `Host` header
/// names it: a page from another site may not open a WebSocket here.
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get("origin").and_then(|o| o.to_str().ok()) else {
        // Not a browser (a browser always sends one with a WebSocket).
        return true;
    };
    let host = headers.get("host").and_then(|h| h.to_str().ok());
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

/// Compares two secrets in time that does not depend on where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}
