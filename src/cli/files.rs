//! `convert --file`: a whole file (or all of standard input) read as one
//! text, for the formats that take several lines (SGF, XG's text export, a
//! pasted board), or as a match (XG's binary files too).

use bgedit_core::codec::{self, IdFormat, match_file, sgf};
use bgedit_core::domain::match_record::MatchFormat;
use bgedit_core::domain::{Names, Position};
use std::io::Read;

/// Largest file read: a long analysed match fits many times over.
pub(crate) const MAX_FILE: u64 = sgf::MAX_LEN as u64;

/// Why a file could not be converted (the file's name is said by the
/// caller, before these words).
#[derive(Debug, thiserror::Error)]
pub(crate) enum FileError {
    #[error("cannot read it: {0}")]
    Unreadable(#[source] std::io::Error),
    #[error("larger than {MAX_FILE} bytes")]
    TooLarge,
    /// Not UTF-8: the first byte that is not, counted from 1.
    #[error("not UTF-8 text (byte {0})")]
    NotUtf8(usize),
    #[error(
        "--game and --move choose a position in a match file ({}); this is none of them",
        match_file::format_names()
    )]
    NotAMatch,
    /// The text could not be read as a position.
    #[error(transparent)]
    Id(#[from] codec::IdError),
    /// The match could not be read.
    #[error(transparent)]
    Match(#[from] match_file::MatchFileError),
    /// `--game` and `--move` choose no position of the match.
    #[error(transparent)]
    Selection(#[from] match_file::SelectionError),
}

/// Reads `path` (`-` for standard input), at most `MAX_FILE` bytes.
pub(crate) fn read_bytes(path: &str) -> Result<Vec<u8>, FileError> {
    let mut bytes = Vec::new();
    let result = if path == "-" {
        std::io::stdin()
            .lock()
            .take(MAX_FILE + 1)
            .read_to_end(&mut bytes)
    } else {
        // A FIFO or a device is refused before it is read (or blocks).
        bgedit_core::regular_file::open(std::path::Path::new(path))
            .and_then(|f| f.take(MAX_FILE + 1).read_to_end(&mut bytes))
    };
    result.map_err(FileError::Unreadable)?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(FileError::TooLarge);
    }
    Ok(bytes)
}

/// Reads `path` (`-` for standard input) as UTF-8 text, at most `MAX_FILE`
/// bytes.
pub(crate) fn read_text(path: &str) -> Result<String, FileError> {
    String::from_utf8(read_bytes(path)?)
        .map_err(|e| FileError::NotUtf8(e.utf8_error().valid_up_to() + 1))
}

/// Converts a file's bytes: XG's binary match files as matches, anything
/// else as text ([`convert_text`]).
pub(crate) fn convert_bytes(
    bytes: &[u8],
    to: IdFormat,
    names: &Names,
    selection: sgf::Selection,
) -> Result<Converted, FileError> {
    if match_file::is_binary(bytes) {
        let file = match_file::read_bytes(bytes)?;
        let position = match_file::position_at(&file, selection)?;
        return Ok(converted(&position, IdFormat::GnubgId, to));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| FileError::NotUtf8(e.valid_up_to() + 1))?;
    convert_text(text, to, names, selection)
}

/// The result of converting one text: the output (no final newline) and
/// the notes (warnings, what the output format cannot hold).
pub(crate) struct Converted {
    pub output: String,
    pub notes: Vec<String>,
}

/// Reads `text` (any format; `selection` picks a game and move of an SGF
/// match) and writes it as `to`. Names the input does not carry come from
/// `names`.
pub(crate) fn convert_text(
    text: &str,
    to: IdFormat,
    names: &Names,
    selection: sgf::Selection,
) -> Result<Converted, FileError> {
    let base = Position {
        names: names.clone(),
        ..Position::default()
    };
    let detected = match_file::detect(text.as_bytes());
    let whole_match = detected.is_some_and(match_file::only_as_match);
    let (position, from) = if selection != sgf::Selection::default() || whole_match {
        if detected.is_none() {
            return Err(FileError::NotAMatch);
        }
        let file = match_file::read_bytes(text.as_bytes())?;
        let position = match_file::position_at(&file, selection)?;
        let from = match file.format {
            MatchFormat::Sgf => IdFormat::Sgf,
            _ => IdFormat::GnubgId,
        };
        (position, from)
    } else {
        let imported = codec::parse_any(text, &base)?;
        (imported.position, imported.format)
    };
    Ok(converted(&position, from, to))
}

/// `position` (read as `from`) written as `to`, with the notes.
fn converted(position: &Position, from: IdFormat, to: IdFormat) -> Converted {
    let mut notes: Vec<String> = match position.validate() {
        Ok(w) => w.iter().map(|w| format!("warning: {w}")).collect(),
        Err(_) => Vec::new(),
    };
    notes.extend(
        codec::conversion_losses(position, from, to)
            .into_iter()
            .map(|n| format!("note: {n}")),
    );
    let mut output = String::new();
    if to == IdFormat::Json {
        output = super::plans::json_line(position, false);
    } else {
        codec::write_as(position, to, &mut output);
    }
    while output.ends_with('\n') {
        output.pop();
    }
    Converted { output, notes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_sgf_gives_the_chosen_move() {
        let text = "(;MI[length:0]PW[a]PB[b]\n;B[31qtst]\n;W[64xrrn])";
        let names = Names::default();
        let all = convert_text(text, IdFormat::GnubgId, &names, sgf::Selection::default()).unwrap();
        let first = convert_text(
            text,
            IdFormat::GnubgId,
            &names,
            sgf::Selection {
                game: Some(1),
                moves: Some(1),
            },
        )
        .unwrap();
        assert_ne!(all.output, first.output);
        let e = convert_text(
            "4HPwATDgc/ABMA",
            IdFormat::Xgid,
            &names,
            sgf::Selection {
                game: Some(1),
                moves: None,
            },
        )
        .err()
        .unwrap();
        assert!(matches!(e, FileError::NotAMatch), "{e}");
        assert!(e.to_string().contains("none of them"), "{e}");
    }
}
