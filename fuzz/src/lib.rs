//! What every fuzz target checks, in one place: a reader never panics, and
//! whatever it accepts is a legal position that, written back and read
//! again, is the same position.
//!
//! A target for a new reader is one call: `round_trip(text, decode,
//! encode)`, with the reader and the writer of its format.

use bgedit_core::domain::match_state::larger_first;
use bgedit_core::domain::{Board, MatchState, Position};

/// The fuzzer's bytes as text; readers take `&str`, so other bytes are
/// not an input.
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// A value as the formats mean it: the dice are a roll, so 4-5 and 5-4 are
/// the same (gnubg reads a Match ID with the smaller die first and writes
/// it back larger first; bgedit does the same).
pub trait Canonical {
    fn canonical(&self) -> Self;
}

impl Canonical for Board {
    fn canonical(&self) -> Self {
        self.clone()
    }
}

impl Canonical for MatchState {
    fn canonical(&self) -> Self {
        MatchState {
            dice: self.dice.map(|[a, b]| larger_first(a, b)),
            ..self.clone()
        }
    }
}

impl Canonical for (Board, MatchState) {
    fn canonical(&self) -> Self {
        (self.0.clone(), self.1.canonical())
    }
}

impl Canonical for Position {
    fn canonical(&self) -> Self {
        Position {
            state: self.state.canonical(),
            ..self.clone()
        }
    }
}

/// Reads `text` with `decode`; if it is accepted, checks that the value is
/// legal (`legal`), that `encode` then `decode` gives the same value back,
/// and that what is written is stable (writing the value read back gives
/// the same text).
pub fn round_trip<T, E>(
    text: &str,
    decode: impl Fn(&str) -> Result<T, E>,
    encode: impl Fn(&T) -> String,
    legal: impl Fn(&T) -> bool,
) where
    T: Canonical + PartialEq + std::fmt::Debug,
    E: std::fmt::Debug,
{
    let Ok(value) = decode(text) else {
        return;
    };
    assert!(
        legal(&value),
        "accepted an illegal value from {text:?}: {value:?}"
    );
    let written = encode(&value);
    let again = match decode(&written) {
        Ok(again) => again,
        Err(e) => panic!("{text:?} read, written as {written:?}, not read back: {e:?}"),
    };
    assert_eq!(
        again.canonical(),
        value.canonical(),
        "{text:?} read, written as {written:?}, read back differently"
    );
    assert_eq!(
        encode(&again),
        written,
        "{text:?}: written as {written:?}, read back and written differently"
    );
}

/// A position is legal when its own validation accepts it (warnings are
/// allowed: odd but legal states).
pub fn legal(position: &Position) -> bool {
    position.validate().is_ok()
}

/// For the formats that cannot hold every field (SGF, FIBS, Snowie, XG
/// text): an accepted `text` gives a legal value; written and read again it
/// is still accepted and legal, and writing that gives the same text (what
/// a format keeps, it keeps exactly).
pub fn stable<T, E>(
    text: &str,
    decode: impl Fn(&str) -> Result<T, E>,
    encode: impl Fn(&T) -> String,
    legal: impl Fn(&T) -> bool,
) where
    T: std::fmt::Debug,
    E: std::fmt::Debug,
{
    let Ok(value) = decode(text) else {
        return;
    };
    assert!(legal(&value), "accepted an illegal value: {value:?}");
    let written = encode(&value);
    let again = decode(&written)
        .unwrap_or_else(|e| panic!("its own output is refused: {e:?}\n{written}"));
    assert!(legal(&again), "read back illegal: {again:?}");
    assert_eq!(encode(&again), written, "the written text is not stable");
}
