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

/// `s` with control characters escaped, cut to `max` characters.
pub fn quote_at_most(s: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A duration for people: 40 s, 3 min, 2.5 h, 4 days.
pub fn duration_text(secs: f64) -> String {
    if secs < 90.0 {
        format!("{secs:.0} s")
    } else if secs < 3600.0 {
        format!("{:.0} min", secs / 60.0)
    } else if secs < 2.0 * 86400.0 {
        format!("{:.1} h", secs / 3600.0)
    } else {
        format!("{:.0} days", secs / 86400.0)
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
    }
}
