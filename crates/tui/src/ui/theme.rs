//! Styles. With colour, X and O checkers have their own colours; under
//! `NO_COLOR` only modifiers are used (X bold, the cursor reversed), so the
//! two sides and the cursor stay distinguishable.

use ratatui::style::{Color, Modifier, Style};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Theme {
    pub x: Style,
    pub o: Style,
    pub cursor: Style,
    pub title: Style,
    pub label: Style,
    pub dim: Style,
    pub warning: Style,
    pub error: Style,
    pub success: Style,
    pub key: Style,
}

impl Theme {
    pub fn colour() -> Theme {
        Theme {
            x: Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
            o: Style::new()
                .fg(Color::LightCyan)
                .add_modifier(Modifier::BOLD),
            cursor: Style::new().add_modifier(Modifier::REVERSED),
            title: Style::new().fg(Color::Black).bg(Color::Gray),
            label: Style::new().fg(Color::Gray),
            dim: Style::new().fg(Color::DarkGray),
            warning: Style::new().fg(Color::Yellow),
            error: Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
            success: Style::new().fg(Color::LightGreen),
            key: Style::new()
                .fg(Color::LightYellow)
                .add_modifier(Modifier::BOLD),
        }
    }

    pub fn plain() -> Theme {
        Theme {
            x: Style::new().add_modifier(Modifier::BOLD),
            o: Style::new(),
            cursor: Style::new().add_modifier(Modifier::REVERSED),
            title: Style::new().add_modifier(Modifier::REVERSED),
            label: Style::new(),
            dim: Style::new().add_modifier(Modifier::DIM),
            warning: Style::new().add_modifier(Modifier::BOLD),
            error: Style::new().add_modifier(Modifier::BOLD),
            success: Style::new(),
            key: Style::new().add_modifier(Modifier::BOLD),
        }
    }

    /// `NO_COLOR` set to anything non-empty means no colour (no-color.org).
    pub(crate) fn from_no_color(no_color: Option<&str>) -> Theme {
        if no_color.is_some_and(|v| !v.is_empty()) {
            Theme::plain()
        } else {
            Theme::colour()
        }
    }
}
