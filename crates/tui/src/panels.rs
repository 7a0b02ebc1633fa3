//! The panel scheme: which panels there are, their priority and sizes, and
//! which the user turned on. Below the features and the view: the model,
//! the actions and every feature use it; `view/layout.rs` places them.

/// The smallest screen the editor draws on (below it, a note to enlarge).
pub(crate) const MIN_WIDTH: u16 = 80;
pub(crate) const MIN_HEIGHT: u16 = 24;

/// Whether a screen of `width`×`height` is below the smallest the editor
/// draws (it asks to be enlarged, and keys do nothing behind that).
pub(crate) fn too_small(width: u16, height: u16) -> bool {
    width < MIN_WIDTH || height < MIN_HEIGHT
}

/// The panels below the board, in priority order: when the screen is short,
/// the first ones get the room. Each is toggleable; a panel that fits beside
/// the IDs is shown on large screens whatever its toggle says, except the
/// library, which is shown only while it is on (it has nothing to show
/// before it is opened).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// gnubg's analysis (issue 8).
    Analysis,
    /// The match being reviewed (shown while one is open).
    Match,
    /// The numbers at the score (issue 9).
    Numbers,
    /// The study library (issue 11).
    Library,
}

impl Panel {
    /// How many panels there are: every table of panels is this long, so
    /// a new one is placed everywhere it must be or the build says where.
    pub(crate) const COUNT: usize = 4;

    pub(crate) const BY_PRIORITY: [Panel; Panel::COUNT] = [
        Panel::Analysis,
        Panel::Match,
        Panel::Numbers,
        Panel::Library,
    ];

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// Whether the panel is shown, when there is room, with its toggle off.
    pub(crate) fn shown_when_room(self) -> bool {
        !matches!(self, Panel::Library | Panel::Match)
    }

    /// Rows below which the panel is not worth showing.
    pub(crate) fn min_rows(self) -> u16 {
        match self {
            Panel::Analysis => 6,
            Panel::Match => 5,
            Panel::Numbers => 4,
            Panel::Library => 5,
        }
    }

    /// Columns below which the panel's rows are cut past use.
    pub(crate) fn min_width(self) -> u16 {
        match self {
            Panel::Analysis => 60,
            Panel::Match => 40,
            Panel::Numbers => 30,
            Panel::Library => 60,
        }
    }

    /// Columns its longest rows take: a column this wide cuts nothing.
    pub(crate) fn ideal_width(self) -> u16 {
        match self {
            // Rank, depth, move, equity, difference, six chances.
            Panel::Analysis => 86,
            // A decision: number, player, dice, move, mark, error, best.
            Panel::Match => 56,
            Panel::Numbers => 38,
            // The list beside the entry's preview.
            Panel::Library => 100,
        }
    }

    /// Whether the panel lists more than its most rows show (a match's
    /// decisions, the moves, the library's entries), so it uses any rows
    /// left once every panel has its most; the numbers have a fixed text.
    pub(crate) fn scrolls(self) -> bool {
        !matches!(self, Panel::Numbers)
    }

    /// Rows a panel takes before the rest go to those that list more (see
    /// [`Panel::scrolls`]): beyond them the numbers have nothing to show.
    pub(crate) fn max_rows(self) -> u16 {
        match self {
            Panel::Analysis => 24,
            Panel::Match => 16,
            // Its whole text: MWC table, take points, gammon values, races.
            Panel::Numbers => 40,
            Panel::Library => 20,
        }
    }
}

/// Which panels the user turned on (on small screens they take the IDs'
/// rows; on large ones they are always shown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PanelToggles([bool; Panel::COUNT]);

impl PanelToggles {
    pub fn is_on(self, panel: Panel) -> bool {
        self.0[panel.index()]
    }
    pub(crate) fn toggle(&mut self, panel: Panel) {
        self.0[panel.index()] = !self.0[panel.index()];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every panel has its own slot in the tables `COUNT` long.
    #[test]
    fn each_panel_of_the_priority_list_has_its_own_slot() {
        let mut seen = [false; Panel::COUNT];
        for p in Panel::BY_PRIORITY {
            assert!(p.index() < Panel::COUNT, "{p:?}");
            assert!(!seen[p.index()], "{p:?} twice");
            seen[p.index()] = true;
        }
    }
}
