//! The replay: a game's actions turned into the positions before each of
//! them, with gnubg 1.07's rules (`ApplyMoveRecord` in gnubg's `play.c`).
//! Every match reader produces a [`MatchRecord`]; this is the one place that
//! turns its actions into positions.
//!
//! The position *before a decision* is what gnubg shows at it:
//! - a move: the roller on roll with the dice rolled;
//! - a double: the player before acting, no dice;
//! - a resignation offer: the position as it was (gnubg moves neither the
//!   roller nor the turn, and keeps dice already rolled);
//! - take, drop or beaver: the double on offer, the taker to decide;
//! - accepting or rejecting a resignation: the resignation on offer, the
//!   opponent of the resigner to decide.
//!
//! gnubg's rules the replay follows, and the traps they hide:
//! - A move the file gives is applied even when it is not legal for the
//!   dice (gnubg's SGF and `.mat` import call `ApplyMove` without checking):
//!   the replay does the same and reports a [`ReadProblem`].
//! - A beaver doubles the cube at once and gives the decision back to the
//!   doubler; the take that follows doubles it again and gives the cube to
//!   the beaverer.
//! - After a dropped double the doubler stays on roll and the turn
//!   (`fTurn`) stays with the player who dropped.
//! - The game's result from the file ends the game only when the whole game
//!   is replayed: a truncated replay is a game still in play.

use super::board::{Board, BoardError, Place};
use super::match_record::{
    Action, ActionKind, Ending, GameRecord, MatchHeader, MatchRecord, ReadProblem,
};
use super::match_state::{CubeOwner, GameState, MAX_CUBE_LOG2, MatchState, Resignation};
use super::moves::{FreeMoveError, free_move, legal_moves};
use super::notation::TypedMove;
use super::player::Player;
use super::position::Position;

/// The positions of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReplay {
    /// `before[i]`: the position at the decision of action `i` (0-based).
    pub before: Vec<Position>,
    /// After the last action, with the file's result applied when the game
    /// was replayed whole.
    pub end: Position,
    /// What gnubg would accept but is not right (an illegal move, a move
    /// played where the dice allow none): each names the game and action.
    pub problems: Vec<ReadProblem>,
}

impl GameReplay {
    /// The position after the first `actions` actions (today's `--move M`
    /// counts): the decision position of the next action without its dice,
    /// or the end of the game when every action is counted.
    pub fn after(&self, actions: usize) -> Option<Position> {
        match actions.cmp(&self.before.len()) {
            std::cmp::Ordering::Less => {
                let mut p = self.before[actions].clone();
                p.state.dice = None;
                Some(p)
            }
            std::cmp::Ordering::Equal => Some(self.end.clone()),
            std::cmp::Ordering::Greater => None,
        }
    }
}

/// An action the replay cannot apply (a checker moved from an empty point,
/// onto a point the opponent holds): the replay stops there.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("game {game}, move {action}: {fault}")]
pub struct ReplayError {
    /// 1-based game number, as the record numbers it.
    pub game: usize,
    /// 1-based action.
    pub action: usize,
    /// What is wrong with the action.
    pub fault: ActionError,
    /// The positions before each action up to the bad one, and the position
    /// before the bad one as `end`.
    pub partial: Box<GameReplay>,
}

/// Why an action cannot be applied where the replay stands. The messages
/// name the player and what they did; [`ReplayError`] adds the game and
/// the move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    #[error("{player} acts after the game ended ({})", state.words())]
    AfterTheEnd { player: Player, state: GameState },
    #[error("{player}'s roll {}{} is not two dice 1–6", dice[0], dice[1])]
    Roll { player: Player, dice: [u8; 2] },
    #[error("{player} moves while a double is on offer")]
    MovesWhileDoubled { player: Player },
    #[error("{player}'s move cannot be played: {reason}")]
    Unplayable {
        player: Player,
        reason: FreeMoveError,
    },
    /// The board after a move breaks a rule of the board.
    #[error(transparent)]
    Board(BoardError),
    #[error("{player} doubles while a double is on offer")]
    DoublesWhileDoubled { player: Player },
    #[error("{player} beavers with no double on offer")]
    BeaverWithoutDouble { player: Player },
    #[error("{player} takes with no double on offer")]
    TakeWithoutDouble { player: Player },
    #[error("{player} drops with no double on offer")]
    DropWithoutDouble { player: Player },
    #[error("{player} resigns nothing")]
    ResignsNothing { player: Player },
    #[error("{player} accepts a resignation nobody offered")]
    AcceptsNothing { player: Player },
    #[error("{player} rejects a resignation nobody offered")]
    RejectsNothing { player: Player },
    #[error("set-up dice {}{} are not two dice 1–6", dice[0], dice[1])]
    SetUpDice { dice: [u8; 2] },
    #[error("the set-up leaves {0}")]
    SetUpBoard(BoardError),
}

/// The starting position of a game: the header's match, the game's score
/// and Crawford flag, a centred 1-cube, the first actor on roll.
pub fn game_start(header: &MatchHeader, game: &GameRecord) -> Position {
    let first = game
        .actions
        .iter()
        .find(|a| !matches!(a.kind, ActionKind::SetUp(_)))
        .map_or(Player::X, |a| a.player);
    let state = MatchState {
        on_roll: first,
        turn: first,
        match_length: header.length,
        score: game.score,
        crawford: game.crawford_game && header.length > 0,
        jacoby: header.jacoby,
        beavers: header.beavers,
        ..MatchState::default()
    };
    Position {
        board: Board::starting(),
        state,
        names: header.names.clone(),
    }
}

/// Replays a whole game: the position before every action and the end.
pub fn replay_game(header: &MatchHeader, game: &GameRecord) -> Result<GameReplay, ReplayError> {
    replay_actions(header, game, game.actions.len())
}

/// Replays the first `count` actions of a game (all of them applies the
/// game's result at the end; fewer never does).
pub(crate) fn replay_actions(
    header: &MatchHeader,
    game: &GameRecord,
    count: usize,
) -> Result<GameReplay, ReplayError> {
    let mut now = game_start(header, game);
    let count = count.min(game.actions.len());
    let mut before = Vec::with_capacity(count);
    let mut problems = Vec::new();
    for (i, action) in game.actions[..count].iter().enumerate() {
        let at = decision(&now, action);
        match apply(&at, action) {
            Ok((next, problem)) => {
                if let Some(message) = problem {
                    problems.push(ReadProblem {
                        game: Some(game.number),
                        action: Some(i + 1),
                        line: action.origin,
                        message,
                    });
                }
                before.push(at);
                now = next;
            }
            Err(fault) => {
                return Err(ReplayError {
                    game: game.number,
                    action: i + 1,
                    fault,
                    partial: Box::new(GameReplay {
                        before,
                        end: at,
                        problems,
                    }),
                });
            }
        }
    }
    if count == game.actions.len() {
        finish(&mut now, game);
    }
    Ok(GameReplay {
        before,
        end: now,
        problems,
    })
}

/// The position gnubg shows at the decision `action` answers, from the
/// position after the previous action.
fn decision(now: &Position, action: &Action) -> Position {
    let mut at = now.clone();
    let s = &mut at.state;
    match &action.kind {
        ActionKind::Move { dice, .. } => {
            // gnubg sets `fMove` from the record: the mover is on roll.
            s.on_roll = action.player;
            s.turn = action.player;
            s.dice = Some(*dice);
        }
        ActionKind::Double => {
            if !s.double_offered && s.resignation == Resignation::None {
                s.on_roll = action.player;
                s.turn = action.player;
            }
            s.dice = None;
        }
        // gnubg's resignation leaves the roller, the turn and the dice as
        // they were: a player may resign after their own move (the winner
        // on roll, a `.mat` writing `Wins` in the winner's column) or after
        // rolling (FIBS `32:`, XG `32: ????`, the dice still shown).
        ActionKind::Resign(_) => {}
        ActionKind::Take
        | ActionKind::Drop
        | ActionKind::Beaver
        | ActionKind::AcceptResign
        | ActionKind::RejectResign
        | ActionKind::SetUp(_) => {}
    }
    at
}

/// The position after `action`, from the position at its decision, and a
/// problem gnubg would not refuse.
fn apply(at: &Position, action: &Action) -> Result<(Position, Option<String>), ActionError> {
    let mut next = at.clone();
    let player = action.player;
    let mut problem = None;
    if at.state.game_state != GameState::Playing && !matches!(action.kind, ActionKind::SetUp(_)) {
        return Err(ActionError::AfterTheEnd {
            player,
            state: at.state.game_state,
        });
    }
    let s = &mut next.state;
    match &action.kind {
        ActionKind::Move { dice, steps } => {
            if !dice.iter().all(|d| (1..=6).contains(d)) {
                return Err(ActionError::Roll {
                    player,
                    dice: *dice,
                });
            }
            if s.double_offered {
                return Err(ActionError::MovesWhileDoubled { player });
            }
            let legal = legal_moves(&at.board, player, *dice);
            let board = if steps.is_empty() {
                if !legal.is_empty() {
                    problem = Some(format!(
                        "{player} plays nothing with {}{} although {} legal move{} exist",
                        dice[0],
                        dice[1],
                        legal.len(),
                        if legal.len() == 1 { "" } else { "s" }
                    ));
                }
                at.board.clone()
            } else {
                let board = free_move(&at.board, player, &TypedMove::from_steps(steps))
                    .map_err(|reason| ActionError::Unplayable { player, reason })?;
                if !legal.iter().any(|m| m.result == board) {
                    // gnubg applies a file's move without checking it.
                    problem = Some(format!(
                        "{player}'s move is not legal for {}{}; applied as gnubg does",
                        dice[0], dice[1]
                    ));
                }
                board
            };
            board.validate().map_err(ActionError::Board)?;
            next.board = board;
            let s = &mut next.state;
            s.on_roll = player.opponent();
            s.turn = s.on_roll;
            s.dice = None;
            if next.board.on_board(player) == 0 {
                next.state.game_state = GameState::Over;
            }
        }
        // gnubg's SGF writes a beaver as the taker's own `double` while the
        // first is on offer.
        ActionKind::Double if s.double_offered && s.turn == player => beaver(s, player),
        ActionKind::Double => {
            if s.double_offered {
                return Err(ActionError::DoublesWhileDoubled { player });
            }
            s.double_offered = true;
            s.turn = player.opponent();
        }
        ActionKind::Beaver => {
            if !s.double_offered {
                return Err(ActionError::BeaverWithoutDouble { player });
            }
            beaver(s, player);
        }
        ActionKind::Take => {
            if !s.double_offered {
                return Err(ActionError::TakeWithoutDouble { player });
            }
            s.cube_log2 = (s.cube_log2 + 1).min(MAX_CUBE_LOG2);
            s.cube_owner = CubeOwner::Owned(s.on_roll.opponent());
            s.double_offered = false;
            s.turn = s.on_roll;
        }
        ActionKind::Drop => {
            if !s.double_offered {
                return Err(ActionError::DropWithoutDouble { player });
            }
            // gnubg leaves `fTurn` with the player who dropped.
            s.double_offered = false;
            s.game_state = GameState::Dropped;
        }
        ActionKind::Resign(r) => {
            if *r == Resignation::None {
                return Err(ActionError::ResignsNothing { player });
            }
            s.resignation = *r;
            s.turn = player.opponent();
        }
        ActionKind::AcceptResign => {
            if s.resignation == Resignation::None {
                return Err(ActionError::AcceptsNothing { player });
            }
            s.game_state = GameState::Resigned;
            // gnubg records the accepted resignation as the resigner's
            // action: the turn is theirs again, as after `RE[..R]`.
            s.turn = s.on_roll;
        }
        ActionKind::RejectResign => {
            if s.resignation == Resignation::None {
                return Err(ActionError::RejectsNothing { player });
            }
            s.resignation = Resignation::None;
            s.turn = if s.double_offered {
                s.on_roll.opponent()
            } else {
                s.on_roll
            };
        }
        ActionKind::SetUp(set) => {
            if let Some(board) = &set.board {
                next.board = board.clone();
            }
            next.board = edited(&next.board, set)?;
            let s = &mut next.state;
            if let Some(p) = set.on_roll {
                s.on_roll = p;
                s.turn = p;
            }
            if let Some(c) = set.cube_log2 {
                s.cube_log2 = c.min(MAX_CUBE_LOG2);
            }
            if let Some(o) = set.cube_owner {
                s.cube_owner = o;
            }
            if let Some(d) = set.dice {
                if !d.iter().all(|v| (1..=6).contains(v)) {
                    return Err(ActionError::SetUpDice { dice: d });
                }
                s.dice = set.dice;
            }
        }
    }
    Ok((next, problem))
}

/// The board after a set-up's `clear` and `add` lists, checked.
fn edited(board: &Board, set: &super::match_record::SetUp) -> Result<Board, ActionError> {
    if set.clear.is_empty() && set.add.is_empty() {
        return Ok(board.clone());
    }
    let mut b = board.clone();
    let put = |b: &Board, p: Player, place: Place, n: u8| {
        b.with_count(p, place, n).map_err(ActionError::SetUpBoard)
    };
    for &place in &set.clear {
        for p in Player::BOTH {
            if !matches!(place, Place::Bar(q) | Place::Off(q) if q != p) {
                b = put(&b, p, place, 0)?;
            }
        }
    }
    for &(p, place) in &set.add {
        let n = b.count(p, place).saturating_add(1);
        b = put(&b, p, place, n)?;
    }
    b.validate().map_err(ActionError::SetUpBoard)?;
    Ok(b)
}

/// A beaver: the cube is turned to the beaverer at twice the value, and the
/// original doubler must accept it (gnubg's state after `beaver`: the double
/// still on offer, the doubler's turn).
fn beaver(s: &mut MatchState, player: Player) {
    s.cube_log2 = (s.cube_log2 + 1).min(MAX_CUBE_LOG2);
    s.cube_owner = CubeOwner::Owned(player);
    s.turn = player.opponent();
}

/// The file's result ends a game that no action ended (a resignation the
/// file writes only as `RE[W+2R]`, a game that stops at its last move).
fn finish(end: &mut Position, game: &GameRecord) {
    end_by_result(end, game);
    // gnubg scores a game as it ends: the position after the last action
    // already holds the new score (in a money session too).
    if end.state.game_state != GameState::Playing
        && let Some((winner, points)) = game
            .result
            .map(|r| (r.winner, r.points))
            .or_else(|| points_won(end))
    {
        let won = u16::try_from(points).unwrap_or(u16::MAX);
        let length = end.state.match_length;
        let score = &mut end.state.score[winner.index()];
        // The game that wins the match is left at its starting score: a
        // Match ID cannot hold a finished match (gnubg shows the score past
        // the length there, and refuses such an ID when given one).
        if length == 0 || score.saturating_add(won) < length {
            *score = score.saturating_add(won);
        }
    }
}

/// Who won a game the actions ended, and how many points, where the file
/// gives no result: a drop wins the cube for the doubler, a resignation its
/// value, the last checker off a single game, gammon or backgammon (gammons
/// not counted in money play under Jacoby with the cube centred).
fn points_won(end: &Position) -> Option<(Player, u32)> {
    let s = &end.state;
    let cube = s.cube_value();
    match s.game_state {
        GameState::Dropped => Some((s.on_roll, cube)),
        GameState::Resigned => Some((s.turn, cube * u32::from(s.resignation.code()))),
        GameState::Over => {
            let winner = Player::BOTH
                .into_iter()
                .find(|&p| end.board.on_board(p) == 0)?;
            let loser = winner.opponent();
            let jacoby_single = s.is_money() && s.jacoby && s.cube_owner == CubeOwner::Centred;
            // A backgammon: a loser's checker on the bar or in the winner's
            // home board (the loser's own 19 to 24 points).
            let in_home_or_bar = end.board.side(loser)[18..].iter().any(|&n| n > 0);
            let times = if jacoby_single || end.board.borne_off(loser) > 0 {
                1
            } else if in_home_or_bar {
                3
            } else {
                2
            };
            Some((winner, cube * times))
        }
        _ => None,
    }
}

fn end_by_result(end: &mut Position, game: &GameRecord) {
    let Some(result) = game.result else { return };
    let s = &mut end.state;
    if s.game_state != GameState::Playing {
        return;
    }
    s.dice = None;
    match result.ending {
        Some(Ending::Resigned) => {
            s.game_state = GameState::Resigned;
            let per_cube = result.points / s.cube_value().max(1);
            s.resignation =
                Resignation::from_code(per_cube.clamp(1, 3) as u8).unwrap_or(Resignation::Single);
        }
        Some(Ending::Dropped) => {
            s.double_offered = false;
            s.game_state = GameState::Dropped;
        }
        Some(Ending::BoreOff) | None => s.game_state = GameState::Over,
    }
}

/// One decision of a match: where it is, who decides, and the position.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision<'a> {
    /// 1-based game number.
    pub game: usize,
    /// 1-based action number in the game (`--move` counts it minus one:
    /// the position after `action - 1` actions).
    pub action: usize,
    pub record: &'a Action,
    pub position: Position,
}

/// Every decision of a match in order (set-up actions left out), and the
/// problems and errors met; a game that cannot be replayed to its end gives
/// its decisions up to the bad action and an error, and the next games are
/// still replayed.
pub fn match_decisions(record: &MatchRecord) -> (Vec<Decision<'_>>, Vec<ReadProblem>) {
    let mut decisions = Vec::new();
    let mut problems = super::match_record::Problems::default();
    for game in &record.games {
        let replay = match replay_game(&record.header, game) {
            Ok(r) => r,
            Err(e) => {
                problems.push(ReadProblem {
                    game: Some(e.game),
                    action: Some(e.action),
                    line: game.actions.get(e.action - 1).and_then(|a| a.origin),
                    message: e.fault.to_string(),
                });
                *e.partial
            }
        };
        for p in replay.problems {
            problems.push(p);
        }
        for (i, position) in replay.before.into_iter().enumerate() {
            let action = &game.actions[i];
            if matches!(action.kind, ActionKind::SetUp(_)) {
                continue;
            }
            decisions.push(Decision {
                game: game.number,
                action: i + 1,
                record: action,
                position,
            });
        }
    }
    let mut problems = problems.into_list();
    problems.sort_by_key(|p| (p.game, p.action));
    (decisions, problems)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::match_record::{GameResult, MatchFormat};
    use crate::domain::notation::Step;

    fn mv(player: Player, dice: [u8; 2], steps: &[(u8, u8)]) -> Action {
        Action::new(
            player,
            ActionKind::Move {
                dice,
                steps: steps.iter().map(|&(from, to)| Step { from, to }).collect(),
            },
        )
    }

    fn header(length: u16) -> MatchHeader {
        MatchHeader {
            length,
            crawford: true,
            ..MatchHeader::default()
        }
    }

    fn game(actions: Vec<Action>, result: Option<GameResult>) -> GameRecord {
        GameRecord {
            number: 1,
            score: [2, 1],
            crawford_game: false,
            actions,
            result,
            comment: None,
        }
    }

    fn id(p: &Position) -> String {
        crate::codec::gnubg_id::encode(&p.board, &p.state)
    }

    #[test]
    fn positions_before_moves_carry_the_roll() {
        let g = game(
            vec![
                mv(Player::X, [3, 1], &[(8, 5), (6, 5)]),
                mv(Player::O, [6, 4], &[(24, 18), (18, 14)]),
            ],
            None,
        );
        let r = replay_game(&header(7), &g).unwrap();
        assert_eq!(r.before.len(), 2);
        assert_eq!(r.before[0].state.dice, Some([3, 1]));
        assert_eq!(r.before[0].state.on_roll, Player::X);
        assert_eq!(r.before[0].state.score, [2, 1]);
        assert_eq!(r.before[1].state.on_roll, Player::O);
        assert_eq!(r.before[1].state.dice, Some([6, 4]));
        assert_eq!(r.before[1].board.pip_count(Player::X), 167 - 4);
        assert_eq!(r.end.board.pip_count(Player::O), 167 - 10);
        assert_eq!(r.end.state.on_roll, Player::X);
        assert!(r.problems.is_empty());
    }

    #[test]
    fn a_truncated_replay_ignores_the_result() {
        let result = Some(GameResult {
            winner: Player::X,
            points: 1,
            ending: Some(Ending::Resigned),
        });
        let g = game(
            vec![
                mv(Player::X, [3, 1], &[(8, 5), (6, 5)]),
                mv(Player::O, [6, 4], &[(24, 18), (18, 14)]),
            ],
            result,
        );
        let part = replay_actions(&header(7), &g, 1).unwrap();
        assert_eq!(part.end.state.game_state, GameState::Playing);
        let whole = replay_game(&header(7), &g).unwrap();
        assert_eq!(whole.end.state.game_state, GameState::Resigned);
        assert_eq!(whole.end.state.resignation, Resignation::Single);
        assert_eq!(whole.after(1).unwrap().state.game_state, GameState::Playing);
    }

    #[test]
    fn cube_actions_follow_gnubg() {
        let g = game(
            vec![
                mv(Player::X, [3, 1], &[(8, 5), (6, 5)]),
                Action::new(Player::O, ActionKind::Double),
                Action::new(Player::X, ActionKind::Take),
                mv(Player::O, [6, 4], &[(24, 18), (18, 14)]),
                Action::new(Player::X, ActionKind::Double),
                Action::new(Player::O, ActionKind::Drop),
            ],
            None,
        );
        let r = replay_game(&header(7), &g).unwrap();
        let double = &r.before[1].state;
        assert_eq!((double.on_roll, double.turn), (Player::O, Player::O));
        assert!(!double.double_offered && double.dice.is_none());
        let take = &r.before[2].state;
        assert!(take.double_offered);
        assert_eq!((take.on_roll, take.turn), (Player::O, Player::X));
        let after_take = &r.before[3].state;
        assert_eq!(after_take.cube_log2, 1);
        assert_eq!(after_take.cube_owner, CubeOwner::Owned(Player::X));
        let end = &r.end.state;
        assert_eq!(end.game_state, GameState::Dropped);
        // gnubg: the doubler stays on roll, the turn is the dropper's.
        assert_eq!((end.on_roll, end.turn), (Player::X, Player::O));
        assert_eq!(end.cube_log2, 1);
    }

    #[test]
    fn beavers_double_twice() {
        let h = MatchHeader {
            beavers: true,
            ..MatchHeader::default()
        };
        let g = game(
            vec![
                mv(Player::X, [3, 1], &[(8, 5), (6, 5)]),
                Action::new(Player::O, ActionKind::Double),
                Action::new(Player::X, ActionKind::Beaver),
                Action::new(Player::O, ActionKind::Take),
            ],
            None,
        );
        let r = replay_game(&h, &g).unwrap();
        let beaver = &r.before[3].state;
        assert_eq!((beaver.cube_log2, beaver.turn), (1, Player::O));
        assert!(beaver.double_offered);
        assert_eq!(r.end.state.cube_log2, 2);
        assert_eq!(r.end.state.cube_owner, CubeOwner::Owned(Player::X));
    }

    #[test]
    fn illegal_moves_are_applied_and_reported() {
        // 3-1 played as 13/8: gnubg applies it.
        let g = game(vec![mv(Player::X, [3, 1], &[(13, 8)])], None);
        let r = replay_game(&header(7), &g).unwrap();
        assert_eq!(r.problems.len(), 1);
        assert_eq!(r.problems[0].action, Some(1));
        assert_eq!(r.end.board.pip_count(Player::X), 167 - 5);
        // A checker from an empty point stops the replay.
        let bad = game(vec![mv(Player::X, [3, 1], &[(20, 17)])], None);
        let e = replay_game(&header(7), &bad).unwrap_err();
        assert_eq!((e.game, e.action), (1, 1));
        assert_eq!(e.partial.end.board, Board::starting());
        assert_eq!(e.partial.end.state.dice, Some([3, 1]));
    }

    #[test]
    fn a_take_with_no_double_names_game_move_and_player() {
        let bad = game(vec![Action::new(Player::X, ActionKind::Take)], None);
        let e = replay_game(&header(7), &bad).unwrap_err();
        assert_eq!(
            e.fault,
            ActionError::TakeWithoutDouble { player: Player::X }
        );
        assert_eq!(
            e.to_string(),
            "game 1, move 1: X takes with no double on offer"
        );
        let dice = ActionError::SetUpDice { dice: [0, 7] };
        assert_eq!(dice.to_string(), "set-up dice 07 are not two dice 1–6");
    }

    #[test]
    fn decisions_of_a_match() {
        let record = MatchRecord {
            format: MatchFormat::Sgf,
            header: header(7),
            games: vec![game(
                vec![
                    mv(Player::X, [3, 1], &[(8, 5), (6, 5)]),
                    mv(Player::O, [6, 4], &[(24, 18), (18, 14)]),
                ],
                None,
            )],
        };
        let (d, problems) = match_decisions(&record);
        assert!(problems.is_empty());
        assert_eq!(d.len(), 2);
        assert_eq!((d[1].game, d[1].action), (1, 2));
        // Checked with gnubg: `set matchid` shows the 7-point match, 31 rolled.
        assert_eq!(id(&d[0].position), "4HPwATDgc/ABMA:cInlACAACAAE");
    }
}
