//! The input line itself: what is asked (`PromptKind`), the text typed and
//! its cursor (`Prompt`). Pure data: the model holds it, and reading the
//! submitted text into an action is `prompt::parse`'s.

use bgedit_core::domain::Player;

/// What is done to the open line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromptAction {
    /// A character typed (on a yes/no question, the answer).
    Char(char),
    Paste(String),
    Backspace,
    /// Deletes the character under the cursor.
    Delete,
    /// Deletes the word before the cursor (^W).
    DeleteWord,
    Move(Motion),
    Clear,
    /// Enter: the line read and applied.
    Submit,
    /// Esc (on a yes/no question, the answer no).
    Cancel,
    /// Tab: complete what the line holds (a move, a file name).
    Complete,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    /// Any ID: GNUBG ID, Position ID, Match ID, XGID, gnubg's header lines.
    Import,
    GoTo,
    Count,
    Dice,
    MatchLength,
    Score,
    Name(Player),
    /// The score just entered makes this player 1-away: is the next game
    /// the Crawford game? Answered with one key, y or n.
    CrawfordOffer(Player),
    /// A move to play (`13/7 8/7`).
    Move,
    /// A gnubg match equity table file.
    MetFile,
    /// A match file to review (Tab completes).
    MatchFile,
    /// The error from which the match panel calls a decision a mistake.
    MistakeThreshold,
    /// The file the match panel saves the match to, as gnubg's SGF.
    SgfFile,
    /// The match list's filter.
    MatchFilter,
    /// That file exists: replace it? Answered by one key, y or n.
    ReplaceSgf,
}

impl PromptKind {
    /// The question shown before the text.
    pub(crate) fn label(self) -> &'static str {
        match self {
            PromptKind::Import => "ID (GNUBG ID, XGID, Position or Match ID)",
            PromptKind::GoTo => "Go to point (1–24, 25 bar, 0 off, for the player on roll)",
            PromptKind::Count => "Checkers here (e.g. 5, x12, o3)",
            PromptKind::Dice => "Dice (e.g. 52; empty for not rolled)",
            PromptKind::MatchLength => "Match length (0 for money)",
            PromptKind::Score => "Score, O then X (2-4, -3 -5, 3-away 5-away, x5)",
            PromptKind::Name(Player::O) => "Name of O (top)",
            PromptKind::Name(Player::X) => "Name of X (bottom)",
            PromptKind::CrawfordOffer(Player::O) => "O is 1-away: is this the Crawford game? y/n",
            PromptKind::CrawfordOffer(Player::X) => "X is 1-away: is this the Crawford game? y/n",
            PromptKind::Move => "Move (Tab completes)",
            PromptKind::MetFile => "MET file (gnubg XML; empty for the built-in Kazaross-XG2)",
            PromptKind::MatchFile => "Match file (.sgf, .mat, gnubg text, .xg; Tab completes)",
            PromptKind::MistakeThreshold => {
                "Mistakes: errors beyond (0.03 doubtful, 0.06 bad, 0.12 very bad)"
            }
            PromptKind::SgfFile => {
                "Save the match with its analysis as gnubg's SGF to (Tab completes)"
            }
            PromptKind::MatchFilter => {
                "Matches: player:NAME since:YYYY-MM-DD undated analysed, or words (empty: all)"
            }
            PromptKind::ReplaceSgf => "That file exists: replace it? y replaces, n keeps it",
        }
    }

    /// A question answered by one key (y or n), not a line of text.
    pub(crate) fn is_yes_no(self) -> bool {
        matches!(self, PromptKind::CrawfordOffer(_) | PromptKind::ReplaceSgf)
    }

    /// Tab completes what the line holds: a move, a file name.
    pub(crate) fn completes(self) -> bool {
        matches!(
            self,
            PromptKind::Move | PromptKind::MatchFile | PromptKind::SgfFile
        )
    }
}

/// The open input line: what is asked, and the text being typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    pub kind: PromptKind,
    pub line: Line,
}

/// A line of text being edited, with its cursor: the input line's, and the
/// library's filter and questions (one editor, the same keys).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    /// Where typing goes, in characters from the start of `text`.
    pub cursor: usize,
    /// The whole text is selected: it is the current value, offered to be
    /// kept (Enter), edited (a cursor key first) or replaced by typing.
    pub selected: bool,
}

/// Longest text the input line takes (an XGID with prefix is 57).
pub const MAX_PROMPT_LEN: usize = 400;

/// A cursor move inside the input line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    Left,
    Right,
    Home,
    End,
}

impl Prompt {
    /// An empty input line.
    pub(crate) fn new(kind: PromptKind) -> Prompt {
        Prompt {
            kind,
            line: Line::default(),
        }
    }

    /// An input line holding the current value, selected, with the cursor
    /// at its end.
    pub fn with_value(kind: PromptKind, value: &str) -> Prompt {
        let value: String = value.chars().take(MAX_PROMPT_LEN).collect();
        let mut line = Line::at_end(&value);
        line.selected = !line.text.is_empty();
        Prompt { kind, line }
    }
}

impl Line {
    /// A line holding `value` whole, not selected, with the cursor at its
    /// end: typing adds to it (up to the limit). Not cut, so a long value
    /// given back to edit (an entry's tags) is not lost.
    pub(crate) fn at_end(value: &str) -> Line {
        Line {
            cursor: value.chars().count(),
            selected: false,
            text: value.to_owned(),
        }
    }

    fn len(&self) -> usize {
        self.text.chars().count()
    }

    /// The line holds as much as it takes: typing adds nothing.
    pub(crate) fn is_full(&self) -> bool {
        self.len() >= MAX_PROMPT_LEN
    }

    /// The byte offset of character `i`.
    fn byte_at(&self, i: usize) -> usize {
        self.text
            .char_indices()
            .nth(i)
            .map_or(self.text.len(), |(b, _)| b)
    }

    /// Typing over a selection replaces it.
    fn take_selection(&mut self) {
        if self.selected {
            self.text.clear();
            self.cursor = 0;
            self.selected = false;
        }
    }

    /// Inserts `text` at the cursor, control characters as spaces (a pasted
    /// header block spans lines; the input line keeps one), up to the limit.
    pub fn insert(&mut self, text: &str) {
        self.take_selection();
        let room = MAX_PROMPT_LEN.saturating_sub(self.len());
        let flat: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(room)
            .collect();
        let at = self.byte_at(self.cursor);
        self.text.insert_str(at, &flat);
        self.cursor += flat.chars().count();
    }

    /// Deletes the character before the cursor (or the selection).
    pub fn backspace(&mut self) {
        if self.selected {
            return self.take_selection();
        }
        if self.cursor > 0 {
            self.cursor -= 1;
            let at = self.byte_at(self.cursor);
            self.text.remove(at);
        }
    }

    /// Deletes the character under the cursor (or the selection).
    pub fn delete(&mut self) {
        if self.selected {
            return self.take_selection();
        }
        if self.cursor < self.len() {
            let at = self.byte_at(self.cursor);
            self.text.remove(at);
        }
    }

    /// Deletes the word before the cursor and the spaces after it, as ^W
    /// does in a shell (or the selection).
    pub fn delete_word(&mut self) {
        if self.selected {
            return self.take_selection();
        }
        let chars: Vec<char> = self.text.chars().collect();
        let mut start = self.cursor;
        while start > 0 && chars[start - 1].is_whitespace() {
            start -= 1;
        }
        while start > 0 && !chars[start - 1].is_whitespace() {
            start -= 1;
        }
        let (from, to) = (self.byte_at(start), self.byte_at(self.cursor));
        self.text.replace_range(from..to, "");
        self.cursor = start;
    }

    pub fn clear(&mut self) {
        self.text.clear();
        self.cursor = 0;
        self.selected = false;
    }

    /// Moves the cursor; any move keeps the value for editing.
    pub fn motion(&mut self, motion: Motion) {
        self.selected = false;
        self.cursor = match motion {
            Motion::Left => self.cursor.saturating_sub(1),
            Motion::Right => (self.cursor + 1).min(self.len()),
            Motion::Home => 0,
            Motion::End => self.len(),
        };
    }

    /// The part of the text shown in `width` columns and the cursor's
    /// column in it: the text scrolls so the cursor stays visible, with
    /// `…` where text is hidden on either side.
    pub fn window(&self, width: usize) -> (String, usize) {
        let chars: Vec<char> = self.text.chars().collect();
        // One column for the cursor after the last character.
        if chars.len() < width || width < 3 {
            return (self.text.clone(), self.cursor.min(width.saturating_sub(1)));
        }
        // Keep the cursor in view with a character of context on the right.
        let first = (self.cursor + 2)
            .saturating_sub(width)
            .min(chars.len() + 1 - width);
        let mut shown: Vec<char> = chars[first..(first + width).min(chars.len())].to_vec();
        if first > 0 {
            shown[0] = '…';
        }
        if first + width < chars.len() {
            let last = shown.len() - 1;
            shown[last] = '…';
        }
        (shown.into_iter().collect(), self.cursor - first)
    }
}
