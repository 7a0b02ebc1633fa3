//! gnubg's analysis of a file of whole games as bgedit reads it
//! (`internals::read_games_line`) and judges a real match's games from it
//! (`internals::judge_recorded_game`). A process's output is
//! input like any file: whatever the records say, nothing panics, every
//! outcome is for a decision of the game, and every error is finite and
//! not below zero.
#![no_main]

use bgedit_core::codec::match_file;
use bgedit_engine::internals::{GamesLine, judge_recorded_game, read_games_line};
use bgedit_fuzz::text;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// A real match: gnubg playing itself (7 points, doubles, takes, drops).
fn decisions() -> &'static [match_file::FileDecision] {
    static D: OnceLock<Vec<match_file::FileDecision>> = OnceLock::new();
    D.get_or_init(|| {
        let bytes = include_bytes!("../../tests/fixtures/analysis/m7_noisy.mat");
        let file = match_file::read_bytes(bytes).expect("the fixture reads");
        match_file::decisions(&file).0
    })
}

fuzz_target!(|data: &[u8]| {
    let Some(line) = text(data) else { return };
    // As many games as the answer holds, the count checked too.
    let value = serde_json::from_str::<serde_json::Value>(line).unwrap_or_default();
    let count = value["games"].as_array().map_or(0, Vec::len);
    let Ok(GamesLine::Games(answers)) = read_games_line(line, 1, count) else {
        return;
    };
    for answer in &answers {
        for game in [1, 2] {
            let n = decisions().iter().filter(|d| d.game == game).count();
            let Ok(outcomes) = judge_recorded_game(decisions(), game, answer, 0)
            else {
                continue;
            };
            assert_eq!(outcomes.len(), n);
            for j in outcomes.iter().flatten().flatten() {
                assert_eq!(j.game, game);
                assert!(j.judgement.error.is_finite() && j.judgement.error >= 0.0);
                assert!(j.judgement.cost.is_finite());
            }
        }
    }
});
