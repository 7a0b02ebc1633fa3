//! The analysis panel's logic through the pure reducer: requests as
//! effects, answers as actions, stale answers dropped, preview and play.
//! (The same flow against the real gnubg is in analysis_e2e.rs.)

use bgedit_core::codec;
use bgedit_core::domain::Position;
use bgedit_engine::{Analysis, MoveLine, Request};
use bgedit_tui::action::{Action, BoardAction, CopyAction, CopyTarget};
use bgedit_tui::analysis;
use bgedit_tui::effect::Effect;
use bgedit_tui::model::{Model, Status, Tone};
use bgedit_tui::panels::Panel;
use bgedit_tui::reducer::update;

/// The starting position, X to roll; with 21 set, two of gnubg's 0-ply
/// answers for it.
fn model() -> Model {
    let p = codec::parse_any("4HPwATDgc/ABMA:cAkAAAAAAAAE", &Position::default())
        .unwrap()
        .position;
    Model::new(p, Status::info(""))
}

fn answer() -> Analysis {
    let line = |n: &str, e: f64, after: &str| MoveLine {
        notation: n.into(),
        equity: e,
        mwc: None,
        probs: [0.5, 0.14, 0.008, 0.14, 0.007],
        after: after.into(),
        plies: None,
        std_error: None,
        mwc_std_error: None,
    };
    Analysis::Moves {
        plies: 0,
        moves: vec![
            line("24/23 13/11", -0.008, "4HPwATDgc/ABMA"),
            line("24/21", -0.023, "4HPwATDgc/ABMA"),
        ],
        rollout: None,
    }
}

fn request(effects: &[Effect]) -> Request {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Analyse(_, r) => Some(r.clone()),
            _ => None,
        })
        .expect("a request")
}

#[test]
fn an_edit_asks_at_0_ply_and_a_stale_answer_is_dropped() {
    let (m, effects) = update(model(), Action::Board(BoardAction::SetDice(Some([6, 5]))));
    let first = request(&effects);
    assert_eq!(first.plies, 0);
    let (m, effects) = update(m, Action::Board(BoardAction::SetDice(Some([2, 1]))));
    let second = request(&effects);
    assert!(second.id > first.id);
    // The answer to the first request arrives late: dropped.
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            first.id,
            Ok(answer()),
            None,
        )),
    );
    assert_eq!(m.analysis.shown, None);
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            second.id,
            Ok(answer()),
            None,
        )),
    );
    assert_eq!(m.analysis.shown.as_ref().unwrap().plies, 0);
    assert!(analysis::panel_text(&m).rows[0].contains("24/23 13/11"));
}

#[test]
fn a_pause_asks_for_the_chosen_depth_once() {
    let (m, effects) = update(model(), Action::Board(BoardAction::SetDice(Some([2, 1]))));
    let r = request(&effects);
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            r.id,
            Ok(answer()),
            None,
        )),
    );
    let (m, effects) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::ChangeDepth(1)),
    );
    assert_eq!(effects, vec![Effect::SaveAnalysisPlies(3)]);
    let (m, effects) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Paused),
    );
    let deep = request(&effects);
    assert_eq!(deep.plies, 3);
    assert!(analysis::panel_text(&m).header.contains("3-ply running"));
    // Another pause while it runs asks for nothing more.
    let (_, effects) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Paused),
    );
    assert!(effects.is_empty());
}

#[test]
fn a_selected_move_is_previewed_and_played_undoably() {
    let (m, effects) = update(model(), Action::Board(BoardAction::SetDice(Some([2, 1]))));
    let r = request(&effects);
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            r.id,
            Ok(answer()),
            None,
        )),
    );
    let before = m.position.clone();
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::SelectMove(1)),
    );
    assert!(m.analysis.preview);
    let (m, effects) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::PlaySelected),
    );
    assert_ne!(m.position, before);
    assert_eq!(m.position.state.on_roll, before.state.on_roll.opponent());
    assert_eq!(m.position.state.dice, None);
    assert!(matches!(effects[0], Effect::Save(_)));
    let (m, _) = update(m, Action::Undo);
    assert_eq!(m.position, before);
}

#[test]
fn enter_without_a_selection_and_copy_without_an_answer_are_refused() {
    let (m, _) = update(
        model(),
        Action::Analysis(bgedit_tui::action::AnalysisAction::PlaySelected),
    );
    assert_eq!(m.status.tone, Tone::Error);
    let (m, effects) = update(m, Action::Copy(CopyAction::Text(CopyTarget::Analysis)));
    assert_eq!(m.status.tone, Tone::Error);
    assert!(effects.is_empty());
}

#[test]
fn the_copied_analysis_is_gnubg_like_text_with_the_id() {
    let (m, effects) = update(model(), Action::Board(BoardAction::SetDice(Some([2, 1]))));
    let r = request(&effects);
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            r.id,
            Ok(answer()),
            None,
        )),
    );
    let (_, effects) = update(m, Action::Copy(CopyAction::Text(CopyTarget::Analysis)));
    let Effect::Copy { text, .. } = &effects[0] else {
        panic!()
    };
    assert!(text.starts_with("GNUBG ID: "), "{text}");
    assert!(
        text.contains("    1. Cubeful 0-ply    24/23 13/11"),
        "{text}"
    );
}

#[test]
fn engine_problems_are_shown_and_panels_toggle() {
    let (m, effects) = update(model(), Action::Board(BoardAction::SetDice(Some([2, 1]))));
    let r = request(&effects);
    let why = bgedit_engine::EngineError::new(
        bgedit_engine::EngineKind::Gnubg,
        bgedit_engine::EngineErrorKind::Missing(bgedit_engine::Missing::Nowhere),
    );
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            r.id,
            Err(why),
            None,
        )),
    );
    assert!(analysis::panel_text(&m).notes[0].contains("apt-get install gnubg"));
    let (m, _) = update(m, Action::TogglePanel(Panel::Analysis));
    assert!(m.panels.is_on(Panel::Analysis));
}

/// An engine's own error text (a Python exception's, say) never reaches
/// the terminal raw: the panel shows it on one line, escapes written out.
#[test]
fn an_engines_error_text_is_shown_printable() {
    let (m, effects) = update(model(), Action::Board(BoardAction::SetDice(Some([2, 1]))));
    let r = request(&effects);
    let raw = "gnubg raised ValueError: \x1b]52;c;aGk=\x07 bad\nnext".to_owned();
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            r.id,
            Err(bgedit_engine::EngineError::new(
                bgedit_engine::EngineKind::Gnubg,
                bgedit_engine::EngineErrorKind::Refused { said: raw },
            )),
            None,
        )),
    );
    let notes = analysis::panel_text(&m).notes.join(" ");
    assert!(
        notes.contains("ValueError: \\x1b]52;c;aGk=\\x07 bad next"),
        "{notes}"
    );
    assert!(!notes.chars().any(char::is_control), "{notes:?}");
}

#[test]
fn while_previewing_up_and_down_walk_the_list() {
    use bgedit_tui::action::Direction;
    let (m, effects) = update(model(), Action::Board(BoardAction::SetDice(Some([2, 1]))));
    let r = request(&effects);
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            r.id,
            Ok(answer()),
            None,
        )),
    );
    let cursor = m.cursor;
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::SelectMove(1)),
    );
    let (m, _) = update(m, Action::Board(BoardAction::Move(Direction::Down)));
    assert_eq!(m.analysis.selected, 1);
    assert_eq!(m.cursor, cursor, "the board cursor stays");
    let (m, _) = update(m, Action::Board(BoardAction::Move(Direction::Up)));
    assert_eq!(m.analysis.selected, 0);
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::LeavePreview),
    );
    let (m, _) = update(m, Action::Board(BoardAction::Move(Direction::Up)));
    assert_ne!(m.cursor, cursor, "without a preview ↑ moves the cursor");
}

/// A 2-ply list whose tail gnubg's move filter left at 0-ply: the header
/// says so, each row has its depth, and the copied text writes each move's
/// own `Cubeful N-ply` as gnubg's `hint` does.
#[test]
fn a_2_ply_list_with_a_0_ply_tail_shows_each_moves_depth() {
    let (m, effects) = update(model(), Action::Board(BoardAction::SetDice(Some([2, 1]))));
    let r = request(&effects);
    let Analysis::Moves { mut moves, .. } = answer() else {
        unreachable!()
    };
    moves[0].plies = Some(2);
    moves[1].plies = Some(0);
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            r.id,
            Ok(Analysis::Moves {
                plies: 2,
                moves,
                rollout: None,
            }),
            None,
        )),
    );
    let text = analysis::panel_text(&m);
    assert!(
        text.header
            .starts_with("gnubg 2-ply, moves 2+ at 0-ply: beyond gnubg's move filter ·"),
        "{}",
        text.header
    );
    assert!(text.columns.unwrap().starts_with("   # Ply Move"));
    assert!(
        text.rows[0].starts_with("  1.   2 24/23 13/11"),
        "{:?}",
        text.rows
    );
    assert!(
        text.rows[1].starts_with("  2.   0 24/21"),
        "{:?}",
        text.rows
    );
    let (_, effects) = update(m, Action::Copy(CopyAction::Text(CopyTarget::Analysis)));
    let Effect::Copy { text, .. } = &effects[0] else {
        panic!()
    };
    assert!(
        text.contains("    1. Cubeful 2-ply    24/23 13/11"),
        "{text}"
    );
    assert!(text.contains("    2. Cubeful 0-ply    24/21"), "{text}");
}

/// A 1024-cube in a 5-point match: the request carries the 8-cube gnubg
/// can answer, and the panel says so above the answer.
#[test]
fn a_big_match_cube_is_sent_as_its_equivalent_and_the_panel_says_so() {
    let p = codec::parse_any("4HPwATDgc/ABMA:WgmlAAAAAAAE", &Position::default())
        .unwrap()
        .position;
    let m = Model::new(p, Status::info(""));
    let (m, effects) = update(m, Action::Board(BoardAction::SetDice(Some([6, 5]))));
    let r = request(&effects);
    let line: serde_json::Value = serde_json::from_str(&r.to_line()).unwrap();
    let sent = codec::parse_any(line["gnubgid"].as_str().unwrap(), &Position::default())
        .unwrap()
        .position;
    assert_eq!(sent.state.cube_value(), 8);
    assert_eq!(r.position.state.cube_value(), 1024);
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            r.id,
            Ok(answer()),
            None,
        )),
    );
    let notes = analysis::panel_text(&m).notes;
    assert!(notes[0].starts_with("Cube 1024 analysed as 8"), "{notes:?}");
}

fn cube_answer(plies: u8) -> Analysis {
    Analysis::Cube {
        plies,
        action: "No double, take".into(),
        no_double: 0.123,
        double_take: 0.045,
        double_pass: 1.0,
        optimal: Some(0.123),
        no_double_mwc: None,
        double_take_mwc: None,
        double_pass_mwc: None,
        probs: [0.6, 0.17, 0.01, 0.1, 0.004],
        cubeless: 0.2,
        rollout: None,
    }
}

/// With dice set, the cube decision of the position before the roll is
/// asked once the moves are in, at their depth, and shown on one line
/// above them (and in the copied text); an edit clears it.
#[test]
fn the_cube_decision_before_the_roll_is_shown_above_the_moves() {
    let (m, effects) = update(model(), Action::Board(BoardAction::SetDice(Some([2, 1]))));
    let r = request(&effects);
    let (m, effects) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            r.id,
            Ok(answer()),
            None,
        )),
    );
    let cube = request(&effects);
    assert_eq!(cube.position.state.dice, None);
    assert_eq!(cube.position.board, m.position.board);
    assert_eq!(cube.plies, 0);
    // The moves stay what the panel shows; the cube answer only adds a line.
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            cube.id,
            Ok(cube_answer(0)),
            None,
        )),
    );
    let text = analysis::panel_text(&m);
    assert_eq!(
        text.notes,
        vec!["Before the roll (0-ply): No double, take · ND +0.123 · D/T +0.045 · D/P +1.000"]
    );
    assert!(text.rows[0].contains("24/23 13/11"));
    let (m, effects) = update(m, Action::Copy(CopyAction::Text(CopyTarget::Analysis)));
    let Effect::Copy { text, .. } = &effects[0] else {
        panic!()
    };
    assert!(
        text.contains("Before the roll (0-ply): No double, take"),
        "{text}"
    );
    let (m, _) = update(m, Action::Board(BoardAction::SetDice(Some([6, 5]))));
    assert!(analysis::panel_text(&m).notes.is_empty());
}

/// A roller who could not double (the opponent owns the cube) gets no
/// cube request after the moves.
#[test]
fn no_cube_line_when_the_roller_cannot_double() {
    let p = codec::parse_any("4HPwATDgc/ABMA:QQkAAAAAAAAE", &Position::default())
        .unwrap()
        .position;
    assert_eq!(
        p.state.cube_owner,
        bgedit_core::domain::CubeOwner::Owned(p.state.on_roll.opponent())
    );
    let m = Model::new(p, Status::info(""));
    let (m, effects) = update(m, Action::Board(BoardAction::SetDice(Some([2, 1]))));
    let r = request(&effects);
    let (_, effects) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            r.id,
            Ok(answer()),
            None,
        )),
    );
    assert!(!effects.iter().any(|e| matches!(e, Effect::Analyse(..))));
}

fn rolled_out(trials: u32, of: u32, stopped: bool) -> Analysis {
    let Analysis::Moves { mut moves, .. } = answer() else {
        unreachable!()
    };
    moves[0].std_error = Some(0.021);
    moves[1].std_error = Some(0.034);
    Analysis::Moves {
        plies: 0,
        moves,
        rollout: Some(Box::new(bgedit_engine::Rollout {
            trials,
            of,
            seed: 1,
            truncate: 0,
            truncate_plies: None,
            plies: 0,
            cubeful: true,
            vr: true,
            quasi: true,
            elapsed: f64::from(trials) / 10.0,
            threads: None,
            reproducible: true,
            stopped,
            no_double_se: None,
            double_take_se: None,
        })),
    }
}

/// `O` rolls out: the panel shows the answer so far (trials, time left,
/// standard errors and the 95% interval), Esc stops it, an evaluation
/// arriving meanwhile does not hide it, and coming back to the position
/// shows the finished rollout at once.
#[test]
fn a_rollout_shows_its_progress_stops_on_esc_and_is_kept_with_the_position() {
    let (m, effects) = update(model(), Action::Board(BoardAction::SetDice(Some([2, 1]))));
    let r = request(&effects);
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            r.id,
            Ok(answer()),
            None,
        )),
    );
    let (m, effects) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Rollout),
    );
    let Some(Effect::Rollout(_, req, settings)) = effects.first() else {
        panic!("{effects:?}")
    };
    assert_eq!((settings.trials, settings.seed), (1296, 1));
    let id = req.id;
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::RolloutProgress(
            id,
            rolled_out(324, 1296, false),
        )),
    );
    let text = analysis::panel_text(&m);
    assert!(
        text.header.starts_with("gnubg rollout 324/1296 trials"),
        "{}",
        text.header
    );
    // 32.4 s for 324 trials: 97 s for the 972 left.
    assert!(
        text.header.contains("1:37 left · Esc stops"),
        "{}",
        text.header
    );
    assert!(
        text.columns.as_ref().unwrap().contains("SE    ±95%"),
        "{:?}",
        text.columns
    );
    assert!(text.rows[0].contains("0.021   0.041"), "{:?}", text.rows);
    // A stale progress line (another request) changes nothing.
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::RolloutProgress(
            id + 7,
            rolled_out(9, 9, false),
        )),
    );
    assert!(analysis::panel_text(&m).header.contains("324/1296"));
    // Esc stops it (not the preview, not a checker).
    let (m, effects) = update(
        m,
        Action::Play(bgedit_tui::play::state::PlayAction::PutBack),
    );
    assert_eq!(effects, vec![Effect::StopRollout]);
    let (m, effects) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::RolloutAnswer(
            id,
            Ok(rolled_out(400, 1296, true)),
        )),
    );
    assert!(
        m.status.text.contains("stopped after 400 of 1296"),
        "{}",
        m.status.text
    );
    // Kept in the library if an entry holds the position.
    assert!(
        matches!(effects.first(), Some(Effect::Library(_))),
        "{effects:?}"
    );
    let text = analysis::panel_text(&m);
    assert!(
        text.header.contains("400/1296 trials · stopped"),
        "{}",
        text.header
    );
    // Away and back: the rollout at once.
    let (m, _) = update(m, Action::Board(BoardAction::SetDice(Some([4, 3]))));
    assert!(!analysis::panel_text(&m).header.contains("rollout"));
    let (m, _) = update(m, Action::Board(BoardAction::SetDice(Some([2, 1]))));
    assert!(analysis::panel_text(&m).header.contains("400/1296"));
    // The copied text is gnubg's rollout layout with the errors.
    let (_, effects) = update(m, Action::Copy(CopyAction::Text(CopyTarget::Analysis)));
    let Effect::Copy { text, .. } = &effects[0] else {
        panic!("{effects:?}")
    };
    assert!(text.contains("1. Rollout        24/23 13/11"), "{text}");
    assert!(text.contains("SE 0.021 (95%: ±0.041)"), "{text}");
    assert!(
        text.contains("Rollout: 400 of 1296 trials, seed 1"),
        "{text}"
    );
}

/// gnubg at 2-ply leaves every move at 0-ply when one leads by more than its
/// move filter (its `hint` says `Cubeful 0-ply` on each row): the header
/// says the rows' depth, not the depth asked.
#[test]
fn a_list_gnubg_left_at_0_ply_is_headed_0_ply() {
    let (m, effects) = update(model(), Action::Board(BoardAction::SetDice(Some([2, 1]))));
    let r = request(&effects);
    let Analysis::Moves { mut moves, .. } = answer() else {
        unreachable!()
    };
    for m in &mut moves {
        m.plies = Some(0);
    }
    let (m, _) = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            r.id,
            Ok(Analysis::Moves {
                plies: 2,
                moves,
                rollout: None,
            }),
            None,
        )),
    );
    let text = analysis::panel_text(&m);
    assert!(
        text.header.starts_with(
            "gnubg 0-ply, 2-ply asked: one move leads beyond gnubg's move filter, so none went deeper ·"
        ),
        "{}",
        text.header
    );
    assert!(
        text.rows[0].starts_with("  1.   0 24/23 13/11"),
        "{:?}",
        text.rows
    );
}

/// Both engines in a match: the note that Sage gives no MWC heads Sage's
/// list, not gnubg's.
#[test]
fn with_both_engines_the_no_mwc_note_is_on_sages_list() {
    use bgedit_tui::analysis::state::Shown;
    let mut m = model();
    let p = codec::parse_any("4HPwATDgc/ABMA:cAkFAAAAAAAE", &Position::default())
        .unwrap()
        .position;
    m.position = Position {
        state: bgedit_core::domain::MatchState {
            match_length: 7,
            ..p.state
        },
        ..p
    };
    m.analysis.engines = bgedit_engine::Choice::all();
    m.analysis.shown = Some(Shown {
        plies: 0,
        analysis: answer(),
    });
    m.analysis
        .opinions
        .entry(bgedit_engine::EngineKind::Sage)
        .or_default()
        .shown = Some(Shown {
        plies: 0,
        analysis: answer(),
    });
    let gnubg = analysis::panel_text(&m);
    let sage = analysis::second_panel_text(&m).unwrap();
    assert!(gnubg.header.starts_with("gnubg "), "{}", gnubg.header);
    assert!(
        !gnubg.header.contains("Sage gives no MWC"),
        "{}",
        gnubg.header
    );
    assert!(sage.header.starts_with("Sage "), "{}", sage.header);
    assert!(sage.header.contains("Sage gives no MWC"), "{}", sage.header);
}

/// `z` goes gnubg, Sage, both, gnubg through the reducer, saying so in the
/// words it always used, and asks each engine turned on that has no answer
/// yet for the position on show.
#[test]
fn z_cycles_the_engines_with_their_words_and_asks_the_new_one() {
    use bgedit_engine::{Choice, EngineKind};
    let z = || Action::Analysis(bgedit_tui::action::AnalysisAction::CycleEngine);
    let (m, effects) = update(model(), z());
    assert_eq!(m.analysis.engines, Choice::only(EngineKind::Sage));
    assert_eq!(
        m.status.text,
        "Analysis by Open Sage; its depths in its own count (gnubg's 0-ply is Sage's 1-ply) (z: both)"
    );
    assert!(
        matches!(&effects[..], [Effect::Analyse(EngineKind::Sage, r)] if r.position == m.position),
        "{effects:?}"
    );
    let (m, effects) = update(m, z());
    assert_eq!(m.analysis.engines, Choice::all());
    assert_eq!(
        m.status.text,
        "Analysis by gnubg and Open Sage side by side (z: gnubg)"
    );
    // Sage has not answered yet: asked again.
    assert!(
        matches!(&effects[..], [Effect::Analyse(EngineKind::Sage, _)]),
        "{effects:?}"
    );
    let (m, effects) = update(m, z());
    assert_eq!(m.analysis.engines, Choice::only(EngineKind::Gnubg));
    assert_eq!(m.status.text, "Analysis by gnubg (z: Sage)");
    assert!(effects.is_empty(), "{effects:?}");
}

/// Sage's answer is kept as its opinion; one to an older request is
/// dropped, and the reference's answer is left alone.
#[test]
fn another_engines_answer_is_kept_by_engine_and_a_stale_one_dropped() {
    use bgedit_engine::EngineKind;
    let (m, effects) = update(
        model(),
        Action::Analysis(bgedit_tui::action::AnalysisAction::CycleEngine),
    );
    let [Effect::Analyse(_, req)] = &effects[..] else {
        panic!("{effects:?}")
    };
    let said = |id| {
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            EngineKind::Sage,
            id,
            Ok(answer()),
            Some("2.0".to_owned()),
        ))
    };
    let (m, _) = update(m, said(req.id + 1));
    assert_eq!(m.analysis.shown_by(EngineKind::Sage), None);
    let (m, _) = update(m, said(req.id));
    assert_eq!(
        m.analysis.shown_by(EngineKind::Sage).map(|s| &s.analysis),
        Some(&answer())
    );
    assert_eq!(m.analysis.shown, None, "the reference's answer is its own");
    let header = analysis::panel_text(&m).header;
    // In Sage's own count, with the version it gave.
    assert_eq!(header, "Sage 1-ply · money equity · bgsage 2.0");
}
