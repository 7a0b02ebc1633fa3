//! Every number at a position and score, gathered once: what the numbers
//! panel draws and what `bgedit stats` prints. Pure: a position, a match
//! equity table and an optional evaluation in, plain values out.

use super::equity::{self, GammonValues, MatchWindow, PlayerMwc, Probabilities, Score};
use super::met::Met;
use super::player::Player;
use super::position::Position;
use super::race::{self, RaceCounts};

/// Money-game numbers: gammon values and Janowski's cube points.
#[derive(Clone, Debug, PartialEq)]
pub struct MoneyNumbers {
    pub jacoby: bool,
    pub beavers: bool,
    /// `[player][point][dead, live]`, gnubg's `show marketwindow` table,
    /// with the evaluation's gammon rates (gammonless without one).
    pub points: [[[f32; 2]; 7]; 2],
}

/// Match-play numbers at the score.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchNumbers {
    pub score: Score,
    /// Per player (0 = O, 1 = X).
    pub mwc: [PlayerMwc; 2],
    /// Gammonless dead-cube take point of each player, were the other to
    /// double now.
    pub dead_take: [f32; 2],
    /// Gammonless live-cube take point of each player (gnubg's `GetPoints`
    /// with no gammons: 1 − the other's live cash point).
    pub live_take: [f32; 2],
    /// With an evaluation: `show marketwindow` for both players.
    pub window: Option<[MatchWindow; 2]>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum GameNumbers {
    Money(MoneyNumbers),
    Match(MatchNumbers),
    /// No match numbers at this score, and why.
    Unavailable(equity::ScoreError),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Numbers {
    pub met_name: String,
    pub on_roll: Player,
    pub gammon_values: [GammonValues; 2],
    pub game: GameNumbers,
    pub race: RaceCounts,
    /// Janowski's cube efficiency for the position (gnubg's values).
    pub cube_efficiency: Option<f32>,
    /// The evaluation the window and rates came from, if any.
    pub probabilities: Option<Probabilities>,
    /// Gammon rates `[player][gammon, backgammon]` from the evaluation.
    pub gammon_rates: Option<[[f32; 2]; 2]>,
}

/// Gathers every number for `position`.
pub fn compute(position: &Position, met: &Met, probs: Option<&Probabilities>) -> Numbers {
    let state = &position.state;
    let on_roll = state.on_roll;
    let roller = on_roll.index();
    let rates = probs.map(|p| equity::gammon_rates(p, roller));
    let (prices, game) = if state.is_money() {
        let points =
            equity::money_points(state.jacoby, state.beavers, rates.unwrap_or([[0.0; 2]; 2]));
        (
            equity::money_gammon_prices(state),
            GameNumbers::Money(MoneyNumbers {
                jacoby: state.jacoby,
                beavers: state.beavers,
                points,
            }),
        )
    } else {
        match Score::of(state) {
            Ok(score) => {
                let mwc = [0, 1].map(|p| equity::player_mwc(met, &score, p));
                let dead_take = [0, 1].map(|p| equity::dead_take_point(met, &score, p));
                // Only the gammon rates of the probabilities matter here.
                let cash = equity::live_cash_points(met, &score, &[0.5, 0.0, 0.0, 0.0, 0.0], 0);
                let live_take = [1.0 - cash[1], 1.0 - cash[0]];
                let window = probs.map(|p| equity::match_windows(met, &score, p, roller));
                (
                    equity::gammon_prices(met, &score),
                    GameNumbers::Match(MatchNumbers {
                        score,
                        mwc,
                        dead_take,
                        live_take,
                        window,
                    }),
                )
            }
            Err(why) => ([0.0; 4], GameNumbers::Unavailable(why)),
        }
    };
    Numbers {
        met_name: met.name.clone(),
        on_roll,
        gammon_values: equity::gammon_values(prices),
        game,
        race: race::race_counts(&position.board, on_roll),
        cube_efficiency: race::cube_efficiency(&position.board, on_roll),
        probabilities: probs.copied(),
        gammon_rates: rates,
    }
}
