//! gnubg's match equity table files (`met.dtd`), read with roxmltree into
//! the domain's [`MetSpec`]. What gnubg's own reader accepts is accepted;
//! anything it would silently misread (missing values, unknown table
//! types, numbers that are not numbers) is refused with the place named.

use crate::domain::met::{Met, MetError, MetSpec, TableKind, TableSpec};

/// Largest MET file read (the biggest gnubg ships is 40 kB).
pub(crate) const MAX_MET_BYTES: usize = 4 * 1024 * 1024;

/// Kazaross-XG2, gnubg's and eXtreme Gammon's default, shipped with bgedit.
pub const DEFAULT_MET_XML: &str = include_str!("../../../../assets/Kazaross-XG2.xml");

/// The built-in default table.
pub fn default_met() -> Met {
    let spec = parse(DEFAULT_MET_XML).expect("the built-in MET parses");
    Met::build(&spec, "built in").expect("the built-in MET is complete")
}

/// The built-in default table, built once and shared.
pub fn shared_default_met() -> std::sync::Arc<Met> {
    static DEFAULT: std::sync::OnceLock<std::sync::Arc<Met>> = std::sync::OnceLock::new();
    DEFAULT
        .get_or_init(|| std::sync::Arc::new(default_met()))
        .clone()
}

/// Reads and builds a MET file's text; `source` names it in the table.
pub fn load(text: &str, source: &str) -> Result<Met, MetError> {
    let spec = parse(text)?;
    Met::build(&spec, source)
}

/// Reads a MET file from disk, bounded in size.
pub fn load_file(path: &std::path::Path) -> Result<Met, MetError> {
    use std::io::Read;
    let shown = path.display();
    let cannot = |e: std::io::Error| MetError::Unreadable {
        path: shown.to_string(),
        error: e.to_string(),
    };
    // A FIFO or a device is refused before it is read (or blocks), and no
    // more than the cap is ever read.
    let file = crate::regular_file::open(path).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if meta.len() > MAX_MET_BYTES as u64 {
        return Err(MetError::FileTooBig {
            path: shown.to_string(),
            bytes: meta.len(),
            max: MAX_MET_BYTES,
        });
    }
    let mut text = String::new();
    file.take(MAX_MET_BYTES as u64 + 1)
        .read_to_string(&mut text)
        .map_err(cannot)?;
    load(&text, &shown.to_string()).map_err(|problem| MetError::InFile {
        path: shown.to_string(),
        problem: Box::new(problem),
    })
}

/// The line `node` starts on, for the error that names it.
fn line(node: roxmltree::Node) -> u32 {
    node.document().text_pos_at(node.range().start).row
}

fn number(node: roxmltree::Node) -> Result<f32, MetError> {
    let raw = node.text().unwrap_or("").trim();
    // gnubg reads a double and stores it as a float.
    raw.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .map(|v| v as f32)
        .ok_or_else(|| MetError::NotANumber {
            line: line(node),
            tag: node.tag_name().name().to_owned(),
            text: raw.to_owned(),
        })
}

fn kind_of(node: roxmltree::Node) -> Result<Option<TableKind>, MetError> {
    match node.attribute("type").unwrap_or("explicit") {
        "explicit" => Ok(None),
        "zadeh" => Ok(Some(TableKind::Zadeh)),
        "mec" => Ok(Some(TableKind::Mec)),
        other => Err(MetError::TableType {
            line: line(node),
            found: other.to_owned(),
        }),
    }
}

fn elements<'a, 'input>(
    node: roxmltree::Node<'a, 'input>,
    name: &'static str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'input>> {
    node.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == name)
}

fn params(node: roxmltree::Node) -> Result<Vec<(String, f32)>, MetError> {
    let mut out = Vec::new();
    for list in elements(node, "parameters") {
        for p in elements(list, "parameter") {
            let name = p
                .attribute("name")
                .ok_or_else(|| MetError::UnnamedParameter { line: line(p) })?;
            out.push((name.to_owned(), number(p)?));
        }
    }
    Ok(out)
}

fn rows(node: roxmltree::Node) -> Result<Vec<Vec<f32>>, MetError> {
    elements(node, "row")
        .map(|row| elements(row, "me").map(|me| number(me)).collect())
        .collect()
}

fn table(node: roxmltree::Node) -> Result<TableSpec, MetError> {
    Ok(match kind_of(node)? {
        None => TableSpec::Explicit(rows(node)?),
        Some(kind) => TableSpec::Formula {
            kind,
            params: params(node)?,
        },
    })
}

/// Parses a MET file's text.
fn parse(text: &str) -> Result<MetSpec, MetError> {
    if text.len() > MAX_MET_BYTES {
        return Err(MetError::TextTooBig {
            bytes: text.len(),
            max: MAX_MET_BYTES,
        });
    }
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, options).map_err(MetError::NotXml)?;
    let root = doc.root_element();
    if root.tag_name().name() != "met" {
        return Err(MetError::NotMet(root.tag_name().name().to_owned()));
    }
    let info = elements(root, "info").next();
    let field = |name: &'static str| {
        info.and_then(|i| elements(i, name).next())
            .and_then(|n| n.text())
            .unwrap_or("")
            .to_owned()
    };
    let length_text = field("length");
    let length = length_text
        .trim()
        .parse::<i32>()
        .map_err(|_| MetError::LengthNotANumber(length_text.clone()))?;
    let pre_node = elements(root, "pre-crawford-table")
        .next()
        .ok_or(MetError::NoPreCrawford)?;
    let pre_crawford = table(pre_node)?;

    let mut post: [Option<TableSpec>; 2] = [None, None];
    let mut any_post = false;
    for node in elements(root, "post-crawford-table") {
        any_post = true;
        let spec = table(node)?;
        match node.attribute("player").unwrap_or("both") {
            "both" => {
                // gnubg keeps a shared formula's parameters for player 0
                // only; player 1 gets the formula's defaults.
                let other = match &spec {
                    TableSpec::Formula { kind, .. } => TableSpec::Formula {
                        kind: kind.clone(),
                        params: Vec::new(),
                    },
                    explicit => explicit.clone(),
                };
                post = [Some(spec), Some(other)];
            }
            "0" => post[0] = Some(spec),
            "1" => post[1] = Some(spec),
            other => {
                return Err(MetError::Player {
                    line: line(node),
                    found: other.to_owned(),
                });
            }
        }
    }
    if !any_post {
        return Err(MetError::NoPostCrawford);
    }
    let [p0, p1] = post;
    let missing = MetError::NoPostCrawfordFor;
    Ok(MetSpec {
        name: field("name").trim().to_owned(),
        description: field("description").trim().to_owned(),
        length,
        pre_crawford,
        post_crawford: [p0.ok_or_else(|| missing(0))?, p1.ok_or_else(|| missing(1))?],
    })
}

#[cfg(test)]
mod tests {
    /// A FIFO with no writer, or `/dev/zero`, given as the MET file is
    /// refused at once, not read for ever.
    #[test]
    fn a_fifo_or_a_device_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("met.xml");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        for (path, kind) in [(fifo, "a FIFO"), ("/dev/zero".into(), "a device")] {
            let (tx, rx) = std::sync::mpsc::channel();
            let p = path.clone();
            std::thread::spawn(move || tx.send(super::load_file(&p).err()));
            let got = rx
                .recv_timeout(std::time::Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("{} was read for ever", path.display()));
            let m = got.expect("refused").to_string();
            assert!(m.contains(&format!("not a regular file ({kind})")), "{m}");
        }
    }

    use super::*;

    fn err(text: &str) -> String {
        match load(text, "t.xml") {
            Err(e) => e.to_string(),
            Ok(_) => panic!("accepted: {text}"),
        }
    }

    const HEAD: &str = "<met><info><name>t</name><length>2</length></info>";

    #[test]
    fn bad_files_are_refused_with_what_and_where() {
        assert!(err("not xml").starts_with("not a MET file"));
        assert_eq!(
            err("<table/>"),
            "the top element is <table>; a MET file's is <met>"
        );
        assert!(err("<met><info><length>x</length></info></met>").contains("<length>"));
        let short = format!(
            "{HEAD}<pre-crawford-table><row><me>0.5</me><me>0.6</me></row></pre-crawford-table>\
             <post-crawford-table><row><me>0.5</me></row></post-crawford-table></met>"
        );
        assert_eq!(
            err(&short),
            "the pre-Crawford table has 1 rows; a 2-point table needs 2"
        );
        let big = format!(
            "{HEAD}<pre-crawford-table><row><me>0.5</me><me>1.6</me></row>\
             <row><me>0.4</me><me>0.5</me></row></pre-crawford-table>\
             <post-crawford-table><row><me>0.5</me></row></post-crawford-table></met>"
        );
        assert!(
            err(&big).contains("pre-Crawford row 1 value 2 is 1.6"),
            "{}",
            err(&big)
        );
        let word = format!(
            "{HEAD}<pre-crawford-table><row><me>half</me></row></pre-crawford-table></met>"
        );
        assert!(err(&word).contains("line 1: <me> holds \"half\", not a number"));
        let kind = format!("{HEAD}<pre-crawford-table type=\"magic\"/></met>");
        assert!(err(&kind).contains("table type \"magic\""));
    }

    #[test]
    fn a_small_explicit_table_is_read_and_extended() {
        let text = format!(
            "{HEAD}<pre-crawford-table><row><me>0.5</me><me>0.7</me></row>\
             <row><me>0.3</me><me>0.5</me></row></pre-crawford-table>\
             <post-crawford-table><row><me>0.5</me></row></post-crawford-table></met>"
        );
        let met = load(&text, "t.xml").unwrap();
        assert_eq!(met.pre_crawford(1, 2), 0.7);
        assert_eq!(met.pre_crawford(2, 1), 0.3);
        // Extended beyond the file: complementary, and a real chance.
        let (a, b) = (met.pre_crawford(10, 3), met.pre_crawford(3, 10));
        assert!((a + b - 1.0).abs() < 1e-6 && a > 0.0 && a < 0.5);
        assert_eq!(met.post_crawford(0, 1), 0.5);
    }
}
