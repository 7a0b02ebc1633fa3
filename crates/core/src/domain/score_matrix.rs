//! The cells of a score matrix: one position at every score of a match, for
//! the cube decision a player faces there (AnkiGammon's and XG's score
//! matrix). Pure: the board and the player on roll stay; the score, the
//! Crawford flag and the cube change; the dice are cleared.

use super::{CubeOwner, Position};

/// Whose cube a cell is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeCase {
    /// A centred 1-cube: the initial double.
    Centred,
    /// A 2-cube the player on roll owns: the redouble.
    Owned,
}

impl CubeCase {
    pub fn name(self) -> &'static str {
        match self {
            CubeCase::Centred => "centred",
            CubeCase::Owned => "owned",
        }
    }
}

/// One score of the matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// How far each player is from winning the match, by `Player::index`.
    pub away: [u16; 2],
    /// The Crawford game (one player 1-away, no doubling).
    pub crawford: bool,
    pub cube: CubeCase,
    /// The position at this score.
    pub position: Position,
}

/// Every cell of an `length`-point matrix for `position`: each player 2 to
/// `length` away, then the 1-away scores (Crawford, where nobody may
/// double, and post-Crawford, where the trailer may), and both 1-away
/// (double match point, after the Crawford game: nobody may double, gnubg
/// says "You cannot double"), for each cube case. Row by row: the player
/// on roll's away count, then the opponent's.
pub fn cells(position: &Position, length: u16, cubes: &[CubeCase]) -> Vec<Cell> {
    let roller = position.state.on_roll;
    let mut scores: Vec<(u16, u16, bool)> = Vec::new();
    for mine in 2..=length {
        for theirs in 2..=length {
            scores.push((mine, theirs, false));
        }
    }
    for away in 2..=length {
        // The roller 1-away, then the opponent 1-away.
        scores.push((1, away, true));
        scores.push((1, away, false));
        scores.push((away, 1, true));
        scores.push((away, 1, false));
    }
    if length >= 1 {
        scores.push((1, 1, false));
    }
    let mut out = Vec::with_capacity(scores.len() * cubes.len());
    for &cube in cubes {
        for &(mine, theirs, crawford) in &scores {
            let mut away = [0u16; 2];
            away[roller.index()] = mine;
            away[roller.opponent().index()] = theirs;
            out.push(Cell {
                away,
                crawford,
                cube,
                position: at_score(position, length, away, crawford, cube),
            });
        }
    }
    out
}

/// The away counts a matrix's rows and columns are labelled by: 2 to
/// `length` away, then 1-away in the Crawford game and after it.
pub fn labels(length: u16) -> Vec<(u16, Option<bool>)> {
    let mut v: Vec<(u16, Option<bool>)> = (2..=length).map(|a| (a, None)).collect();
    v.push((1, Some(true)));
    v.push((1, Some(false)));
    v
}

/// Whether a row label and a column label make a score: both 1-away is
/// one only after the Crawford game (double match point); a Crawford label
/// against a 1-away one is none.
pub fn is_score(mine: (u16, Option<bool>), theirs: (u16, Option<bool>)) -> bool {
    match (mine.1, theirs.1) {
        (Some(a), Some(b)) => !a && !b,
        _ => true,
    }
}

/// "5a", "1a C" (Crawford), "1a PC" (post-Crawford).
pub fn label(away: u16, crawford: Option<bool>) -> String {
    match crawford {
        None => format!("{away}a"),
        Some(true) => "1a C".to_owned(),
        Some(false) => "1a PC".to_owned(),
    }
}

fn at_score(
    position: &Position,
    length: u16,
    away: [u16; 2],
    crawford: bool,
    cube: CubeCase,
) -> Position {
    let mut p = position.clone();
    let s = &mut p.state;
    s.match_length = length;
    s.score = [length - away[0], length - away[1]];
    s.crawford = crawford;
    s.dice = None;
    s.double_offered = false;
    s.resignation = super::Resignation::None;
    s.game_state = super::GameState::Playing;
    s.turn = s.on_roll;
    (s.cube_log2, s.cube_owner) = match cube {
        CubeCase::Centred => (0, CubeOwner::Centred),
        CubeCase::Owned => (1, CubeOwner::Owned(s.on_roll)),
    };
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Player;

    #[test]
    fn every_score_once_per_cube_with_the_roller_kept() {
        let mut p = Position::default();
        p.state.on_roll = Player::O;
        p.state.dice = Some([6, 5]);
        let cells = cells(&p, 5, &[CubeCase::Centred, CubeCase::Owned]);
        // 4 × 4 scores, then 4 away counts × 4 one-away cases, then
        // double match point; two cubes.
        assert_eq!(cells.len(), 2 * (16 + 16 + 1));
        let c = &cells[1];
        assert_eq!(c.away, [2, 3]);
        assert_eq!(c.position.state.score, [3, 2]);
        assert_eq!(c.position.state.dice, None);
        assert_eq!(c.position.state.on_roll, Player::O);
        let crawford = cells.iter().find(|c| c.crawford).unwrap();
        assert_eq!(crawford.away[Player::O.index()], 1);
        let owned = cells.iter().find(|c| c.cube == CubeCase::Owned).unwrap();
        assert_eq!(owned.position.state.cube_value(), 2);
        assert_eq!(owned.position.state.cube_owner, CubeOwner::Owned(Player::O));
    }

    #[test]
    fn double_match_point_is_a_cell_after_the_crawford_game() {
        let cells = cells(&Position::default(), 3, &[CubeCase::Centred]);
        let dmp: Vec<&Cell> = cells.iter().filter(|c| c.away == [1, 1]).collect();
        assert_eq!(dmp.len(), 1);
        assert!(!dmp[0].crawford);
        assert_eq!(dmp[0].position.state.score, [2, 2]);
        let (pc, c) = ((1, Some(false)), (1, Some(true)));
        assert!(is_score(pc, pc));
        assert!(!is_score(c, c) && !is_score(c, pc) && !is_score(pc, c));
        assert!(is_score((2, None), c) && is_score(pc, (3, None)));
    }
}
