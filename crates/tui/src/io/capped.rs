//! The terminal behind a cap on its size. ratatui keeps two buffers of the
//! whole screen, a cell each (about 40 bytes), sized from what the terminal
//! reports; a terminal (or a program posing as one) may report 65535×65535,
//! and the editor asked for 4.3 billion cells and aborted. The editor draws
//! in at most [`MAX_COLUMNS`]×[`MAX_ROWS`] at the top left: no screen
//! a person reads is larger, and its buffers stay within a few megabytes.

use ratatui::Terminal;
use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{EnterAlternateScreen, enable_raw_mode};
use ratatui::layout::{Position, Size};
use std::io::Stdout;

/// The widest drawing area: a 4K screen of 8-pixel cells is 480 columns.
pub(crate) const MAX_COLUMNS: u16 = 512;
/// The tallest: the same screen of 16-pixel cells is 135 rows.
pub(crate) const MAX_ROWS: u16 = 256;

/// The editor's terminal: standard output, its size capped.
pub(crate) type CappedTerminal = Terminal<Capped<CrosstermBackend<Stdout>>>;

/// `size` within the cap.
pub(crate) fn cap(size: Size) -> Size {
    Size {
        width: size.width.min(MAX_COLUMNS),
        height: size.height.min(MAX_ROWS),
    }
}

/// Sets the terminal up as `ratatui::init` does (raw mode, the alternate
/// screen), with the size capped from the first buffer on; restored by
/// `ratatui::restore`.
pub(crate) fn init() -> std::io::Result<CappedTerminal> {
    enable_raw_mode()?;
    execute!(std::io::stdout(), EnterAlternateScreen)?;
    Terminal::new(Capped(CrosstermBackend::new(std::io::stdout())))
}

/// A backend that reports at most the cap for its size, and is otherwise
/// the one it wraps.
pub(crate) struct Capped<B>(pub(crate) B);

impl<B: Backend> Backend for Capped<B> {
    type Error = B::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.0.draw(content)
    }

    fn append_lines(&mut self, n: u16) -> Result<(), Self::Error> {
        self.0.append_lines(n)
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.0.hide_cursor()
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.0.show_cursor()
    }

    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        self.0.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.0.set_cursor_position(position)
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        self.0.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        self.0.clear_region(clear_type)
    }

    fn size(&self) -> Result<Size, Self::Error> {
        self.0.size().map(cap)
    }

    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        let mut size = self.0.window_size()?;
        size.columns_rows = cap(size.columns_rows);
        Ok(size)
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;
    use crate::snapshot::Snapshot;
    use crate::ui::theme::Theme;
    use std::convert::Infallible;

    /// A terminal that reports 65535×65535 and keeps nothing it is sent.
    struct Huge;

    impl Backend for Huge {
        type Error = Infallible;
        fn draw<'a, I>(&mut self, content: I) -> Result<(), Infallible>
        where
            I: Iterator<Item = (u16, u16, &'a Cell)>,
        {
            content.for_each(drop);
            Ok(())
        }
        fn hide_cursor(&mut self) -> Result<(), Infallible> {
            Ok(())
        }
        fn show_cursor(&mut self) -> Result<(), Infallible> {
            Ok(())
        }
        fn get_cursor_position(&mut self) -> Result<Position, Infallible> {
            Ok(Position::ORIGIN)
        }
        fn set_cursor_position<P: Into<Position>>(&mut self, _: P) -> Result<(), Infallible> {
            Ok(())
        }
        fn clear(&mut self) -> Result<(), Infallible> {
            Ok(())
        }
        fn clear_region(&mut self, _: ClearType) -> Result<(), Infallible> {
            Ok(())
        }
        fn size(&self) -> Result<Size, Infallible> {
            Ok(Size::new(u16::MAX, u16::MAX))
        }
        fn window_size(&mut self) -> Result<WindowSize, Infallible> {
            Ok(WindowSize {
                columns_rows: Size::new(u16::MAX, u16::MAX),
                pixels: Size::new(u16::MAX, u16::MAX),
            })
        }
        fn flush(&mut self) -> Result<(), Infallible> {
            Ok(())
        }
    }

    #[test]
    fn a_terminal_of_65535_by_65535_is_drawn_in_the_capped_area() {
        // Uncapped, `Terminal::new` alone asks for two buffers of 4.3
        // billion cells.
        let mut terminal = Terminal::new(Capped(Huge)).unwrap();
        let model = Model::default();
        let theme = Theme::from_no_color(None);
        let frame = terminal
            .draw(|frame| crate::view::draw(frame, &Snapshot::of(&model), &theme))
            .unwrap();
        assert_eq!(frame.area.width, MAX_COLUMNS);
        assert_eq!(frame.area.height, MAX_ROWS);
        assert_eq!(terminal.size().unwrap(), Size::new(MAX_COLUMNS, MAX_ROWS));
    }
}
