//! What keeps the class server safe: a connection cap, a rate per connection, idle timeouts, a
//! lockout after wrong codes, and the check that a WebSocket comes from the server's own page.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use axum::http::HeaderMap;

/// The server's limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Pupils' WebSockets open at most (`--max-pupils`), and from one address at most (a class
    /// behind a school's one address fits; one phone cannot fill the class).
    pub connections: usize,
    pub per_address: usize,
    /// The teacher's WebSockets (projectors) open at most: places of their own, so pupils never
    /// shut the teacher out.
    pub teachers: usize,
    /// Connections served HTTP at once (pages, files, a WebSocket until upgraded), in all and
    /// from one address; each must send its request's head within `header_time` and is closed
    /// after `http_time`.
    pub http_connections: usize,
    pub http_per_address: usize,
    pub header_time: Duration,
    pub http_time: Duration,
    /// Messages a connection may send in a burst, and then a second.
    pub burst: u32,
    pub per_second: u32,
    /// A connection that sends nothing this long (not even the answer to the server's ping,
    /// which an open page gives by itself) is closed.
    pub idle: Duration,
    /// How often the server pings each page.
    pub ping: Duration,
    /// Wrong codes from one phone before it is locked out, and for how long (see [`Lockout`]).
    pub tries: u32,
    pub lockout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connections: 400,
            per_address: 200,
            teachers: 4,
            http_connections: 512,
            http_per_address: 256,
            header_time: Duration::from_secs(10),
            http_time: Duration::from_secs(120),
            burst: 30,
            per_second: 10,
            idle: Duration::from_secs(90),
            ping: Duration::from_secs(20),
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

/// Wrong join codes counted in windows of [`Limits::lockout`]: by phone (the page's device id
/// and its address), by address, and over the whole class. A phone that types five wrong codes
/// waits a minute; the phones behind the same address (a school's NAT) do not, until the
/// address has sent six times as many; and however many addresses guess, the class judges at
/// most twenty-four times as many wrong codes a window (every five-letter code in years).
#[derive(Default)]
pub struct Lockout {
    devices: HashMap<(IpAddr, String), Window>,
    addresses: HashMap<IpAddr, Window>,
    all: Window,
}

/// Wrong codes since a moment.
#[derive(Clone, Copy)]
struct Window {
    count: u32,
    since: Instant,
}

impl Default for Window {
    fn default() -> Self {
        Window {
            count: 0,
            since: Instant::now(),
        }
    }
}

impl Window {
    /// The count in the window now (a window past its length starts again).
    fn now(&mut self, length: Duration) -> u32 {
        if self.since.elapsed() >= length {
            *self = Window::default();
        }
        self.count
    }
}

/// The most phones and addresses the lockout keeps count of at once.
const KEPT: usize = 10_000;

impl Lockout {
    /// Why `ip` (the page `device` on it) may not try a code now, if it may not.
    pub fn locked(&mut self, ip: IpAddr, device: &str, limits: &Limits) -> Option<&'static str> {
        let w = limits.lockout;
        if self.all.now(w) >= limits.tries.saturating_mul(24) {
            return Some("too many wrong codes in this class: wait a minute");
        }
        if (self.addresses.get_mut(&ip)).is_some_and(|a| a.now(w) >= limits.tries.saturating_mul(6))
        {
            return Some("too many wrong codes from this network: wait a minute");
        }
        let key = (ip, device.to_string());
        if (self.devices.get_mut(&key)).is_some_and(|d| d.now(w) >= limits.tries) {
            return Some("too many wrong codes: wait a minute");
        }
        None
    }

    /// Counts a wrong code from `ip` (the page `device` on it).
    pub fn wrong(&mut self, ip: IpAddr, device: &str, limits: &Limits) {
        let w = limits.lockout;
        // Bounded: past the windows' length a count is forgotten; a flood of new addresses
        // beyond what is kept counts towards the whole class only (nothing is unlocked by it).
        for map_full in [self.devices.len() >= KEPT, self.addresses.len() >= KEPT] {
            if map_full {
                self.devices.retain(|_, d| d.since.elapsed() < w);
                self.addresses.retain(|_, a| a.since.elapsed() < w);
            }
        }
        self.all.now(w);
        self.all.count += 1;
        let key = (ip, device.chars().take(64).collect());
        if self.devices.len() < KEPT || self.devices.contains_key(&key) {
            let d = self.devices.entry(key).or_default();
            d.now(w);
            d.count += 1;
        }
        if self.addresses.len() < KEPT || self.addresses.contains_key(&ip) {
            let a = self.addresses.entry(ip).or_default();
            a.now(w);
            a.count += 1;
        }
    }
}

/// Whether a request's `Origin` (if any) is the server's own address, as the `Host` header
/// names it, and that `Host` is an address (IPv4, or IPv6 in brackets: the projector lists
/// addresses; a relay's or a hotspot's too) or `localhost`: a page from another site may not
/// open a WebSocket here, nor one from a name of another site's that leads here (DNS rebinding:
/// a page on `evil.example` whose name now points at the laptop).
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get("origin").and_then(|o| o.to_str().ok()) else {
        // Not a browser (a browser always sends one with a WebSocket).
        return true;
    };
    let host = headers.get("host").and_then(|h| h.to_str().ok());
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h) && is_address(h))
}

/// Whether a `Host` (with its port, if any) is an address or `localhost`, not a name.
fn is_address(host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    let name = match host.rsplit_once(':') {
        Some((name, port)) if !name.is_empty() && port.parse::<u16>().is_ok() => name,
        _ => host.as_str(),
    };
    let bracketed = name.strip_prefix('[').and_then(|n| n.strip_suffix(']'));
    name == "localhost"
        || name.parse::<std::net::Ipv4Addr>().is_ok()
        || bracketed.is_some_and(|n| n.parse::<std::net::Ipv6Addr>().is_ok())
}

/// Compares two secrets in time that does not depend on where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}
