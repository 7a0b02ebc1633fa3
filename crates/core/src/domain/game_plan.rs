//! Open Sage's game plans, by name: what each side of a position is trying
//! to do as Sage's `classify_game_plan` (vendor/bgsage, encoding.cpp) sees
//! it. Only the names live here; the classification itself is Sage's own
//! C++, asked through the engine crate (`bgedit_engine::plans`), so that it
//! is exactly Sage's and never a guess of ours.

use super::player::Player;
use serde::{Deserialize, Serialize};

/// One side's plan, as Sage's `GamePlan` enum and its Python name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GamePlan {
    /// Contact is broken (Sage's `is_race`).
    PureRace,
    /// Racing, with contact left.
    Racing,
    Attacking,
    Priming,
    Anchoring,
}

impl GamePlan {
    pub const ALL: [GamePlan; 5] = [
        GamePlan::PureRace,
        GamePlan::Racing,
        GamePlan::Attacking,
        GamePlan::Priming,
        GamePlan::Anchoring,
    ];

    /// Sage's name (`game_plan_name`, `bgsage.classify_game_plan`).
    pub fn name(self) -> &'static str {
        match self {
            GamePlan::PureRace => "purerace",
            GamePlan::Racing => "racing",
            GamePlan::Attacking => "attacking",
            GamePlan::Priming => "priming",
            GamePlan::Anchoring => "anchoring",
        }
    }

    /// The plan of a name, as `name` gives it (any case).
    pub fn from_name(name: &str) -> Option<GamePlan> {
        let n = name.to_ascii_lowercase();
        GamePlan::ALL.into_iter().find(|p| p.name() == n)
    }

    /// Sage's enum value (`GamePlan` in encoding.h, in its order).
    pub fn from_code(code: i32) -> Option<GamePlan> {
        usize::try_from(code)
            .ok()
            .and_then(|i| GamePlan::ALL.get(i).copied())
    }
}

impl std::fmt::Display for GamePlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Both sides' plans of a position, each classified from its own side (as
/// Sage's `classify_game_plans` classifies the board and its flip).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Plans {
    #[serde(rename = "O")]
    pub o: GamePlan,
    #[serde(rename = "X")]
    pub x: GamePlan,
}

impl Plans {
    pub fn of(&self, player: Player) -> GamePlan {
        match player {
            Player::O => self.o,
            Player::X => self.x,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_codes_are_sages() {
        let names: Vec<&str> = GamePlan::ALL.iter().map(|p| p.name()).collect();
        assert_eq!(
            names,
            ["purerace", "racing", "attacking", "priming", "anchoring"]
        );
        assert_eq!(GamePlan::from_code(3), Some(GamePlan::Priming));
        assert_eq!(GamePlan::from_code(5), None);
        assert_eq!(GamePlan::from_code(-1), None);
        assert_eq!(GamePlan::from_name("Anchoring"), Some(GamePlan::Anchoring));
        assert_eq!(GamePlan::from_name("prime"), None);
        let plans = Plans {
            o: GamePlan::Priming,
            x: GamePlan::Anchoring,
        };
        assert_eq!(
            serde_json::to_string(&plans).unwrap(),
            r#"{"O":"priming","X":"anchoring"}"#
        );
    }
}
