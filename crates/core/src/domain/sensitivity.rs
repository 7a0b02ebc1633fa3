//! The scores and cube states the live views ask about (issue 33): the
//! position on the board moved to money, to the four benchmark scores and
//! to the match's own score, under each cube state. Pure: the board, the
//! player on roll and the dice stay; the score, the Crawford flag and the
//! cube change.
//!
//! The benchmark scores are Nack Ballard's ("Match Score Explanations",
//! the four main match scores from which players interpolate checker play
//! at every other score), named as players and XG name them:
//!
//! - **DMP**, double match point: both players 1-away (after the Crawford
//!   game). Gammons count for nothing and the cube is dead.
//! - **GS**, gammon-save: the player on roll 1-away, the opponent 2-away,
//!   in the Crawford game. The roller's gammons count for nothing; losing
//!   a gammon loses the match where a single loss does not, so the roller
//!   plays to save the gammon.
//! - **GG**, gammon-go: the player on roll 2-away, the opponent 1-away, in
//!   the Crawford game. A single win only reaches double match point; a
//!   gammon wins the match, and being gammoned costs nothing more, so the
//!   roller plays for the gammon.
//!
//! The away counts alone fix a score's equities, so these scores are put in
//! the position's match when it is one of 2 points or more, and in a
//! 2-point match for a money position.

use super::{CubeOwner, GameState, Position, Resignation};

/// A score the best move is asked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreCase {
    Money,
    /// Double match point: 1-away/1-away, after the Crawford game.
    Dmp,
    /// Gammon-save: the roller 1-away, the opponent 2-away, Crawford.
    GammonSave,
    /// Gammon-go: the roller 2-away, the opponent 1-away, Crawford.
    GammonGo,
    /// The position's own score (a match only).
    Own,
}

impl ScoreCase {
    /// The short name players use.
    pub(crate) fn label(self) -> &'static str {
        match self {
            ScoreCase::Money => "money",
            ScoreCase::Dmp => "DMP",
            ScoreCase::GammonSave => "GS",
            ScoreCase::GammonGo => "GG",
            ScoreCase::Own => "score",
        }
    }

    /// Its name in JSON.
    pub fn key(self) -> &'static str {
        match self {
            ScoreCase::Money => "money",
            ScoreCase::Dmp => "dmp",
            ScoreCase::GammonSave => "gammon_save",
            ScoreCase::GammonGo => "gammon_go",
            ScoreCase::Own => "own",
        }
    }
}

/// Who holds the cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeState {
    Centred,
    RollerOwns,
    OpponentOwns,
}

/// The cube states in the tables' column order.
pub const CUBE_STATES: [CubeState; 3] = [
    CubeState::Centred,
    CubeState::RollerOwns,
    CubeState::OpponentOwns,
];

impl CubeState {
    /// Its name in JSON.
    pub fn key(self) -> &'static str {
        match self {
            CubeState::Centred => "centred",
            CubeState::RollerOwns => "roller_owns",
            CubeState::OpponentOwns => "opponent_owns",
        }
    }

    /// The column of the board's own cube.
    pub(crate) fn of(position: &Position) -> CubeState {
        let s = &position.state;
        match s.cube_owner {
            CubeOwner::Centred => CubeState::Centred,
            CubeOwner::Owned(p) if p == s.on_roll => CubeState::RollerOwns,
            CubeOwner::Owned(_) => CubeState::OpponentOwns,
        }
    }
}

/// Why a cube state cannot arise at a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotHere {
    /// Nobody may double in the Crawford game.
    Crawford,
    /// At double match point nobody doubles: the cube is dead.
    DeadCube,
}

impl NotHere {
    pub fn words(self) -> &'static str {
        match self {
            NotHere::Crawford => "no cube in the Crawford game",
            NotHere::DeadCube => "dead cube at DMP",
        }
    }
}

/// One score of the table: the position there under each cube state (in
/// [`CUBE_STATES`]' order), or why that state cannot arise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub score: ScoreCase,
    /// The roller's and the opponent's away counts (0 for money).
    pub away: (u16, u16),
    pub crawford: bool,
    pub cells: [Result<Position, NotHere>; 3],
}

impl Row {
    /// "money", "DMP 1a-1a", "GS 1a-2a C", "score 3a-5a": the roller's
    /// away count first.
    pub fn words(&self) -> String {
        if self.score == ScoreCase::Money {
            return "money".to_owned();
        }
        format!(
            "{} {}a-{}a{}",
            self.score.label(),
            self.away.0,
            self.away.1,
            if self.crawford { " C" } else { "" }
        )
    }
}

/// The match length the benchmark scores are put in for `position`: its
/// own, or 2 for money (any length has the same away counts).
fn length_for(position: &Position) -> u16 {
    if position.state.is_money() {
        2
    } else {
        position.state.match_length
    }
}

/// Every row for `position`: money, then the benchmark scores the match
/// length allows (a 1-point match has DMP alone), then the match's own
/// score for a match.
pub fn rows(position: &Position) -> Vec<Row> {
    let s = &position.state;
    let length = length_for(position);
    let mut out = vec![row(position, ScoreCase::Money, 0, (0, 0), false)];
    let benchmarks = [
        (ScoreCase::Dmp, (1, 1), false),
        (ScoreCase::GammonSave, (1, 2), true),
        (ScoreCase::GammonGo, (2, 1), true),
    ];
    for (case, away, crawford) in benchmarks {
        if away.0.max(away.1) <= length {
            out.push(row(position, case, length, away, crawford));
        }
    }
    if !s.is_money() {
        let away = |p| s.match_length.saturating_sub(s.score_of(p)).max(1);
        let own = (away(s.on_roll), away(s.on_roll.opponent()));
        // A Crawford flag with nobody 1-away is no Crawford game (the
        // engines clear it too).
        let crawford = s.crawford && (own.0 == 1 || own.1 == 1);
        out.push(row(position, ScoreCase::Own, s.match_length, own, crawford));
    }
    out
}

fn row(
    position: &Position,
    score: ScoreCase,
    length: u16,
    away: (u16, u16),
    crawford: bool,
) -> Row {
    let cell = |cube: CubeState| {
        if cube != CubeState::Centred {
            if crawford {
                return Err(NotHere::Crawford);
            }
            if length > 0 && away == (1, 1) {
                return Err(NotHere::DeadCube);
            }
        }
        Ok(at(position, length, away, crawford, cube))
    };
    Row {
        score,
        away,
        crawford,
        cells: CUBE_STATES.map(cell),
    }
}

/// `position` at a score (`length` 0: money) with the cube `cube`: an
/// owned cube is the board's own when it is 2 or more, else 2.
fn at(
    position: &Position,
    length: u16,
    away: (u16, u16),
    crawford: bool,
    cube: CubeState,
) -> Position {
    let mut p = position.clone();
    let s = &mut p.state;
    let (roller, other) = (s.on_roll, s.on_roll.opponent());
    s.match_length = length;
    let mut score = [0u16; 2];
    if length > 0 {
        score[roller.index()] = length - away.0;
        score[other.index()] = length - away.1;
    }
    s.score = score;
    s.crawford = crawford;
    s.double_offered = false;
    s.resignation = Resignation::None;
    s.game_state = GameState::Playing;
    s.turn = s.on_roll;
    let owned = s.cube_log2.max(1);
    (s.cube_log2, s.cube_owner) = match cube {
        CubeState::Centred => (0, CubeOwner::Centred),
        CubeState::RollerOwns => (owned, CubeOwner::Owned(roller)),
        CubeState::OpponentOwns => (owned, CubeOwner::Owned(other)),
    };
    p
}

/// The row and column of the board's own score and cube: the match's own
/// score (money for money play), the board's cube state.
pub fn anchor(position: &Position, rows: &[Row]) -> (usize, usize) {
    let case = if position.state.is_money() {
        ScoreCase::Money
    } else {
        ScoreCase::Own
    };
    let row = rows.iter().position(|r| r.score == case).unwrap_or(0);
    let col = CUBE_STATES
        .iter()
        .position(|&c| c == CubeState::of(position))
        .unwrap_or(0);
    (row, col)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Player;

    fn in_match(length: u16, score: [u16; 2], crawford: bool) -> Position {
        let mut p = Position::default();
        p.state.on_roll = Player::O;
        p.state.turn = Player::O;
        p.state.dice = Some([3, 1]);
        p.state.match_length = length;
        p.state.score = score;
        p.state.crawford = crawford;
        p
    }

    fn cases(rows: &[Row]) -> Vec<ScoreCase> {
        rows.iter().map(|r| r.score).collect()
    }

    #[test]
    fn a_money_position_has_money_and_the_three_benchmarks() {
        let rows = rows(&Position::default());
        use ScoreCase::*;
        assert_eq!(cases(&rows), [Money, Dmp, GammonSave, GammonGo]);
        let money = &rows[0].cells[0].as_ref().unwrap().state;
        assert!(money.is_money());
        assert_eq!(rows[0].words(), "money");
        assert!(rows[0].cells.iter().all(Result::is_ok));
    }

    #[test]
    fn which_scores_exist_at_a_match_length() {
        use ScoreCase::*;
        // A 1-point match: nobody is ever 2-away.
        assert_eq!(cases(&rows(&in_match(1, [0, 0], false))), [Money, Dmp, Own]);
        assert_eq!(
            cases(&rows(&in_match(5, [1, 2], false))),
            [Money, Dmp, GammonSave, GammonGo, Own]
        );
        let r = rows(&in_match(5, [1, 2], false));
        // The roller (O) has 1, so is 4-away; X 3-away.
        assert_eq!(r[4].away, (4, 3));
        assert_eq!(r[4].words(), "score 4a-3a");
        let gs = r[2].cells[0].as_ref().unwrap();
        assert_eq!(gs.state.score[Player::O.index()], 4);
        assert_eq!(gs.state.score[Player::X.index()], 3);
        assert!(gs.state.crawford);
        assert_eq!(r[2].words(), "GS 1a-2a C");
        let gg = r[3].cells[0].as_ref().unwrap();
        assert_eq!(
            (
                gg.state.score[Player::O.index()],
                gg.state.score[Player::X.index()]
            ),
            (3, 4)
        );
        // The dice stay.
        assert_eq!(gg.state.dice, Some([3, 1]));
    }

    #[test]
    fn crawford_and_dmp_have_no_owned_cube() {
        let r = rows(&in_match(7, [6, 4], true));
        let own = r.last().unwrap();
        assert_eq!((own.away, own.crawford), ((1, 3), true));
        assert!(own.cells[0].is_ok());
        assert_eq!(own.cells[1], Err(NotHere::Crawford));
        assert_eq!(own.cells[2], Err(NotHere::Crawford));
        let dmp = &r[1];
        assert_eq!(dmp.cells[1], Err(NotHere::DeadCube));
        assert!(!dmp.crawford);
        // A stray Crawford flag (nobody 1-away) makes no Crawford game.
        let stray = rows(&in_match(7, [2, 2], true));
        assert!(!stray.last().unwrap().crawford);
        assert!(stray.last().unwrap().cells[1].is_ok());
    }

    #[test]
    fn owned_cubes_keep_the_boards_cube_and_the_anchor_is_the_boards_own() {
        let mut p = in_match(9, [2, 4], false);
        p.state.cube_log2 = 2;
        p.state.cube_owner = CubeOwner::Owned(Player::X);
        let r = rows(&p);
        let own = r.last().unwrap();
        let theirs = own.cells[2].as_ref().unwrap();
        assert_eq!(theirs.state.cube_value(), 4);
        assert_eq!(theirs.state.cube_owner, CubeOwner::Owned(Player::X));
        assert_eq!(own.cells[0].as_ref().unwrap().state.cube_value(), 1);
        assert_eq!(anchor(&p, &r), (r.len() - 1, 2));
        assert_eq!(
            anchor(&Position::default(), &rows(&Position::default())),
            (0, 0)
        );
        // A centred board cube: an owned one is 2.
        let q = in_match(9, [2, 4], false);
        assert_eq!(rows(&q)[0].cells[1].as_ref().unwrap().state.cube_value(), 2);
    }
}
