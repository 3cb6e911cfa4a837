//! A message's Date header as the `date` column writes it (`dates.iso`: UTC, ISO 8601 with a
//! "Z"), for the one form nearly every message writes (`dates._USUAL`: RFC 5322's date-time with
//! a day, a month's name, a 4-digit year and a numeric zone). Every other text, and any the
//! usual form reads but Python's `datetime` refuses, is left to Python (None): `email.utils`
//! reads the rest there, as it does for the Python core.

/// Python's `str.isspace` (what `\s` and `str.strip` take): Unicode's White_Space, and the
/// ASCII information separators U+001C to U+001F, which Python counts too.
pub fn python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `str.strip()` of Python: the Date header as written (the `date_header` column).
pub fn python_stripped(text: &str) -> &str {
    text.trim_matches(python_space)
}

const MONTHS: [&[u8; 3]; 12] =
    [b"jan", b"feb", b"mar", b"apr", b"may", b"jun", b"jul", b"aug", b"sep", b"oct", b"nov", b"dec"];

/// `dates.iso(date)` where `dates._usual` reads `date` (an ASCII text only: `\s` and `\d` are
/// Unicode's in Python); None where Python must say.
pub fn iso(date: &str) -> Option<String> {
    if !date.is_ascii() {
        return None;
    }
    let mut at = Reader { text: date.as_bytes(), at: 0 };
    at.spaces();
    // `(?:[A-Za-z]{3},\s*)?`: a day's name (a digit follows it, never a letter: no backtracking).
    if at.letters(3).is_some() {
        at.byte(b',')?;
        at.spaces();
    }
    let day = at.number(1, 2)?;
    at.byte(b' ')?;
    let month = at.letters(3)?.to_ascii_lowercase();
    let month = MONTHS.iter().position(|name| name[..] == month[..])? + 1;
    at.byte(b' ')?;
    let year = at.number(4, 4)?;
    at.byte(b' ')?;
    let hour = at.number(2, 2)?;
    at.byte(b':')?;
    let minute = at.number(2, 2)?;
    let second = if at.peek() == Some(b':') {
        at.at += 1;
        at.number(2, 2)?
    } else {
        0
    };
    at.byte(b' ')?;
    let sign = match at.peek()? {
        b'+' => -1,
        b'-' => 1,
        _ => return None,
    };
    at.at += 1;
    let (zone_hours, zone_minutes) = (at.number(2, 2)?, at.number(2, 2)?);
    // `\s*(?:\([^()]*\)\s*)?` to the end.
    at.spaces();
    if at.peek() == Some(b'(') {
        at.at += 1;
        while let Some(byte) = at.peek() {
            if byte == b'(' || byte == b')' {
                break;
            }
            at.at += 1;
        }
        at.byte(b')')?;
        at.spaces();
    }
    if at.at != date.len() || year < 100 {
        return None; // (email.utils reads "0099" as 1999: Python's)
    }
    // `datetime(...)`'s checks: a time it refuses is Python's to try again (`email.utils`).
    if !(1..=days_in(year, month)).contains(&day) || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let seconds = (days_from_civil(year, month, day) * 24 + hour) * 3600
        + minute * 60
        + second
        + sign * (zone_hours * 3600 + zone_minutes * 60);
    let (days, of_day) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (year, month, day) = civil_from_days(days);
    if !(1..=9999).contains(&year) {
        return None; // (Python's OverflowError: it says what then)
    }
    let (hour, minute, second) = (of_day / 3600, of_day % 3600 / 60, of_day % 60);
    Some(format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}Z"))
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn spaces(&mut self) {
        while self.peek().is_some_and(|byte| python_space(char::from(byte))) {
            self.at += 1;
        }
    }

    fn byte(&mut self, wanted: u8) -> Option<()> {
        (self.peek()? == wanted).then(|| self.at += 1)
    }

    /// `count` ASCII letters, taken only if all are there.
    fn letters(&mut self, count: usize) -> Option<&[u8]> {
        let found = self.text.get(self.at..self.at + count)?;
        if !found.iter().all(u8::is_ascii_alphabetic) {
            return None;
        }
        self.at += count;
        Some(found)
    }

    /// `\d{least,most}`, greedy: a number of `least` to `most` digits.
    fn number(&mut self, least: usize, most: usize) -> Option<i64> {
        let mut value = 0;
        let mut count = 0;
        while count < most {
            match self.peek() {
                Some(byte) if byte.is_ascii_digit() => value = value * 10 + i64::from(byte - b'0'),
                _ => break,
            }
            self.at += 1;
            count += 1;
        }
        (count >= least).then_some(value)
    }
}

fn leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in(year: i64, month: usize) -> i64 {
    match month {
        2 if leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: usize, day: i64) -> i64 {
    let month = i64::try_from(month).unwrap_or(1);
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let of_era = year - era * 400;
    let of_year = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day - 1;
    let of_era_days = of_era * 365 + of_era / 4 - of_era / 100 + of_year;
    era * 146_097 + of_era_days - 719_468
}

/// The date of a day since 1970-01-01 (`civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let of_era = days - era * 146_097;
    let year_of_era = (of_era - of_era / 1460 + of_era / 36_524 - of_era / 146_096) / 365;
    let of_year = of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted = (5 * of_year + 2) / 153;
    let day = of_year - (153 * shifted + 2) / 5 + 1;
    let month = if shifted < 10 { shifted + 3 } else { shifted - 9 };
    (year_of_era + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usual_form() {
        assert_eq!(iso("Mon, 3 Feb 2003 10:20:30 +0100").as_deref(), Some("2003-02-03T09:20:30Z"));
        assert_eq!(iso("  03 feb 2003 23:50 -0130 (EST)  ").as_deref(), Some("2003-02-04T01:20:00Z"));
        assert_eq!(iso("1 Jan 0100 00:10 +0100").as_deref(), Some("0099-12-31T23:10:00Z"));
        assert_eq!(iso("31 Dec 9999 23:59:59 -0001"), None);
        assert_eq!(iso("29 Feb 2000 00:00:00 +0000").as_deref(), Some("2000-02-29T00:00:00Z"));
        assert_eq!(iso("1 Mar 2000 00:00:00 +0001").as_deref(), Some("2000-02-29T23:59:00Z"));
    }

    #[test]
    fn left_to_python() {
        for date in [
            "",
            "29 Feb 1900 00:00:00 +0000",
            "1 Jan 0099 00:00 +0000",
            "1 Jan 2000 24:00 +0000",
            "1 Jan 2000 10:00:60 +0000",
            "1 Foo 2000 10:00 +0000",
            "1 Jan 2000 10:00 EST",
            "1 Jan 2000 10:00 +0000 (a (b))",
            "1 Jan 2000 10:00 +0000 x",
            "Mon 1 Jan 2000 10:00 +0000",
            "123 Jan 2000 10:00 +0000",
            "1 Jan 2000 10:00 +0000\u{a0}",
        ] {
            assert_eq!(iso(date), None, "{date:?}");
        }
    }

    #[test]
    fn stripped_as_python() {
        assert_eq!(python_stripped("\u{1c} x \u{3000}\t"), "x");
    }
}
