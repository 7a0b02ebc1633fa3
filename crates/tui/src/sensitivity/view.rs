//! The live views in the analysis panel's place: a header naming the
//! engine and how long the tables took, then the tables
//! (`engine::sensitivity::lines`), or plainly why there are none.

use super::state::{Live, SensitivityState};
use crate::ui::theme::Theme;
use bgedit_core::domain::Position;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

/// What the screen shows of the views.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SensitivityView {
    pub header: String,
    pub lines: Vec<String>,
}

/// The views' part of the snapshot, while they are on.
pub fn snapshot(s: &SensitivityState, position: &Position) -> Option<SensitivityView> {
    if !s.on {
        return None;
    }
    let (header, lines) = match (&s.live, &s.shown) {
        (Live::Ready(engine), Some(shown)) => {
            let what = match shown.tables {
                bgedit_engine::sensitivity::Sensitivity::Window(_) => "doubling window by score",
                _ => "best move by score and cube",
            };
            // What a narrow panel cuts last first.
            (
                format!(
                    "Live · {engine} · {:.1} ms · {what} · ~ closes",
                    shown.micros as f64 / 1000.0
                ),
                bgedit_engine::sensitivity::lines(&shown.tables, position),
            )
        }
        (Live::Ready(engine), None) => (format!("Live · {engine}"), Vec::new()),
        (Live::Unknown | Live::Loading, _) => (
            "Live views · loading the in-process engine…".to_owned(),
            Vec::new(),
        ),
        (Live::Unavailable(why), _) => (
            "Live views: not available".to_owned(),
            vec![
                format!(
                    "No engine answers in-process here: {}",
                    bgedit_core::quote::printable(why)
                ),
                "The live views need an engine built into bgedit, on a CPU and with the data"
                    .to_owned(),
                "it needs; `bgedit analyse --sensitivity ID` works with any engine.".to_owned(),
            ],
        ),
    };
    Some(SensitivityView { header, lines })
}

pub fn draw(frame: &mut Frame, area: Rect, view: &SensitivityView, theme: &Theme) {
    let block = Block::default()
        .borders(Borders::TOP)
        .title(Line::styled(format!(" {} ", view.header), theme.label));
    let lines: Vec<Line> = view.lines.iter().map(|l| Line::raw(l.as_str())).collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
