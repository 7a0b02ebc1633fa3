//! Match equity tables, built the way gnubg 1.07 builds them.
//!
//! A table file (see `codec::met_xml`) gives either explicit rows or the
//! parameters of a formula; gnubg then extends every table to 64-away with
//! David Montgomery's normal-distribution formula and extends explicit
//! post-Crawford rows with Zadeh's recursion. bgedit repeats each step in
//! the same single-precision arithmetic, so that the values agree with
//! `show matchequitytable 64` to the digits gnubg prints.

/// gnubg's `MAXSCORE`: tables hold 1-away to 64-away.
pub const MAX_AWAY: usize = 64;

/// gnubg's gammon rate for extending explicit post-Crawford rows.
const EXTENSION_GAMMON_RATE: f32 = 0.25;

/// A formula for a table, with its parameters as the file names them.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TableKind {
    Zadeh,
    Mec,
}

/// One table of a MET file as written: rows of values, or a formula.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TableSpec {
    /// Pre-Crawford: `rows[i][j]` is the row player's chance at
    /// (i+1)-away, (j+1)-away. Post-Crawford: the values in order, however
    /// the file splits them into rows.
    Explicit(Vec<Vec<f32>>),
    Formula {
        kind: TableKind,
        params: Vec<(String, f32)>,
    },
}

/// A MET file as read, before gnubg's extensions.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MetSpec {
    pub name: String,
    pub description: String,
    /// The native length; -1 for a table computed from a formula.
    pub length: i32,
    pub pre_crawford: TableSpec,
    /// For player 0 and player 1.
    pub post_crawford: [TableSpec; 2],
}

/// Why a MET file cannot be used: what is wrong, and where (the file, its
/// line, the table's cell), in the words the user reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MetError {
    /// The file could not be opened or read (the system's words), or is
    /// not a regular file.
    #[error("cannot read {path}: {error}")]
    Unreadable { path: String, error: String },
    #[error("{path} is {bytes} bytes; a MET file is at most {max}")]
    FileTooBig {
        path: String,
        bytes: u64,
        max: usize,
    },
    #[error("the MET text is {bytes} bytes; at most {max}")]
    TextTooBig { bytes: usize, max: usize },
    /// What is wrong in the file at `path`.
    #[error("{path}: {problem}")]
    InFile {
        path: String,
        problem: Box<MetError>,
    },
    #[error("not a MET file: {0}")]
    NotXml(roxmltree::Error),
    #[error("the top element is <{0}>; a MET file's is <met>")]
    NotMet(String),
    #[error("<info><length> is {0:?}; it must be a whole number (-1 for a computed table)")]
    LengthNotANumber(String),
    #[error("there is no <pre-crawford-table>")]
    NoPreCrawford,
    #[error("there is no <post-crawford-table>")]
    NoPostCrawford,
    #[error("no post-Crawford table for player {0}")]
    NoPostCrawfordFor(usize),
    #[error("line {line}: <{tag}> holds {text:?}, not a number")]
    NotANumber {
        line: u32,
        tag: String,
        text: String,
    },
    #[error("line {line}: table type {found:?} is not one of explicit, zadeh, mec")]
    TableType { line: u32, found: String },
    #[error("line {line}: a <parameter> has no name")]
    UnnamedParameter { line: u32 },
    #[error("line {line}: player {found:?} is not one of both, 0, 1")]
    Player { line: u32, found: String },
    #[error("the table's <length> is {0}; explicit tables need 1 to {MAX_AWAY}")]
    ExplicitLength(i32),
    #[error("the table's <length> is {0}; use -1 for a computed table")]
    FormulaLength(i32),
    #[error(
        "the post-Crawford table for player {player} has {values} values; a {length}-point table needs {needed}"
    )]
    ShortPostCrawford {
        player: usize,
        values: usize,
        length: i32,
        needed: usize,
    },
    #[error("the pre-Crawford table has {rows} rows; a {length}-point table needs {needed}")]
    ShortPreCrawford {
        rows: usize,
        length: i32,
        needed: usize,
    },
    #[error("pre-Crawford row {row} has {values} values; a {length}-point table needs {needed}")]
    ShortRow {
        row: usize,
        values: usize,
        length: i32,
        needed: usize,
    },
    #[error("{cell} is {value}; a match winning chance is between 0 and 1")]
    NotAChance { cell: Cell, value: Chance },
}

/// A value of a table, counted from 1 as the file lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    PreCrawford { row: usize, value: usize },
    PostCrawford { player: usize, value: usize },
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cell::PreCrawford { row, value } => write!(f, "pre-Crawford row {row} value {value}"),
            Cell::PostCrawford { player, value } => {
                write!(f, "post-Crawford value {value} for player {player}")
            }
        }
    }
}

/// A value read for a chance, as the file gave it (kept by its bits, so
/// that a NaN compares equal to itself and the error stays `Eq`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chance(u32);

impl std::fmt::Display for Chance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f32::from_bits(self.0).fmt(f)
    }
}

/// A complete match equity table, 64 × 64, and the post-Crawford rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Met {
    pub name: String,
    pub description: String,
    /// Where it came from: a file path, or "built in".
    pub source: String,
    /// The native length of the file's table (-1 when computed).
    pub length: i32,
    /// `pre[i][j]`: chance of the player (i+1)-away against (j+1)-away.
    pre: Box<[[f32; MAX_AWAY]; MAX_AWAY]>,
    /// `post[p][i]`: chance of player p when (i+1)-away against a 1-away
    /// leader, post-Crawford.
    post: [[f32; MAX_AWAY]; 2],
}

fn param(params: &[(String, f32)], name: &str, default: f32) -> f32 {
    // gnubg keeps parameters in a list and the last one given wins.
    params
        .iter()
        .rev()
        .find(|(n, _)| n == name)
        .map_or(default, |(_, v)| *v)
}

/// gnubg's `initPostCrawfordMET`: Zadeh's recursion from `start`.
fn zadeh_post_crawford(table: &mut [f32; MAX_AWAY], start: usize, g: f32, fd2: f32, fd4: f32) {
    for i in start..MAX_AWAY {
        let four = if i >= 4 { table[i - 4] } else { 1.0 };
        let two = if i >= 2 { table[i - 2] } else { 1.0 };
        table[i] = g * 0.5 * four + (1.0 - g) * 0.5 * two;
        // The free drop's value at 1-away, 2-away and 1-away, 4-away.
        if i == 1 {
            table[i] -= fd2;
        }
        if i == 3 {
            table[i] -= fd4;
        }
    }
}

/// gnubg's `mec_pc`: Claes Tornberg's post-Crawford equities, in doubles.
// The index arithmetic is gnubg's, kept as it is to be checked against it.
#[allow(clippy::needless_range_loop)]
fn mec_post_crawford(table: &mut [f32; MAX_AWAY], gr: f64, fd2: f64, fd4: f64, wpf: f64) {
    let ml = MAX_AWAY;
    let sq = |x: isize| x.max(0) as usize;
    // e[p][o]: the favourite's chance at p-away, o-away; only rows and
    // columns 0 and 1 are needed.
    let mut e = vec![vec![0.0f64; ml + 1]; ml + 1];
    for i in 1..=ml {
        e[0][i] = 1.0;
        e[i][0] = 0.0;
    }
    e[1][1] = wpf;
    for i in 2..=ml {
        if i % 2 == 0 {
            // A free drop makes an even score worth the odd one below.
            e[1][i] = e[1][i - 1];
            e[i][1] = e[i - 1][1];
            if i == 2 {
                e[1][i] += fd2;
                e[i][1] -= fd2;
            } else if i == 4 {
                // gnubg adds to both here.
                e[1][i] += fd4;
                e[i][1] += fd4;
            }
        } else {
            let ii = i as isize;
            e[1][i] = e[0][i] * wpf
                + e[1][sq(ii - 2)] * (1.0 - wpf) * (1.0 - gr)
                + e[1][sq(ii - 4)] * (1.0 - wpf) * gr;
            e[i][1] = e[i][0] * (1.0 - wpf)
                + e[sq(ii - 2)][1] * wpf * (1.0 - gr)
                + e[sq(ii - 4)][1] * wpf * gr;
        }
    }
    for (i, slot) in table.iter_mut().enumerate() {
        *slot = e[i + 1][1] as f32;
    }
}

/// gnubg's `NormalDistArea` as its release build computes it. gnubg 1.07
/// (Debian's binary) is compiled with `-ffast-math`, and its machine code
/// for `ExtendMET` differs from the C source's order: the divisions by
/// `sqrtf(2)` are products with 1/√2 rounded to a float, the two
/// `(erff + 1) / 2` become `(erff(max) − erff(min)) · 0.5`, and `erff` is
/// glibc's single-precision one. Each form rounds differently in the last
/// bit, and that bit shows in `show matchequitytable`'s fourth decimal
/// (the source's order misses 378 of the 50,688 values gnubg prints; this
/// one misses none), so bgedit copies the compiled form.
fn normal_dist_area(min: f32, max: f32, sigma: f32) -> f32 {
    let a = super::cmath::erff(min / sigma * std::f32::consts::FRAC_1_SQRT_2);
    let b = super::cmath::erff(max / sigma * std::f32::consts::FRAC_1_SQRT_2);
    (b - a) * 0.5
}

/// gnubg's `ExtendMET` (David Montgomery's formula), in the order of its
/// compiled code. A native length of -1 (formula tables) makes gnubg
/// recompute the whole table this way.
#[allow(clippy::needless_range_loop)]
fn extend(pre: &mut [[f32; MAX_AWAY]; MAX_AWAY], native: i32) {
    const STDDEV: [f32; 12] = [
        0.0, 1.24, 1.27, 1.47, 1.50, 1.60, 1.61, 1.66, 1.68, 1.70, 1.72, 1.77,
    ];
    let stddev = |score: usize| if score > 10 { 1.77 } else { STDDEV[score] };
    let first = native.max(0) as usize;
    for i in first..MAX_AWAY {
        let score0 = i + 1;
        let s0 = stddev(score0);
        for j in 0..=i {
            let score1 = j + 1;
            let games = (score0 + score1) as f32 / 2.0;
            let s1 = stddev(score1);
            // The source's `sqrtf(s0² + s1²) * sqrtf(games)` is one
            // `sqrtss` of the product in gnubg's build; the 1.77² beyond
            // 10-away is folded to the same float as 1.77f * 1.77f.
            let sigma = (games * (s0 * s0 + s1 * s1)).sqrt();
            let diff = (score0 - score1) as f32;
            pre[i][j] = if 6.0 * sigma > diff {
                normal_dist_area(diff, 6.0 * sigma, sigma)
            } else {
                0.0
            };
        }
    }
    for i in 0..MAX_AWAY {
        let from = if (i as i32) < native {
            native as usize
        } else {
            i + 1
        };
        for j in from..MAX_AWAY {
            pre[i][j] = 1.0 - pre[j][i];
        }
    }
}

fn check_unit(value: f32, cell: Cell) -> Result<(), MetError> {
    if value.is_finite() && (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(MetError::NotAChance {
            cell,
            value: Chance(value.to_bits()),
        })
    }
}

/// Player `player`'s post-Crawford row: the file's values, checked and
/// extended, or the formula's.
fn post_crawford(
    spec: &TableSpec,
    player: usize,
    length: i32,
) -> Result<[f32; MAX_AWAY], MetError> {
    let mut table = [0.0f32; MAX_AWAY];
    match spec {
        TableSpec::Explicit(rows) => {
            let values: Vec<f32> = rows.iter().flatten().copied().collect();
            let needed = (length - 1) as usize;
            if values.len() < needed {
                return Err(MetError::ShortPostCrawford {
                    player,
                    values: values.len(),
                    length,
                    needed,
                });
            }
            for (i, v) in values.iter().take(needed).enumerate() {
                check_unit(
                    *v,
                    Cell::PostCrawford {
                        player,
                        value: i + 1,
                    },
                )?;
                table[i] = *v;
            }
            // Extended from n-1: a n-point table's first legal
            // post-Crawford score is (n-1)-away.
            zadeh_post_crawford(&mut table, needed, EXTENSION_GAMMON_RATE, 0.015, 0.004);
        }
        TableSpec::Formula {
            kind: TableKind::Zadeh,
            params,
        } => zadeh_post_crawford(
            &mut table,
            0,
            param(params, "gammon-rate-trailer", 0.25),
            param(params, "free-drop-2-away", 0.015),
            param(params, "free-drop-4-away", 0.004),
        ),
        TableSpec::Formula {
            kind: TableKind::Mec,
            params,
        } => mec_post_crawford(
            &mut table,
            f64::from(param(params, "gammon-rate", 0.25)),
            f64::from(param(params, "free-drop-2-away", 0.015)),
            f64::from(param(params, "free-drop-4-away", 0.004)),
            f64::from(param(params, "win-rate", 0.5)),
        ),
    }
    Ok(table)
}

/// The file's pre-Crawford rows into `pre`, each value checked; the table
/// must hold `length` rows of `length` values.
fn explicit_pre_crawford(
    rows: &[Vec<f32>],
    length: i32,
    pre: &mut [[f32; MAX_AWAY]; MAX_AWAY],
) -> Result<(), MetError> {
    let n = length as usize;
    if rows.len() < n {
        return Err(MetError::ShortPreCrawford {
            rows: rows.len(),
            length,
            needed: n,
        });
    }
    for (i, row) in rows.iter().take(n).enumerate() {
        if row.len() < n {
            return Err(MetError::ShortRow {
                row: i + 1,
                values: row.len(),
                length,
                needed: n,
            });
        }
        for (j, v) in row.iter().take(n).enumerate() {
            let cell = Cell::PreCrawford {
                row: i + 1,
                value: j + 1,
            };
            check_unit(*v, cell)?;
            pre[i][j] = *v;
        }
    }
    Ok(())
}

impl Met {
    /// Builds the full table as gnubg's `InitMatchEquity` does.
    pub(crate) fn build(spec: &MetSpec, source: &str) -> Result<Met, MetError> {
        let length = spec.length;
        let explicit_any = matches!(spec.pre_crawford, TableSpec::Explicit(_))
            || spec
                .post_crawford
                .iter()
                .any(|t| matches!(t, TableSpec::Explicit(_)));
        if explicit_any && !(1..=MAX_AWAY as i32).contains(&length) {
            return Err(MetError::ExplicitLength(length));
        }
        if !explicit_any && length != -1 && !(1..=MAX_AWAY as i32).contains(&length) {
            return Err(MetError::FormulaLength(length));
        }
        let post = [
            post_crawford(&spec.post_crawford[0], 0, length)?,
            post_crawford(&spec.post_crawford[1], 1, length)?,
        ];
        let mut pre = Box::new([[0.0f32; MAX_AWAY]; MAX_AWAY]);
        if let TableSpec::Explicit(rows) = &spec.pre_crawford {
            explicit_pre_crawford(rows, length, &mut pre)?;
        }
        // A formula table's length is -1, and gnubg 1.07 then recomputes
        // every pre-Crawford entry with the extension formula: the
        // formula's own pre-Crawford values never reach the table, so
        // they are not computed here either.
        extend(&mut pre, length);
        Ok(Met {
            name: spec.name.clone(),
            description: spec.description.clone(),
            source: source.to_owned(),
            length,
            pre,
            post,
        })
    }

    /// The pre-Crawford chance of the player `away0`-away against
    /// `away1`-away (1-based, up to 64).
    pub fn pre_crawford(&self, away0: usize, away1: usize) -> f32 {
        self.pre[away0 - 1][away1 - 1]
    }

    /// The post-Crawford chance of player `player` (0 or 1) when `away`
    /// away against a 1-away leader.
    pub fn post_crawford(&self, player: usize, away: usize) -> f32 {
        self.post[player][away - 1]
    }

    /// gnubg's `getME`: player `player`'s chance of winning the match after
    /// `who_wins` wins `points` at the score, before the next game's
    /// Crawford rule. Scores are points won; both players must be at most
    /// 64 away.
    #[allow(clippy::too_many_arguments)]
    pub fn after(
        &self,
        score: [u16; 2],
        match_to: u16,
        player: usize,
        points: u32,
        who_wins: usize,
        crawford: bool,
    ) -> f32 {
        let len = i64::from(match_to);
        let gain = i64::from(points);
        let n0 = len - (i64::from(score[0]) + if who_wins == 0 { gain } else { 0 }) - 1;
        let n1 = len - (i64::from(score[1]) + if who_wins == 1 { gain } else { 0 }) - 1;
        let for_player = |p0: f32| if player == 1 { 1.0 - p0 } else { p0 };
        if n0 < 0 {
            return for_player(1.0);
        }
        if n1 < 0 {
            return for_player(0.0);
        }
        let post = crawford || len - i64::from(score[0]) == 1 || len - i64::from(score[1]) == 1;
        let p0 = if post {
            if n0 == 0 {
                1.0 - self.post[1][n1 as usize]
            } else {
                self.post[0][n0 as usize]
            }
        } else {
            self.pre[n0 as usize][n1 as usize]
        };
        // gnubg returns `1 - x` for player 1 rather than the table's own
        // complement, which is the same float operation as here.
        if player == 1 {
            match (post, n0 == 0) {
                (true, true) => self.post[1][n1 as usize],
                _ => 1.0 - p0,
            }
        } else {
            p0
        }
    }

    /// gnubg's `getMEAtScore`: player `player`'s chance at the score
    /// before this game.
    pub(crate) fn at_score(
        &self,
        score: [u16; 2],
        match_to: u16,
        player: usize,
        crawford: bool,
    ) -> f32 {
        let len = i64::from(match_to);
        let n0 = len - i64::from(score[0]) - 1;
        let n1 = len - i64::from(score[1]) - 1;
        let for_player = |p0: f32| if player == 1 { 1.0 - p0 } else { p0 };
        if n0 < 0 {
            return for_player(1.0);
        }
        if n1 < 0 {
            return for_player(0.0);
        }
        if !crawford && (n0 == 0 || n1 == 0) {
            if n0 == 0 {
                let trailer = self.post[1][n1 as usize];
                if player == 1 { trailer } else { 1.0 - trailer }
            } else {
                let trailer = self.post[0][n0 as usize];
                if player == 1 { 1.0 - trailer } else { trailer }
            }
        } else {
            let p0 = self.pre[n0 as usize][n1 as usize];
            if player == 1 { 1.0 - p0 } else { p0 }
        }
    }
}
