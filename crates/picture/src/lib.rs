//! Pictures of the board: an SVG written directly ([`svg`]) and a PNG
//! rendered from it ([`png`]) with resvg and a bundled font, so that no
//! system library or font is needed and the numbers always show; the `WxH`
//! size a user asks for ([`parse_size`]) and a picture's file name.

pub mod png;
pub mod svg;

/// Colours of the picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

/// How to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Size of the picture in pixels; the drawing keeps its proportions.
    pub width: u32,
    pub height: u32,
    pub theme: Theme,
    /// Write the GNUBG ID and XGID under the board.
    pub ids: bool,
}

/// Largest side of a picture, in pixels (a PNG of 4096×4096 is 64 MB).
pub(crate) const MAX_SIDE: u32 = 4096;

impl Default for Options {
    fn default() -> Self {
        Options {
            width: 720,
            height: 560,
            theme: Theme::Light,
            ids: false,
        }
    }
}

impl Options {
    /// The default size for the drawing, with or without the ID lines.
    pub fn natural(theme: Theme, ids: bool) -> Options {
        let height = if ids {
            svg::HEIGHT_WITH_IDS
        } else {
            svg::HEIGHT
        } as u32;
        Options {
            width: svg::WIDTH as u32,
            height,
            theme,
            ids,
        }
    }
}

/// Why a `WxH` size was refused; each message quotes the size as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    #[error("size '{text}': write it WIDTHxHEIGHT, like 800x600")]
    Shape { text: String },
    #[error("size '{text}': the {side} '{value}' is not a number")]
    NotANumber {
        text: String,
        side: &'static str,
        value: String,
    },
    #[error("size '{text}': the {side} {value} is outside 16 to {MAX_SIDE} pixels")]
    OutOfRange {
        text: String,
        side: &'static str,
        value: u32,
    },
}

/// Reads `WxH` (`800x600`), each side 16 to `MAX_SIDE` pixels.
pub fn parse_size(text: &str) -> Result<(u32, u32), SizeError> {
    let (w, h) = text
        .trim()
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| SizeError::Shape {
            text: text.to_owned(),
        })?;
    let side = |s: &str, side: &'static str| -> Result<u32, SizeError> {
        let n: u32 = s.trim().parse().map_err(|_| SizeError::NotANumber {
            text: text.to_owned(),
            side,
            value: s.to_owned(),
        })?;
        if (16..=MAX_SIDE).contains(&n) {
            Ok(n)
        } else {
            Err(SizeError::OutOfRange {
                text: text.to_owned(),
                side,
                value: n,
            })
        }
    };
    Ok((side(w, "width")?, side(h, "height")?))
}

/// The file name for a position: its GNUBG ID, with the two Base64
/// characters that do not belong in file names replaced.
pub fn file_name(position: &bgedit_core::domain::Position) -> String {
    let id: String = bgedit_core::codec::gnubg_id::encode(&position.board, &position.state)
        .chars()
        .map(|c| match c {
            '/' => '_',
            '+' => '-',
            ':' => '_',
            c => c,
        })
        .collect();
    format!("bgedit-{id}.png")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_read_and_bounded() {
        assert_eq!(parse_size("800x600"), Ok((800, 600)));
        assert!(
            parse_size("800")
                .unwrap_err()
                .to_string()
                .contains("WIDTHxHEIGHT")
        );
        assert!(
            parse_size("8x600")
                .unwrap_err()
                .to_string()
                .contains("width 8")
        );
        assert!(
            parse_size("800x99999")
                .unwrap_err()
                .to_string()
                .contains("height")
        );
        assert_eq!(
            parse_size("800xabc").unwrap_err().to_string(),
            "size '800xabc': the height 'abc' is not a number"
        );
    }
}
