//! The copy keys and the copy menu as data: what can be copied, the
//! actions, and what the runtime reports back. Pure data the action and the
//! model hold, so that nothing here imports the reducer or the view.

/// What a copy key copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyTarget {
    GnubgId,
    Xgid,
    /// gnubg's `show board` text, for forums.
    BoardText,
    /// The analysis panel as gnubg-like text.
    Analysis,
    // The rest come from the copy menu (`F`).
    PositionId,
    MatchId,
    /// gnubg's two `Position ID:` / `Match ID   :` lines.
    Header,
    /// XG's text export.
    XgText,
    Sgf,
    Fibs,
    Snowie,
}

impl CopyTarget {
    pub(crate) fn name(self) -> &'static str {
        match self {
            CopyTarget::GnubgId => "GNUBG ID",
            CopyTarget::Xgid => "XGID",
            CopyTarget::BoardText => "board text",
            CopyTarget::Analysis => "analysis",
            CopyTarget::PositionId => "Position ID",
            CopyTarget::MatchId => "Match ID",
            CopyTarget::Header => "header lines",
            CopyTarget::XgText => "XG text",
            CopyTarget::Sgf => "SGF",
            CopyTarget::Fibs => "FIBS board line",
            CopyTarget::Snowie => "Snowie text",
        }
    }
}

/// Which way copied text went, as the runtime reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyRoute {
    /// The system clipboard (X11 or Wayland) through arboard.
    System,
    /// An OSC 52 escape sequence asking the terminal to set its clipboard:
    /// the way over SSH or without a display. Whether it arrived, only the
    /// terminal knows; under tmux (`TMUX` set) it arrives only where tmux
    /// lets it through (`set -g set-clipboard on`; its default, external,
    /// drops it).
    Osc52 { under_tmux: bool },
}

/// A picture written by the runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PictureSaved {
    pub path: String,
    /// Whether the clipboard took the image, or why not.
    pub copied: Result<(), ClipboardError>,
}

/// Why the clipboard did not take a copy or give a paste. The system's own
/// words are kept as text: its errors are neither cloned nor compared, and
/// actions are both.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClipboardError {
    /// No system clipboard (`why_not`), and writing OSC 52 failed too.
    #[error("{why_not}; writing OSC 52 to the terminal failed too ({reason})")]
    Osc52 { why_not: String, reason: String },
    /// The system clipboard refused an image.
    #[error("the clipboard does not take images ({0})")]
    NoImages(String),
    /// No system clipboard for an image: OSC 52 carries text only.
    #[error("{0}; images cannot go by OSC 52")]
    ImageWithoutSystem(String),
    /// The system clipboard could not be read: its words.
    #[error("the clipboard could not be read: {reason}")]
    Read { reason: String },
    /// No system clipboard to read.
    #[error("{0}; paste with your terminal instead (it arrives as a paste)")]
    NoSystemToPaste(String),
}

/// Why the picture was not saved: the renderer's words, or the file that
/// could not be written and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// The renderer's words (its error is not `Clone`, as the model's are).
    #[error("the picture could not be drawn: {reason}")]
    Render { reason: String },
    #[error("{path}: {reason}")]
    Write { path: String, reason: String },
}

/// The copy keys, the copy menu (`F`) and what the runtime reports of them
/// (`copy_menu::update::update`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CopyAction {
    /// Copies one format of the position, or the analysis.
    Text(CopyTarget),
    OpenMenu,
    CloseMenu,
    /// Saves the picture of the position and copies it as an image.
    Picture,
    /// Where the copied text went, or why it did not.
    Copied(CopyTarget, Result<CopyRoute, ClipboardError>),
    /// Where the picture went, and whether the clipboard took it.
    PictureSaved(Result<PictureSaved, PictureError>),
}

// The menu's one table: the overlay, the key resolution inside the menu
// and the texts copied all read it.

/// What a menu letter does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    Copy(CopyTarget),
    /// Save the picture and copy the PNG (as `I` does).
    Picture,
}

pub(crate) struct Entry {
    pub key: char,
    pub label: &'static str,
    pub item: Item,
}

pub(crate) static ENTRIES: &[Entry] = &[
    Entry {
        key: 'g',
        label: "GNUBG ID",
        item: Item::Copy(CopyTarget::GnubgId),
    },
    Entry {
        key: 'x',
        label: "XGID",
        item: Item::Copy(CopyTarget::Xgid),
    },
    Entry {
        key: 'p',
        label: "Position ID",
        item: Item::Copy(CopyTarget::PositionId),
    },
    Entry {
        key: 'm',
        label: "Match ID",
        item: Item::Copy(CopyTarget::MatchId),
    },
    Entry {
        key: 'h',
        label: "gnubg's header lines",
        item: Item::Copy(CopyTarget::Header),
    },
    Entry {
        key: 'b',
        label: "board text (gnubg's show board)",
        item: Item::Copy(CopyTarget::BoardText),
    },
    Entry {
        key: 't',
        label: "XG text (forums)",
        item: Item::Copy(CopyTarget::XgText),
    },
    Entry {
        key: 's',
        label: "SGF (gnubg's save position)",
        item: Item::Copy(CopyTarget::Sgf),
    },
    Entry {
        key: 'f',
        label: "FIBS board line",
        item: Item::Copy(CopyTarget::Fibs),
    },
    Entry {
        key: 'w',
        label: "Snowie text",
        item: Item::Copy(CopyTarget::Snowie),
    },
    Entry {
        key: 'a',
        label: "the analysis (gnubg-like text)",
        item: Item::Copy(CopyTarget::Analysis),
    },
    Entry {
        key: 'i',
        label: "image (PNG, saved and copied)",
        item: Item::Picture,
    },
];
