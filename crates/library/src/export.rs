//! Writing entries out: one line of XGID, GNUBG ID, JSON or CSV per entry,
//! or Anki notes (a CSV Anki imports: front is the board and the question,
//! back is the note and the analysis). Pure text formatting.

use super::store::Entry;
use bgedit_core::codec::json;
use bgedit_core::codec::text_board;
use serde_json::json;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    Xgid,
    Gnubg,
    Jsonl,
    Csv,
    Anki,
}

/// What comes before the first entry.
pub fn header(format: ExportFormat) -> &'static str {
    match format {
        ExportFormat::Csv => {
            "id,title,tags,collections,gnubg_id,xgid,note,analysis,analysis_depth,source,created,updated\n"
        }
        // Anki's file headers (2.1.55+): the separator, HTML fields, and which
        // column holds the tags.
        ExportFormat::Anki => {
            "#separator:Comma\n#html:true\n#columns:Front,Back,Tags\n#tags column:3\n"
        }
        _ => "",
    }
}

/// One CSV field, always quoted (quotes doubled), so commas and newlines in
/// notes are safe.
fn csv_field(out: &mut String, text: &str) {
    out.push('"');
    out.push_str(&bgedit_core::quote::printable(text).replace('"', "\"\""));
    out.push('"');
}

fn csv_row(out: &mut String, fields: &[&str]) {
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        csv_field(out, f);
    }
    out.push('\n');
}

/// A store time (Unix seconds) as RFC 3339 in UTC, as spreadsheets and
/// other tools read it (`2026-11-24T03:12:43Z`); out-of-range values stay
/// as numbers.
fn rfc3339(seconds: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(seconds) {
        Ok(t) => format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute(),
            t.second()
        ),
        Err(_) => seconds.to_string(),
    }
}

fn html_escape(text: &str) -> String {
    bgedit_core::quote::printable(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The question a study card asks about a position.
pub fn question(entry: &Entry) -> String {
    let s = &entry.position.state;
    match (s.dice, s.double_offered) {
        (Some([a, b]), _) => format!("{} to play {a}{b}. Best move?", s.on_roll),
        (None, true) => format!("{} doubles. {}: take or pass?", s.on_roll, s.turn),
        (None, false) => format!("{} on roll. Double, or roll?", s.on_roll),
    }
}

/// Appends `entry` in `format`; an Anki note shows `picture` (a file in
/// Anki's media folder) as its board when given, the text board otherwise.
pub fn write_entry_with(
    out: &mut String,
    entry: &Entry,
    format: ExportFormat,
    picture: Option<&str>,
) {
    let (analysis, depth) = entry
        .analysis
        .as_ref()
        .map_or(("", ""), |a| (a.text.as_str(), a.depth.as_str()));
    match format {
        ExportFormat::Xgid => {
            out.push_str(&entry.xgid);
            out.push('\n');
        }
        ExportFormat::Gnubg => {
            out.push_str(&entry.gnubg_id);
            out.push('\n');
        }
        ExportFormat::Jsonl => {
            let position: serde_json::Value =
                serde_json::to_value(json::to_json(&entry.position)).unwrap_or_default();
            let value = json!({
                "id": entry.id,
                "title": entry.title,
                "note": entry.note,
                "tags": entry.tags,
                "collections": entry.collections,
                "source": entry.source.to_text(),
                "created": entry.created,
                "updated": entry.updated,
                "analysis": entry.analysis.as_ref().map(|a| &a.text),
                "analysis_depth": entry.analysis.as_ref().map(|a| &a.depth),
                "gnubg_id": entry.gnubg_id,
                "xgid": entry.xgid,
                "position": position,
            });
            out.push_str(&bgedit_core::quote::json(&value));
            out.push('\n');
        }
        ExportFormat::Csv => csv_row(
            out,
            &[
                &entry.id.to_string(),
                &entry.title,
                &entry.tags.join(" "),
                &entry.collections.join(" "),
                &entry.gnubg_id,
                &entry.xgid,
                &entry.note,
                analysis,
                depth,
                &entry.source.to_text(),
                &rfc3339(entry.created),
                &rfc3339(entry.updated),
            ],
        ),
        ExportFormat::Anki => {
            let mut front = String::new();
            if !entry.title.is_empty() {
                front.push_str(&format!("<b>{}</b><br>", html_escape(&entry.title)));
            }
            match picture {
                Some(file) => front.push_str(&format!(
                    "<img src=\"{}\"><br>{}",
                    html_escape(file),
                    html_escape(&question(entry))
                )),
                None => front.push_str(&format!(
                    "<pre>{}</pre>{}",
                    html_escape(&text_board::render(&entry.position)),
                    html_escape(&question(entry))
                )),
            }
            let mut back = String::new();
            if !entry.note.is_empty() {
                back.push_str(&html_escape(&entry.note).replace('\n', "<br>"));
            }
            if !analysis.is_empty() {
                back.push_str(&format!(
                    "<pre>{}{}</pre>",
                    if depth.is_empty() {
                        String::new()
                    } else {
                        format!("{}\n", html_escape(depth))
                    },
                    html_escape(analysis)
                ));
            }
            back.push_str(&format!("<br><small>{}</small>", html_escape(&entry.xgid)));
            csv_row(out, &[&front, &back, &entry.tags.join(" ")]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::Schedule;
    use crate::store::{Analysis, Source};
    use bgedit_core::domain::Position;

    fn entry() -> Entry {
        let position = Position::default();
        Entry {
            id: 7,
            gnubg_id: "4HPwATDgc/ABMA:cAkAAAAAAAAA".into(),
            xgid: "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10".into(),
            position,
            title: "Opening, \"quoted\"".into(),
            note: "line one\nline <two>".into(),
            tags: vec!["opening".into(), "quiz".into()],
            collections: vec!["book".into()],
            source: Source::Typed,
            created: 1,
            updated: 2,
            analysis: Some(Analysis {
                text: "1. Roll".into(),
                depth: "2-ply".into(),
            }),
            schedule: Schedule::new(1),
            decision: None,
        }
    }

    #[test]
    fn csv_times_are_rfc3339_and_control_characters_are_escaped() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_795_000_000), "2026-11-18T11:06:40Z");
        let mut out = String::new();
        csv_field(&mut out, "a\x1b]0;pwned\x07b");
        assert_eq!(out, "\"a\\x1b]0;pwned\\x07b\"");
        assert!(!html_escape("\x1b[2J<b>").contains('\x1b'));
    }

    #[test]
    fn csv_quotes_commas_quotes_and_newlines() {
        let mut out = String::new();
        write_entry_with(&mut out, &entry(), ExportFormat::Csv, None);
        assert!(out.starts_with("\"7\",\"Opening, \"\"quoted\"\"\",\"opening quiz\",\"book\""));
        assert!(out.contains("\"line one\nline <two>\""));
    }

    #[test]
    fn anki_front_has_board_and_question_back_has_note_and_analysis() {
        let mut out = String::new();
        write_entry_with(&mut out, &entry(), ExportFormat::Anki, None);
        assert!(out.contains("<pre> GNU Backgammon  Position ID: 4HPwATDgc/ABMA"));
        assert!(out.contains("X on roll. Double, or roll?"));
        assert!(out.contains("line one<br>line &lt;two&gt;"));
        assert!(out.contains("<pre>2-ply\n1. Roll</pre>"));
        assert!(out.ends_with(",\"opening quiz\"\n"));
    }

    #[test]
    fn jsonl_holds_every_field_and_reads_back() {
        let mut out = String::new();
        write_entry_with(&mut out, &entry(), ExportFormat::Jsonl, None);
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["id"], 7);
        assert_eq!(v["tags"][1], "quiz");
        assert_eq!(v["analysis_depth"], "2-ply");
        let back = json::decode(&v["position"].to_string()).unwrap();
        assert_eq!(back, Position::default());
    }
}
