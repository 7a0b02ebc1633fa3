//! gnubg's luck analysis of a whole match: where gnubg is asked for it (a
//! request to the bridge) and how its answer is read.
//!
//! gnubg rates each roll against the 21 others, every one played at its
//! best at 0-ply (analysis.c `LuckAnalysis`): 21 move searches a roll,
//! which through gnubg's Python one position at a time would cost 21 of its
//! 10 ms waits. So the bridge loads the match itself (`load match` or
//! `import mat`) and runs gnubg's own `analyse match` with the luck alone,
//! which does the whole match in one go (a few tenths of a second).

use crate::domain::Player;
use crate::domain::match_stats::{Luck, roll_mark};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::Path;

/// How gnubg reads the match file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LuckSource {
    /// gnubg's SGF (`load match`).
    Sgf,
    /// Jellyfish `.mat` (`import mat`).
    Mat,
}

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

/// The bridge request for the luck of the match in `path`.
pub fn request_line(id: u64, path: &Path, source: LuckSource) -> String {
    serde_json::json!({
        "id": id,
        "luck": {
            "path": path.to_string_lossy(),
            "import": match source {
                LuckSource::Sgf => "sgf",
                LuckSource::Mat => "mat",
            },
        },
    })
    .to_string()
}

#[derive(Deserialize)]
struct Answer {
    kind: String,
    players: HashMap<String, PlayerLuck>,
    rolls: Vec<(usize, usize, u8, u8, f64)>,
}

#[derive(Deserialize)]
struct PlayerLuck {
    luck: f64,
    cost: f64,
    actual: f64,
    adjusted: f64,
}

/// Reads the bridge's luck answer (the line without its id and error, which
/// the exchange has checked); every number finite and in range.
pub fn parse(value: serde_json::Value) -> Result<MatchLuck, String> {
    let a: Answer =
        serde_json::from_value(value).map_err(|e| format!("gnubg's luck answer: {e}"))?;
    if a.kind != "luck" {
        return Err(format!("gnubg answered {:?} to a luck request", a.kind));
    }
    let sane = |x: f64| x.is_finite() && x.abs() <= 1e6;
    let mut out = MatchLuck::default();
    for p in Player::BOTH {
        let Some(l) = a.players.get(&p.to_string()) else {
            continue;
        };
        if ![l.luck, l.cost, l.actual, l.adjusted].into_iter().all(sane) {
            return Err("gnubg's luck answer has a number out of range".to_owned());
        }
        out.players[p.index()] = Luck {
            total: l.luck,
            cost: l.cost,
            rolls: [0; 5],
            actual: l.actual,
            adjusted: l.adjusted,
        };
    }
    for (game, player, a, b, luck) in a.rolls {
        if !(1..=6).contains(&a) || !(1..=6).contains(&b) || player > 1 || !sane(luck) {
            return Err("gnubg's luck answer has a roll out of range".to_owned());
        }
        let player = Player::from_index(player);
        // gnubg's Python gives the same marks for both players: they are
        // counted here from the rolls, by its marks (`Luck`).
        out.players[player.index()].rolls[roll_mark(luck)] += 1;
        out.rolls.push(RollLuck {
            game,
            player,
            dice: [a, b],
            luck,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_read_and_checked() {
        let v = serde_json::json!({"kind": "luck",
            "players": {"O": {"luck": 0.8, "cost": 0.1, "actual": -0.5, "adjusted": -0.4},
                        "X": {"luck": 2.5, "cost": 0.2, "actual": 0.5, "adjusted": 0.4}},
            "rolls": [[1, 0, 2, 1, -0.008], [1, 1, 6, 6, 0.7], [1, 1, 2, 1, -0.35]]});
        let m = parse(v).unwrap();
        assert_eq!(m.players[1].total, 2.5);
        assert_eq!(m.rolls[0].player, Player::O);
        assert_eq!(m.players[0].rolls, [0, 0, 1, 0, 0]);
        assert_eq!(m.players[1].rolls, [0, 1, 0, 0, 1]);
        let bad = serde_json::json!({"kind": "luck", "players": {}, "rolls": [[1, 0, 7, 1, 0.0]]});
        assert!(parse(bad).is_err());
        assert!(parse(serde_json::json!({"kind": "moves"})).is_err());
    }
}
