//! A player's own cube thresholds (`bgedit stats --player NAME
//! --thresholds`): from their takes and passes, doubles and no doubles in
//! the matches bgedit analysed, where they actually take and double
//! against the right points, by score class and over all scores, each with
//! its 95% interval and the decisions behind it (the estimate is
//! `bgedit_core::domain::cube_thresholds`'s). Only verdicts that kept the
//! engine's cube equities count (`library analyse` keeps them; an analysis
//! stored before did not, and is counted apart).

use super::store::{self, Library};
use super::theme_stats::each_judgement;
use bgedit_core::domain::cube_thresholds::{self, Edge, NoThreshold, Threshold};
use bgedit_core::domain::match_stats::CubePlay;

/// The score class's word for every score together.
pub const ALL_SCORES: &str = "all";

/// One decision behind a threshold.
#[derive(Clone, Debug, PartialEq)]
pub struct Behind {
    pub match_id: i64,
    pub gnubg_id: String,
    /// Equity of acting minus not acting, from the player's side.
    pub margin: f64,
    pub acted: bool,
    pub played: String,
    /// What the decision gave away by the verdict (normalised equity).
    pub error: f64,
}

/// A threshold on one edge at one score class.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeThreshold {
    /// A score class's word, or [`ALL_SCORES`].
    pub score: String,
    pub edge: Edge,
    pub threshold: Result<Threshold, NoThreshold>,
    /// The decisions, the costliest-to-get-wrong (largest margin either
    /// way) first.
    pub behind: Vec<Behind>,
}

/// The player's thresholds.
#[derive(Clone, Debug, PartialEq)]
pub struct Thresholds {
    pub player: String,
    pub matches: usize,
    /// Over all scores first, then by score class; each edge in order.
    pub rows: Vec<EdgeThreshold>,
    /// Cube decisions of the player's whose verdict kept no equities.
    pub without_equities: usize,
}

/// The player's thresholds across the library's matches (played on
/// `since` or later when given).
pub fn of(lib: &mut Library, player: &str, since: Option<&str>) -> store::Result<Thresholds> {
    let mut found: Vec<(String, Edge, Behind)> = Vec::new();
    let mut without = 0;
    let (player, matches) = each_judgement(lib, player, since, |row, v, s| {
        let j = s.judgement;
        let Some(play) = j.cube else { return };
        let acted = matches!(play, CubePlay::Double | CubePlay::Take);
        let Some(c) = s
            .equities
            .as_deref()
            .and_then(|e| cube_thresholds::choice(j.kind, e, acted))
        else {
            without += 1;
            return;
        };
        found.push((
            v.score_class.clone(),
            c.edge,
            Behind {
                match_id: row.m.id,
                gnubg_id: v.gnubg_id.clone(),
                margin: c.margin,
                acted,
                played: s.played,
                error: j.error,
            },
        ));
    })?;
    let mut scores: Vec<String> = found.iter().map(|f| f.0.clone()).collect();
    scores.sort();
    scores.dedup();
    let mut rows = Vec::new();
    for score in std::iter::once(ALL_SCORES.to_owned()).chain(scores) {
        for edge in Edge::ALL {
            let mut behind: Vec<Behind> = found
                .iter()
                .filter(|f| f.1 == edge && (score == ALL_SCORES || f.0 == score))
                .map(|f| f.2.clone())
                .collect();
            if behind.is_empty() {
                continue;
            }
            let points: Vec<(f64, bool)> = behind.iter().map(|b| (b.margin, b.acted)).collect();
            behind.sort_by(|a, b| b.margin.abs().total_cmp(&a.margin.abs()));
            rows.push(EdgeThreshold {
                score: score.clone(),
                edge,
                threshold: cube_thresholds::threshold(&points),
                behind,
            });
        }
    }
    Ok(Thresholds {
        player,
        matches,
        rows,
        without_equities: without,
    })
}
