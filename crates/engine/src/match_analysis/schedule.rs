//! The scheduling of a match's analysis: the engines of a run (its own,
//! or a batch's pool), the jobs on threads of their own, the pieces of the
//! match handed whole to an engine that reads whole games (a run of them a
//! request), the stop flag, the channel that hands each decision's outcome
//! back in match order, and an engine given up part way. What is judged,
//! and how, is `judge.rs` and `ask.rs`.

use super::ask::judge_at;
use super::judge::{Outcome, Task, failed, judge_game, piece_runs, plan};
use super::{JudgeError, NoLuck};
use crate::gnubg_match::{GameAnswer, GamesRequest, MatchForGnubg};
use crate::luck::MatchLuck;
use crate::{Engine, EngineError, EngineErrorKind, StartRecord, time_limit_for};
use bgedit_core::codec::match_file::FileDecision;
use bgedit_core::domain::Player;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

/// How a run is made.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The engine that judges (gnubg, or Open Sage) and its program (gnubg,
    /// or the Python that has bgsage).
    pub engine: crate::EngineKind,
    pub program: PathBuf,
    pub plies: u8,
    pub jobs: usize,
    /// Rate the luck of the dice too (gnubg, whole games only).
    pub luck: bool,
    /// The engines a batch keeps from one run to the next (`library
    /// analyse`, a run a match); none: the run starts its own and stops
    /// them at the end.
    pub engines: Option<crate::pool::Engines>,
    /// The fewest runs of pieces a match is cut into: `jobs` (the default)
    /// so that a match alone keeps every job busy; 1 in a batch while other
    /// matches wait for the engines, so each request is as large as its
    /// depth allows (every request costs gnubg a load and a wait).
    pub min_runs: Option<usize>,
}

impl RunOptions {
    /// The record of starts this run's engines share.
    fn starts(&self) -> StartRecord {
        self.engines
            .as_ref()
            .map_or_else(StartRecord::batch, |e| e.starts())
    }

    /// An engine for one job: the batch's, or a new one.
    fn open(&self, starts: &StartRecord) -> Box<dyn Engine> {
        match &self.engines {
            Some(kept) => kept.take(self.engine, &self.program),
            None => self.engine.open(self.program.clone(), starts.clone()),
        }
    }

    /// A job's engine at the end of the run: kept for the batch's next.
    fn done_with(&self, engine: Box<dyn Engine>) {
        if let Some(kept) = &self.engines {
            kept.keep(engine);
        }
    }
}

/// Analyses `decisions` with `opts.jobs` engine processes, handing each
/// decision's outcome to `each` in match order (with its index) as soon as
/// it and those before it are done. `stop` ends the run early (the work
/// under way finishes first; a request that fails once it is set, its
/// engine ended on the way out, gives no outcome and is not asked again).
///
/// With gnubg and the match itself (`whole`), gnubg analyses whole games
/// (`engine::gnubg_match`), the games shared out to the processes; a game
/// whose records do not follow the file's decisions is judged decision by
/// decision. Otherwise (Sage, or positions without a match) each decision
/// is asked on its own.
pub fn run(
    decisions: &[FileDecision],
    opts: &RunOptions,
    whole: Option<&MatchForGnubg>,
    stop: &AtomicBool,
    each: &mut dyn FnMut(usize, Outcome),
) -> Ran {
    let tasks = plan(decisions);
    match whole {
        Some(m) if opts.engine.spec().caps.whole_games => {
            let mut pieces = Pieces {
                wanted: &|_| true,
                done: &mut |_, _| {},
            };
            by_games(decisions, &tasks, opts, m, stop, each, &mut pieces)
        }
        _ => {
            let gave_up = by_decisions(decisions, &tasks, opts, stop, each);
            Ran {
                luck: opts.luck.then_some(Err(NoLuck::NotAMatch)),
                apart: Vec::new(),
                gave_up,
            }
        }
    }
}

/// The pieces of a match (`piece_runs`: a game, or part of one) gnubg is
/// to analyse whole, and what is told as each is done.
pub struct Pieces<'a> {
    /// Whether piece `k` (its place in the match) is asked; the others'
    /// decisions get no outcome.
    pub wanted: &'a dyn Fn(usize) -> bool,
    /// Piece `k` done, its outcomes handed on: each player's luck in it
    /// (O's, X's; gnubg's statistics of the piece), none when the luck was
    /// not asked or not answered.
    pub done: &'a mut dyn FnMut(usize, Option<[f64; 2]>),
}

/// The pieces `pieces.wanted` of `decisions` (a whole match's) analysed
/// whole by gnubg as [`run`] does them, the outcomes handed to `each` with
/// their index in `decisions`: a match stopped part way resumed a piece
/// at a time, each piece asked as the uninterrupted run asks it, so its
/// verdicts and luck are that run's. `None` when gnubg cannot be asked
/// whole games (another engine, no match, or pieces that do not follow
/// the decisions).
pub(crate) fn run_pieces(
    decisions: &[FileDecision],
    opts: &RunOptions,
    whole: Option<&MatchForGnubg>,
    stop: &AtomicBool,
    each: &mut dyn FnMut(usize, Outcome),
    pieces: &mut Pieces<'_>,
) -> Option<Ran> {
    let m = whole.filter(|_| opts.engine.spec().caps.whole_games)?;
    piece_runs(decisions, m.pieces())?;
    Some(by_games(
        decisions,
        &plan(decisions),
        opts,
        m,
        stop,
        each,
        pieces,
    ))
}

/// How a run went, beside the outcomes.
#[derive(Debug, Default)]
pub struct Ran {
    /// The luck of the dice, when asked: gnubg's for every game, or why not.
    pub luck: Option<Result<MatchLuck, NoLuck>>,
    /// The games judged decision by decision although gnubg analysed whole
    /// games, and why (gnubg's records did not follow the file's, or gnubg
    /// failed on the game).
    pub apart: Vec<(usize, String)>,
    /// Why the engine was given up part way (it hung, or failed again and
    /// again), when it was: the decisions after it were not asked.
    pub gave_up: Option<EngineError>,
}

/// The engine is not there: every later request would fail the same way.
fn cannot_start(why: &JudgeError) -> bool {
    matches!(why, JudgeError::Engine(e) if e.engine_missing())
}

/// Hands outcomes on in order as they come, by index.
fn in_order<T>(rx: std::sync::mpsc::Receiver<(usize, T)>, mut each: impl FnMut(usize, T)) {
    let mut waiting = std::collections::BTreeMap::new();
    let mut due = 0;
    for (i, item) in rx {
        waiting.insert(i, item);
        while let Some(item) = waiting.remove(&due) {
            each(due, item);
            due += 1;
        }
    }
}

/// Each decision asked of the engine on its own, shared out to the jobs;
/// why the engine was given up, if it was.
fn by_decisions(
    decisions: &[FileDecision],
    tasks: &[Option<Task>],
    opts: &RunOptions,
    stop: &AtomicBool,
    each: &mut dyn FnMut(usize, Outcome),
) -> Option<EngineError> {
    let next = AtomicUsize::new(0);
    let starts = opts.starts();
    let (tx, rx) = channel::<(usize, Outcome)>();
    let jobs = opts.jobs.clamp(1, decisions.len().max(1));
    let broken = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, starts, broken) = (&next, starts.clone(), &broken);
            scope.spawn(move || {
                let mut engine = opts.open(&starts);
                while !(stop.load(Ordering::Relaxed) || broken.load(Ordering::Relaxed)) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(d) = decisions.get(i) else { break };
                    let outcome = judge_at(&mut *engine, decisions, tasks, i, opts.plies);
                    // Stopped while asked (its engine ended on the way
                    // out): no failure of the decision's, and nothing more.
                    if outcome.is_err() && stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let outcome = outcome.map_err(|why| {
                        if cannot_start(&why) || starts.given_up().is_some() {
                            broken.store(true, Ordering::Relaxed);
                        }
                        failed(d, &why)
                    });
                    if tx.send((i, outcome)).is_err() {
                        break;
                    }
                }
                opts.done_with(engine);
            });
        }
        drop(tx);
        in_order(rx, each);
    });
    given_up(opts, &starts)
}

/// The engine given up by a batch, as its error.
fn given_up(opts: &RunOptions, starts: &StartRecord) -> Option<EngineError> {
    starts
        .given_up()
        .map(|why| EngineError::new(opts.engine, EngineErrorKind::Unanswered(why)))
}

/// What a piece's request gave: its outcomes, gnubg's answer for it, and
/// why it was judged decision by decision, when it was.
type PieceDone = (Vec<Outcome>, Result<GameAnswer, JudgeError>, Option<String>);

/// Decisions of pieces asked in one request, about, at each depth: 0-ply
/// takes some 1 ms a decision, so that gnubg's wait of up to 25 ms after
/// each request (see `MatchForGnubg::write_pieces`) is a few per cent of
/// it; from 2-ply on, a piece is seconds of work and goes alone, so that a
/// run stopped part way loses little.
const CHUNK: [usize; 4] = [240, 48, 0, 0];

/// The pieces `asked` (places in `games`) cut into runs asked one request
/// each (ranges of `asked`): about [`CHUNK`] decisions, and at least as
/// many runs as jobs, of about equal decisions (each piece goes to the run
/// its middle falls in), so that every job has its share.
fn chunks(
    asked: &[usize],
    games: &[(usize, Range<usize>)],
    jobs: usize,
    plies: u8,
) -> Vec<Range<usize>> {
    let target = CHUNK[usize::from(plies.min(3))];
    if target == 0 {
        return (0..asked.len()).map(|k| k..k + 1).collect();
    }
    let sizes: Vec<usize> = asked.iter().map(|&g| games[g].1.len()).collect();
    let total: usize = sizes.iter().sum::<usize>().max(1);
    let runs = total.div_ceil(target).max(jobs).min(asked.len()).max(1);
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut before = 0;
    for (k, size) in sizes.iter().enumerate() {
        // The run this piece's middle falls in (in half decisions, so that
        // the middle of an odd piece is whole).
        let run = ((2 * before + size) * runs) / (2 * total);
        before += size;
        let open = out.len();
        match out.last_mut() {
            Some(last) if open > run => last.end = k + 1,
            _ => out.push(k..k + 1),
        }
    }
    out
}

/// Whole games analysed by gnubg, shared out to the jobs a run of pieces
/// at a time ([`chunks`]), each piece's outcomes handed on in match order.
fn by_games(
    decisions: &[FileDecision],
    tasks: &[Option<Task>],
    opts: &RunOptions,
    whole: &MatchForGnubg,
    stop: &AtomicBool,
    each: &mut dyn FnMut(usize, Outcome),
    pieces: &mut Pieces<'_>,
) -> Ran {
    let Some(games) = piece_runs(decisions, whole.pieces()) else {
        // The match is not the decisions' (nothing gnubg reads covers them
        // in order): each is asked on its own.
        let gave_up = by_decisions(decisions, tasks, opts, stop, each);
        return Ran {
            luck: opts.luck.then_some(Err(NoLuck::NotTheDecisions)),
            apart: Vec::new(),
            gave_up,
        };
    };
    // The pieces asked, by their place in the match (gnubg's index).
    let asked: Vec<usize> = (0..games.len()).filter(|&g| (pieces.wanted)(g)).collect();
    let runs = chunks(
        &asked,
        &games,
        opts.min_runs.unwrap_or(opts.jobs).max(1),
        opts.plies,
    );
    let copies: Result<Vec<_>, _> = runs
        .iter()
        .map(|r| whole.write_pieces(&asked[r.clone()]))
        .collect();
    let copies = match copies {
        Ok(c) => c,
        Err(why) => {
            let gave_up = by_decisions(decisions, tasks, opts, stop, each);
            return Ran {
                luck: opts.luck.then_some(Err(NoLuck::Copy(why))),
                apart: Vec::new(),
                gave_up,
            };
        }
    };
    let next = AtomicUsize::new(0);
    let starts = opts.starts();
    let (tx, rx) = channel::<(usize, PieceDone)>();
    let jobs = opts.jobs.clamp(1, runs.len().max(1));
    let broken = AtomicBool::new(false);
    let mut luck = opts.luck.then(|| Ok(MatchLuck::default()));
    let mut apart = Vec::new();
    let work = Work {
        decisions,
        tasks,
        opts,
        games: &games,
        asked: &asked,
        broken: &broken,
    };
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, starts, runs, copies, work) = (&next, starts.clone(), &runs, &copies, &work);
            scope.spawn(move || {
                let mut engine = JobEngine {
                    opts,
                    starts: &starts,
                    engine: None,
                };
                'work: while !(stop.load(Ordering::Relaxed) || work.broken.load(Ordering::Relaxed))
                {
                    let r = next.fetch_add(1, Ordering::Relaxed);
                    let (Some(run), Some(copy)) = (runs.get(r), copies.get(r)) else {
                        break;
                    };
                    let answers = work.request(engine.get(), run.clone(), copy.path());
                    // Stopped while asked (its engine ended on the way
                    // out): the pieces are not judged, nor asked again
                    // decision by decision.
                    if stop.load(Ordering::Relaxed) && answers.iter().any(Result::is_err) {
                        break 'work;
                    }
                    if next.load(Ordering::Relaxed) >= runs.len() {
                        // Nothing left to ask: the engine goes on to the
                        // next match while this job judges.
                        engine.release();
                    }
                    let pieces = work.asked[run.clone()].iter().zip(answers);
                    for (k, (&g, answer)) in run.clone().zip(pieces) {
                        // Given up on: the run's later pieces are not asked.
                        if work.broken.load(Ordering::Relaxed) {
                            break 'work;
                        }
                        let piece = work.judge_piece(&mut engine, g, answer);
                        if tx.send((k, piece)).is_err() {
                            break 'work;
                        }
                    }
                }
            });
        }
        drop(tx);
        in_order(rx, |k, (outcomes, answer, why): PieceDone| {
            let g = asked[k];
            let (number, range) = &games[g];
            for (i, o) in range.clone().zip(outcomes) {
                each(i, o);
            }
            apart.extend(why.map(|w| (*number, w)));
            let piece_luck = answer.as_ref().ok().filter(|_| opts.luck).map(|a| {
                // As `MatchLuck::add_game` adds it: nothing for a player
                // gnubg leaves out.
                let of = |p: Player| a.players.get(&p.to_string()).map_or(0.0, |l| l.luck);
                [of(Player::O), of(Player::X)]
            });
            (pieces.done)(g, piece_luck);
            luck = match (luck.take(), answer) {
                (Some(Ok(mut l)), Ok(a)) => {
                    l.add_game(*number, &a);
                    Some(Ok(l))
                }
                (Some(Ok(_)), Err(why)) => Some(Err(NoLuck::Game(*number, why))),
                (other, _) => other,
            };
        });
    });
    Ran {
        // A run stopped early has the luck of some games only.
        luck: luck.filter(|_| !stop.load(Ordering::Relaxed)),
        apart,
        gave_up: given_up(opts, &starts),
    }
}

/// A job's engine: taken when first needed, and handed on (to the batch's
/// next run, or stopped) as soon as the job has nothing more to ask.
struct JobEngine<'a> {
    opts: &'a RunOptions,
    starts: &'a StartRecord,
    engine: Option<Box<dyn Engine>>,
}

impl JobEngine<'_> {
    fn get(&mut self) -> &mut dyn Engine {
        &mut **self
            .engine
            .get_or_insert_with(|| self.opts.open(self.starts))
    }

    fn release(&mut self) {
        if let Some(e) = self.engine.take() {
            self.opts.done_with(e);
        }
    }
}

impl Drop for JobEngine<'_> {
    fn drop(&mut self) {
        self.release();
    }
}

/// What every job of [`by_games`] reads.
struct Work<'a> {
    decisions: &'a [FileDecision],
    tasks: &'a [Option<Task>],
    opts: &'a RunOptions,
    /// Each piece's game and decisions.
    games: &'a [(usize, Range<usize>)],
    /// The pieces asked.
    asked: &'a [usize],
    /// Set when gnubg cannot be asked again.
    broken: &'a AtomicBool,
}

impl Work<'_> {
    /// The pieces `asked[run]`, written in the file at `path`, asked of
    /// `engine` in one request; gnubg's answer for each.
    fn request(
        &self,
        engine: &mut dyn Engine,
        run: Range<usize>,
        path: &std::path::Path,
    ) -> Vec<Result<GameAnswer, JudgeError>> {
        let pieces = &self.asked[run];
        let size: usize = pieces.iter().map(|&g| self.games[g].1.len()).sum();
        let req = GamesRequest {
            path,
            count: pieces.len(),
            plies: self.opts.plies,
            luck: self.opts.luck,
        };
        // The pieces' worth of decisions' time.
        let limit = time_limit_for(self.opts.plies, size);
        let id = GAME_IDS + pieces.first().map_or(0, |&g| g as u64);
        match engine.analyse_games(id, &req, limit) {
            Ok(list) => list.into_iter().map(Ok).collect(),
            Err(why) => vec![Err(JudgeError::from(why)); pieces.len()],
        }
    }

    /// Piece `g` judged from gnubg's `answer` for it; where gnubg's game
    /// and the file's part ways, each decision asked on its own.
    fn judge_piece(
        &self,
        engine: &mut JobEngine<'_>,
        g: usize,
        answer: Result<GameAnswer, JudgeError>,
    ) -> PieceDone {
        let (decisions, tasks, plies) = (self.decisions, self.tasks, self.opts.plies);
        let range = self.games[g].1.clone();
        let judged = match &answer {
            Ok(a) => judge_game(decisions, range.clone(), tasks, a, plies),
            // gnubg cannot be started, or hung: asking each decision would
            // only fail the same way, slowly.
            Err(why) if cannot_start(why) || engine.starts.given_up().is_some() => {
                self.broken.store(true, Ordering::Relaxed);
                Ok(decisions[range.clone()]
                    .iter()
                    .map(|d| Err(failed(d, why)))
                    .collect())
            }
            Err(why) => Err(why.clone()),
        };
        let (outcomes, apart) = match judged {
            Ok(o) => (o, None),
            Err(why) => (
                range
                    .map(|i| {
                        judge_at(engine.get(), decisions, tasks, i, plies)
                            .map_err(|why| failed(&decisions[i], &why))
                    })
                    .collect(),
                Some(why.to_string()),
            ),
        };
        (outcomes, answer, apart)
    }
}

/// Request ids of games, apart from those of single decisions (their
/// index + 1) that a fallback asks on the same process.
const GAME_IDS: u64 = 1 << 40;

#[cfg(test)]
mod tests {
    use super::*;

    /// Pieces of `sizes` decisions, all asked, as `by_games` sees them.
    fn pieces_of(sizes: &[usize]) -> (Vec<usize>, Vec<(usize, Range<usize>)>) {
        let mut at = 0;
        let games = sizes
            .iter()
            .map(|&n| {
                at += n;
                (1, at - n..at)
            })
            .collect();
        ((0..sizes.len()).collect(), games)
    }

    #[test]
    fn pieces_are_asked_in_runs_that_share_the_work_out() {
        let (asked, games) = pieces_of(&[24, 24, 24, 24, 24, 24, 24, 24, 9]);
        let decisions = |r: &Range<usize>| -> usize { r.clone().map(|k| games[k].1.len()).sum() };
        // 0-ply, one job: the match's 201 decisions in one request.
        assert_eq!(chunks(&asked, &games, 1, 0), vec![0..9]);
        // Two jobs: two runs of about equal work, in order, covering all.
        let two = chunks(&asked, &games, 2, 0);
        assert_eq!(two.len(), 2);
        assert_eq!((two[0].start, two[0].end, two[1].end), (0, two[1].start, 9));
        assert!(
            decisions(&two[0]).abs_diff(decisions(&two[1])) <= 24,
            "{two:?}"
        );
        // More decisions than a request's share: more runs than jobs.
        let (asked, games) = pieces_of(&[24; 30]);
        assert_eq!(chunks(&asked, &games, 1, 0).len(), 3);
        // From 2-ply on, each piece alone; never more runs than pieces.
        assert_eq!(chunks(&asked, &games, 1, 2).len(), 30);
        let (asked, games) = pieces_of(&[5]);
        assert_eq!(chunks(&asked, &games, 4, 0), vec![0..1]);
        assert!(chunks(&[], &games, 2, 0).is_empty());
    }
}
