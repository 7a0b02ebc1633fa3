//! The edge of the editor: the terminal, the event loop, and the effects
//! (clipboard, save file, quit). Everything else is pure and lives elsewhere.
//! Whatever can block is handed to a thread that answers through the one
//! channel: the engines (`engine_link.rs`), the library's worker, the file
//! work (`files.rs`, each a job of `job.rs`). What stays on the event loop
//! is quick or must be in order with the keys around it: the save file
//! and the config (small writes, each done before the next key and before
//! quitting, as the user expects), the clipboard's text (a paste is read
//! before the next key), the dice, the clock, the live views.

use crate::action::AnalysisAction;
use crate::action::{Action, CopyAction};
use crate::burst;
use crate::config;
use crate::effect::Effect;
use crate::io::clipboard::{Clipboard, ClipboardEnv};
use crate::io::engine_link::EngineLink;
use crate::io::files::{Files, SgfToSave};
use crate::io::job::{self, Deliver};
use crate::io::live_engine::LiveEngine;
use crate::io::persist::{self, Opened, SaveFile};
use crate::io::signals::Signals;
use crate::keymap;
use crate::library::worker::Link;
use crate::model::{Mode, Model, Status};
use crate::reducer::{self, update};
use crate::snapshot::Snapshot;
use crate::ui::theme::Theme;
use crate::view;
use bgedit_core::codec::{self, IdFormat};
use bgedit_core::domain::Position;
use bgedit_library::store;
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event,
};
use ratatui::crossterm::execute;
use ratatui::layout::{Rect, Size};
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Where the editor starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The position saved last time, if any.
    Saved,
    /// The starting position (`--new`).
    Fresh,
    /// An ID given on the command line.
    Id(String),
    /// A match file given on the command line: opened in the match panel,
    /// over the position saved last time.
    Match(String),
    /// `bgedit quiz QUERY`: a quiz on a collection or a filter, graded at
    /// `plies` by the engine chosen (the analysis panel's), over the
    /// position saved last time.
    Quiz(String, u8, bgedit_engine::Choice),
}

/// The file an argument that is no ID names, escaped, when it is not
/// there: a path (`/` at its start, `./`, `~/`, or a `/` with a `.`) or a
/// match file's name (`.mat`, `.sgf`, `.txt`, `.xg`). A Position ID has
/// `/` too, so a `/` alone does not make a path.
fn missing_file(text: &str) -> Option<String> {
    let t = text.trim();
    if t.is_empty() || t.contains(char::is_whitespace) {
        return None;
    }
    let ext = std::path::Path::new(t)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let named = matches!(ext.as_deref(), Some("mat" | "sgf" | "txt" | "xg"));
    let path = ["/", "./", "../", "~/"].iter().any(|p| t.starts_with(p))
        || (t.contains('/') && t.contains('.'));
    let there = std::fs::symlink_metadata(t).is_ok();
    ((named || path) && !there).then(|| bgedit_core::quote::printable(t).into_owned())
}

/// Why the editor could not run: each way, in the words `bgedit` prints.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The command line names a file that is not there (escaped).
    #[error("{path}: no such file")]
    NoSuchFile { path: String },
    /// What the command line gave is no position bgedit reads.
    #[error(transparent)]
    Unreadable(#[from] bgedit_core::codec::IdError),
    #[error("the editor needs a terminal; for scripts use `bgedit show` or `bgedit convert`")]
    NoTerminal,
    /// Setting up or drawing on the terminal failed: what was being done.
    #[error("{what}: {source}")]
    Terminal {
        what: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error("the terminal stopped sending events")]
    EventsStopped,
    /// The thread reading the terminal panicked: the panic's words.
    #[error("reading the terminal stopped on an internal error ({0})")]
    Reader(String),
}

impl From<std::io::Error> for RunError {
    fn from(source: std::io::Error) -> RunError {
        RunError::Terminal {
            what: "the terminal",
            source,
        }
    }
}

type Result<T> = std::result::Result<T, RunError>;

/// The first model: from an ID, the save file, or gnubg's start. A bad ID is
/// an error before the terminal is touched; a problem with the save file is
/// a message (`opened` is what [`SaveFile::open`] found).
pub(crate) fn initial_model(start: &Start, opened: Opened) -> Result<Model> {
    let mut model = match start {
        Start::Id(text) => {
            let imported = codec::parse_any(text, &Position::default()).map_err(|e| {
                match missing_file(text) {
                    Some(path) => RunError::NoSuchFile { path },
                    None => RunError::Unreadable(e),
                }
            })?;
            let mut model = Model::new(
                imported.position.clone(),
                Status::success(format!(
                    "{} read from the command line · ? for help",
                    imported.format.name()
                )),
            );
            model.jacoby_from_match_id = reducer::jacoby_from_match_id(&imported);
            model
        }
        Start::Fresh => Model::new(
            Position::default(),
            Status::info("Starting position · ? for help"),
        ),
        Start::Saved | Start::Match(_) | Start::Quiz(..) => match &opened {
            Opened::Position(p) => Model::new(
                p.clone(),
                Status::info("Reopened the last position · ? for help"),
            ),
            Opened::Nothing | Opened::Problem(_) => Model::default(),
        },
    };
    if let Start::Match(path) = start {
        model.review.pending = Some(path.clone());
    }
    if let Start::Quiz(query, plies, engines) = start {
        model.library.pending_quiz = Some(query.clone());
        model.library.quiz_plies = *plies;
        model.analysis.engines = *engines;
    }
    if let Opened::Problem(why) = opened {
        model.status = Status::error(format!("the saved position was ignored: {why}"));
        let status = model.status.clone();
        model.log.push(&status);
    }
    Ok(model)
}

/// Restores the terminal when dropped: on quit, on error, and while
/// unwinding from a panic.
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        quiet_hung_up_outputs();
        release_mouse_and_paste();
        // Its failure is not worth a word: the terminal is going or gone.
        let _ = ratatui::try_restore();
    }
}

/// Points standard output and error at /dev/null where they are a
/// terminal that hung up: what is written on the way out (ratatui's and
/// Rust's own `eprintln!`, which panic on a failed write) then goes
/// nowhere, instead of aborting bgedit half-way through leaving.
fn quiet_hung_up_outputs() {
    for fd in [libc::STDOUT_FILENO, libc::STDERR_FILENO] {
        if fd_hung_up(fd, libc::POLLOUT, Duration::ZERO) {
            // SAFETY: a path literal; dup2 onto a descriptor this process
            // owns; the descriptor opened is closed after.
            unsafe {
                let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
                if null >= 0 {
                    libc::dup2(null, fd);
                    libc::close(null);
                }
            }
        }
    }
}

/// A panic in a job, a worker or the terminal's reader (every thread the
/// editor starts: `io::job::spawn`) is caught there and reported as an
/// action: the hook leaves it alone, and the editor goes on. Any other
/// panic restores the terminal before its message is printed: the mouse
/// and bracketed paste released, then the screen (as ratatui::init's own
/// hook would), then the message. On a thread of
/// someone else's (an engine's own, inside bgedit-engine) it then ends the
/// editor: the event loop would go on drawing over the restored screen, in
/// cooked mode. The match copies gnubg reads go too.
fn restore_on_panic() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if job::caught_here() {
            return;
        }
        release_mouse_and_paste();
        let _ = ratatui::try_restore();
        previous(info);
        if std::thread::current().name() != Some("main") {
            bgedit_engine::clean_up();
            std::process::exit(101);
        }
    }));
}

/// Turns off what `run` turned on beyond ratatui's own set-up. Best effort:
/// on the way out there is nobody left to tell of a failure.
fn release_mouse_and_paste() {
    let _ = execute!(
        std::io::stdout(),
        DisableMouseCapture,
        DisableBracketedPaste
    );
}

/// How the editor ended: the final position, and the signal that ended it
/// if one did (the process then exits with 128 + its number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exit {
    pub position: Position,
    pub signal: Option<i32>,
    /// Why the last save failed, when it did: the position shown at the
    /// end is then not the one a next `bgedit` opens.
    pub save_failed: Option<crate::save_error::SaveError>,
}

/// How often the event loop looks for a signal while no message comes.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// How long the user must pause before a deeper analysis starts.
const PAUSE: Duration = Duration::from_millis(400);

/// Messages to the event loop: the ONE channel that terminal events and
/// background answers (the engine's) both arrive by.
enum Input {
    /// One event, or a burst read from the terminal together.
    Terminal(Vec<Event>),
    App(Action),
    /// The terminal's reader panicked: the editor cannot go on without it.
    ReaderStopped(String),
    /// The terminal hung up (its window closed): the editor leaves as for
    /// SIGHUP, which may or may not come.
    HungUp,
}

/// How often the terminal's reader looks whether it is to stop.
const READER_CHECK: Duration = Duration::from_millis(50);

/// How long the reader looks for more events after one: the rest of what
/// the terminal sent at once (a burst), not a key typed after it.
const BURST_LOOK: Duration = Duration::from_millis(1);

/// The thread reading the terminal's events into the event loop's channel,
/// stopped (and waited for) before the terminal is restored at quit, so no
/// thread reads the terminal after bgedit let it go.
struct Reader {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Reader {
    fn start(tx: mpsc::Sender<Input>) -> Reader {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let panicked = tx.clone();
        let thread = job::spawn(
            "bgedit-terminal",
            move || read_events(&tx, &stopped),
            move |why| {
                let _ = panicked.send(Input::ReaderStopped(why));
            },
        );
        Reader { stop, thread }
    }
}

/// How long quitting waits for the reader to stop: it looks every
/// [`READER_CHECK`], unless it is stuck inside crossterm on a terminal that
/// hung up (crossterm 0.29 reads an ended terminal again and again), which
/// it never leaves: then bgedit leaves without it rather than hang.
const READER_STOP: Duration = Duration::from_millis(300);

impl Drop for Reader {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let Some(thread) = self.thread.take() else {
            return;
        };
        let deadline = Instant::now() + READER_STOP;
        while !thread.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        if thread.is_finished() {
            let _ = thread.join();
        }
    }
}

/// Waits up to `wait` for the terminal on standard input to have input,
/// and says whether it hung up (its window or session closed): crossterm
/// must not be asked then, as it would read the ended terminal for ever.
fn hung_up(wait: Duration) -> bool {
    fd_hung_up(libc::STDIN_FILENO, libc::POLLIN, wait)
}

/// Whether descriptor `fd` hung up or failed, waiting up to `wait` for it
/// to be ready for `events`.
fn fd_hung_up(fd: libc::c_int, events: libc::c_short, wait: Duration) -> bool {
    let mut poll = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    let ms = libc::c_int::try_from(wait.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: one valid pollfd and its count.
    let ready = unsafe { libc::poll(&mut poll, 1, ms) };
    ready > 0 && poll.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
}

/// Reads events until told to stop, the terminal fails or hangs up (the
/// event loop then leaves as for SIGHUP) or the event loop is gone.
fn read_events(tx: &mpsc::Sender<Input>, stop: &AtomicBool) {
    while !stop.load(Ordering::SeqCst) {
        // crossterm is asked only while the terminal is there, and waits at
        // most READER_CHECK (for a key, or a resize its signal pipe holds),
        // so that a stop or a hang-up is seen in time.
        if hung_up(Duration::ZERO) {
            let _ = tx.send(Input::HungUp);
            return;
        }
        match event::poll(READER_CHECK) {
            Ok(true) => {}
            Ok(false) => continue,
            Err(_) => {
                if hung_up(Duration::ZERO) {
                    let _ = tx.send(Input::HungUp);
                }
                return;
            }
        }
        let Ok(first) = event::read() else { return };
        // The events crossterm already holds came in with this one: a
        // paste without bracketed paste arrives so. The look waits at most
        // BURST_LOOK for more (crossterm's reader, asked with no wait at
        // all, does not give what it holds).
        let mut events = vec![first];
        while events.len() < burst::MAX_EVENTS && matches!(event::poll(BURST_LOOK), Ok(true)) {
            match event::read() {
                Ok(event) => events.push(event),
                Err(_) => break,
            }
        }
        if tx.send(Input::Terminal(events)).is_err() {
            return;
        }
    }
}

/// How long quitting waits for a file being written (an SGF, a picture)
/// after the terminal is restored.
const WRITES_AT_QUIT: Duration = Duration::from_secs(10);

/// What the command line gives the editor besides where to start.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Each engine's program and data as the user named them (each
    /// engine's own options); an engine not named is found on the system
    /// as its options say.
    pub engines: bgedit_engine::Setup,
    /// The engines the analysis panel starts with (`--engine`; a quiz's
    /// own choice is its start's).
    pub choice: bgedit_engine::Choice,
    /// A match equity table other than the built-in one (`--met FILE`).
    pub met: Option<crate::numbers::state::MetHandle>,
    /// The study library's file (`--library`), else the default.
    pub library: Option<PathBuf>,
    /// The side the board's points are counted for (`--view`).
    pub view: Option<bgedit_core::domain::Player>,
}

/// Runs the editor with the command line's options until the user quits
/// or a signal ends it.
pub fn run(start: Start, options: Options) -> Result<Exit> {
    let Options {
        engines,
        choice,
        met,
        library,
        view,
    } = options;
    let (save_file, opened) = match persist::save_path() {
        Some(path) => {
            let (file, opened) = SaveFile::open(&path);
            (Some(file), opened)
        }
        None => (None, Opened::Nothing),
    };
    let mut model = initial_model(&start, opened)?;
    if !matches!(start, Start::Quiz(..)) {
        model.analysis.engines = choice;
    }
    let config_path = config::path();
    if let Some(plies) = config_path
        .as_deref()
        .map(config::load)
        .and_then(|c| c.analysis_plies)
        .filter(|p| (1..=bgedit_engine::request::MAX_PLIES).contains(p))
    {
        model.analysis.deep_plies = plies;
    }
    if let Some(met) = met {
        model.numbers.met = met;
    }
    model.view_from = view;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(RunError::NoTerminal);
    }
    let theme = Theme::from_no_color(std::env::var("NO_COLOR").ok().as_deref());
    let clipboard = Clipboard::new(&ClipboardEnv::from_env(|k| std::env::var(k).ok()));
    // Before the terminal changes, so a signal never finds it half set up
    // without a handler to put it back.
    let signals = Signals::install().map_err(|source| RunError::Terminal {
        what: "installing signal handlers",
        source,
    })?;

    restore_on_panic();
    // Before the set-up, so that one failing half-way is undone.
    let guard = TerminalGuard;
    let terminal = super::capped::init().map_err(|source| RunError::Terminal {
        what: "setting up the terminal",
        source,
    })?;
    execute!(std::io::stdout(), EnableMouseCapture, EnableBracketedPaste).map_err(|source| {
        RunError::Terminal {
            what: "enabling mouse and paste",
            source,
        }
    })?;
    let (tx, rx) = mpsc::channel::<Input>();
    let reader = Reader::start(tx.clone());
    let background_tx = tx.clone();
    let library_tx = tx.clone();
    let library = Link::start(library.or_else(store::default_path), move |action| {
        library_tx.send(Input::App(action)).is_ok()
    });
    let live = LiveEngine::new(engines.clone());
    let engine = EngineLink::start(engines, move |action| tx.send(Input::App(action)).is_ok());
    let background: Deliver =
        Arc::new(move |action| background_tx.send(Input::App(action)).is_ok());
    let mut edge = Edge {
        terminal,
        clipboard,
        save_file,
        save_failed: None,
        config_path,
        engine,
        live,
        library,
        theme: &theme,
        files: Files::new(&background),
        background,
        clock: Instant::now(),
    };
    #[cfg(debug_assertions)]
    job::debug_hooks();
    let result = event_loop(&mut edge, model, &signals, rx);
    drop(reader);
    drop(guard);
    // The terminal is the shell's again; the files asked for are written
    // before the process ends.
    edge.files.finish_writes(WRITES_AT_QUIT);
    result
}

/// What the event loop waited for.
enum Next {
    /// Terminal events, one or a whole burst queued at once.
    Events(Vec<Event>),
    /// An answer from the background.
    App(Action),
    /// The user paused long enough for a deeper analysis.
    Paused,
    /// A terminating signal.
    Signal(i32),
}

/// Waits for the next message, watching for signals meanwhile.
fn next(rx: &mpsc::Receiver<Input>, signals: &Signals, pause: Option<Duration>) -> Result<Next> {
    let since = Instant::now();
    loop {
        if let Some(signal) = signals.take() {
            return Ok(Next::Signal(signal));
        }
        let wait = match pause {
            Some(p) => match p.checked_sub(since.elapsed()) {
                Some(left) if !left.is_zero() => left.min(SIGNAL_CHECK),
                _ => return Ok(Next::Paused),
            },
            None => SIGNAL_CHECK,
        };
        match rx.recv_timeout(wait) {
            Ok(Input::App(action)) => return Ok(Next::App(action)),
            Ok(Input::Terminal(events)) => return Ok(Next::Events(events)),
            Ok(Input::ReaderStopped(why)) => return Err(RunError::Reader(why)),
            Ok(Input::HungUp) => return Ok(Next::Signal(bgedit_core::signals::SIGHUP)),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(RunError::EventsStopped);
            }
        }
    }
}

/// What the effects act on.
struct Edge<'a> {
    terminal: super::capped::CappedTerminal,
    clipboard: Clipboard,
    save_file: Option<SaveFile>,
    /// The last save's failure, cleared by the next save that works.
    save_failed: Option<crate::save_error::SaveError>,
    config_path: Option<PathBuf>,
    engine: EngineLink,
    /// The engine that answers in-process, for the live views.
    live: LiveEngine,
    library: Link,
    theme: &'a Theme,
    /// The file work, each kind a job.
    files: Files,
    /// Delivers an action from a thread of the runtime's (the live engine
    /// loaded).
    background: Deliver,
    /// The clock `Effect::Now` reads (milliseconds since the editor
    /// started): the reducer has none.
    clock: Instant,
}

impl Edge<'_> {
    /// Draws the screen; returns its size.
    fn draw(&mut self, snapshot: &Snapshot) -> Result<Size> {
        let theme = self.theme;
        self.terminal
            .draw(|frame| view::draw(frame, snapshot, theme))?;
        Ok(self.terminal.size()?)
    }

    /// Runs `action` and every action its effects report back; `Break` when
    /// an effect says to leave.
    fn perform(&mut self, mut model: Model, action: Action) -> ControlFlow<Position, Model> {
        let mut queue = vec![action];
        while let Some(action) = queue.pop() {
            let (next, effects) = update(model, action);
            model = next;
            for effect in effects {
                if self.effect(effect, &mut queue).is_break() {
                    return ControlFlow::Break(model.position);
                }
            }
        }
        ControlFlow::Continue(model)
    }

    /// Does `effect`, or hands it to the thread that does it; what it
    /// answers at once goes on `queue`. `Break` to leave.
    fn effect(&mut self, effect: Effect, queue: &mut Vec<Action>) -> ControlFlow<()> {
        match effect {
            Effect::Save(position) => queue.extend(self.save(&position)),
            Effect::Copy { target, text } => {
                let result = self
                    .clipboard
                    .copy(&text, &mut self.terminal.backend_mut().0);
                queue.push(Action::Copy(CopyAction::Copied(target, result)));
            }
            Effect::ReadClipboard => queue.push(Action::Pasted(self.clipboard.paste())),
            Effect::Analyse(kind, req) => self.engine.ask(kind, req),
            Effect::Rollout(kind, req, settings) => self.engine.roll_out(kind, req, settings),
            Effect::StopRollout => self.engine.stop_rollout(),
            Effect::ScoreMatrix { serial, cells } => self.engine.score_matrix(serial, cells),
            Effect::Library(request) => self.library.send(request),
            Effect::Now(tick) => {
                let ms = self.clock.elapsed().as_millis();
                let ms = u64::try_from(ms).unwrap_or(u64::MAX);
                let clock = crate::library::state::QuizAction::Clock(tick, ms);
                queue.push(Action::Library(clock.into()));
            }
            Effect::GradeQuiz {
                serial,
                position,
                answer,
                plies,
                engine,
            } => self.engine.grade(serial, *position, answer, plies, engine),
            Effect::SaveAnalysisPlies(plies) => queue.extend(self.save_plies(plies)),
            Effect::RollDice => match crate::play::dice::roll() {
                Ok(dice) => queue.push(crate::play::update::rolled(dice)),
                Err(e) => queue.push(Action::Play(crate::play::state::PlayAction::RollFailed(e))),
            },
            Effect::LoadMet(path) => self.files.load_met(path),
            Effect::SavePicture(position) => {
                self.files.save_picture(position, self.clipboard.images())
            }
            Effect::OpenMatch(path) => self.files.open_match(path),
            Effect::ListDirectory(typed) => self.files.list_directory(typed),
            Effect::SaveSgf {
                source,
                pasted,
                out,
                judged,
                luck,
                decisions,
                replace,
            } => self.files.save_sgf(SgfToSave {
                source,
                pasted,
                out,
                judged,
                luck,
                decisions,
                replace,
            }),
            Effect::AnalyseMatch {
                serial,
                replayed,
                engine,
                passes,
            } => self.engine.analyse_match(serial, replayed, engine, passes),
            Effect::StopMatchAnalysis => self.engine.stop_match_analysis(),
            Effect::LoadLiveEngine => self.live.load(Arc::clone(&self.background)),
            // Inline: the answer is reduced before the next frame.
            Effect::Sensitivity { serial, position } => {
                if let Some(answer) = self.live.compute(serial, &position) {
                    queue.push(answer);
                }
            }
            Effect::Quit => return ControlFlow::Break(()),
        }
        ControlFlow::Continue(())
    }

    /// Writes the save file (on the event loop: see the module's words);
    /// a note or a failure to show.
    fn save(&mut self, position: &Position) -> Option<Action> {
        let file = self.save_file.as_mut()?;
        match file.save(position) {
            Ok(note) => {
                self.save_failed = None;
                note.map(Action::SaveNotice)
            }
            Err(e) => {
                self.save_failed = Some(e.clone());
                Some(Action::SaveFailed(e))
            }
        }
    }

    /// Remembers the depth of deeper analyses in the config file; a
    /// failure to show.
    fn save_plies(&self, plies: u8) -> Option<Action> {
        let path = self.config_path.as_ref()?;
        let mut c = config::load(path);
        c.analysis_plies = Some(plies);
        let e = config::save(path, &c).err()?;
        Some(Action::SaveFailed(crate::save_error::SaveError::Write {
            path: path.display().to_string(),
            reason: e.to_string(),
        }))
    }
}

fn event_loop(
    edge: &mut Edge,
    mut model: Model,
    signals: &Signals,
    rx: mpsc::Receiver<Input>,
) -> Result<Exit> {
    let leave = |edge: &Edge, position, signal| {
        Ok(Exit {
            position,
            signal,
            save_failed: edge.save_failed.clone(),
        })
    };
    // The first position is analysed like every later one.
    let first = crate::analysis::position_changed(&mut model);
    for e in crate::analysis::second_opinion(&mut model, std::slice::from_ref(&first)) {
        if let Effect::Analyse(kind, req) = e {
            edge.engine.ask(kind, req);
        }
    }
    if let Effect::Analyse(kind, req) = first {
        edge.engine.ask(kind, req);
    }
    let size = edge.terminal.size()?;
    let resized = Action::Resized {
        width: size.width,
        height: size.height,
    };
    model = match edge.perform(model, resized) {
        ControlFlow::Continue(m) => m,
        ControlFlow::Break(position) => return leave(edge, position, None),
    };
    // `bgedit FILE`: the match opens like one asked for with ^O.
    if let Some(path) = model.review.pending.take() {
        let open = Action::Review(crate::match_review::state::ReviewAction::Open(path));
        model = match edge.perform(model, open) {
            ControlFlow::Continue(m) => m,
            ControlFlow::Break(position) => return leave(edge, position, None),
        };
    }
    // `bgedit quiz QUERY`: the quiz starts as `r` would start it.
    if let Some(query) = model.library.pending_quiz.take() {
        let quiz = Action::Library(crate::library::state::QuizAction::Start(query).into());
        model = match edge.perform(model, quiz) {
            ControlFlow::Continue(m) => m,
            ControlFlow::Break(position) => return leave(edge, position, None),
        };
    }
    // Leaves on a signal: saved by the reducer's effects, then out.
    let terminated = |edge: &mut Edge, model: Model, signal: i32| {
        match edge.perform(model, Action::Terminated(signal)) {
            ControlFlow::Break(position) => leave(edge, position, Some(signal)),
            // The reducer always leaves on a signal; if it did not, the
            // signal still ends the process.
            ControlFlow::Continue(m) => leave(edge, m.position, Some(signal)),
        }
    };
    loop {
        let snapshot = Snapshot::of(&model);
        let a = &model.analysis;
        let pause = (a.deep_due && a.running.is_none()).then_some(PAUSE);
        let waited = edge
            .draw(&snapshot)
            .and_then(|size| Ok((size, next(&rx, signals, pause)?)));
        let (size, next) = match waited {
            Ok(got) => got,
            // A hang-up closes the terminal: drawing or reading fails before
            // the signal is seen. The signal, if there is one, decides.
            Err(e) => match signals.take() {
                Some(signal) => return terminated(edge, model, signal),
                None => return Err(e),
            },
        };
        let screen = Rect::new(0, 0, size.width, size.height);
        // Keys are read against the screen as it was drawn: a resize
        // crossterm has not reported yet still counts (a key typed at the
        // "too small" screen does nothing).
        if crate::panels::too_small(size.width, size.height) != model.too_small {
            let resized = Action::Resized {
                width: size.width,
                height: size.height,
            };
            model = match edge.perform(model, resized) {
                ControlFlow::Continue(m) => m,
                ControlFlow::Break(position) => return leave(edge, position, None),
            };
        }
        let mut events = match next {
            Next::Events(events) => events,
            Next::App(action) => {
                model = match edge.perform(model, action) {
                    ControlFlow::Continue(m) => m,
                    ControlFlow::Break(position) => return leave(edge, position, None),
                };
                continue;
            }
            Next::Paused => {
                model = match edge.perform(model, Action::Analysis(AnalysisAction::Paused)) {
                    ControlFlow::Continue(m) => m,
                    ControlFlow::Break(position) => return leave(edge, position, None),
                };
                continue;
            }
            Next::Signal(signal) => return terminated(edge, model, signal),
        };
        // Typed this fast, it was pasted: read it as a paste (an ID in
        // normal mode; nothing behind an overlay). The input line takes the
        // keys one by one, as typed text.
        if !matches!(model.mode, Mode::Prompt(_))
            && let Some(text) = burst::as_paste(&events)
        {
            events = vec![Event::Paste(text)];
        }
        // Each event is read in the mode the one before it left.
        for event in events.drain(..) {
            let action = match event {
                Event::Key(key) => keymap::resolve_key(&key, &model.mode),
                Event::Mouse(mouse) => {
                    keymap::resolve_mouse(&mouse, &model.mode, |c, r| view::hit(screen, c, r))
                }
                Event::Paste(text) => keymap::resolve_paste(text, &model.mode),
                Event::Resize(width, height) => Some(Action::Resized { width, height }),
                Event::FocusGained | Event::FocusLost => None,
            };
            let Some(action) = action else { continue };
            model = match edge.perform(model, action) {
                ControlFlow::Continue(m) => m,
                ControlFlow::Break(position) => return leave(edge, position, None),
            };
        }
    }
}

/// What is printed after the terminal is restored, so the IDs stay in the
/// shell's scrollback.
pub fn farewell(position: &Position) -> String {
    format!(
        "GNUBG ID: {}\n{}\n",
        codec::to_string_as(position, IdFormat::GnubgId),
        codec::to_string_as(position, IdFormat::Xgid)
    )
}
