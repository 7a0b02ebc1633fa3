//! The edge of the editor: the terminal, the event loop, and the effects
//! (clipboard, save file, quit). Everything else is pure and lives elsewhere.

use super::action::Action;
use super::clipboard::{Clipboard, ClipboardEnv};
use super::config;
use super::effect::Effect;
use super::engine_link::EngineLink;
use super::keymap;
use super::model::{Model, Status};
use super::persist;
use super::reducer::update;
use super::snapshot::Snapshot;
use super::view::{self, Theme, layout};
use crate::codec::{self, IdFormat};
use crate::domain::Position;
use anyhow::{Context, Result};
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event,
};
use ratatui::crossterm::execute;
use ratatui::layout::Rect;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

/// Where the editor starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The position saved last time, if any.
    Saved,
    /// The starting position (`--new`).
    Fresh,
    /// An ID given on the command line.
    Id(String),
}

/// The first model: from an ID, the save file, or gnubg's start. A bad ID is
/// an error before the terminal is touched; a bad save file is a message.
pub fn initial_model(start: &Start, save: Option<&std::path::Path>) -> Result<Model> {
    match start {
        Start::Id(text) => {
            let imported =
                codec::parse_any(text, &Position::default()).map_err(|e| anyhow::anyhow!("{e}"))?;
            Ok(Model::new(
                imported.position,
                Status::success(format!(
                    "{} read from the command line · ? for help",
                    imported.format.name()
                )),
            ))
        }
        Start::Fresh => Ok(Model::new(
            Position::default(),
            Status::info("Starting position · ? for help"),
        )),
        Start::Saved => Ok(match save.map(persist::load) {
            Some(Ok(Some(p))) => {
                Model::new(p, Status::info("Reopened the last position · ? for help"))
            }
            Some(Ok(None)) | None => Model::default(),
            Some(Err(e)) => Model::new(
                Position::default(),
                Status::error(format!("the saved position was ignored: {e}")),
            ),
        }),
    }
}

/// Restores the terminal when dropped: on quit, on error, and while
/// unwinding from a panic.
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        release_mouse_and_paste();
        ratatui::restore();
    }
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

/// Runs the editor until the user quits; returns the final position.
pub fn run(start: Start) -> Result<Position> {
    run_with_gnubg(start, None)
}

/// Messages to the event loop: the ONE channel that terminal events and
/// engine answers both arrive by.
enum Input {
    Terminal(Event),
    App(Action),
}

/// How long the user must pause before a deeper analysis starts.
const PAUSE: Duration = Duration::from_millis(400);

/// `run`, with the gnubg given by `--gnubg` if any.
pub fn run_with_gnubg(start: Start, gnubg: Option<PathBuf>) -> Result<Position> {
    let save_path = persist::save_path();
    let mut model = initial_model(&start, save_path.as_deref())?;
    let config_path = config::path();
    if let Some(plies) = config_path
        .as_deref()
        .map(config::load)
        .and_then(|c| c.analysis_plies)
        .filter(|p| (1..=crate::engine::request::MAX_PLIES).contains(p))
    {
        model.analysis.deep_plies = plies;
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        anyhow::bail!(
            "the editor needs a terminal; for scripts use `bgedit show` or `bgedit convert`"
        );
    }
    let theme = Theme::from_no_color(std::env::var("NO_COLOR").ok().as_deref());
    let clipboard = Clipboard::new(&ClipboardEnv::from_env(|k| std::env::var(k).ok()));

    let terminal = ratatui::init();
    // ratatui::init's panic hook restores the screen; release the mouse and
    // bracketed paste first, so a panic never leaves the terminal captured.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        release_mouse_and_paste();
        previous(info);
    }));
    let guard = TerminalGuard;
    execute!(std::io::stdout(), EnableMouseCapture, EnableBracketedPaste)
        .context("enabling mouse and paste")?;
    let (tx, rx) = mpsc::channel::<Input>();
    let terminal_tx = tx.clone();
    std::thread::spawn(move || {
        while let Ok(ev) = event::read() {
            if terminal_tx.send(Input::Terminal(ev)).is_err() {
                break;
            }
        }
    });
    let engine = EngineLink::start(
        crate::engine::locate::find_from_env(gnubg.as_deref()),
        move |action| tx.send(Input::App(action)).is_ok(),
    );
    let edges = Edges {
        clipboard,
        save_path,
        config_path,
        engine,
    };
    let result = event_loop(terminal, model, &theme, edges, rx);
    drop(guard);
    result
}

/// What the effects are performed on.
struct Edges {
    clipboard: Clipboard,
    save_path: Option<PathBuf>,
    config_path: Option<PathBuf>,
    engine: EngineLink,
}

fn event_loop(
    mut terminal: DefaultTerminal,
    mut model: Model,
    theme: &Theme,
    mut edges: Edges,
    rx: mpsc::Receiver<Input>,
) -> Result<Position> {
    // The first position is analysed like every later one.
    let first = super::analysis::position_changed(&mut model);
    if let Effect::Analyse(req) = first {
        edges.engine.ask(req);
    }
    loop {
        let snapshot = Snapshot::of(&model);
        terminal.draw(|frame| view::draw(frame, &snapshot, theme))?;
        let size = terminal.size()?;
        let screen = Rect::new(0, 0, size.width, size.height);
        let a = &model.analysis;
        let wait = if a.deep_due && a.running.is_none() {
            PAUSE
        } else {
            Duration::from_secs(3600)
        };
        let input = match rx.recv_timeout(wait) {
            Ok(input) => input,
            Err(mpsc::RecvTimeoutError::Timeout) => Input::App(Action::Paused),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                anyhow::bail!("the terminal stopped sending events")
            }
        };
        let action = match input {
            Input::App(action) => Some(action),
            Input::Terminal(Event::Key(key)) => keymap::resolve_key(&key, &model.mode),
            Input::Terminal(Event::Mouse(mouse)) => {
                keymap::resolve_mouse(&mouse, &model.mode, |c, r| layout::hit(screen, c, r))
            }
            Input::Terminal(Event::Paste(text)) => keymap::resolve_paste(text, &model.mode),
            // A resize redraws at the new size on the next turn.
            Input::Terminal(Event::Resize(..) | Event::FocusGained | Event::FocusLost) => None,
        };
        let Some(action) = action else { continue };
        let mut queue = vec![action];
        while let Some(action) = queue.pop() {
            let (next, effects) = update(model, action);
            model = next;
            for effect in effects {
                match effect {
                    Effect::Save(position) => {
                        if let Some(path) = &edges.save_path
                            && let Err(e) = persist::save(path, &position)
                        {
                            queue.push(Action::SaveFailed(format!("{}: {e}", path.display())));
                        }
                    }
                    Effect::Copy { target, text } => {
                        let result = edges.clipboard.copy(&text, terminal.backend_mut());
                        queue.push(Action::Copied(target, result));
                    }
                    Effect::ReadClipboard => queue.push(Action::Pasted(edges.clipboard.paste())),
                    Effect::Analyse(req) => edges.engine.ask(req),
                    Effect::SaveAnalysisPlies(plies) => {
                        if let Some(path) = &edges.config_path {
                            let mut c = config::load(path);
                            c.analysis_plies = Some(plies);
                            if let Err(e) = config::save(path, &c) {
                                queue.push(Action::SaveFailed(format!("{}: {e}", path.display())));
                            }
                        }
                    }
                    Effect::Quit => return Ok(model.position),
                }
            }
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
