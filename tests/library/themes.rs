//! What each position and decision is about (schema 13): both sides' game
//! plans (Sage's, through `bgedit_engine::plans`), gnubg's class, the
//! decision asked and the score class, stored for every entry and every
//! match decision, found by the filter; and a library of the version
//! before migrated, its rows filled.

use crate::common;

use bgedit_core::codec::parse_any;
use bgedit_core::domain::position_class::class_of;
use bgedit_core::domain::score_class::{ScoreClass, decision_of};
use bgedit_core::domain::{Player, Position};
use bgedit_library::filter::parse;
use bgedit_library::schema;
use bgedit_library::store::Library;
use std::path::Path;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// What schema 13 added to the entries, dropped: with it a library made by
/// today's store is one of schema 12 (the tests of older schemas drop it
/// with what came before).
pub(crate) const DROP_ENTRY_THEMES: &str = "
    DROP INDEX entries_themes; DROP INDEX entries_unclassed; DROP INDEX entries_unplanned;
    ALTER TABLE entries DROP COLUMN plan; ALTER TABLE entries DROP COLUMN opp_plan;
    ALTER TABLE entries DROP COLUMN class; ALTER TABLE entries DROP COLUMN score_class;
    ALTER TABLE entries DROP COLUMN decision;";

/// What schema 13 added to the match decisions, dropped.
pub(crate) const DROP_DECISION_THEMES: &str = "
    DROP INDEX decisions_unclassed; DROP INDEX decisions_unplanned;
    ALTER TABLE decisions DROP COLUMN plan; ALTER TABLE decisions DROP COLUMN opp_plan;
    ALTER TABLE decisions DROP COLUMN class; ALTER TABLE decisions DROP COLUMN score_class;";

fn import(lib: &Path, file: &str) {
    let lib = lib.display().to_string();
    let file = Path::new(FIXTURES).join(file).display().to_string();
    let out = common::run::bgedit(&["library", "--library", &lib, "import", &file], "");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        common::run::text(&out.stderr)
    );
}

/// Every entry's and decision's themes as the core and the engine give
/// them from its position: (id, plan, opp_plan, class, score_class,
/// decision or kind).
type Row = (i64, Option<String>, Option<String>, String, String, String);

fn expected(
    position: &Position,
    decider: Player,
) -> (Option<String>, Option<String>, String, String) {
    let plans = bgedit_engine::plans(position).ok();
    (
        plans.map(|p| p.of(decider).name().to_owned()),
        plans.map(|p| p.of(decider.opponent()).name().to_owned()),
        class_of(&position.board).name().to_owned(),
        ScoreClass::of(&position.state).name().to_owned(),
    )
}

fn check_rows(lib: &Path) -> (usize, usize) {
    let conn = rusqlite::Connection::open(lib).unwrap();
    let entries: Vec<(i64, String, Row)> = conn
        .prepare("SELECT id, gnubg_id, plan, opp_plan, class, score_class, decision FROM entries")
        .unwrap()
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                (
                    r.get(0)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ),
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let opened = Library::open_to_read(lib).unwrap();
    for (id, _, row) in &entries {
        let position = opened.get(*id).unwrap().position;
        let (plan, opp, class, score) = expected(&position, position.state.turn);
        let decision = decision_of(&position.state).word().to_owned();
        assert_eq!(row, &(*id, plan, opp, class, score, decision), "entry {id}");
    }
    let decisions: Vec<(String, String, Row)> = conn
        .prepare(
            "SELECT gnubg_id, player, id, plan, opp_plan, class, score_class, kind FROM decisions",
        )
        .unwrap()
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                (
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                ),
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for (gnubg_id, player, row) in &decisions {
        let position = parse_any(gnubg_id, &Position::default()).unwrap().position;
        let who = if player == "O" { Player::O } else { Player::X };
        let (plan, opp, class, score) = expected(&position, who);
        assert_eq!(
            (&row.1, &row.2, &row.3, &row.4),
            (&plan, &opp, &class, &score),
            "decision {gnubg_id}"
        );
    }
    (entries.len(), decisions.len())
}

fn install_plans() {
    bgedit_library::derive::classify_plans_with(|p| bgedit_engine::plans(p).ok());
}

#[test]
fn every_entry_and_decision_has_its_themes_and_the_filter_finds_them() {
    install_plans();
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    import(&lib, "selfplay/m5_driven.sgf");
    let (entries, decisions) = check_rows(&lib);
    assert!(
        entries > 50 && decisions > 50,
        "{entries} entries, {decisions} decisions"
    );
    // Each filter word finds exactly the entries whose column says it.
    let opened = Library::open_to_read(&lib).unwrap();
    let conn = rusqlite::Connection::open(&lib).unwrap();
    let count =
        |sql: &str| -> u64 { conn.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap() as u64 };
    for (filter, sql) in [
        ("plan:racing", "plan = 'racing'"),
        ("opp-plan:anchoring", "opp_plan = 'anchoring'"),
        ("plan:priming", "plan = 'priming'"),
        ("class:contact", "class = 'contact'"),
        ("class:race", "class = 'race'"),
        ("score:match", "score_class = 'match'"),
        ("score:2-away", "score_class = '2-away'"),
        ("decision:checker", "decision = 'checker'"),
        ("!class:contact", "class <> 'contact'"),
    ] {
        let want = count(&format!("SELECT count(*) FROM entries WHERE {sql}"));
        assert_eq!(
            opened.count(&parse(filter).unwrap()).unwrap(),
            want,
            "{filter}"
        );
    }
    assert!(count("SELECT count(*) FROM entries WHERE class = 'contact'") > 0);
}

/// A library of the version before (12) is migrated: its entries and
/// decisions get their themes. The old file is made by today's store, its
/// theme columns and indexes (and version 14's index of `library like`)
/// then dropped and the version set back, which is version 12 exactly
/// (version 13 only adds the themes).
#[test]
fn a_library_of_the_version_before_is_migrated_with_its_themes() {
    install_plans();
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("old.sqlite");
    import(&lib, "selfplay/m5_driven.sgf");
    {
        let conn = rusqlite::Connection::open(&lib).unwrap();
        conn.execute_batch(DROP_ENTRY_THEMES).unwrap();
        conn.execute_batch(DROP_DECISION_THEMES).unwrap();
        conn.execute_batch(crate::like::DROP_LIKE).unwrap();
        conn.pragma_update(None, "user_version", 12).unwrap();
    }
    let opened = Library::open(&lib).unwrap();
    assert_eq!(opened.schema_version().unwrap(), schema::LATEST);
    assert_eq!(opened.integrity_check().unwrap(), "ok");
    drop(opened);
    let (entries, decisions) = check_rows(&lib);
    assert!(entries > 50 && decisions > 50);
}

/// Plans a bgedit without a classifier left unknown are filled by the
/// next open with one.
#[test]
fn unknown_plans_are_filled_when_a_classifier_is_there() {
    install_plans();
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    import(&lib, "selfplay/m5_driven.sgf");
    {
        let conn = rusqlite::Connection::open(&lib).unwrap();
        conn.execute_batch(
            "UPDATE entries SET plan = NULL, opp_plan = NULL WHERE id % 2 = 0;
             UPDATE decisions SET plan = NULL, opp_plan = NULL;",
        )
        .unwrap();
    }
    drop(Library::open(&lib).unwrap());
    check_rows(&lib);
}

/// `stats --player NAME --by THEME` against the per-decision JSON of
/// `analyse --file` at the same depth, grouped here by hand: each group's
/// decisions (those gnubg's rates count), equity given away (checker plays
/// counted, every cube error, as gnubg adds them), error rate and PR.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn stats_by_theme_are_the_match_analysis_grouped_by_hand() {
    use serde_json::Value;
    use std::collections::BTreeMap;
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    import(&lib, "selfplay/m5_driven.sgf");
    let lib_arg = lib.display().to_string();
    let out = common::run::bgedit(
        &["library", "--library", &lib_arg, "analyse", "--plies", "0"],
        "",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        common::run::text(&out.stderr)
    );
    let file = Path::new(FIXTURES).join("selfplay/m5_driven.sgf");
    let out = common::run::bgedit(
        &[
            "analyse",
            "--plies",
            "0",
            "--format",
            "json",
            "--file",
            &file.display().to_string(),
        ],
        "",
    );
    let lines: Vec<Value> = common::run::text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &Value| v["name"] == "gnubg")
        .collect();
    assert!(lines.len() > 20, "{} decisions of gnubg", lines.len());
    for by in ["plan", "class", "score", "kind"] {
        let mut want: BTreeMap<String, (u32, f64)> = BTreeMap::new();
        for l in &lines {
            let position = parse_any(l["gnubg_id"].as_str().unwrap(), &Position::default())
                .unwrap()
                .position;
            let who = if l["player"] == "O" {
                Player::O
            } else {
                Player::X
            };
            let key = match by {
                "plan" => bgedit_engine::plans(&position)
                    .map_or("unknown".to_owned(), |p| p.of(who).name().to_owned()),
                "class" => class_of(&position.board).name().to_owned(),
                "score" => ScoreClass::of(&position.state).name().to_owned(),
                _ => l["kind"].as_str().unwrap().to_owned(),
            };
            let counted = l["counted"].as_bool().unwrap();
            let error = l["error"].as_f64().unwrap();
            let g = want.entry(key).or_default();
            g.0 += u32::from(counted);
            if l["kind"] != "checker" || counted {
                g.1 += error;
            }
        }
        let out = common::run::bgedit(
            &[
                "stats",
                "--player",
                "gnubg",
                "--library",
                &lib_arg,
                "--by",
                by,
                "--format",
                "json",
            ],
            "",
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            common::run::text(&out.stderr)
        );
        let got: Value = serde_json::from_str(common::run::text(&out.stdout).trim()).unwrap();
        assert_eq!(got["by"], by);
        let groups = got["groups"].as_array().unwrap();
        assert_eq!(groups.len(), want.len(), "{by}: {got}");
        let mut last = f64::INFINITY;
        for g in groups {
            let key = g[by].as_str().unwrap();
            let (decisions, error) = want[key];
            assert_eq!(g["decisions"], decisions, "{by} {key}");
            assert!(
                (g["error"].as_f64().unwrap() - error).abs() < 1e-4,
                "{by} {key}: {g} {error}"
            );
            if decisions > 0 {
                let rate = 1000.0 * error / f64::from(decisions);
                let got_rate = g["error_rate_memg"].as_f64().unwrap();
                assert!(
                    (got_rate - rate).abs() < 1e-3,
                    "{by} {key}: {got_rate} {rate}"
                );
                assert!((g["pr"].as_f64().unwrap() - rate / 2.0).abs() < 1e-3);
                assert!(got_rate <= last, "worst first: {got}");
                last = got_rate;
            }
        }
        if by == "plan" {
            assert!(!want.contains_key("unknown"), "plans known here: {want:?}");
        }
    }
}

/// The editor's statistics view of a player, `t`: their decisions by plan,
/// class, score and kind in turn, each group as `stats --player --by`
/// gives it, worst first; a fifth `t` is the matches again, `Esc` the
/// library.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_editors_themes_are_stats_by_theme() {
    use super::library_panel::Harness;
    use bgedit_tui::action::Action;
    use bgedit_tui::library::state::{LibMode, LineAction, ListAction};
    use bgedit_tui::model::Mode;
    use bgedit_tui::snapshot::Snapshot;
    use bgedit_tui::statistics::state::StatisticsAction;
    use serde_json::Value;
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    import(&lib, "selfplay/m5_driven.sgf");
    let lib_arg = lib.display().to_string();
    let out = common::run::bgedit(
        &["library", "--library", &lib_arg, "analyse", "--plies", "0"],
        "",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        common::run::text(&out.stderr)
    );
    let mut h = Harness::on(&lib);
    h.lib(ListAction::Open);
    h.lib(ListAction::AskPlayer);
    h.lib(LineAction::Clear);
    h.type_text("gnubg");
    assert_eq!(h.lib(LineAction::Submit).mode, Mode::Statistics);
    for by in ["plan", "class", "score", "kind"] {
        let m = h.act(Action::Statistics(StatisticsAction::NextTheme));
        let snapshot = Snapshot::of(m);
        assert!(snapshot.player_statistics.is_none());
        let view = snapshot.player_themes.unwrap();
        assert!(
            view.title.contains(&format!("gnubg by {by}")),
            "{}",
            view.title
        );
        let out = common::run::bgedit(
            &[
                "stats",
                "--player",
                "gnubg",
                "--library",
                &lib_arg,
                "--by",
                by,
                "--format",
                "json",
            ],
            "",
        );
        let want: Value = serde_json::from_str(common::run::text(&out.stdout).trim()).unwrap();
        // Each group's line, in the same order, with its numbers.
        let group_lines: Vec<&String> = view.lines[1..]
            .iter()
            .filter(|l| !l.starts_with("    "))
            .collect();
        let groups = want["groups"].as_array().unwrap();
        assert_eq!(group_lines.len(), groups.len(), "{by}: {view:?}");
        for (line, g) in group_lines.iter().zip(groups) {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(words[0], g[by].as_str().unwrap(), "{by}");
            assert_eq!(words[1], g["decisions"].to_string(), "{by} {line}");
            assert_eq!(words[2], g["errors"].to_string(), "{by} {line}");
            let costliest = g["costliest"].as_array().unwrap();
            for c in costliest {
                let id = c["gnubg_id"].as_str().unwrap();
                assert!(view.lines.iter().any(|l| l.contains(id)), "{by}: {id}");
            }
        }
    }
    let m = h.act(Action::Statistics(StatisticsAction::NextTheme));
    let snapshot = Snapshot::of(m);
    assert!(snapshot.player_themes.is_none() && snapshot.player_statistics.is_some());
    let m = h.act(Action::Statistics(StatisticsAction::NextTheme));
    assert!(Snapshot::of(m).player_themes.is_some());
    let m = h.act(Action::Statistics(StatisticsAction::Close));
    assert_eq!(m.mode, Mode::Library(LibMode::List));
    assert!(m.statistics.themes.is_none());
}

/// `stats --player NAME --thresholds`: every take and cube decision of the
/// player's behind a threshold has the margin the engine's equities give,
/// which is what its verdict says it gave away (acting where the margin is
/// negative costs −margin, not acting where it is positive costs margin),
/// and each threshold is the core's estimate from those decisions.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn cube_thresholds_read_the_engines_equities() {
    use bgedit_core::domain::cube_thresholds::threshold;
    use serde_json::Value;
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    import(&lib, "selfplay/m5_driven.sgf");
    import(&lib, "mat/selfplay_5pt_seed7.mat");
    let lib_arg = lib.display().to_string();
    let out = common::run::bgedit(
        &["library", "--library", &lib_arg, "analyse", "--plies", "0"],
        "",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        common::run::text(&out.stderr)
    );
    let out = common::run::bgedit(
        &[
            "stats",
            "--player",
            "gnubg",
            "--library",
            &lib_arg,
            "--thresholds",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        common::run::text(&out.stderr)
    );
    let got: Value = serde_json::from_str(common::run::text(&out.stdout).trim()).unwrap();
    assert_eq!(got["without_equities"], 0);
    let rows = got["thresholds"].as_array().unwrap();
    assert!(
        rows.iter()
            .any(|r| r["score"] == "all" && r["edge"] == "double"),
        "{got}"
    );
    let mut seen = 0;
    for r in rows {
        let behind = r["behind"].as_array().unwrap();
        assert_eq!(r["decisions"], behind.len());
        let mut points = Vec::new();
        for b in behind {
            let (m, acted) = (b["margin"].as_f64().unwrap(), b["acted"].as_bool().unwrap());
            let cost = if acted { (-m).max(0.0) } else { m.max(0.0) };
            let error = b["error"].as_f64().unwrap();
            assert!((cost - error).abs() < 2e-6, "{r}: {b}");
            points.push((m, acted));
            seen += 1;
        }
        match threshold(&points) {
            Ok(t) => {
                // The margins here are rounded to 6 places: a flat fit
                // (a wide interval) moves with them in proportion.
                let close = 1e-6 + 1e-4 * (t.high - t.low);
                let estimate = r["estimate"].as_f64().unwrap();
                assert!((estimate - t.estimate).abs() < close, "{r}: {t:?}");
                assert!(r["low"].as_f64().unwrap() <= estimate);
                assert!(estimate <= r["high"].as_f64().unwrap());
            }
            Err(e) => assert_eq!(r["none"], e.to_string()),
        }
    }
    assert!(seen > 20, "{seen} decisions");
}
