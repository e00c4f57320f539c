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

#[cfg(test)]
mod tests {
    #[test]
    fn quote_escapes_and_cuts() {
        assert_eq!(super::quote("a\nb\x1b[2J"), "a\\nb\\u{1b}[2J");
        assert_eq!(super::quote(&"x".repeat(100)).chars().count(), 61);
    }
}
