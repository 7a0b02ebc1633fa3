//! Match winning chances, gammon values, take and cash points and the
//! market window at a score, as gnubg 1.07 computes them
//! (`show gammonvalues`, `show marketwindow`), money play's take and cash
//! points, and the document's normalised equity (NEMG) and Janowski's take
//! point.
//!
//! Players are gnubg's indices: 0 = O, 1 = X. gnubg works in single
//! precision; so does this module wherever gnubg does, so that printed
//! digits agree.

use super::match_state::{CubeOwner, MatchState};
use super::met::{MAX_AWAY, Met};
use super::player::Player;

/// An evaluation from the player on roll's side: win, win gammon, win
/// backgammon, lose gammon, lose backgammon (gammons include backgammons).
pub type Probabilities = [f32; 5];

/// The score as the match equity functions take it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub score: [u16; 2],
    pub match_to: u16,
    pub cube: u32,
    pub crawford: bool,
}

/// Why a state has no match score for the equity functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error("money game")]
    Money,
    #[error("the match is over")]
    MatchOver,
    #[error("a player is more than {MAX_AWAY} away; match equity tables stop there")]
    BeyondTable,
}

impl Score {
    /// The match score of a state, or why there are no match numbers
    /// (money game, or further than the table's 64-away).
    pub(crate) fn of(state: &MatchState) -> Result<Score, ScoreError> {
        if state.is_money() {
            return Err(ScoreError::Money);
        }
        let len = state.match_length;
        let away = |p: Player| i64::from(len) - i64::from(state.score_of(p));
        if away(Player::O) < 1 || away(Player::X) < 1 {
            return Err(ScoreError::MatchOver);
        }
        if away(Player::O) > MAX_AWAY as i64 || away(Player::X) > MAX_AWAY as i64 {
            return Err(ScoreError::BeyondTable);
        }
        Ok(Score {
            score: state.score,
            match_to: len,
            cube: state.cube_value(),
            // A Crawford flag with nobody 1-away (a warning, not an error)
            // would send gnubg's lookups to the post-Crawford row; it
            // means nothing there, so it is read as off.
            crawford: state.crawford && (away(Player::O) == 1 || away(Player::X) == 1),
        })
    }

    fn away(&self, player: usize) -> i64 {
        i64::from(self.match_to) - i64::from(self.score[player])
    }
}

/// gnubg's `getGammonPrice`: `[gammon 0, gammon 1, backgammon 0,
/// backgammon 1]` prices (twice the usual gammon values).
pub(crate) fn gammon_prices(met: &Met, s: &Score) -> [f32; 4] {
    let me = |points: u32, who: usize| met.after(s.score, s.match_to, 0, points, who, false);
    let c = s.cube;
    let win = me(c, 0);
    let win_gammon = me(2 * c, 0);
    let win_bg = me(3 * c, 0);
    let lose = me(c, 1);
    let lose_gammon = me(2 * c, 1);
    let lose_bg = me(3 * c, 1);
    let center = (win + lose) / 2.0;
    let mut p = if (win - center).abs() > 1.0e-7 {
        // gnubg's -ffast-math build divides once and multiplies by the
        // reciprocal; the last printed digit depends on it.
        let inv = 1.0 / (win - center);
        let g0 = (win_gammon - center) * inv - 1.0;
        let g1 = (center - lose_gammon) * inv - 1.0;
        [
            g0,
            g1,
            // `- (g0 + 1)` with the 1s cancelled, as -ffast-math folds it.
            (win_bg - win_gammon) * inv,
            (lose_gammon - lose_bg) * inv,
        ]
    } else {
        [0.0; 4]
    };
    // gnubg rounds tiny negative prices of a dead cube to zero.
    for v in &mut p {
        if *v <= 0.0 {
            *v = 0.0;
        }
    }
    p
}

/// Gammon prices of a money game: none for a centred cube under Jacoby.
pub(crate) fn money_gammon_prices(state: &MatchState) -> [f32; 4] {
    let v = if state.jacoby && state.cube_owner == CubeOwner::Centred {
        0.0
    } else {
        1.0
    };
    [v; 4]
}

/// `show gammonvalues`: per player, (gammon value, backgammon value).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GammonValues {
    pub gammon: f32,
    pub backgammon: f32,
}

pub(crate) fn gammon_values(prices: [f32; 4]) -> [GammonValues; 2] {
    [0, 1].map(|i| GammonValues {
        gammon: 0.5 * prices[i],
        backgammon: 0.5 * (prices[2 + i] + prices[i]),
    })
}

/// A match winning chance with its normalised money equity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mwc {
    pub mwc: f32,
    /// NEMG = 2 (MWC − MWC(lose cube)) / (MWC(win cube) − MWC(lose cube)) − 1;
    /// `None` when winning and losing the cube are worth the same.
    pub nemg: Option<f32>,
}

/// Normalised money equity of `mwc` between losing (`lose`, −1) and
/// winning (`win`, +1) the cube.
pub fn nemg(mwc: f32, win: f32, lose: f32) -> Option<f32> {
    let span = win - lose;
    (span.abs() > 1.0e-7).then(|| 2.0 * (mwc - lose) / span - 1.0)
}

/// One player's match winning chances at the score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerMwc {
    /// Before this game (its cube action).
    pub now: Mwc,
    /// After winning 1, 2 and 3 times the cube.
    pub win: [Mwc; 3],
    /// After losing 1, 2 and 3 times the cube.
    pub lose: [Mwc; 3],
}

pub fn player_mwc(met: &Met, s: &Score, player: usize) -> PlayerMwc {
    let after =
        |k: u32, who: usize| met.after(s.score, s.match_to, player, k * s.cube, who, s.crawford);
    let w = after(1, player);
    let l = after(1, 1 - player);
    let mwc = |m: f32| Mwc {
        mwc: m,
        nemg: nemg(m, w, l),
    };
    PlayerMwc {
        now: mwc(met.at_score(s.score, s.match_to, player, s.crawford)),
        win: [1, 2, 3].map(|k| mwc(after(k, player))),
        lose: [1, 2, 3].map(|k| mwc(after(k, 1 - player))),
    }
}

/// Gammon and backgammon rates, `[player][gammon, backgammon]`, of games
/// won: gnubg's `calculate_gammon_rates` for an evaluation from
/// `on_roll`'s side.
pub(crate) fn gammon_rates(p: &Probabilities, on_roll: usize) -> [[f32; 2]; 2] {
    let mut r = [[0.0f32; 2]; 2];
    if p[0] > 0.0 {
        r[on_roll] = [(p[1] - p[2]) / p[0], p[2] / p[0]];
    }
    if p[0] < 1.0 {
        r[1 - on_roll] = [(p[3] - p[4]) / (1.0 - p[0]), p[4] / (1.0 - p[0])];
    }
    r
}

/// One player's market window in match play, as `show marketwindow`
/// prints it: double point to cash point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchWindow {
    /// The opponent would automatically redouble (gnubg's "Dead cube
    /// (opponent doesn't redouble)" and "(opponent redoubles)" lines).
    pub auto_redouble: bool,
    /// The doubled cube would be dead for the opponent: no live line.
    pub dead: bool,
    pub dead_double: f32,
    pub dead_cash: f32,
    /// Live cube, or the redoubled dead cube when `auto_redouble`.
    pub second_double: f32,
    pub second_cash: f32,
}

/// gnubg's `getMEMultiple` for one player's view: MWCs after each result
/// at the cube values `cube`, `prime0`, `prime1`. Index as gnubg's
/// `e_met_indices`: [0..5) player 0 wins 1,2,3,4,6 × cube, [5..10) player
/// 1 wins; then the same for the primes. `out[p]` is player p's MWC.
fn me_multiple(met: &Met, s: &Score, cube: u32, primes: [u32; 2]) -> [[f32; 30]; 2] {
    let mult = [1u32, 2, 3, 4, 6];
    let mut out = [[0.0f32; 30]; 2];
    let post = s.crawford || s.away(0) == 1 || s.away(1) == 1;
    let away0 = s.away(0) - 1;
    let away1 = s.away(1) - 1;
    let lookup = |s0: i64, s1: i64| -> (f32, f32) {
        if s0 < 0 {
            (1.0, 0.0)
        } else if s1 < 0 {
            (0.0, 1.0)
        } else if post {
            if s0 == 0 {
                let t = met.post_crawford(1, s1 as usize + 1);
                (1.0 - t, t)
            } else {
                let t = met.post_crawford(0, s0 as usize + 1);
                (t, 1.0 - t)
            }
        } else {
            let p0 = met.pre_crawford(s0 as usize + 1, s1 as usize + 1);
            (p0, 1.0 - p0)
        }
    };
    for (block, c) in [cube, primes[0], primes[1]].into_iter().enumerate() {
        for (k, m) in mult.iter().enumerate() {
            let gain = i64::from(m * c);
            // Player 0 wins: player 0's MWC at [k], player 1's (a loss) at
            // [5 + k] after gnubg's swap.
            let (a0, a1) = lookup(away0 - gain, away1);
            out[0][block * 10 + k] = a0;
            out[1][block * 10 + 5 + k] = a1;
            let (b0, b1) = lookup(away0, away1 - gain);
            out[0][block * 10 + 5 + k] = b0;
            out[1][block * 10 + k] = b1;
        }
    }
    out
}

// gnubg's e_met_indices within a block of ten.
const DP: usize = 0;
const DTW: usize = 1;
const DTWG: usize = 3;
const DTWB: usize = 4;
const DTL: usize = 6;
const DTLG: usize = 8;
const DTLB: usize = 9;

fn cube_prime(i: i64, j: i64, cube: u32) -> u32 {
    if i < 2 * i64::from(cube) && j >= 2 * i64::from(cube) {
        2 * cube
    } else {
        cube
    }
}

/// gnubg's `GetPoints`: live-cube cash points of both players for the
/// current cube, `probs` from `on_roll`'s side.
pub fn live_cash_points(met: &Met, s: &Score, probs: &Probabilities, on_roll: usize) -> [f32; 2] {
    let i = s.away(0) - 1;
    let j = s.away(1) - 1;
    let rates = gammon_rates(probs, on_roll);
    let g = [rates[0][0], rates[1][0]];
    let bg = [rates[0][1], rates[1][1]];
    let mut dead = s.cube;
    let mut max = 0usize;
    while i >= 2 * i64::from(dead) && j >= 2 * i64::from(dead) {
        max += 1;
        dead *= 2;
    }
    let mut live = vec![[0.0f32; 2]; max + 2];
    let mut cube = dead;
    let mut n = max as isize;
    while cube >= s.cube && n >= 0 {
        let r = me_multiple(
            met,
            s,
            cube,
            [cube_prime(i, j, cube), cube_prime(j, i, cube)],
        );
        let mut level = [0.0f32; 2];
        for k in 0..2 {
            let o = 1 - k;
            if i < 2 * i64::from(cube) || j < 2 * i64::from(cube) {
                let base = 10 * (k + 1);
                let dtl = (1.0 - g[o] - bg[o]) * r[k][base + DTL]
                    + g[o] * r[k][base + DTLG]
                    + bg[o] * r[k][base + DTLB];
                let dp = r[k][DP];
                let dtw = (1.0 - g[k] - bg[k]) * r[k][base + DTW]
                    + g[k] * r[k][base + DTWG]
                    + bg[k] * r[k][base + DTWB];
                level[k] = (dtl - dp) / (dtl - dtw);
            } else {
                let rdp = r[k][DTL];
                let dp = r[k][DP];
                let dtw = (1.0 - g[k] - bg[k]) * r[k][DTW] + g[k] * r[k][DTWG] + bg[k] * r[k][DTWB];
                let upper = live[n as usize + 1][o];
                level[k] = 1.0 - upper * (dp - dtw) / (rdp - dtw);
            }
        }
        live[n as usize] = level;
        cube /= 2;
        n -= 1;
    }
    live[0]
}

/// `show marketwindow` in match play for both players, with the gammon
/// rates of `probs` (from `on_roll`'s side).
pub(crate) fn match_windows(
    met: &Met,
    s: &Score,
    probs: &Probabilities,
    on_roll: usize,
) -> [MatchWindow; 2] {
    let rates = gammon_rates(probs, on_roll);
    let live = live_cash_points(met, s, probs, on_roll);
    let c = s.cube;
    [0usize, 1].map(|i| {
        let o = 1 - i;
        let me =
            |points: u32, who: usize| met.after(s.score, s.match_to, i, points, who, s.crawford);
        let mix = |r: [f32; 2], k: u32, who: usize| {
            (1.0 - r[0] - r[1]) * me(k * c, who)
                + r[0] * me(2 * k * c, who)
                + r[1] * me(3 * k * c, who)
        };
        let norm = |p: usize| i64::from(s.match_to) - i64::from(s.score[p]);
        let c2 = 2 * i64::from(c);
        let auto_redouble = norm(i) - c2 <= 0 && norm(o) - c2 > 0;
        let dead = norm(o) - c2 <= 0;
        let dtw = mix(rates[i], 2, i);
        let ndw = mix(rates[i], 1, i);
        let dtl = mix(rates[o], 2, o);
        let ndl = mix(rates[o], 1, o);
        let dp = me(c, i);
        let risk = ndl - dtl;
        let gain = dtw - ndw;
        let dead_double = risk / (risk + gain);
        let cash_risk = dtw - dp;
        let cash_gain = dp - dtl;
        let dead_cash = 1.0 - cash_risk / (cash_risk + cash_gain);
        let (mut second_double, mut second_cash) = (dead_double, live[i]);
        if auto_redouble {
            let dtw4 = mix(rates[i], 4, i);
            let dtl4 = mix(rates[o], 4, o);
            let cash_risk = dtw4 - dp;
            let cash_gain = dp - dtl4;
            second_cash = 1.0 - cash_risk / (cash_risk + cash_gain);
            let risk = ndl - dtl4;
            let gain = dtw4 - ndw;
            second_double = risk / (risk + gain);
        }
        MatchWindow {
            auto_redouble,
            dead,
            dead_double,
            dead_cash,
            second_double,
            second_cash,
        }
    })
}

/// The money cube points of gnubg's `getMoneyPoints` (Janowski): for
/// each player, seven points, each `[dead cube, live cube]`.
pub const MONEY_POINT_NAMES: [&str; 7] = [
    "Take Point (TP)",
    "Beaver Point (BP)",
    "Raccoon Point (RP)",
    "Initial Double Point (IDP)",
    "Redouble Point (RDP)",
    "Cash Point (CP)",
    "Too good Point (TGP)",
];

pub fn money_points(jacoby: bool, beavers: bool, rates: [[f32; 2]; 2]) -> [[[f32; 2]; 7]; 2] {
    let clv = [0, 1].map(|i| 1.0 + rates[i][0] + 2.0 * rates[i][1]);
    [0usize, 1].map(|i| {
        let w = clv[i];
        let l = clv[1 - i];
        // gnubg's -ffast-math build turns the divisions by the shared
        // denominators into products with their reciprocals.
        let dead = 1.0 / (w + l);
        let live = 1.0 / (w + l + 0.5);
        let idp = if !jacoby {
            l * dead
        } else if beavers {
            (l - 0.25) / (l + w - 0.5)
        } else {
            (l - 0.5) / (l + w - 1.0)
        };
        [
            [(l - 0.5) * dead, (l - 0.5) * live],
            [l * dead, l * live],
            [l * dead, (l + 0.5) * live],
            [idp, (l + 1.0) * live],
            [l * dead, (l + 1.0) * live],
            [(l + 0.5) * dead, (l + 1.0) * live],
            [(l + 1.0) * dead, (l + 1.0) * live],
        ]
    })
}

/// Janowski's take point for money, TP = (L − 0.5) / (W + L + 0.5), with W
/// and L the average cubeless values of games won and lost.
pub fn janowski_take_point(w: f32, l: f32) -> f32 {
    (l - 0.5) / (w + l + 0.5)
}

/// Dead-cube take point of `taker` when doubled at this score, gammonless:
/// (pass − lose doubled) / (win doubled − lose doubled).
pub(crate) fn dead_take_point(met: &Met, s: &Score, taker: usize) -> f32 {
    let me =
        |points: u32, who: usize| met.after(s.score, s.match_to, taker, points, who, s.crawford);
    let pass = me(s.cube, 1 - taker);
    let dtw = me(2 * s.cube, taker);
    let dtl = me(2 * s.cube, 1 - taker);
    (pass - dtl) / (dtw - dtl)
}

#[cfg(test)]
mod score_error_tests {
    use super::*;

    #[test]
    fn a_score_past_the_table_says_where_the_tables_stop() {
        let state = MatchState {
            match_length: 100,
            ..MatchState::default()
        };
        let why = Score::of(&state).unwrap_err();
        assert_eq!(why, ScoreError::BeyondTable);
        assert_eq!(
            why.to_string(),
            "a player is more than 64 away; match equity tables stop there"
        );
        let money = MatchState {
            match_length: 0,
            ..MatchState::default()
        };
        assert_eq!(Score::of(&money).unwrap_err().to_string(), "money game");
    }
}
