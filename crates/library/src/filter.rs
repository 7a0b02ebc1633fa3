//! The filter language of the library panel (`/`) and `bgedit library
//! search`: words separated by spaces, all of which must hold.
//!
//! - `race`, `contact`, `bar`, `money`, `match`, `crawford`, `due`: what the
//!   position is (`due`: due for review);
//! - `cube>=4`, `pips<100`, `diff>20`, `len=7` with `< <= = >= > !=`: the cube
//!   value, the pips of the player on roll, the pip lead of the player on
//!   roll (negative when behind), the match length;
//! - `tag:blitz`, `col:quiz` (or `collection:quiz`);
//! - a match decision's `error>=0.08` (what it gave away by its analysis),
//!   `disagree>=0.05` (how far the engines' best choices are apart by
//!   either engine's numbers, as `library disagreements` kept it),
//!   `player:NAME`, `kind:checker` / `kind:cube` / `kind:take`, and the
//!   four cube mistakes: `kind:missed-double` (no double where doubling
//!   was better: the cube decision before a roll, an entry of its own),
//!   `kind:wrong-double`, `kind:wrong-take`, `kind:wrong-pass` (each with an
//!   error above 0; the word alone, `missed-double`, is the same),
//!   `match:TEXT` (in the source: the file it came from);
//! - what the position is about: `plan:priming` (the game plan of the side
//!   deciding, as Open Sage classifies it: `purerace`, `racing`,
//!   `attacking`, `priming`, `anchoring`), `opp-plan:anchoring` (the other
//!   side's), `class:race` (gnubg's class: `over`, `bearoff2`,
//!   `bearoff-ts`, `bearoff1`, `bearoff-os`, `race`, `crashed`,
//!   `contact`), `score:dmp` (`money`, `dmp`, `crawford`, `post-crawford`,
//!   `gs-gg`, `2-away`, `match`), `decision:take` (what any position asks:
//!   `checker`, `cube`, `take`; `kind:` is a match decision's); a position
//!   whose plans are not known (a bgedit without Sage's core stored it)
//!   matches no `plan:` term, negated or not;
//! - the checker structure of the player on roll, as they count: `point:5`
//!   (their 5 point made), `anchor:20` (an anchor on the opponent's 5
//!   point), `opp:point:5` (the opponent's 5 point), `blots>=2`, `back>=2`
//!   (checkers back: bar and the opponent's home board), `prime>=4` (the
//!   longest run of made points), `home>=4` (home-board points made);
//! - `!` before any of these negates it (`!bar`, `!tag:done`);
//! - anything else is text looked for in the title, note, tags and IDs
//!   (so an ID fragment finds its entry); `"two words"` is one text.
//!
//! Pure: this turns text into a [`Query`]; the store turns that into SQL.

use bgedit_core::domain::game_plan::GamePlan;
use bgedit_core::domain::position_class::PositionClass;
use bgedit_core::domain::score_class::ScoreClass;

/// Longest query accepted, in bytes.
pub const MAX_QUERY_LEN: usize = 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    Race,
    Contact,
    Bar,
    Money,
    Match,
    Crawford,
    Due,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Cube,
    Pips,
    Diff,
    Length,
    Blots,
    Back,
    Prime,
    Home,
}

impl Field {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Field::Cube => "cube",
            Field::Pips => "pips",
            Field::Diff => "diff",
            Field::Length => "len",
            Field::Blots => "blots",
            Field::Back => "back",
            Field::Prime => "prime",
            Field::Home => "home",
        }
    }
}

/// The four cube mistakes, each a filter word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeMistake {
    MissedDouble,
    WrongDouble,
    WrongTake,
    WrongPass,
}

impl CubeMistake {
    pub const ALL: [CubeMistake; 4] = [
        CubeMistake::MissedDouble,
        CubeMistake::WrongDouble,
        CubeMistake::WrongTake,
        CubeMistake::WrongPass,
    ];

    /// Its word in the filter.
    pub fn word(self) -> &'static str {
        match self {
            CubeMistake::MissedDouble => "missed-double",
            CubeMistake::WrongDouble => "wrong-double",
            CubeMistake::WrongTake => "wrong-take",
            CubeMistake::WrongPass => "wrong-pass",
        }
    }

    fn from_word(word: &str) -> Option<CubeMistake> {
        let w = word.to_ascii_lowercase();
        CubeMistake::ALL.into_iter().find(|m| m.word() == w)
    }

    /// The decision's kind and what was played (either word) when it is
    /// this mistake.
    pub(crate) fn decision(self) -> (DecisionKind, [&'static str; 2]) {
        match self {
            CubeMistake::MissedDouble => (DecisionKind::Cube, ["no double", "no double"]),
            CubeMistake::WrongDouble => (DecisionKind::Cube, ["double", "double"]),
            CubeMistake::WrongTake => (DecisionKind::Take, ["take", "beaver"]),
            CubeMistake::WrongPass => (DecisionKind::Take, ["drop", "pass"]),
        }
    }
}

/// What kind of decision an entry from a match is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionKind {
    Checker,
    Cube,
    Take,
}

impl DecisionKind {
    pub fn name(self) -> &'static str {
        match self {
            DecisionKind::Checker => "checker",
            DecisionKind::Cube => "cube",
            DecisionKind::Take => "take",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<DecisionKind> {
        Some(match name.to_ascii_lowercase().as_str() {
            "checker" | "move" => DecisionKind::Checker,
            "cube" | "double" => DecisionKind::Cube,
            "take" | "pass" => DecisionKind::Take,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
}

impl Op {
    pub(crate) fn sql(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Eq => "=",
            Op::Ne => "<>",
            Op::Ge => ">=",
            Op::Gt => ">",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    Flag(Flag),
    Compare(Field, Op, i64),
    /// The decision's error, in gnubg's units (never NaN: see `term`).
    Error(Op, f64),
    /// The engines' disagreement kept for the entry, in the same units.
    Disagree(Op, f64),
    /// A made point, counted as its owner counts: the roller's, or with
    /// `opponent` the opponent's.
    Point {
        opponent: bool,
        point: u8,
    },
    Player(String),
    Kind(DecisionKind),
    /// A cube decision that gave away equity, by its kind.
    Mistake(CubeMistake),
    /// A game plan: of the side deciding, or with `opponent` the other's.
    Plan {
        opponent: bool,
        plan: GamePlan,
    },
    Class(PositionClass),
    Score(ScoreClass),
    /// What the position asks (any entry, not only a match's).
    Decision(DecisionKind),
    Match(String),
    Tag(String),
    Collection(String),
    Text(String),
}

// The only float, an error bound, is parsed finite.
impl Eq for Condition {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub negated: bool,
    pub condition: Condition,
}

/// All terms must hold; no terms matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    pub terms: Vec<Term>,
}

/// A query that cannot be read: what is wrong, and at which character
/// (counted from 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("filter, character {column}: {problem}")]
pub struct FilterError {
    pub column: usize,
    pub problem: FilterProblem,
}

/// What is wrong with a query, naming the word (`word`) as typed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FilterProblem {
    #[error("the filter is longer than {MAX_QUERY_LEN} bytes")]
    TooLong,
    #[error("U+{0:04X} is a control character, not text to look for")]
    ControlCharacter(u32),
    #[error("a quote is not closed")]
    UnclosedQuote,
    #[error("`!` must come right before what it negates")]
    LoneNot,
    #[error("`{word}`: after `{name}` comes a comparison (< <= = != >= >) and a number")]
    NoComparison { word: String, name: String },
    #[error("`{word}`: `{number}` is not a whole number ({field} compares numbers)")]
    NotWhole {
        word: String,
        number: String,
        field: &'static str,
    },
    #[error("`{word}`: `{number}` is not a number ({name} compares equities, as 0.08)")]
    NotAnEquity {
        word: String,
        number: String,
        name: &'static str,
    },
    #[error("`{word}`: `opp:` is followed by `point:N` (the opponent's point N)")]
    OpponentWithoutPoint { word: String },
    #[error("`{word}`: `{number}`: points are 1 to 24")]
    NotAPoint { word: String, number: String },
    #[error(
        "`{word}`: `{number}`: an anchor is on points 19 to 24 (the opponent's home board, as you count)"
    )]
    NotAnAnchor { word: String, number: String },
    #[error("`{word}`: name the {what} after the colon")]
    NoName { word: String, what: String },
    #[error(
        "`{word}`: the kind is checker, cube, take, missed-double, wrong-double, wrong-take or wrong-pass, not `{value}`"
    )]
    NotAKind { word: String, value: String },
    #[error("`{word}`: the decision is checker, cube or take, not `{value}`")]
    NotADecision { word: String, value: String },
    #[error(
        "`{word}`: the game plan is purerace, racing, attacking, priming or anchoring, not `{value}`"
    )]
    NotAPlan { word: String, value: String },
    #[error(
        "`{word}`: gnubg's class is over, bearoff2, bearoff-ts, bearoff1, bearoff-os, race, crashed or contact, not `{value}`"
    )]
    NotAClass { word: String, value: String },
    #[error(
        "`{word}`: the score class is money, dmp, crawford, post-crawford, gs-gg, 2-away or match, not `{value}`"
    )]
    NotAScore { word: String, value: String },
}

fn flag(word: &str) -> Option<Flag> {
    Some(match word.to_ascii_lowercase().as_str() {
        "race" => Flag::Race,
        "contact" => Flag::Contact,
        "bar" => Flag::Bar,
        "money" => Flag::Money,
        "match" => Flag::Match,
        "crawford" => Flag::Crawford,
        "due" => Flag::Due,
        _ => return None,
    })
}

fn field(word: &str) -> Option<Field> {
    Some(match word.to_ascii_lowercase().as_str() {
        "cube" => Field::Cube,
        "pips" | "pip" => Field::Pips,
        "diff" => Field::Diff,
        "len" | "length" => Field::Length,
        "blots" | "blot" => Field::Blots,
        "back" => Field::Back,
        "prime" => Field::Prime,
        "home" => Field::Home,
        _ => return None,
    })
}

/// Splits `text` into words with their starting column; `"…"` keeps spaces.
fn words(text: &str) -> Result<Vec<(usize, String, bool)>, FilterError> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let column = text[..start].chars().count() + 1;
        let mut word = String::new();
        let mut quoted = false;
        while let Some(&(_, c)) = chars.peek() {
            if c.is_whitespace() && !quoted {
                break;
            }
            chars.next();
            if c.is_control() {
                // SQLite reads a NUL as the end of a string (found by the
                // filter fuzz target), and no entry's text holds a control
                // character to find: refuse it by where it is.
                return Err(FilterError {
                    column: text[..start].chars().count() + word.chars().count() + 1,
                    problem: FilterProblem::ControlCharacter(c as u32),
                });
            }
            if c == '"' {
                quoted = !quoted;
            } else {
                word.push(c);
            }
        }
        if quoted {
            return Err(FilterError {
                column,
                problem: FilterProblem::UnclosedQuote,
            });
        }
        let had_quote = text[start..].starts_with('"') || text[start..].starts_with("!\"");
        out.push((column, word, had_quote));
    }
    Ok(out)
}

/// Reads `op` and a number after a field name: `>=4`.
fn comparison(rest: &str) -> Option<(Op, &str)> {
    for (token, op) in [
        ("<=", Op::Le),
        (">=", Op::Ge),
        ("!=", Op::Ne),
        ("==", Op::Eq),
        ("<", Op::Lt),
        (">", Op::Gt),
        ("=", Op::Eq),
    ] {
        if let Some(number) = rest.strip_prefix(token) {
            return Some((op, number));
        }
    }
    None
}

fn term(column: usize, word: &str, quoted: bool) -> Result<Condition, FilterError> {
    let error = |problem: FilterProblem| FilterError { column, problem };
    if quoted {
        return Ok(Condition::Text(word.to_owned()));
    }
    if let Some(f) = flag(word) {
        return Ok(Condition::Flag(f));
    }
    if let Some(m) = CubeMistake::from_word(word) {
        return Ok(Condition::Mistake(m));
    }
    if let Some(theme) = theme_term(word) {
        return theme.map_err(error);
    }
    let name_end = word
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(word.len());
    let (name, rest) = word.split_at(name_end);
    if let Some(f) = field(name)
        && !rest.is_empty()
    {
        let Some((op, number)) = comparison(rest) else {
            return Err(error(FilterProblem::NoComparison {
                word: word.to_owned(),
                name: name.to_owned(),
            }));
        };
        let value: i64 = number.parse().map_err(|_| {
            error(FilterProblem::NotWhole {
                word: word.to_owned(),
                number: number.to_owned(),
                field: f.name(),
            })
        })?;
        return Ok(Condition::Compare(f, op, value));
    }
    let equity = ["error", "disagree"]
        .into_iter()
        .find(|e| name.eq_ignore_ascii_case(e));
    if let Some(equity) = equity
        && !rest.is_empty()
    {
        let Some((op, number)) = comparison(rest) else {
            return Err(error(FilterProblem::NoComparison {
                word: word.to_owned(),
                name: equity.to_owned(),
            }));
        };
        let value: f64 = number
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| {
                error(FilterProblem::NotAnEquity {
                    word: word.to_owned(),
                    number: number.to_owned(),
                    name: equity,
                })
            })?;
        return Ok(if equity == "error" {
            Condition::Error(op, value)
        } else {
            Condition::Disagree(op, value)
        });
    }
    if let Some(value) = rest.strip_prefix(':') {
        let lower = name.to_ascii_lowercase();
        if let Some(point) = point_term(word, &lower, value) {
            return point.map_err(error);
        }
        let no_name = || {
            error(FilterProblem::NoName {
                word: word.to_owned(),
                what: lower.clone(),
            })
        };
        if matches!(lower.as_str(), "player" | "kind" | "match") {
            if value.is_empty() {
                return Err(no_name());
            }
            return match lower.as_str() {
                "player" => Ok(Condition::Player(value.to_owned())),
                "match" => Ok(Condition::Match(value.to_owned())),
                _ => DecisionKind::from_name(value)
                    .map(Condition::Kind)
                    .or_else(|| CubeMistake::from_word(value).map(Condition::Mistake))
                    .ok_or_else(|| {
                        error(FilterProblem::NotAKind {
                            word: word.to_owned(),
                            value: value.to_owned(),
                        })
                    }),
            };
        }
        if matches!(lower.as_str(), "tag" | "col" | "collection") {
            if value.is_empty() {
                return Err(no_name());
            }
            return Ok(if lower == "tag" {
                Condition::Tag(value.to_owned())
            } else {
                Condition::Collection(value.to_owned())
            });
        }
    }
    Ok(Condition::Text(word.to_owned()))
}

/// `plan:P`, `opp-plan:P`, `class:C`, `score:S` and `decision:K`, or
/// `None` for another word.
fn theme_term(word: &str) -> Option<Result<Condition, FilterProblem>> {
    let (name, value) = word.split_once(':')?;
    let name = name.to_ascii_lowercase();
    let wrong = |make: fn(String, String) -> FilterProblem| make(word.to_owned(), value.to_owned());
    Some(match name.as_str() {
        "plan" | "opp-plan" => GamePlan::from_name(value)
            .map(|plan| Condition::Plan {
                opponent: name == "opp-plan",
                plan,
            })
            .ok_or_else(|| wrong(|word, value| FilterProblem::NotAPlan { word, value })),
        "class" => PositionClass::from_name(value)
            .map(Condition::Class)
            .ok_or_else(|| wrong(|word, value| FilterProblem::NotAClass { word, value })),
        "score" => ScoreClass::from_name(value)
            .map(Condition::Score)
            .ok_or_else(|| wrong(|word, value| FilterProblem::NotAScore { word, value })),
        "decision" => DecisionKind::from_name(value)
            .map(Condition::Decision)
            .ok_or_else(|| wrong(|word, value| FilterProblem::NotADecision { word, value })),
        _ => return None,
    })
}

/// `point:N`, `anchor:N` and `opp:point:N` (the term `word`, its name and
/// what follows its colon), or `None` for another name.
fn point_term(word: &str, name: &str, value: &str) -> Option<Result<Condition, FilterProblem>> {
    let (opponent, number, first) = match name {
        "point" => (false, value, 1),
        "anchor" => (false, value, 19),
        "opp" => match value.strip_prefix("point:") {
            Some(n) => (true, n, 1),
            None => {
                return Some(Err(FilterProblem::OpponentWithoutPoint {
                    word: word.to_owned(),
                }));
            }
        },
        _ => return None,
    };
    Some(match number.parse::<u8>() {
        Ok(point) if (first..=24).contains(&point) => Ok(Condition::Point { opponent, point }),
        _ if first == 19 => Err(FilterProblem::NotAnAnchor {
            word: word.to_owned(),
            number: number.to_owned(),
        }),
        _ => Err(FilterProblem::NotAPoint {
            word: word.to_owned(),
            number: number.to_owned(),
        }),
    })
}

/// Reads a query; an empty one matches every entry.
pub fn parse(text: &str) -> Result<Query, FilterError> {
    if text.len() > MAX_QUERY_LEN {
        return Err(FilterError {
            column: MAX_QUERY_LEN,
            problem: FilterProblem::TooLong,
        });
    }
    let mut terms = Vec::new();
    for (column, word, quoted) in words(text)? {
        let (negated, body) = match word.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, word.as_str()),
        };
        if body.is_empty() {
            return Err(FilterError {
                column,
                problem: FilterProblem::LoneNot,
            });
        }
        let condition = term(column, body, quoted)?;
        terms.push(Term { negated, condition });
    }
    Ok(Query { terms })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_control_character_is_refused_where_it_is() {
        let e = parse("race ab\0c").unwrap_err();
        assert_eq!(e.column, 8, "{e}");
        assert!(e.problem.to_string().contains("U+0000"), "{e}");
        let e = parse("\u{1b}[31m").unwrap_err();
        assert_eq!(e.column, 1, "{e}");
        assert!(parse("race\tbar").is_ok(), "a tab is a space");
    }

    fn one(text: &str) -> Condition {
        let q = parse(text).unwrap();
        assert_eq!(q.terms.len(), 1, "{text}");
        q.terms[0].condition.clone()
    }

    #[test]
    fn each_kind_of_term_is_read() {
        assert_eq!(one("race"), Condition::Flag(Flag::Race));
        assert_eq!(one("CRAWFORD"), Condition::Flag(Flag::Crawford));
        assert_eq!(one("cube>=4"), Condition::Compare(Field::Cube, Op::Ge, 4));
        assert_eq!(
            one("pips<100"),
            Condition::Compare(Field::Pips, Op::Lt, 100)
        );
        assert_eq!(
            one("diff>-20"),
            Condition::Compare(Field::Diff, Op::Gt, -20)
        );
        assert_eq!(one("len=7"), Condition::Compare(Field::Length, Op::Eq, 7));
        assert_eq!(one("tag:blitz"), Condition::Tag("blitz".into()));
        assert_eq!(one("col:quiz"), Condition::Collection("quiz".into()));
        assert_eq!(one("\"back game\""), Condition::Text("back game".into()));
        assert_eq!(
            one("4HPwATDgc/ABMA:cAkAAAAAAAAA"),
            Condition::Text("4HPwATDgc/ABMA:cAkAAAAAAAAA".into())
        );
        assert_eq!(one("piper"), Condition::Text("piper".into()));
    }

    #[test]
    fn decision_and_structure_terms_are_read() {
        assert_eq!(one("error>=0.08"), Condition::Error(Op::Ge, 0.08));
        assert_eq!(one("disagree>=0.05"), Condition::Disagree(Op::Ge, 0.05));
        assert_eq!(one("Disagree<0.1"), Condition::Disagree(Op::Lt, 0.1));
        assert_eq!(one("player:Ann"), Condition::Player("Ann".into()));
        assert_eq!(one("kind:cube"), Condition::Kind(DecisionKind::Cube));
        assert_eq!(
            one("kind:missed-double"),
            Condition::Mistake(CubeMistake::MissedDouble)
        );
        assert_eq!(
            one("Wrong-Pass"),
            Condition::Mistake(CubeMistake::WrongPass)
        );
        assert_eq!(one("KIND:checker"), Condition::Kind(DecisionKind::Checker));
        assert_eq!(one("match:galaxy"), Condition::Match("galaxy".into()));
        assert_eq!(
            one("point:5"),
            Condition::Point {
                opponent: false,
                point: 5
            }
        );
        assert_eq!(
            one("anchor:20"),
            Condition::Point {
                opponent: false,
                point: 20
            }
        );
        assert_eq!(
            one("opp:point:5"),
            Condition::Point {
                opponent: true,
                point: 5
            }
        );
        assert_eq!(one("blots>=2"), Condition::Compare(Field::Blots, Op::Ge, 2));
        assert_eq!(one("back>=2"), Condition::Compare(Field::Back, Op::Ge, 2));
        assert_eq!(one("prime>=4"), Condition::Compare(Field::Prime, Op::Ge, 4));
        assert_eq!(one("home>=4"), Condition::Compare(Field::Home, Op::Ge, 4));
        for (bad, says) in [
            ("error>=big", "is not a number"),
            ("error>=NaN", "is not a number"),
            (
                "disagree>=inf",
                "is not a number (disagree compares equities",
            ),
            ("disagree~1", "after `disagree` comes a comparison"),
            ("kind:prime", "checker, cube, take, missed-double"),
            ("point:25", "points are 1 to 24"),
            ("anchor:5", "19 to 24"),
            ("opp:5", "point:N"),
            ("player:", "name the player"),
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.problem.to_string().contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn themes_are_read() {
        assert_eq!(
            one("plan:Priming"),
            Condition::Plan {
                opponent: false,
                plan: GamePlan::Priming
            }
        );
        assert_eq!(
            one("opp-plan:anchoring"),
            Condition::Plan {
                opponent: true,
                plan: GamePlan::Anchoring
            }
        );
        assert_eq!(one("class:race"), Condition::Class(PositionClass::Race));
        assert_eq!(
            one("class:bearoff1"),
            Condition::Class(PositionClass::Bearoff1)
        );
        assert_eq!(one("score:dmp"), Condition::Score(ScoreClass::Dmp));
        assert_eq!(one("score:2-away"), Condition::Score(ScoreClass::TwoAway));
        assert_eq!(
            one("decision:take"),
            Condition::Decision(DecisionKind::Take)
        );
        for (text, says) in [
            (
                "plan:prime",
                "purerace, racing, attacking, priming or anchoring",
            ),
            ("class:bearoff", "over, bearoff2"),
            ("score:4-away", "money, dmp"),
            ("decision:roll", "checker, cube or take"),
        ] {
            let e = parse(&format!("race {text}")).unwrap_err();
            assert_eq!(e.column, 6, "{text}");
            assert!(e.problem.to_string().contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn terms_combine_and_negate() {
        let q = parse("  money !bar  tag:prime ").unwrap();
        assert_eq!(q.terms.len(), 3);
        assert!(q.terms[1].negated);
        assert_eq!(q.terms[1].condition, Condition::Flag(Flag::Bar));
        assert_eq!(parse("").unwrap(), Query::default());
    }

    #[test]
    fn errors_name_the_term_and_column() {
        let e = parse("race cube>=four").unwrap_err();
        assert_eq!(e.column, 6);
        assert!(
            e.problem
                .to_string()
                .contains("`four` is not a whole number"),
            "{e}"
        );
        let e = parse("money disagree>=lots").unwrap_err();
        assert_eq!(e.column, 7);
        assert!(
            e.problem.to_string().contains("`lots` is not a number"),
            "{e}"
        );
        let e = parse("pips=>3").unwrap_err();
        assert!(
            e.problem.to_string().contains("is not a whole number"),
            "{e}"
        );
        let e = parse("pips~3").unwrap_err();
        assert!(e.problem.to_string().contains("comparison"), "{e}");
        let e = parse("money tag:").unwrap_err();
        assert_eq!(e.column, 7);
        assert!(e.problem.to_string().contains("name the tag"), "{e}");
        let e = parse("\"open").unwrap_err();
        assert!(e.problem.to_string().contains("quote"), "{e}");
        assert!(parse("!").is_err());
        assert!(parse(&"a".repeat(MAX_QUERY_LEN + 1)).is_err());
    }
}
