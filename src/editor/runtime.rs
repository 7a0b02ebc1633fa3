//! The edge of the editor: the terminal, the event loop, and the effects
//! (clipboard, save file, quit). Everything else is pure and lives elsewhere.

use super::action::Action;
use super::clipboard::{Clipboard, ClipboardEnv};
use super::effect::Effect;
use super::keymap;
use super::library::worker::Worker;
use super::model::{Model, Status};
use super::persist;
use super::reducer::update;
use super::snapshot::Snapshot;
use super::view::{self, Theme, layout};
use crate::codec::{self, IdFormat};
use crate::domain::Position;
use crate::library::store;
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
/// `library` is the study library's file (`--library`), else the default.
pub fn run(start: Start, library: Option<PathBuf>) -> Result<Position> {
    let save_path = persist::save_path();
    let model = initial_model(&start, save_path.as_deref())?;
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
    let worker = Worker::start(library.or_else(store::default_path));
    let result = event_loop(terminal, model, &theme, clipboard, save_path, worker);
    drop(guard);
    result
}

fn event_loop(
    mut terminal: DefaultTerminal,
    mut model: Model,
    theme: &Theme,
    mut clipboard: Clipboard,
    save_path: Option<PathBuf>,
    mut worker: Worker,
) -> Result<Position> {
    let mut redraw = true;
    loop {
        if redraw {
            let snapshot = Snapshot::of(&model);
            terminal.draw(|frame| view::draw(frame, &snapshot, theme))?;
        }
        let size = terminal.size()?;
        let screen = Rect::new(0, 0, size.width, size.height);
        // The library worker's answers arrive between events: wait briefly
        // while one is due, else block until the next event.
        let answer = if worker.pending > 0 {
            match worker.answers.try_recv() {
                Ok(a) => Some(a),
                Err(_) if !event::poll(Duration::from_millis(2))? => {
                    redraw = false;
                    continue;
                }
                Err(_) => None,
            }
        } else {
            None
        };
        if answer.is_some() {
            worker.pending -= 1;
        }
        redraw = true;
        let action = if let Some(a) = answer {
            Some(a)
        } else {
            match event::read()? {
                Event::Key(key) => keymap::resolve_key(&key, &model.mode),
                Event::Mouse(mouse) => {
                    keymap::resolve_mouse(&mouse, &model.mode, |c, r| layout::hit(screen, c, r))
                }
                Event::Paste(text) => keymap::resolve_paste(text, &model.mode),
                // A resize redraws at the new size on the next turn.
                Event::Resize(..) | Event::FocusGained | Event::FocusLost => None,
            }
        };
        let Some(action) = action else { continue };
        let mut queue = vec![action];
        while let Some(action) = queue.pop() {
            let (next, effects) = update(model, action);
            model = next;
            for effect in effects {
                match effect {
                    Effect::Save(position) => {
                        if let Some(path) = &save_path
                            && let Err(e) = persist::save(path, &position)
                        {
                            queue.push(Action::SaveFailed(format!("{}: {e}", path.display())));
                        }
                    }
                    Effect::Copy { target, text } => {
                        let result = clipboard.copy(&text, terminal.backend_mut());
                        queue.push(Action::Copied(target, result));
                    }
                    Effect::ReadClipboard => queue.push(Action::Pasted(clipboard.paste())),
                    Effect::Library(request) => worker.send(request),
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
