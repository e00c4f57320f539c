//! Small text helpers shared by the screens, the charts and the command line.

/// A whole number with thousands separated: 89,740,449.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A value typed by a user or read from a file, made safe to quote in a one-line message: control
/// characters escaped (no terminal escape sequence gets through), and cut to 60 characters.
/// `n` and a noun, grouped, singular for one: "1 game", "2,000 games".
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", group(n), if n == 1 { one } else { many })
}

pub fn quote(s: &str) -> String {
    quote_at_most(s, 60)
}

/// [`quote`] for a whole message: cut to 1,000 characters.
pub fn quote_long(s: &str) -> String {
    quote_at_most(s, 1000)
}

/// Whether `c` reorders or hides text on a terminal: the bidirectional controls (U+202A–U+202E,
/// U+2066–U+2069, the marks U+200E, U+200F and U+061C) and the invisible joiners and byte-order
/// mark. Echoed raw, a file name holding U+202E shows its end reversed.
pub fn is_format_control(c: char) -> bool {
    matches!(
        c,
        '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200B}'..='\u{200F}'
            | '\u{061C}'
            | '\u{FEFF}'
    )
}

/// `s` with control characters (and [`is_format_control`] characters) escaped, cut to `max`
/// characters.
pub fn quote_at_most(s: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        if c.is_control() || is_format_control(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A year in seconds: past it, a long command is refused rather than started.
pub const YEAR: f64 = 365.25 * 86400.0;

/// A duration for people: 40 s, 3 min, 2.5 h, 4 days, 1 year, 14,337 years.
pub fn duration_text(secs: f64) -> String {
    if secs < 90.0 {
        format!("{secs:.0} s")
    } else if secs < 3600.0 {
        format!("{:.0} min", secs / 60.0)
    } else if secs < 2.0 * 86400.0 {
        format!("{:.1} h", secs / 3600.0)
    } else if secs < YEAR {
        format!("{:.0} days", secs / 86400.0)
    } else {
        let years = (secs / YEAR).round().min(u64::MAX as f64) as u64;
        format!("{} year{}", group(years), if years == 1 { "" } else { "s" })
    }
}

/// A count where a whole one does not fit: 9,999 as it is, then 12.3k, 158.1M, 4.2G.
pub fn short_count(n: u64) -> String {
    if n < 10_000 { group(n) } else { rate(n as f64) }
}

/// Games per second for people: 12, 1.2k, 3.4M (a figure that rounds up to the next unit is
/// written in it: 1.0M, not 1000.0k).
pub fn rate(r: f64) -> String {
    if r >= 999_950_000.0 {
        format!("{:.1}G", r / 1e9)
    } else if r >= 999_950.0 {
        format!("{:.1}M", r / 1e6)
    } else if r >= 999.5 {
        format!("{:.1}k", r / 1e3)
    } else if r >= 10.0 {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

/// A signed figure in the same short form: -12, 1.2k, -3.4M.
pub fn signed_rate(v: f64) -> String {
    let size = if v.abs() < 1e3 {
        format!("{:.0}", v.abs())
    } else {
        rate(v.abs())
    };
    if v < 0.0 { format!("-{size}") } else { size }
}

/// Bytes for people: 812 B, 45.3 kB, 110.2 MB, 2.5 GB.
pub fn bytes(n: u64) -> String {
    let n = n as f64;
    if n < 1e3 {
        format!("{n:.0} B")
    } else if n < 1e6 {
        format!("{:.1} kB", n / 1e3)
    } else if n < 1e9 {
        format!("{:.1} MB", n / 1e6)
    } else {
        format!("{:.1} GB", n / 1e9)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn quote_escapes_and_cuts() {
        assert_eq!(super::quote("a\nb\x1b[2J"), "a\\nb\\u{1b}[2J");
        assert_eq!(super::quote(&"x".repeat(100)).chars().count(), 61);
    }

    #[test]
    fn durations_read_in_the_unit_that_suits_them() {
        assert_eq!(super::duration_text(40.0), "40 s");
        assert_eq!(super::duration_text(180.0), "3 min");
        assert_eq!(super::duration_text(9000.0), "2.5 h");
        assert_eq!(super::duration_text(4.0 * 86400.0), "4 days");
        // Past a year, years: one said as one ("about 1 years" was a refusal's words).
        assert_eq!(super::duration_text(1.2 * super::YEAR), "1 year");
        assert_eq!(super::duration_text(14_337.0 * super::YEAR), "14,337 years");
    }
}
