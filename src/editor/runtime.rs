//! The edge of the editor: the terminal, the event loop, and the effects
//! (clipboard, save file, quit). Everything else is pure and lives elsewhere.

use super::action::Action;
use super::burst;
use super::clipboard::{Clipboard, ClipboardEnv};
use super::effect::Effect;
use super::keymap;
use super::model::{Mode, Model, Status};
use super::persist::{self, Opened, SaveFile};
use super::reducer::{self, update};
use super::signals::Signals;
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
use ratatui::layout::{Rect, Size};
use std::io::IsTerminal;
use std::ops::ControlFlow;
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
/// an error before the terminal is touched; a problem with the save file is
/// a message (`opened` is what [`SaveFile::open`] found).
pub fn initial_model(start: &Start, opened: Opened) -> Result<Model> {
    let mut model = match start {
        Start::Id(text) => {
            let imported =
                codec::parse_any(text, &Position::default()).map_err(|e| anyhow::anyhow!("{e}"))?;
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
        Start::Saved => match &opened {
            Opened::Position(p) => Model::new(
                p.clone(),
                Status::info("Reopened the last position · ? for help"),
            ),
            Opened::Nothing | Opened::Problem(_) => Model::default(),
        },
    };
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

/// How the editor ended: the final position, and the signal that ended it
/// if one did (the process then exits with 128 + its number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exit {
    pub position: Position,
    pub signal: Option<i32>,
}

/// How often the event loop looks for a signal while no event comes.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// Runs the editor until the user quits or a signal ends it.
pub fn run(start: Start) -> Result<Exit> {
    let (save_file, opened) = match persist::save_path() {
        Some(path) => {
            let (file, opened) = SaveFile::open(&path);
            (Some(file), opened)
        }
        None => (None, Opened::Nothing),
    };
    let model = initial_model(&start, opened)?;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        anyhow::bail!(
            "the editor needs a terminal; for scripts use `bgedit show` or `bgedit convert`"
        );
    }
    let theme = Theme::from_no_color(std::env::var("NO_COLOR").ok().as_deref());
    let clipboard = Clipboard::new(&ClipboardEnv::from_env(|k| std::env::var(k).ok()));
    // Before the terminal changes, so a signal never finds it half set up
    // without a handler to put it back.
    let signals = Signals::install().context("installing signal handlers")?;

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
    let result = event_loop(terminal, model, &theme, clipboard, save_file, &signals);
    drop(guard);
    result
}

/// Waits for the next events: one, or a whole burst queued at once.
fn next_events(signals: &Signals) -> Result<Result<Vec<Event>, i32>> {
    loop {
        if let Some(signal) = signals.take() {
            return Ok(Err(signal));
        }
        if event::poll(SIGNAL_CHECK)? {
            break;
        }
    }
    let mut events = vec![event::read()?];
    while events.len() < burst::MAX_EVENTS && event::poll(burst::GAP)? {
        events.push(event::read()?);
    }
    Ok(Ok(events))
}

/// What the effects act on.
struct Edge<'a> {
    terminal: DefaultTerminal,
    clipboard: Clipboard,
    save_file: Option<SaveFile>,
    theme: &'a Theme,
}

impl Edge<'_> {
    /// Draws the screen and waits for the next events (or a signal).
    fn draw_and_wait(
        &mut self,
        snapshot: &Snapshot,
        signals: &Signals,
    ) -> Result<(Size, Result<Vec<Event>, i32>)> {
        let theme = self.theme;
        self.terminal
            .draw(|frame| view::draw(frame, snapshot, theme))?;
        let size = self.terminal.size()?;
        Ok((size, next_events(signals)?))
    }

    /// Runs `action` and every action its effects report back; `Break` when
    /// an effect says to leave.
    fn perform(&mut self, mut model: Model, action: Action) -> ControlFlow<Position, Model> {
        let mut queue = vec![action];
        while let Some(action) = queue.pop() {
            let (next, effects) = update(model, action);
            model = next;
            for effect in effects {
                match effect {
                    Effect::Save(position) => {
                        if let Some(file) = &mut self.save_file {
                            match file.save(&position) {
                                Ok(None) => {}
                                Ok(Some(note)) => queue.push(Action::SaveNotice(note)),
                                Err(e) => queue.push(Action::SaveFailed(e)),
                            }
                        }
                    }
                    Effect::Copy { target, text } => {
                        let result = self.clipboard.copy(&text, self.terminal.backend_mut());
                        queue.push(Action::Copied(target, result));
                    }
                    Effect::ReadClipboard => queue.push(Action::Pasted(self.clipboard.paste())),
                    Effect::Quit => return ControlFlow::Break(model.position),
                }
            }
        }
        ControlFlow::Continue(model)
    }
}

fn event_loop(
    terminal: DefaultTerminal,
    model: Model,
    theme: &Theme,
    clipboard: Clipboard,
    save_file: Option<SaveFile>,
    signals: &Signals,
) -> Result<Exit> {
    let mut edge = Edge {
        terminal,
        clipboard,
        save_file,
        theme,
    };
    let size = edge.terminal.size()?;
    let resized = Action::Resized {
        width: size.width,
        height: size.height,
    };
    let leave = |position, signal| Ok(Exit { position, signal });
    let mut model = match edge.perform(model, resized) {
        ControlFlow::Continue(m) => m,
        ControlFlow::Break(position) => return leave(position, None),
    };
    // Leaves on a signal: saved by the reducer's effects, then out.
    let terminated = |edge: &mut Edge, model: Model, signal: i32| {
        match edge.perform(model, Action::Terminated(signal)) {
            ControlFlow::Break(position) => leave(position, Some(signal)),
            // The reducer always leaves on a signal; if it did not, the
            // signal still ends the process.
            ControlFlow::Continue(m) => leave(m.position, Some(signal)),
        }
    };
    loop {
        let snapshot = Snapshot::of(&model);
        let (size, events) = match edge.draw_and_wait(&snapshot, signals) {
            Ok((size, Ok(events))) => (size, events),
            Ok((_, Err(signal))) => return terminated(&mut edge, model, signal),
            // A hang-up closes the terminal: drawing or reading fails before
            // the signal is seen. The signal, if there is one, decides.
            Err(e) => match signals.take() {
                Some(signal) => return terminated(&mut edge, model, signal),
                None => return Err(e),
            },
        };
        let screen = Rect::new(0, 0, size.width, size.height);
        let mut events = events;
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
                    keymap::resolve_mouse(&mouse, &model.mode, |c, r| layout::hit(screen, c, r))
                }
                Event::Paste(text) => keymap::resolve_paste(text, &model.mode),
                Event::Resize(width, height) => Some(Action::Resized { width, height }),
                Event::FocusGained | Event::FocusLost => None,
            };
            let Some(action) = action else { continue };
            model = match edge.perform(model, action) {
                ControlFlow::Continue(m) => m,
                ControlFlow::Break(position) => return leave(position, None),
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
