//! A match's date as a player reads it: from the file's content where the
//! format has one (.mat `EventDate`, SGF `DT`, XG's own), else from a date
//! in the file's name (`2009Apr08`, `2009-04-08`, `20090408`), else one set
//! by hand (`library date`). Pure: text in, `YYYY-MM-DD` out.

/// Where a match's date came from (`matches.date_from`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateFrom {
    /// The file's own header.
    Content,
    /// A date in the file's name.
    FileName,
    /// Set with `library date`.
    Set,
}

impl DateFrom {
    /// The word kept in the library and shown in JSON.
    pub fn word(self) -> &'static str {
        match self {
            DateFrom::Content => "content",
            DateFrom::FileName => "file name",
            DateFrom::Set => "set",
        }
    }

    pub fn from_word(word: &str) -> Option<DateFrom> {
        match word {
            "content" => Some(DateFrom::Content),
            "file name" => Some(DateFrom::FileName),
            "set" => Some(DateFrom::Set),
            _ => None,
        }
    }
}

/// A date given as `YYYY-MM-DD` that is not one (the text, escaped).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a date: give it as YYYY-MM-DD, such as 2024-01-31")]
pub struct NotADate(pub(crate) String);

/// A date typed by a user: `YYYY-MM-DD`, a real day.
pub fn parse_given(text: &str) -> Result<String, NotADate> {
    let t = text.trim();
    let ok = t.len() == 10
        && t.char_indices().all(|(i, c)| {
            if i == 4 || i == 7 {
                c == '-'
            } else {
                c.is_ascii_digit()
            }
        })
        && ymd(&t[..4], &t[5..7], &t[8..10]).is_some();
    if ok {
        Ok(t.to_owned())
    } else {
        Err(NotADate(bgedit_core::quote::printable(text).into_owned()))
    }
}

/// A file's own date as `YYYY-MM-DD`, when it is written year first with
/// `-`, `.` or `/` between (`2024.01.01`, `2023-11-26 09:30`); other forms
/// are not read.
pub fn normal(text: &str) -> Option<String> {
    let t = text.trim();
    let b = t.as_bytes();
    if b.len() < 10 || !t.is_char_boundary(10) {
        return None;
    }
    let sep = |c: u8| matches!(c, b'-' | b'.' | b'/');
    if !(sep(b[4]) && sep(b[7])) || b.get(10).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    ymd(&t[..4], &t[5..7], &t[8..10])
}

/// A date in a file's name: `2009Apr08` (FIBS's), `2009-04-08` (or with
/// `.` or `_`), `20090408`; the first that is a real day between 1980 and
/// 2099. Digits run together longer than a date are no date.
pub fn from_file_name(name: &str) -> Option<String> {
    let stem = std::path::Path::new(name)
        .file_name()
        .map_or(name.into(), |n| n.to_string_lossy());
    let b = stem.as_bytes();
    (0..b.len()).find_map(|i| {
        // A date starts where a number starts.
        if i > 0 && b[i - 1].is_ascii_digit() {
            return None;
        }
        date_at(&stem[i..])
    })
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// A date that starts `s`, in one of the file-name forms.
fn date_at(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let digits = |from: usize, n: usize| {
        b.len() >= from + n && b[from..from + n].iter().all(u8::is_ascii_digit)
    };
    if !digits(0, 4) || !matches!(&s[..2], "19" | "20") {
        return None;
    }
    let year = &s[..4];
    let ends = |at: usize| !b.get(at).is_some_and(u8::is_ascii_digit);
    // 2009Apr08
    if b.len() >= 9 && s.is_char_boundary(7) {
        let month = s[4..7].to_ascii_lowercase();
        if let Some(m) = MONTHS.iter().position(|n| *n == month)
            && digits(7, 2)
        {
            return ymd(year, &format!("{:02}", m + 1), &s[7..9]);
        }
    }
    // 2009-04-08, 2009.04.08, 2009_04_08
    if b.len() >= 10 && matches!(b[4], b'-' | b'.' | b'_') && b[7] == b[4] && digits(5, 2) {
        if digits(8, 2) && ends(10) {
            return ymd(year, &s[5..7], &s[8..10]);
        }
        return None;
    }
    // 20090408
    if digits(0, 8) && ends(8) {
        return ymd(year, &s[4..6], &s[6..8]);
    }
    None
}

/// `YYYY-MM-DD` when the three are a real day from 1980 to 2099.
fn ymd(y: &str, m: &str, d: &str) -> Option<String> {
    let (y, m, d): (i32, u32, u32) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    if !(1980..=2099).contains(&y) {
        return None;
    }
    chrono::NaiveDate::from_ymd_opt(y, m, d).map(|date| date.format("%Y-%m-%d").to_string())
}

/// A match's date and where it came from: the file's own when it reads as
/// a date, else the file name's.
pub fn of_match(content: Option<&str>, path: &str) -> Option<(String, DateFrom)> {
    if let Some(d) = content.and_then(normal) {
        return Some((d, DateFrom::Content));
    }
    from_file_name(path).map(|d| (d, DateFrom::FileName))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_files_own_date_reads_year_first() {
        assert_eq!(normal("2024.08.10").as_deref(), Some("2024-08-10"));
        assert_eq!(normal("2023-11-26").as_deref(), Some("2023-11-26"));
        assert_eq!(normal("2023/11/26 09.30").as_deref(), Some("2023-11-26"));
        assert_eq!(normal("Mar 3 2019"), None);
        assert_eq!(normal("2023-13-01"), None);
        assert_eq!(normal("2023-02-30"), None);
    }

    #[test]
    fn file_names_carry_dates_in_three_forms() {
        let f = |n: &str| from_file_name(n);
        assert_eq!(
            f("dinaraz-nori-2009Apr082007.txt").as_deref(),
            Some("2009-04-08")
        );
        assert_eq!(
            f("charlot1-charlot2_7p_2025-11-08-2305.mat").as_deref(),
            Some("2025-11-08")
        );
        assert_eq!(f("match_20090408.mat").as_deref(), Some("2009-04-08"));
        assert_eq!(f("dir/2009_04_08 final.sgf").as_deref(), Some("2009-04-08"));
        // Not dates: an ID, a day that does not exist, a number too long.
        assert_eq!(f("1857896.txt"), None);
        assert_eq!(f("m-2009Feb30.txt"), None);
        assert_eq!(f("x200904081.mat"), None);
        assert_eq!(f("game 7 point match.mat"), None);
    }

    #[test]
    fn a_date_given_by_hand_is_a_real_day() {
        assert_eq!(parse_given(" 2024-01-31 ").as_deref(), Ok("2024-01-31"));
        assert!(parse_given("2024-02-30").is_err());
        assert!(
            parse_given("2024-13")
                .unwrap_err()
                .to_string()
                .contains("YYYY-MM-DD")
        );
    }
}
