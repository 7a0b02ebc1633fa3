//! What bgedit asks gnubg about a position, built from the position alone.
//! Pure: the checks that need no engine (an empty board, a finished game, a
//! player who cannot double) are answered here.

use bgedit_core::codec::gnubg_id;
use bgedit_core::domain::{CubeOwner, GameState, Player, Position, Resignation};
use serde_json::json;

/// Deepest evaluation offered: 3-ply takes seconds, 4-ply minutes.
pub const MAX_PLIES: u8 = 3;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Carried by the answer, so a late answer to an old request is known.
    pub id: u64,
    pub position: Position,
    pub plies: u8,
    /// How many ranked moves to return; 0 for all.
    pub moves: usize,
}

/// Why there is nothing to analyse, if so.
pub fn nothing_to_analyse(p: &Position) -> Option<String> {
    let b = &p.board;
    if Player::BOTH.into_iter().all(|pl| b.on_board(pl) == 0) {
        return Some("the board is empty: there is nothing to analyse".to_owned());
    }
    if let Some(pl) = Player::BOTH.into_iter().find(|&pl| b.on_board(pl) == 0) {
        return Some(format!(
            "the game is over: {pl} has borne off every checker"
        ));
    }
    match p.state.game_state {
        GameState::Playing | GameState::NoGame => None,
        gs => Some(format!("the game is over ({})", gs.words())),
    }
}

/// Why the player on roll, without dice, has no cube action (gnubg's `hint`
/// only says "You cannot double."), if so.
pub fn no_cube_action(p: &Position) -> Option<String> {
    let s = &p.state;
    if s.dice.is_some() || s.double_offered {
        return None;
    }
    if s.cube_owner == CubeOwner::Owned(s.on_roll.opponent()) {
        return Some(format!("{} owns the cube", s.on_roll.opponent()));
    }
    if !s.is_money() && s.crawford {
        return Some("the Crawford game: no doubling".to_owned());
    }
    if !s.is_money()
        && u32::from(s.score_of(s.on_roll)) + s.cube_value() >= u32::from(s.match_length)
    {
        return Some(format!(
            "the cube is dead: {} wins the match with the cube at {}",
            s.on_roll,
            s.cube_value()
        ));
    }
    None
}

/// The cube from which gnubg 1.07 is sent an equivalent cube: it crashes on
/// match cubes of 512 and up, and from 128 up the score plus the cube
/// leaves its 64-point table and its equities are unsound.
pub(crate) const BIG_CUBE: u32 = 128;

/// The cube gnubg is sent instead of the position's own, when they differ.
///
/// In match play a cube at least as large as both players' away counts
/// means any win ends the match (a gammon changes nothing, a redouble is
/// dead), so the position is the same game with the smallest power of two
/// (at least 2) that is still at least both away counts. gnubg's normalised
/// equity is the same for both, as its win and loss values are then 1 and
/// 0 for either cube. Only used from `BIG_CUBE` up (counting a double on
/// offer as made), where gnubg is not sound; below it gnubg's own answer
/// stands.
pub fn equivalent_cube(p: &Position) -> Option<u32> {
    let s = &p.state;
    if s.is_money() {
        return None;
    }
    let cube = s.cube_value();
    let offered = if s.double_offered { 2 * cube } else { cube };
    let away = |pl: Player| u32::from(s.match_length.saturating_sub(s.score_of(pl)));
    let most_away = away(Player::O).max(away(Player::X));
    if offered < BIG_CUBE || cube < most_away {
        return None;
    }
    let sent = most_away.next_power_of_two().max(2);
    (sent != cube).then_some(sent)
}

/// A Crawford flag no score allows: set while nobody is 1-away. gnubg's
/// `set gnubgid` clears it (the Crawford game is the one right after a
/// player reaches 1-away), so the position is analysed without it.
pub(crate) fn stray_crawford(p: &Position) -> bool {
    let s = &p.state;
    let one_away = |pl: Player| s.match_length.saturating_sub(s.score_of(pl)) == 1;
    !s.is_money() && s.crawford && !one_away(Player::O) && !one_away(Player::X)
}

/// What to tell the user when gnubg is sent something else than the
/// position shown: another cube, or no Crawford flag.
pub fn sent_notes(p: &Position) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(sent) = equivalent_cube(p) {
        notes.push(format!(
            "Cube {} analysed as {sent}: every win ends the match with either cube, and gnubg 1.07 is unsound from {BIG_CUBE} up",
            p.state.cube_value()
        ));
    }
    if stray_crawford(p) {
        notes.push(
            "Crawford set but nobody is 1-away: gnubg clears the flag (the Crawford game follows a player reaching 1-away), so this is analysed as a normal game"
                .to_owned(),
        );
    }
    notes
}

impl Request {
    /// The match state gnubg is told: the position's own, with the
    /// equivalent cube when it is too big for gnubg.
    pub fn sent_state(&self) -> bgedit_core::domain::MatchState {
        let mut s = self.position.state.clone();
        if let Some(sent) = equivalent_cube(&self.position) {
            s.cube_log2 = sent.trailing_zeros() as u8;
        }
        if stray_crawford(&self.position) {
            s.crawford = false;
        }
        s
    }

    /// The position as gnubg is told it: without a double on offer (`set
    /// gnubgid` drops it; the bridge makes the double instead) and without a
    /// resignation (the position is analysed, not the offer).
    pub(crate) fn wire_id(&self) -> String {
        let mut s = self.sent_state();
        s.double_offered = false;
        s.resignation = Resignation::None;
        s.game_state = GameState::Playing;
        s.turn = s.on_roll;
        gnubg_id::encode(&self.position.board, &s)
    }

    /// The GNUBG ID gnubg must report once set up (with the double made).
    pub(crate) fn expected_id(&self) -> String {
        let mut s = self.sent_state();
        s.resignation = Resignation::None;
        s.game_state = GameState::Playing;
        s.turn = s.expected_turn();
        gnubg_id::encode(&self.position.board, &s)
    }

    /// The request line sent to the bridge.
    pub fn to_line(&self) -> String {
        self.fields().to_string()
    }

    /// The request line for a decision of a match: `played_after` is the
    /// Position ID after the move played, which gnubg's match analysis
    /// evaluates at the full depth even where `hint` would leave it in the
    /// move filter's 0-ply tail.
    pub(crate) fn played_line(&self, played_after: &str) -> String {
        let mut v = self.fields();
        v["played_after"] = json!(played_after);
        v.to_string()
    }

    /// The request line for a rollout with `settings`, on `threads` of
    /// gnubg's threads (0: one, gnubg's own start). One thread, because
    /// gnubg's threaded cubeful rollouts are not reproducible: with two,
    /// the same seed gave a double/take of 1.809341, 1.809375 and 1.809342
    /// in three runs of gnubg's own (`KLUWVUCpfSAAAA:cAnAAFAAGAAE`, 144
    /// trials, truncated at 10), one thread 1.809812 every time. The
    /// answer says whether it is (`Rollout::reproducible`).
    pub(crate) fn rollout_line(&self, settings: &RolloutSettings, threads: u8) -> String {
        let threads = usize::from(threads.max(1));
        let mut v = self.fields();
        v["rollout"] = json!({
            "trials": settings.trials,
            "seed": settings.seed,
            "truncate": settings.truncate,
            "plies": settings.plies.min(MAX_PLIES),
            "cubeful": settings.cubeful,
            "vr": settings.variance_reduction,
            "quasi": settings.quasi_random,
            "candidates": settings.candidates,
            "chunk_ms": settings.chunk_ms,
            "threads": threads,
        });
        if let Some(p) = settings.truncate_plies {
            v["rollout"]["truncate_plies"] = json!(p.min(MAX_PLIES));
        }
        v.to_string()
    }

    fn fields(&self) -> serde_json::Value {
        let s = &self.position.state;
        json!({
            "id": self.id,
            "gnubgid": self.wire_id(),
            "double": s.double_offered,
            "expect": self.expected_id(),
            "plies": self.plies.min(MAX_PLIES),
            "moves": self.moves,
            "beavers": s.beavers,
            "no_cube": no_cube_action(&self.position).is_some(),
        })
    }
}

/// How gnubg rolls a position out: its own rollout settings (the same seed
/// and settings give gnubg's numbers), how many candidates, and how often
/// the answer so far comes back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RolloutSettings {
    pub trials: u32,
    pub seed: u32,
    /// Plies after which a trial is cut off and evaluated; 0 plays it out.
    pub truncate: u8,
    /// The depth of the evaluation at the truncation point (gnubg's
    /// count); None: the engine's own (gnubg 2-ply, as `show rollout`
    /// says; Sage the players' depth, as bgsage does).
    pub truncate_plies: Option<u8>,
    /// The depth the rollout players move and double at.
    pub plies: u8,
    pub cubeful: bool,
    pub variance_reduction: bool,
    pub quasi_random: bool,
    /// The leading moves rolled out (gnubg's order at the request's depth).
    pub candidates: usize,
    /// About how long a chunk of trials runs before the answer so far is
    /// sent: the editor's panel wants 4 a second, a batch fewer.
    pub chunk_ms: u32,
}

/// Most trials accepted: 100,000 trials of five candidates is hours.
pub const MAX_TRIALS: u32 = 100_000;

impl Default for RolloutSettings {
    /// gnubg's defaults (1296 trials, cubeful, variance reduction,
    /// quasi-random dice, 0-ply players, played to the end) with seed 1 and
    /// the five leading moves.
    fn default() -> Self {
        RolloutSettings {
            trials: 1296,
            seed: 1,
            truncate: 0,
            truncate_plies: None,
            plies: 0,
            cubeful: true,
            variance_reduction: true,
            quasi_random: true,
            candidates: 5,
            chunk_ms: 250,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bgedit_core::domain::Board;

    #[test]
    fn a_double_is_left_out_of_the_id_and_kept_in_the_expectation() {
        let mut p = Position::default();
        p.state.double_offered = true;
        p.state.turn = p.state.expected_turn();
        let r = Request {
            id: 7,
            position: p,
            plies: 0,
            moves: 5,
        };
        assert_ne!(r.wire_id(), r.expected_id());
        let line = r.to_line();
        assert!(
            line.contains("\"double\":true") && line.contains("\"id\":7"),
            "{line}"
        );
    }

    fn match_at(length: u16, score: [u16; 2], cube_log2: u8, offered: bool) -> Position {
        let mut p = Position::default();
        p.state.match_length = length;
        p.state.score = score;
        p.state.cube_log2 = cube_log2;
        p.state.double_offered = offered;
        p.state.cube_owner = CubeOwner::Owned(p.state.on_roll);
        p.state.turn = p.state.expected_turn();
        p
    }

    #[test]
    fn big_match_cubes_are_sent_as_the_smallest_cube_that_ends_the_match() {
        // 31-point match, 8-0: 23 and 31 away; a 512-cube becomes 32.
        let p = match_at(31, [8, 0], 9, false);
        assert_eq!(equivalent_cube(&p), Some(32));
        let r = Request {
            id: 1,
            position: p.clone(),
            plies: 0,
            moves: 0,
        };
        let mut sent = p.clone();
        sent.state.cube_log2 = 5;
        assert_eq!(r.wire_id(), gnubg_id::encode(&sent.board, &sent.state));
        assert!(sent_notes(&p)[0].contains("Cube 512 analysed as 32"));
        // 4096 at 2-away both: the 2-cube.
        assert_eq!(equivalent_cube(&match_at(5, [3, 3], 12, false)), Some(2));
        // 128 up: from there gnubg is unsound.
        assert_eq!(equivalent_cube(&match_at(31, [8, 0], 7, false)), Some(32));
        // A 64-cube on offer is a 128-cube once taken.
        assert_eq!(equivalent_cube(&match_at(31, [8, 0], 6, true)), Some(32));
    }

    #[test]
    fn a_crawford_flag_with_nobody_1_away_is_left_out_as_gnubg_does() {
        let mut p = match_at(7, [2, 3], 0, false);
        p.state.cube_owner = CubeOwner::Centred;
        p.state.crawford = true;
        assert!(stray_crawford(&p));
        let r = Request {
            id: 1,
            position: p.clone(),
            plies: 0,
            moves: 0,
        };
        let mut sent = p.clone();
        sent.state.crawford = false;
        assert_eq!(r.wire_id(), gnubg_id::encode(&sent.board, &sent.state));
        assert!(sent_notes(&p)[0].contains("nobody is 1-away"));
        // At 6-3 in a 7-point match the flag is the Crawford game's.
        p.state.score = [6, 3];
        assert!(!stray_crawford(&p));
        assert!(sent_notes(&p).is_empty());
    }

    #[test]
    fn small_cubes_money_and_live_big_cubes_are_sent_as_they_are() {
        assert_eq!(equivalent_cube(&match_at(31, [8, 0], 6, false)), None);
        let mut money = match_at(0, [0, 0], 10, false);
        money.state.match_length = 0;
        assert_eq!(equivalent_cube(&money), None);
        // A 128-cube in a 200-point match still leaves gammons alive.
        assert_eq!(equivalent_cube(&match_at(200, [0, 0], 7, false)), None);
        // Already the smallest: nothing to change.
        assert_eq!(equivalent_cube(&match_at(31, [0, 0], 5, false)), None);
    }

    #[test]
    fn empty_and_finished_boards_have_nothing_to_analyse() {
        let p = Position {
            board: Board::empty(),
            ..Position::default()
        };
        assert!(nothing_to_analyse(&p).unwrap().contains("empty"));
        assert_eq!(nothing_to_analyse(&Position::default()), None);
    }

    #[test]
    fn cube_owned_by_the_opponent_means_no_cube_action() {
        let mut p = Position::default();
        p.state.dice = None;
        p.state.cube_owner = CubeOwner::Owned(p.state.on_roll.opponent());
        assert!(no_cube_action(&p).unwrap().contains("owns the cube"));
    }
}
