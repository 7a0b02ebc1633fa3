//! The database's shape and how it got there: one migration per schema
//! version, applied in order from the first release on. A file records its
//! version in `PRAGMA user_version` and is marked as bgedit's by
//! `PRAGMA application_id`.

/// `BGED`: marks a file as a bgedit library.
pub const APPLICATION_ID: i32 = 0x4247_4544;

/// Schema version 1, the first release: entries with their position, IDs,
/// texts and derived columns; tags; collections.
pub const V1: &str = "
CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    gnubg_id TEXT NOT NULL,
    xgid TEXT NOT NULL,
    position_json TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    tags_text TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    analysis TEXT,
    analysis_depth TEXT,
    pips_o INTEGER NOT NULL,
    pips_x INTEGER NOT NULL,
    pips_on_roll INTEGER NOT NULL,
    pip_diff INTEGER NOT NULL,
    race INTEGER NOT NULL,
    bar INTEGER NOT NULL,
    match_length INTEGER NOT NULL,
    score_o INTEGER NOT NULL,
    score_x INTEGER NOT NULL,
    crawford INTEGER NOT NULL,
    cube INTEGER NOT NULL,
    on_roll TEXT NOT NULL
);
CREATE UNIQUE INDEX entries_position ON entries (gnubg_id, xgid);
CREATE INDEX entries_xgid ON entries (xgid);
CREATE INDEX entries_pips ON entries (pips_on_roll);
CREATE INDEX entries_diff ON entries (pip_diff);
CREATE INDEX entries_race ON entries (race, pips_on_roll);
CREATE INDEX entries_bar ON entries (bar);
CREATE INDEX entries_length ON entries (match_length, crawford);
CREATE INDEX entries_cube ON entries (cube);
CREATE TABLE tags (
    entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (entry_id, tag)
) WITHOUT ROWID;
CREATE INDEX tags_by_name ON tags (tag, entry_id);
CREATE TABLE collections (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE entry_collections (
    entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
    collection_id INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    PRIMARY KEY (entry_id, collection_id)
) WITHOUT ROWID;
CREATE INDEX entry_collections_by_collection ON entry_collections (collection_id, entry_id);
";

/// Version 2: the review schedule (due time, interval, ease, reviews so
/// far). Entries from version 1 become due at once.
pub(crate) const V2: &str = "
ALTER TABLE entries ADD COLUMN due INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN interval_days REAL NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN ease REAL NOT NULL DEFAULT 2.5;
ALTER TABLE entries ADD COLUMN reviews INTEGER NOT NULL DEFAULT 0;
UPDATE entries SET due = created;
CREATE INDEX entries_due ON entries (due);
";

/// Version 3: one covering index over every structured filter's column, so
/// a combined filter (`cube>=4 match`) is counted and paged from the index
/// alone, never by reading the (wide) rows.
pub(crate) const V3: &str = "
CREATE INDEX entries_facets ON entries
    (match_length, crawford, bar, race, cube, pips_on_roll, pip_diff, due);
";

/// Version 4: text search on an index, and cheaper writes.
///
/// An FTS5 table with the trigram tokenizer over the title, note, tags and
/// both IDs, so any text or ID fragment of 3 characters or more is found
/// from the index (case-folded, like the `LIKE` it replaces) instead of by
/// reading every row. Its content is the `entries` table itself (nothing
/// stored twice, no per-row sizes kept: nothing ranks by them); the existing
/// rows are indexed here, and the store indexes every row it writes (not
/// triggers: a trigger makes every insert a statement transaction, and FTS5
/// writes its pending index at each one, which made an import 3 times
/// slower).
///
/// The single-column indexes of version 1 go: every structured filter runs
/// on version 3's covering `entries_facets`, and each index cost every
/// insert a B-tree write. `entries_by_id` holds the same columns in id
/// order: when text found on the index is also filtered by what the
/// position is, each found id is tested in this narrow index instead of in
/// its (wide) row; new ids go at its end, so it costs an import little.
pub(crate) const V4: &str = "
CREATE VIRTUAL TABLE entries_text USING fts5(
    title, note, tags_text, gnubg_id, xgid,
    content = 'entries', content_rowid = 'id', columnsize = 0, tokenize = 'trigram'
);
INSERT INTO entries_text (entries_text, rank) VALUES ('hashsize', 4194304);
INSERT INTO entries_text (entries_text) VALUES ('rebuild');
DROP INDEX entries_xgid;
DROP INDEX entries_pips;
DROP INDEX entries_diff;
DROP INDEX entries_race;
DROP INDEX entries_bar;
DROP INDEX entries_length;
DROP INDEX entries_cube;
CREATE INDEX entries_by_id ON entries
    (id, match_length, crawford, bar, race, cube, pips_on_roll, pip_diff, due);
";

/// Version 5: `entries_scan` takes `entries_by_id`'s place, holding the text
/// columns as well. Text of 1–2 characters has no trigram to look up and is
/// found by a scan; in this index (id order, a tenth of a row's width: no
/// position JSON) the scan reads a tenth of the pages, and every filter a
/// query can combine with it is answered from the same index.
pub(crate) const V5: &str = "
CREATE VIRTUAL TABLE entries_vocab USING fts5vocab(entries_text, row);
DROP INDEX entries_by_id;
CREATE INDEX entries_scan ON entries
    (id, match_length, crawford, bar, race, cube, pips_on_roll, pip_diff, due,
     title, tags_text, note, gnubg_id, xgid);
";

/// Version 6: match decisions and checker structure.
///
/// A decision imported from a match keeps who decided (`player`, the name),
/// what kind it was (`kind`: checker, cube or take), what was played, and
/// the equity it gave away by its analysis (`error`, NULL when unknown).
/// The structure of the player on roll (made points as a bit mask, the
/// opponent's, blots, checkers back, longest prime, home-board points) is
/// derived from the position like the pips; the store fills it for the rows
/// already there after this step (see `store::fill_structure`). Both
/// covering indexes take the new columns, so a filter on them stays on an
/// index; `entries_error` orders the decisions by error.
pub(crate) const V6: &str = "
ALTER TABLE entries ADD COLUMN points INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN opp_points INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN blots INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN back INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN prime INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN home INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN error REAL;
ALTER TABLE entries ADD COLUMN player TEXT NOT NULL DEFAULT '';
ALTER TABLE entries ADD COLUMN kind TEXT NOT NULL DEFAULT '';
ALTER TABLE entries ADD COLUMN played TEXT NOT NULL DEFAULT '';
DROP INDEX entries_facets;
CREATE INDEX entries_facets ON entries
    (match_length, crawford, bar, race, cube, pips_on_roll, pip_diff, due,
     prime, home, back, blots, points, opp_points, kind, error);
DROP INDEX entries_scan;
CREATE INDEX entries_scan ON entries
    (id, match_length, crawford, bar, race, cube, pips_on_roll, pip_diff, due,
     prime, home, back, blots, points, opp_points, kind, error, player, source,
     title, tags_text, note, gnubg_id, xgid);
CREATE INDEX entries_error ON entries (error) WHERE error IS NOT NULL;
";

/// Version 7: FSRS's memory state for the review schedule (stability,
/// difficulty, learning state, lapses, last review). An SM-2 schedule
/// becomes the FSRS state closest to it: an entry reviewed before is in
/// review, its interval the stability (both are the days until recall
/// falls to about 90%), its ease the difficulty (2.5, SM-2's start, is 5 of
/// FSRS's 1–10; 1.3, SM-2's hardest, is 10), last reviewed one interval
/// before it is due. Entries never reviewed stay new. And every quiz answer
/// from now on: its entry, collection, time, rating, grade and error, for
/// the quiz's statistics; and gnubg's analysis the quiz was graded by (its
/// JSON), so the next quiz of the entry is graded at once.
const V7: &str = "
ALTER TABLE entries ADD COLUMN stability REAL NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN difficulty REAL NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN fsrs_state INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN lapses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN last_review INTEGER NOT NULL DEFAULT 0;
UPDATE entries SET last_review = created;
UPDATE entries SET
    fsrs_state = 2,
    stability = max(interval_days, 1.0),
    difficulty = min(10.0, max(1.0, 5.0 + (2.5 - ease) * 5.0 / 1.2)),
    last_review = due - CAST(round(interval_days * 86400) AS INTEGER)
  WHERE reviews > 0;
ALTER TABLE entries ADD COLUMN quiz_analysis TEXT;
CREATE TABLE quiz_results (
    id INTEGER PRIMARY KEY,
    entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
    collection TEXT NOT NULL,
    at INTEGER NOT NULL,
    rating INTEGER NOT NULL,
    grade TEXT NOT NULL,
    error REAL
);
CREATE INDEX quiz_results_at ON quiz_results (collection, at);
CREATE INDEX quiz_results_entry ON quiz_results (entry_id);
";

/// Version 8: matches, not only their positions.
///
/// A match imported once (`hash`: SHA-256 of the file's bytes, so the same
/// file imported twice is one match), with its players, event, place, date,
/// length, result (`O-X` points won, as the file's games add up), the
/// file's format and path; its games; and every decision in the file's
/// order (`seq`), with who decided (`X` or `O`, and the name), its kind,
/// dice, what was played, its position's IDs and the entry the decision
/// made in the positions (`entry_id`, NULL when `--errors` kept it out or
/// the entry was removed). The file's bytes are kept (`content`): the
/// match is analysed from them later, on this machine or another one the
/// library is copied to, wherever the file has gone.
///
/// `analyses` holds each decision's verdicts keyed by the engine and depth
/// that gave them (`plies`: the search depth; XG's Roller levels 1000 to
/// 1002, a rollout [`ROLLOUT_PLIES`], a depth the file does not say -1), so the file's own
/// analysis (XG's, gnubg's) is kept beside a later one and a shallower
/// verdict never replaces a deeper one: each depth is its own row, and a
/// row is only replaced when asked. The file's verdict and bgedit's own
/// at the same engine and depth are kept apart (`from_file`): bgedit's
/// holds every judgement gnubg's statistics count (its `analysis` is their
/// JSON), the file's only its candidates. `error` is the equity given away
/// by that verdict, NULL when it does not rank what was played.
///
/// `match_luck` keeps the luck of the dice gnubg rated in a whole match's
/// analysis (each player's total, normalised), by engine and depth; a match
/// whose analysis was stopped part way has none.
pub(crate) const V8: &str = "
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    player_o TEXT NOT NULL,
    player_x TEXT NOT NULL,
    event TEXT,
    place TEXT,
    date TEXT,
    length INTEGER NOT NULL,
    result TEXT NOT NULL DEFAULT '',
    format TEXT NOT NULL,
    path TEXT NOT NULL,
    imported INTEGER NOT NULL,
    content BLOB NOT NULL
);
CREATE INDEX matches_players ON matches (player_o, player_x);
CREATE TABLE games (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    score_o INTEGER NOT NULL,
    score_x INTEGER NOT NULL,
    crawford INTEGER NOT NULL,
    winner TEXT,
    points INTEGER,
    PRIMARY KEY (match_id, number)
) WITHOUT ROWID;
CREATE TABLE decisions (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    game INTEGER NOT NULL,
    number INTEGER NOT NULL,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    dice TEXT,
    played TEXT NOT NULL,
    gnubg_id TEXT NOT NULL,
    xgid TEXT NOT NULL,
    entry_id INTEGER REFERENCES entries (id) ON DELETE SET NULL,
    UNIQUE (match_id, seq)
);
CREATE INDEX decisions_entry ON decisions (entry_id) WHERE entry_id IS NOT NULL;
CREATE TABLE analyses (
    decision_id INTEGER NOT NULL REFERENCES decisions (id) ON DELETE CASCADE,
    engine TEXT NOT NULL,
    plies INTEGER NOT NULL,
    depth TEXT NOT NULL,
    from_file INTEGER NOT NULL,
    error REAL,
    analysis TEXT NOT NULL,
    created INTEGER NOT NULL,
    PRIMARY KEY (decision_id, engine, plies, from_file)
) WITHOUT ROWID;
CREATE TABLE match_luck (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    engine TEXT NOT NULL,
    plies INTEGER NOT NULL,
    luck_o REAL NOT NULL,
    luck_x REAL NOT NULL,
    PRIMARY KEY (match_id, engine, plies)
) WITHOUT ROWID;
";

/// Version 9: a match's identity apart from its file's format, each game's
/// luck, and each match's rates kept for `stats --player`.
///
/// `matches.identity`: SHA-256 of the match itself in a canonical form
/// (the players, the length, and every decision in order: game, who,
/// kind, dice, the position's gnubg ID and what was played; see
/// `match_import::identity`), so the same match as `.mat` and as `.sgf`
/// is one match while `hash` still tells the same file. It is NULL for a
/// match stored before version 9 until bgedit reads its kept file again
/// (the next `library import`, `merge` or `analyse` fills it in).
/// `library analyse --shard K/N` splits by it, and `library merge` finds a
/// match by it: equal identities have the same decisions in the same
/// order, so verdicts by a decision's place carry over exactly.
///
/// `game_luck` keeps the luck of each game gnubg rated (each player's
/// total, normalised) by engine and depth, so the luck of a match whose
/// analysis was stopped and resumed adds up from its games exactly as an
/// uninterrupted run's does. `game` is the place, from 0, of the piece of
/// the match gnubg is handed whole (a game, or the part of one a file
/// splits; `match_analysis::piece_runs`).
///
/// `match_rates` keeps, for each match and side (0 for O, 1 for X), the
/// rates `stats --player` shows (from bgedit's most complete analysis, else
/// the file's own): a cache, filled when the rates are first computed and
/// emptied by triggers whenever the match's verdicts or luck change, so it
/// is never stale. `engine` is NULL for a match with no analysis.
pub(crate) const V9: &str = "
ALTER TABLE matches ADD COLUMN identity TEXT;
CREATE INDEX matches_identity ON matches (identity) WHERE identity IS NOT NULL;
CREATE TABLE game_luck (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    game INTEGER NOT NULL,
    engine TEXT NOT NULL,
    plies INTEGER NOT NULL,
    luck_o REAL NOT NULL,
    luck_x REAL NOT NULL,
    PRIMARY KEY (match_id, engine, plies, game)
) WITHOUT ROWID;
CREATE TABLE match_rates (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    side INTEGER NOT NULL,
    engine TEXT,
    plies INTEGER,
    from_file INTEGER NOT NULL DEFAULT 0,
    pr REAL,
    error REAL,
    checker REAL,
    cube REAL,
    luck REAL,
    PRIMARY KEY (match_id, side)
) WITHOUT ROWID;
CREATE TRIGGER match_rates_verdict_added AFTER INSERT ON analyses BEGIN
    DELETE FROM match_rates
      WHERE match_id = (SELECT match_id FROM decisions WHERE id = NEW.decision_id);
END;
CREATE TRIGGER match_rates_verdict_changed AFTER UPDATE ON analyses BEGIN
    DELETE FROM match_rates
      WHERE match_id = (SELECT match_id FROM decisions WHERE id = NEW.decision_id);
END;
CREATE TRIGGER match_rates_verdict_removed AFTER DELETE ON analyses BEGIN
    DELETE FROM match_rates
      WHERE match_id = (SELECT match_id FROM decisions WHERE id = OLD.decision_id);
END;
CREATE TRIGGER match_rates_luck_added AFTER INSERT ON match_luck BEGIN
    DELETE FROM match_rates WHERE match_id = NEW.match_id;
END;
";

/// The `plies` of a full rollout in `analyses`: deeper than any search
/// and than XG's Roller levels (1000 to 1002, as XG numbers them).
pub(crate) const ROLLOUT_PLIES: i64 = 2000;

/// Version 10: two engines' verdicts on an entry set side by side
/// (`library disagreements`), keyed by the entry, the pair of engines (their
/// keys in the registry's order, comma-separated) and the depth in gnubg's
/// count, so another depth is another row and nothing is asked twice.
///
/// `decision` is what was compared (`move`, `cube`, `take`, or `none` when
/// the position holds nothing both engines rank: no legal move, no cube
/// action, the game over); `pick_a`/`pick_b` each engine's choice in gnubg's
/// words; `gap_a` what the second engine's pick costs by the first
/// engine's numbers and `gap_b` the first's by the second's (0 when they
/// pick alike; NULL when an engine's list lacks the other's pick); `gap`
/// the larger, the disagreement by either engine's numbers (NULL for
/// `none`). `disagreements_by_gap` lists the worst first.
pub(crate) const V10: &str = "
CREATE TABLE disagreements (
    entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
    engines TEXT NOT NULL,
    plies INTEGER NOT NULL,
    decision TEXT NOT NULL,
    pick_a TEXT NOT NULL,
    pick_b TEXT NOT NULL,
    gap_a REAL,
    gap_b REAL,
    gap REAL,
    created INTEGER NOT NULL,
    PRIMARY KEY (entry_id, engines, plies)
) WITHOUT ROWID;
CREATE INDEX disagreements_by_gap ON disagreements (engines, plies, gap);
";

/// Version 11: what `stats --player` says of a match bgedit analysed in
/// part, and the claims that let two `library analyse` runs share the work.
///
/// `match_rates` gains the analysis stopped part way, when bgedit's most
/// complete analysis of the match does not judge every decision:
/// `partial_engine`, `partial_plies`, the decisions it judged (`judged`) of
/// the match's (`decisions`); NULL when bgedit's analysis is whole or there
/// is none. The rates are then the file's own (or none), never a part's.
/// The cache is emptied so every match's rates are made again with it.
///
/// `analysis_claims`: the match a `library analyse` run is analysing, by
/// engine and depth, held by the run (`owner`: its process and start) until
/// `until` (seconds since the epoch): a lease the run renews while it works
/// and drops when done, so another run on the same library leaves that
/// match to it, and takes it over once a killed run's lease has run out.
pub(crate) const V11: &str = "
ALTER TABLE match_rates ADD COLUMN partial_engine TEXT;
ALTER TABLE match_rates ADD COLUMN partial_plies INTEGER;
ALTER TABLE match_rates ADD COLUMN judged INTEGER;
ALTER TABLE match_rates ADD COLUMN decisions INTEGER;
DELETE FROM match_rates;
CREATE TABLE analysis_claims (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    engine TEXT NOT NULL,
    plies INTEGER NOT NULL,
    owner TEXT NOT NULL,
    until INTEGER NOT NULL,
    PRIMARY KEY (match_id, engine, plies)
) WITHOUT ROWID;
";

/// Version 12: the library read as a player reads it (issue 41).
///
/// `matches.date_from` says where a match's date came from: `content` (the
/// file's own: .mat `EventDate`, SGF `DT`, XG's), `file name` (a date in the
/// file's name: `2009Apr08`, `2009-04-08`, `20090408`) or `set` (`library
/// date`); NULL while the match has no date. Dates from a file name or set
/// are kept as `YYYY-MM-DD`; matches stored before version 12 with a date
/// had it from their content, and those without one get it from their kept
/// file's name after this step (`store::fill_dates`).
///
/// `decisions.cube_entry_id`: the entry made of the cube decision before a
/// roll (a double missed, or a no double that cost), beside `entry_id`, the
/// roll's own entry: the position without the dice, kind `cube`, played
/// `no double`. A missed double is then an entry like any other decision.
///
/// `aliases`: names grouped as one person (`library alias NAME --as
/// PERSON`), keyed by the name as compared (folded: case and accents
/// ignored, a rating suffix such as `,1723` dropped).
///
/// `match_depths`: each match's analyses by engine and depth (and whether
/// the file's), kept by a trigger as verdicts arrive, so the match list
/// names them without reading every verdict.
///
/// `match_rates` gains the decisions each rate is over (unforced moves,
/// close cube decisions, every move for the luck), so rates across matches
/// are over all decisions, as gnubg's and XG's are, not means of matches;
/// the cache is emptied to be filled again with them.
pub(crate) const V12: &str = "
ALTER TABLE matches ADD COLUMN date_from TEXT;
UPDATE matches SET date_from = 'content' WHERE date IS NOT NULL AND trim(date) <> '';
ALTER TABLE decisions ADD COLUMN cube_entry_id INTEGER REFERENCES entries (id) ON DELETE SET NULL;
CREATE INDEX decisions_cube_entry ON decisions (cube_entry_id) WHERE cube_entry_id IS NOT NULL;
CREATE TABLE aliases (
    name TEXT PRIMARY KEY,
    person TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE match_depths (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    engine TEXT NOT NULL,
    plies INTEGER NOT NULL,
    from_file INTEGER NOT NULL,
    PRIMARY KEY (match_id, engine, plies, from_file)
) WITHOUT ROWID;
INSERT OR IGNORE INTO match_depths (match_id, engine, plies, from_file)
    SELECT DISTINCT d.match_id, a.engine, a.plies, a.from_file
    FROM analyses a JOIN decisions d ON d.id = a.decision_id;
CREATE TRIGGER match_depths_verdict_added AFTER INSERT ON analyses BEGIN
    INSERT OR IGNORE INTO match_depths (match_id, engine, plies, from_file)
        SELECT d.match_id, NEW.engine, NEW.plies, NEW.from_file
        FROM decisions d WHERE d.id = NEW.decision_id;
END;
DELETE FROM match_rates;
ALTER TABLE match_rates ADD COLUMN checker_n INTEGER NOT NULL DEFAULT 0;
ALTER TABLE match_rates ADD COLUMN cube_n INTEGER NOT NULL DEFAULT 0;
ALTER TABLE match_rates ADD COLUMN moves_n INTEGER NOT NULL DEFAULT 0;
";

/// Version 13: what each position and each match decision is about, as a
/// player studies by (issue 42).
///
/// `plan` and `opp_plan`: the game plan of the side deciding (the player on
/// roll; the taker when a double is offered) and of the other side, as Open
/// Sage's own `classify_game_plan` names them (`purerace`, `racing`,
/// `attacking`, `priming`, `anchoring`). The library cannot ask an engine
/// (the engine wall): the program hands it Sage's classifier when it
/// starts (`derive::classify_plans_with`); NULL where none was handed (a
/// bgedit without Sage's core, or a CPU that cannot run it), filled in by
/// the next bgedit that has one (`store::fill_themes`), never guessed.
/// `class`: gnubg's class of the position (`over`, `bearoff2`, `bearoff-ts`,
/// `bearoff1`, `bearoff-os`, `race`, `crashed`, `contact`; eval.c's
/// `ClassifyPosition` as gnubg 1.07 installed gives it); `score_class`
/// (`money`, `dmp`, `crawford`, `post-crawford`, `gs-gg`, `2-away`,
/// `match`); on entries, `decision`: what the position asks (`checker`,
/// `cube`, `take`), for every entry, where `kind` is only a match
/// decision's. The rows already there are filled after this step; the
/// partial indexes find the rows still without them.
const V13: &str = "
ALTER TABLE entries ADD COLUMN plan TEXT;
ALTER TABLE entries ADD COLUMN opp_plan TEXT;
ALTER TABLE entries ADD COLUMN class TEXT;
ALTER TABLE entries ADD COLUMN score_class TEXT;
ALTER TABLE entries ADD COLUMN decision TEXT;
CREATE INDEX entries_themes ON entries (plan, opp_plan, class, score_class, decision);
CREATE INDEX entries_unclassed ON entries (id) WHERE class IS NULL;
CREATE INDEX entries_unplanned ON entries (id) WHERE plan IS NULL;
ALTER TABLE decisions ADD COLUMN plan TEXT;
ALTER TABLE decisions ADD COLUMN opp_plan TEXT;
ALTER TABLE decisions ADD COLUMN class TEXT;
ALTER TABLE decisions ADD COLUMN score_class TEXT;
CREATE INDEX decisions_unclassed ON decisions (id) WHERE class IS NULL;
CREATE INDEX decisions_unplanned ON decisions (id) WHERE plan IS NULL;
";

/// The version whose step fills the theme columns of the rows there.
pub(crate) const THEMES_VERSION: usize = 13;

/// Version 14: issue 42's positions like this one, the index `library like`
/// searches by (see `like`).
///
/// `like_shape` is the position's shape (each side's cumulative checker
/// counts from the side on roll, 50 bytes), `like_kind` the decision it
/// asks (0 a checker play: the dice are rolled; 1 a cube action) and
/// `like_cell` the coarse cell its shape falls in. `entries_like` holds all
/// three in cell order: a query reads the cells nearest its position first
/// from this index alone, never the (wide) rows. The store fills them for
/// the rows already there after this step (`store::fill_like`: SQL cannot
/// read the position's JSON).
pub(crate) const V14: &str = "
ALTER TABLE entries ADD COLUMN like_cell INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN like_kind INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN like_shape BLOB NOT NULL DEFAULT x'';
CREATE INDEX entries_like ON entries (like_cell, like_kind, like_shape);
";

/// Version 15: the move comparisons of `library disagreements` made above
/// 0-ply before each engine priced the other's pick at the depth asked are
/// dropped (the next run makes them again): gnubg's move filter had left
/// that pick at 0-ply in its 1-, 2- and 3-ply lists, so their gaps set one
/// depth against another. Cube and take comparisons, and 0-ply ones, were
/// at one depth and stay.
const V15: &str = "
DELETE FROM disagreements WHERE decision = 'move' AND plies > 0;
";

/// Every migration; index i takes the schema from version i to i + 1.
pub const MIGRATIONS: &[&str] = &[
    V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15,
];

/// The version this bgedit writes.
pub const LATEST: i64 = MIGRATIONS.len() as i64;
