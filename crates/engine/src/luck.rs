//! gnubg's luck analysis of a whole match, added up from its analysis of
//! each game (`engine::gnubg_match`).
//!
//! gnubg rates each roll against the 21 others, every one played at its
//! best at 0-ply (analysis.c `LuckAnalysis`): 21 move searches a roll,
//! which through gnubg's Python one position at a time would cost 21 of its
//! 10 ms waits. So gnubg rates the rolls in its own `analyse match`,
//! beside the decisions, which does whole games in one go.

use super::gnubg_match::GameAnswer;
use bgedit_core::domain::Player;
use bgedit_core::domain::match_stats::{Luck, roll_mark};

/// The luck of one roll, as gnubg rated it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RollLuck {
    /// 1-based game.
    pub game: usize,
    pub player: Player,
    pub dice: [u8; 2],
    /// Normalised equity.
    pub luck: f64,
}

/// A match's luck: each player's, and every roll's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchLuck {
    pub players: [Luck; 2],
    pub rolls: Vec<RollLuck>,
}

impl MatchLuck {
    /// Adds one game's luck, as gnubg's analysis of it gives it (its
    /// records' luck, by roll; its statistics' totals, by player).
    pub fn add_game(&mut self, game: usize, answer: &GameAnswer) {
        for p in Player::BOTH {
            if let Some(l) = answer.players.get(&p.to_string()) {
                let into = &mut self.players[p.index()];
                into.total += l.luck;
                into.cost += l.cost;
                into.actual += l.actual;
                into.adjusted += l.adjusted;
            }
        }
        for r in &answer.records {
            let (Some(luck), Some(player), Some(dice)) = (r.luck, r.player, r.dice) else {
                continue;
            };
            // gnubg's Python gives the same marks for both players: they
            // are counted here from the rolls, by its marks (`Luck`).
            self.players[player.index()].rolls[roll_mark(luck)] += 1;
            self.rolls.push(RollLuck {
                game,
                player,
                dice,
                luck,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_add_up() {
        let v = serde_json::json!({"id": 1, "kind": "games", "games": [{"records": [
            {"action": "move", "player": "O", "dice": [2, 1], "luck": -0.008},
            {"action": "move", "player": "X", "dice": [6, 6], "luck": 0.7},
            {"action": "move", "player": "X", "dice": [2, 1], "luck": -0.35},
            {"action": "double", "player": "X"}],
            "players": {"O": {"luck": 0.8, "cost": 0.1, "actual": -0.5, "adjusted": -0.4},
                        "X": {"luck": 2.5, "cost": 0.2, "actual": 0.5, "adjusted": 0.4}}}]});
        use crate::gnubg_match::{Line, read_line};
        let Ok(Line::Games(mut games)) = read_line(&v.to_string(), 1, 1) else {
            panic!("the games of {v}");
        };
        let game = games.remove(0);
        let mut m = MatchLuck::default();
        m.add_game(1, &game);
        m.add_game(2, &game);
        assert_eq!(m.players[1].total, 5.0);
        assert_eq!(m.players[0].adjusted, -0.8);
        assert_eq!(m.rolls.len(), 6);
        assert_eq!((m.rolls[3].game, m.rolls[3].player), (2, Player::O));
        assert_eq!(m.players[0].rolls, [0, 0, 2, 0, 0]);
        assert_eq!(m.players[1].rolls, [0, 2, 0, 0, 2]);
    }
}
