//! What a position asks and at what kind of score: the decision's kind
//! (a checker play, a double, a take) and the score class a player studies
//! by (money, DMP, gammon-go/gammon-save, 2-away, Crawford, post-Crawford,
//! another match score). Pure functions of the match state, so the library
//! keeps them as columns and the statistics group by them.

use super::match_state::MatchState;
use super::match_stats::DecisionKind;

/// The decision a position asks of the player whose turn it is: a double
/// offered is a take (or pass); dice on the board a checker play; else the
/// cube before the roll (double or not). A position whose game is over,
/// or with a resignation on offer, is named by its board as the others are.
pub fn decision_of(state: &MatchState) -> DecisionKind {
    if state.double_offered {
        DecisionKind::Take
    } else if state.dice.is_some() {
        DecisionKind::Checker
    } else {
        DecisionKind::Cube
    }
}

/// The score class of a position, the first that holds of:
/// - `Money`: no match;
/// - `Dmp`: the game decides the match whoever wins it, gammons or not: the
///   cube is at least each side's points to go (double match point, and any
///   score the cube has brought there);
/// - `Crawford`: the Crawford game;
/// - `PostCrawford`: a side 1-away after the Crawford game;
/// - `GammonGoSave`: one side wins the match with any win, the other only
///   with a gammon (the cube below its points to go, twice the cube at
///   least): one plays gammon-go, the other gammon-save;
/// - `TwoAway`: a side 2-away (the closest scores left: 2-away/2-away,
///   2-away/N-away);
/// - `Match`: any other match score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScoreClass {
    Money,
    Dmp,
    Crawford,
    PostCrawford,
    GammonGoSave,
    TwoAway,
    Match,
}

impl ScoreClass {
    pub const ALL: [ScoreClass; 7] = [
        ScoreClass::Money,
        ScoreClass::Dmp,
        ScoreClass::Crawford,
        ScoreClass::PostCrawford,
        ScoreClass::GammonGoSave,
        ScoreClass::TwoAway,
        ScoreClass::Match,
    ];

    /// Its word in filters, JSON and the library.
    pub fn name(self) -> &'static str {
        match self {
            ScoreClass::Money => "money",
            ScoreClass::Dmp => "dmp",
            ScoreClass::GammonGoSave => "gs-gg",
            ScoreClass::Crawford => "crawford",
            ScoreClass::PostCrawford => "post-crawford",
            ScoreClass::TwoAway => "2-away",
            ScoreClass::Match => "match",
        }
    }

    /// The class of a word, as `name` gives it (any case; `gs` and `gg`
    /// also name gammon-go/gammon-save).
    pub fn from_name(name: &str) -> Option<ScoreClass> {
        let n = name.to_ascii_lowercase();
        match n.as_str() {
            "gs" | "gg" | "gg-gs" | "gsgg" => Some(ScoreClass::GammonGoSave),
            _ => ScoreClass::ALL.into_iter().find(|c| c.name() == n),
        }
    }

    /// The class of a position's score.
    pub fn of(state: &MatchState) -> ScoreClass {
        if state.match_length == 0 {
            return ScoreClass::Money;
        }
        let away = |i: usize| u32::from(state.match_length.saturating_sub(state.score[i]));
        let (a, b) = (away(0), away(1));
        let cube = state.cube_value();
        let wins = |to_go: u32| cube >= to_go;
        let gammon_only = |to_go: u32| cube < to_go && cube.saturating_mul(2) >= to_go;
        if wins(a) && wins(b) {
            ScoreClass::Dmp
        } else if state.crawford {
            ScoreClass::Crawford
        } else if a == 1 || b == 1 {
            ScoreClass::PostCrawford
        } else if (wins(a) && gammon_only(b)) || (wins(b) && gammon_only(a)) {
            ScoreClass::GammonGoSave
        } else if a == 2 || b == 2 {
            ScoreClass::TwoAway
        } else {
            ScoreClass::Match
        }
    }
}

impl std::fmt::Display for ScoreClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(length: u16, score: [u16; 2], cube_log2: u8, crawford: bool) -> ScoreClass {
        ScoreClass::of(&MatchState {
            match_length: length,
            score,
            cube_log2,
            crawford,
            ..MatchState::default()
        })
    }

    #[test]
    fn each_score_falls_in_its_class() {
        assert_eq!(at(0, [0, 0], 0, false), ScoreClass::Money);
        // 1-away/1-away: DMP.
        assert_eq!(at(7, [6, 6], 0, false), ScoreClass::Dmp);
        // 3-away/3-away with the cube on 4: the game decides the match.
        assert_eq!(at(7, [4, 4], 2, false), ScoreClass::Dmp);
        // 2-away/4-away, cube on 2: X (2-away) wins with any win, O needs a
        // gammon.
        assert_eq!(at(7, [3, 5], 1, false), ScoreClass::GammonGoSave);
        // The Crawford game at 1-away/3-away.
        assert_eq!(at(7, [6, 4], 0, true), ScoreClass::Crawford);
        // After it, 1-away/4-away.
        assert_eq!(at(7, [6, 3], 0, false), ScoreClass::PostCrawford);
        // Post-Crawford 1-away/2-away, cube 1: post-Crawford; once X has
        // doubled, the game decides the match.
        assert_eq!(at(7, [6, 5], 0, false), ScoreClass::PostCrawford);
        assert_eq!(at(7, [6, 5], 1, false), ScoreClass::Dmp);
        assert_eq!(at(7, [5, 5], 0, false), ScoreClass::TwoAway);
        assert_eq!(at(7, [5, 1], 0, false), ScoreClass::TwoAway);
        assert_eq!(at(7, [0, 0], 0, false), ScoreClass::Match);
        for c in ScoreClass::ALL {
            assert_eq!(ScoreClass::from_name(c.name()), Some(c));
        }
        assert_eq!(ScoreClass::from_name("GS"), Some(ScoreClass::GammonGoSave));
    }

    #[test]
    fn the_decision_is_read_from_the_state() {
        let mut s = MatchState::default();
        assert_eq!(decision_of(&s), DecisionKind::Cube);
        s.dice = Some([3, 1]);
        assert_eq!(decision_of(&s), DecisionKind::Checker);
        s.dice = None;
        s.double_offered = true;
        assert_eq!(decision_of(&s), DecisionKind::Take);
    }
}
