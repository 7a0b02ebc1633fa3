//! Moves written the way players and gnubg write them.
//!
//! [`format_steps`] writes gnubg 1.07's notation exactly as its `hint` and
//! `show` commands do (a port of the rules of gnubg's `FormatMove`): steps in
//! decreasing order of source, the steps of one checker joined (`13/7 7/6` is
//! `13/6`) unless it hits on the way (`24/18*/14`), identical checker paths
//! counted (`8/2(2)`), a `*` after the first landing on each point where the
//! opponent had a checker, `bar` for 25 and `off` for 0.
//!
//! [`parse`] reads what players type: gnubg's notation, `-` for `/`, `b`/`bar`
//! and `o`/`off`/`0`, `*` or not, `(n)` repeats, spaces anywhere between
//! tokens. It never panics and bounds its input.

/// The bar, counted for the player whose checker moves.
pub const BAR_POINT: u8 = 25;
/// Borne off.
pub const OFF_POINT: u8 = 0;
/// Longest move text [`parse`] reads.
pub(crate) const MAX_MOVE_TEXT: usize = 200;

/// One checker moving one die's worth (or, in a free move, any distance), in
/// points counted for the player who moves: 25 is the bar, 0 is off.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Step {
    pub from: u8,
    pub to: u8,
}

/// A checker's path as typed: the points it touches (`24/18*/14` is
/// `[24, 18, 14]`), played `count` times (`(2)`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypedPath {
    pub points: Vec<u8>,
    pub count: u8,
}

/// A move as typed: checker paths in the order written. Hits (`*`) are not
/// kept: they follow from the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct TypedMove {
    pub paths: Vec<TypedPath>,
}

impl TypedMove {
    /// Single-hop steps as a move of one checker per step (a file's move as
    /// written, before it is checked against the dice).
    pub fn from_steps(steps: &[Step]) -> TypedMove {
        TypedMove {
            paths: steps
                .iter()
                .map(|s| TypedPath {
                    points: vec![s.from, s.to],
                    count: 1,
                })
                .collect(),
        }
    }

    /// Each hop of each checker, repeated by its count, in written order.
    pub fn hops(&self) -> Vec<Step> {
        let mut hops = Vec::new();
        for path in &self.paths {
            for _ in 0..path.count {
                for w in path.points.windows(2) {
                    hops.push(Step {
                        from: w[0],
                        to: w[1],
                    });
                }
            }
        }
        hops
    }

    /// Number of checkers the move names (counting repeats).
    pub fn checkers(&self) -> usize {
        self.paths.iter().map(|p| usize::from(p.count)).sum()
    }
}

/// Why move text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("no move given (write it as gnubg does, e.g. 24/21 13/9)")]
    Empty,
    #[error("the move text is {0} characters; at most 200 are read")]
    TooLong(usize),
    #[error(
        "unexpected {found:?} at character {at}; moves look like 24/21 13/9, bar/22*, 6/off, 8/2(2)"
    )]
    Unexpected { found: char, at: usize },
    #[error("point {value} at character {at} is not a point: use 1–24, bar (25) or off (0)")]
    BadPoint { value: u32, at: usize },
    #[error(
        "{text:?} at character {at} names only one point; a move goes from a point to another, like 13/7"
    )]
    LonePoint { text: String, at: usize },
    #[error("the repeat ({count}) at character {at} must be 1 to 4")]
    BadCount { count: u32, at: usize },
    #[error("the move names {0} checker steps; a move is at most four")]
    TooManySteps(usize),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Token {
    Point(u8),
    Sep,
    Star,
    Count(u8),
}

fn lex(text: &str) -> Result<Vec<(Token, usize)>, MoveError> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let at = i + 1;
        if c.is_whitespace() || c == ',' {
            i += 1;
        } else if c == '/' || c == '-' {
            tokens.push((Token::Sep, at));
            i += 1;
        } else if c == '*' {
            tokens.push((Token::Star, at));
            i += 1;
        } else if c.is_ascii_digit() {
            let mut value: u32 = 0;
            while i < chars.len() && chars[i].is_ascii_digit() {
                value = value
                    .saturating_mul(10)
                    .saturating_add(chars[i] as u32 - '0' as u32);
                i += 1;
            }
            if value > 25 {
                return Err(MoveError::BadPoint { value, at });
            }
            tokens.push((Token::Point(value as u8), at));
        } else if c == '(' {
            i += 1;
            let mut value: u32 = 0;
            let mut digits = 0;
            while i < chars.len() && chars[i].is_ascii_digit() {
                value = value
                    .saturating_mul(10)
                    .saturating_add(chars[i] as u32 - '0' as u32);
                digits += 1;
                i += 1;
            }
            if digits == 0 || i >= chars.len() || chars[i] != ')' {
                let found = chars.get(i).copied().unwrap_or(' ');
                return Err(MoveError::Unexpected { found, at: i + 1 });
            }
            i += 1;
            if !(1..=4).contains(&value) {
                return Err(MoveError::BadCount { count: value, at });
            }
            tokens.push((Token::Count(value as u8), at));
        } else if c.is_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_alphabetic() {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect::<String>().to_lowercase();
            let point = match word.as_str() {
                "b" | "bar" => BAR_POINT,
                "o" | "off" => OFF_POINT,
                _ => return Err(MoveError::Unexpected { found: c, at }),
            };
            tokens.push((Token::Point(point), at));
        } else {
            return Err(MoveError::Unexpected { found: c, at });
        }
    }
    Ok(tokens)
}

/// Reads a move as players type it. Never panics; refuses text over
/// [`MAX_MOVE_TEXT`] characters and moves of more than four steps.
pub fn parse(text: &str) -> Result<TypedMove, MoveError> {
    let length = text.chars().count();
    if length > MAX_MOVE_TEXT {
        return Err(MoveError::TooLong(length));
    }
    let tokens = lex(text)?;
    if tokens.is_empty() {
        return Err(MoveError::Empty);
    }
    let mut paths: Vec<TypedPath> = Vec::new();
    let mut current: Option<(TypedPath, usize)> = None;
    // After a separator a point must follow.
    let mut want_point = false;
    let finish =
        |path: Option<(TypedPath, usize)>, paths: &mut Vec<TypedPath>| -> Result<(), MoveError> {
            if let Some((path, at)) = path {
                if path.points.len() < 2 {
                    return Err(MoveError::LonePoint {
                        text: path.points[0].to_string(),
                        at,
                    });
                }
                paths.push(path);
            }
            Ok(())
        };
    for (token, at) in tokens {
        match token {
            Token::Point(p) => {
                if want_point {
                    if let Some((path, _)) = current.as_mut() {
                        path.points.push(p);
                    }
                    want_point = false;
                } else {
                    finish(current.take(), &mut paths)?;
                    current = Some((
                        TypedPath {
                            points: vec![p],
                            count: 1,
                        },
                        at,
                    ));
                }
            }
            Token::Sep => {
                if want_point || current.is_none() {
                    return Err(MoveError::Unexpected { found: '/', at });
                }
                want_point = true;
            }
            Token::Star => {
                if want_point || current.is_none() {
                    return Err(MoveError::Unexpected { found: '*', at });
                }
            }
            Token::Count(n) => match current.as_mut() {
                Some((path, _)) if !want_point && path.count == 1 => path.count = n,
                _ => return Err(MoveError::Unexpected { found: '(', at }),
            },
        }
        let steps: usize = paths
            .iter()
            .chain(current.as_ref().map(|(p, _)| p))
            .map(|p| usize::from(p.count) * p.points.len().saturating_sub(1))
            .sum();
        if steps > 4 {
            return Err(MoveError::TooManySteps(steps));
        }
    }
    if want_point {
        return Err(MoveError::Unexpected {
            found: '/',
            at: length,
        });
    }
    finish(current.take(), &mut paths)?;
    Ok(TypedMove { paths })
}

fn write_point(out: &mut String, point: u8) {
    match point {
        OFF_POINT => out.push_str("off"),
        BAR_POINT => out.push_str("bar"),
        p => {
            if p >= 10 {
                out.push(char::from(b'0' + p / 10));
            }
            out.push(char::from(b'0' + p % 10));
        }
    }
}

/// Writes steps in gnubg 1.07's notation. `opponent_before(p)` says whether
/// the opponent had a checker on the mover's point `p` (1–24) before the move:
/// gnubg marks hits from the board before the move.
pub(crate) fn format_steps(steps: &[Step], opponent_before: impl Fn(u8) -> bool) -> String {
    // Each row is a checker path: up to four steps of one checker hitting at
    // every intermediate point touch five points.
    #[derive(Clone, Copy)]
    struct Row {
        points: [u8; 6],
        len: usize,
        live: bool,
        count: u8,
    }
    impl Row {
        fn last(&self) -> u8 {
            self.points[self.len - 1]
        }
        fn path(&self) -> &[u8] {
            &self.points[..self.len]
        }
    }
    let mut rows = [Row {
        points: [0; 6],
        len: 2,
        live: false,
        count: 1,
    }; 4];
    let n = steps.len().min(4);
    for (row, s) in rows.iter_mut().zip(steps) {
        row.points[0] = s.from;
        row.points[1] = s.to;
        row.live = true;
    }
    // Decreasing source, then decreasing destination (gnubg's qsort).
    rows[..n].sort_by(|a, b| {
        b.points[0]
            .cmp(&a.points[0])
            .then(b.points[1].cmp(&a.points[1]))
    });
    for i in 0..n {
        for j in i + 1..n {
            if !(rows[i].live && rows[j].live) {
                continue;
            }
            let dest = rows[i].last();
            if dest == rows[j].points[0] {
                let next = rows[j].points[1];
                let row = &mut rows[i];
                if dest != OFF_POINT && dest != BAR_POINT && opponent_before(dest) {
                    if row.len < row.points.len() {
                        row.points[row.len] = next;
                        row.len += 1;
                    }
                } else {
                    row.points[row.len - 1] = next;
                }
                rows[j].live = false;
            }
        }
    }
    // Identical paths are one path with a count.
    for i in 0..n {
        for j in i + 1..n {
            if rows[i].live && rows[j].live && rows[i].path() == rows[j].path() {
                rows[i].count += 1;
                rows[j].live = false;
            }
        }
    }
    let mut out = String::with_capacity(24);
    let mut hit_marked: u32 = 0;
    for row in rows[..n].iter().filter(|r| r.live) {
        if !out.is_empty() {
            out.push(' ');
        }
        let path = row.path();
        write_point(&mut out, path[0]);
        let last = path.len() - 1;
        for &mid in &path[1..last] {
            out.push('/');
            write_point(&mut out, mid);
            out.push('*');
            hit_marked |= 1 << mid;
        }
        let dest = path[last];
        out.push('/');
        write_point(&mut out, dest);
        if (1..=24).contains(&dest) && opponent_before(dest) && hit_marked & (1 << dest) == 0 {
            out.push('*');
            hit_marked |= 1 << dest;
        }
        if row.count > 1 {
            out.push('(');
            out.push(char::from(b'0' + row.count));
            out.push(')');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(pairs: &[(u8, u8)]) -> Vec<Step> {
        pairs.iter().map(|&(from, to)| Step { from, to }).collect()
    }

    #[test]
    fn joins_one_checker_and_counts_repeats() {
        let none = |_| false;
        assert_eq!(format_steps(&steps(&[(13, 7), (7, 6)]), none), "13/6");
        assert_eq!(
            format_steps(&steps(&[(6, 4), (8, 6), (8, 6), (6, 4)]), none),
            "8/4(2)"
        );
        assert_eq!(
            format_steps(&steps(&[(13, 9), (24, 21)]), none),
            "24/21 13/9"
        );
        assert_eq!(format_steps(&steps(&[(6, 0), (6, 0)]), none), "6/off(2)");
        assert_eq!(format_steps(&steps(&[(25, 22)]), |p| p == 22), "bar/22*");
    }

    #[test]
    fn a_hit_on_the_way_keeps_the_intermediate_point() {
        let blot18 = |p| p == 18;
        assert_eq!(
            format_steps(&steps(&[(24, 18), (18, 14)]), blot18),
            "24/18*/14"
        );
        assert_eq!(
            format_steps(&steps(&[(8, 5), (6, 5)]), |p| p == 5),
            "8/5* 6/5"
        );
    }

    #[test]
    fn reads_what_players_type() {
        let m = parse(" 13-7  8/7 ").unwrap();
        assert_eq!(m.hops(), steps(&[(13, 7), (8, 7)]));
        assert_eq!(parse("b/20").unwrap().hops(), steps(&[(25, 20)]));
        assert_eq!(parse("BAR/20*").unwrap().hops(), steps(&[(25, 20)]));
        assert_eq!(parse("6/0").unwrap().hops(), steps(&[(6, 0)]));
        assert_eq!(parse("6/off").unwrap(), parse("6/0").unwrap());
        assert_eq!(parse("13/7(2)").unwrap().hops(), steps(&[(13, 7), (13, 7)]));
        assert_eq!(
            parse("24/18*/14").unwrap().hops(),
            steps(&[(24, 18), (18, 14)])
        );
        assert_eq!(parse("13 / 7 (2)").unwrap().checkers(), 2);
    }

    #[test]
    fn bad_text_is_named() {
        assert_eq!(parse("  "), Err(MoveError::Empty));
        assert_eq!(
            parse("13"),
            Err(MoveError::LonePoint {
                text: "13".into(),
                at: 1
            })
        );
        assert_eq!(
            parse("13/27"),
            Err(MoveError::BadPoint { value: 27, at: 4 })
        );
        assert_eq!(
            parse("13/x"),
            Err(MoveError::Unexpected { found: 'x', at: 4 })
        );
        assert_eq!(
            parse("13/7(5)"),
            Err(MoveError::BadCount { count: 5, at: 5 })
        );
        assert_eq!(parse("13/7(3) 6/5(2)"), Err(MoveError::TooManySteps(5)));
        assert!(matches!(parse("13/"), Err(MoveError::Unexpected { .. })));
        assert!(matches!(
            parse(&"1".repeat(300)),
            Err(MoveError::TooLong(300))
        ));
    }
}
