//! Text fitted to the room a widget has, for every feature's view.

/// Lines whose first is a heading in `head`'s style and the rest plain:
/// the details beside the library's list, the costliest kinds of a
/// player's statistics.
pub(crate) fn headed(
    lines: &[String],
    head: ratatui::style::Style,
) -> Vec<ratatui::text::Line<'static>> {
    use ratatui::text::Line;
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                Line::styled(l.clone(), head)
            } else {
                Line::raw(l.clone())
            }
        })
        .collect()
}

/// `text` in lines of at most `room` characters, broken at spaces (a word
/// longer than a line is cut into pieces).
pub(crate) fn wrap(text: &str, room: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let used = line.chars().count();
        if used > 0 && used + 1 + word.chars().count() > room {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        while line.chars().count() > room {
            let rest: String = line.chars().skip(room).collect();
            lines.push(line.chars().take(room).collect());
            line = rest;
        }
    }
    lines.push(line);
    lines
}
