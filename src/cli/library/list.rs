//! `library list` and `library search`: the entries (all, or those a
//! filter matches), one line or JSON object each, newest or costliest
//! first.

use super::Failure;
use crate::cli::output::OutputFormat;
use bgedit_core::codec;
use bgedit_library::filter;
use bgedit_library::store::{self, Library};
use std::io::Write;

// No doc comment: the subcommand's help is its variant's in `mod.rs`.
#[derive(clap::Args, Debug)]
pub struct ListArgs {
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
    /// The order: newest first, or the largest error first (match
    /// decisions without an error last).
    #[arg(long, value_enum, default_value = "newest")]
    sort: SortArg,
}

#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
    #[arg(long, value_enum, default_value = "newest")]
    sort: SortArg,
    /// The filter, as one or more words.
    #[arg(required = true, allow_hyphen_values = true)]
    query: Vec<String>,
}

/// `--sort`: the list's order.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum SortArg {
    /// The newest entry first.
    Newest,
    /// The largest error first (entries without one last).
    Error,
}

impl From<SortArg> for store::Order {
    fn from(s: SortArg) -> store::Order {
        match s {
            SortArg::Newest => store::Order::Newest,
            SortArg::Error => store::Order::Error,
        }
    }
}

/// `library list`: every entry.
pub(super) fn run(lib: &Library, args: ListArgs, out: &mut impl Write) -> Result<u8, Failure> {
    list(lib, "", args.format, args.sort.into(), out)
}

/// `library search`: the entries the filter matches.
pub(super) fn search(lib: &Library, args: SearchArgs, out: &mut impl Write) -> Result<u8, Failure> {
    list(
        lib,
        &args.query.join(" "),
        args.format,
        args.sort.into(),
        out,
    )
}

/// `text` in exactly `width` characters: padded, or cut with `…` so that a
/// long title never pushes the columns after it out of line.
fn column(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        return format!("{text}{}", " ".repeat(width - count));
    }
    let mut cut: String = text.chars().take(width - 1).collect();
    cut.push('…');
    cut
}

/// A decision's error and gnubg's mark, as the list shows it: `0.083 ?`.
pub(super) fn error_text(error: Option<f64>) -> String {
    error.map_or_else(String::new, |e| {
        format!(
            "{} {}",
            bgedit_core::domain::skill::unsigned3(e),
            bgedit_core::domain::skill::Skill::of(e).mark()
        )
    })
}

/// The width a text list fits: the terminal's when the list goes to one,
/// else 120 (a file or a pipe gets the same lines every time).
fn list_width() -> usize {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal()
        && let Ok((w, _)) = crossterm::terminal::size()
    {
        return usize::from(w).max(60);
    }
    120
}

/// One entry as a text line of `width` characters at most: its number,
/// title, score, who is on roll with the dice (or the cube), the move
/// played, the pips, the error, the tags. The title and the move share
/// what the fixed columns leave.
fn text_line(s: &store::Summary, width: usize) -> String {
    let played = s.note_line.strip_prefix("played: ").unwrap_or("");
    let error = format!("  {:<8}", error_text(s.error));
    let tags = if s.tags.is_empty() {
        String::new()
    } else {
        format!("  {}", s.tags)
    };
    // id, score, roll, pips and their gaps.
    let fixed = 6 + 2 + 2 + 10 + 2 + 6 + 2 + 13 + 10;
    let free = width.saturating_sub(fixed).max(24);
    let played_width = if played.is_empty() {
        0
    } else {
        (free / 3).clamp(8, 24)
    };
    let title_width = free.saturating_sub(played_width + usize::from(played_width > 0));
    let line = format!(
        "{:>6}  {}  {:<10}  {:<6}{}  O {:>3} X {:>3}{error}{tags}",
        s.id,
        column(&s.title, title_width),
        s.match_text(),
        s.roll_text(),
        if played_width > 0 {
            format!(" {}", column(played, played_width))
        } else {
            String::new()
        },
        s.derived.pips_o,
        s.derived.pips_x,
    );
    let cut: String = line.chars().take(width).collect();
    cut.trim_end().to_owned()
}

fn list(
    lib: &Library,
    query: &str,
    format: OutputFormat,
    order: store::Order,
    out: &mut impl Write,
) -> Result<u8, Failure> {
    let query = filter::parse(query)?;
    let mut write_error = None;
    let width = list_width();
    lib.for_each_summary(&query, order, |s| {
        let written = match format {
            OutputFormat::Text => {
                writeln!(out, "{}", bgedit_core::quote::Shown(text_line(s, width)))
            }
            OutputFormat::Json => writeln!(
                out,
                "{}",
                bgedit_core::quote::json(&serde_json::json!({
                    "id": s.id,
                    "title": s.title,
                    "tags": s.tags.split_whitespace().collect::<Vec<_>>(),
                    "match_length": s.derived.match_length,
                    "score": {"O": s.score[0], "X": s.score[1]},
                    "crawford": s.derived.crawford,
                    "pips": {"O": s.derived.pips_o, "X": s.derived.pips_x},
                    "on_roll": s.derived.on_roll.to_string(),
                    "gnubg_id": codec::to_string_as(&s.position, codec::IdFormat::GnubgId),
                    "xgid": codec::to_string_as(&s.position, codec::IdFormat::Xgid),
                    "error": s.error,
                    "mark": s.error.map(|e| bgedit_core::domain::skill::Skill::of(e).mark()),
                }))
            ),
        };
        written.map_err(|e| {
            write_error = Some(e);
            store::LibraryError::Io("output closed".to_owned())
        })
    })
    .map_err(|e| match write_error.take() {
        Some(w) => Failure::from(w),
        None => Failure::from(e),
    })?;
    Ok(0)
}

#[cfg(test)]
mod column_tests {
    use super::column;

    #[test]
    fn long_titles_are_cut_to_their_column() {
        assert_eq!(column("short", 8), "short   ");
        assert_eq!(column("a title far too long", 8), "a title…");
        assert_eq!(column("évènement", 9), "évènement");
        assert_eq!(column("", 3), "   ");
    }
}
