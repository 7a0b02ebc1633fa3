//! The statistics view's state: open or not is the model's mode
//! (`Mode::Statistics`); here the scroll of the table and the mode to go
//! back to.

/// What can happen to the statistics view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatisticsAction {
    /// Open it on the open match.
    Open,
    /// `j` `k`: scroll the table by rows.
    Scroll(i16),
    /// `Esc` `q` `s`: back to the match panel.
    Close,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatisticsState {
    /// The first row of the table shown (small screens scroll it).
    pub scroll: u16,
}
