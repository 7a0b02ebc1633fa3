//! Scores as players say them: "3-away" is the points a player still needs
//! to win the match. Pure arithmetic on the match state.

use bgedit_core::domain::{MatchState, Player};

/// How many points `player` still needs, in match play.
pub(crate) fn away(state: &MatchState, player: Player) -> Option<u16> {
    (!state.is_money()).then(|| state.match_length.saturating_sub(state.score_of(player)))
}

/// The player a score change has just made 1-away, when the next game may
/// be the Crawford game: only that player is 1-away (at 1-away both, the
/// Crawford game is past), was not before, and Crawford is off.
pub(crate) fn newly_one_away(before: &MatchState, after: &MatchState) -> Option<Player> {
    if after.crawford || after.is_money() {
        return None;
    }
    let one = |s: &MatchState, p| away(s, p) == Some(1);
    let mut now: Vec<Player> = Player::BOTH
        .into_iter()
        .filter(|&p| one(after, p))
        .collect();
    match now.as_slice() {
        [p] if !one(before, *p) => now.pop(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(length: u16, score: [u16; 2]) -> MatchState {
        MatchState {
            match_length: length,
            score,
            ..MatchState::default()
        }
    }

    #[test]
    fn away_counts_the_points_still_needed() {
        let s = state(9, [2, 4]);
        assert_eq!(away(&s, Player::O), Some(7));
        assert_eq!(away(&s, Player::X), Some(5));
        assert_eq!(away(&state(0, [2, 4]), Player::O), None);
    }

    #[test]
    fn the_crawford_offer_comes_once_for_one_player() {
        let before = state(7, [2, 4]);
        assert_eq!(newly_one_away(&before, &state(7, [6, 4])), Some(Player::O));
        assert_eq!(newly_one_away(&before, &state(7, [2, 6])), Some(Player::X));
        // Already 1-away before, both 1-away, or Crawford already set.
        assert_eq!(newly_one_away(&state(7, [6, 3]), &state(7, [6, 4])), None);
        assert_eq!(newly_one_away(&before, &state(7, [6, 6])), None);
        let crawford = MatchState {
            crawford: true,
            ..state(7, [6, 4])
        };
        assert_eq!(newly_one_away(&before, &crawford), None);
        assert_eq!(newly_one_away(&state(0, [0, 0]), &state(0, [6, 0])), None);
    }
}
