//! `show` and `convert` look through their answer for characters to escape
//! only when a name holds one (the names are the only text of a board or an
//! ID that comes from outside). Names that turn the text around (bidi
//! controls, which a name may hold) and comments with every control, through
//! every road of the two commands: names given as options, read with the
//! position (JSON, SGF), IDs as arguments and on standard input, every
//! output format, and files. None may reach the terminal raw, and the names
//! must still be there, escaped.

use crate::common::run::{command, output_of};

/// A name that reads backwards and hides what follows it.
const BIDI: &str = "\u{202e}gpj\u{2066}x\u{2069}";
/// A comment that sets the window title, then a C1 CSI, then turns around.
const HOSTILE: &str = "\x1b]0;owned\x07\u{9b}31m\u{202e}gpj\u{2066}x\x7f";
const ID: &str = "4HPwATDgc/ABMA:cAkAAAAAAAAA";

/// The first character that must not reach a terminal, if any.
fn raw_control(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        (c.is_control() && c != '\n' && c != '\t')
            || ('\u{202a}'..='\u{202e}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
    })
}

/// The opening position as JSON, both names hostile.
fn json() -> String {
    let out = command()
        .args(["convert", "--to", "json", ID])
        .output()
        .unwrap();
    let line = String::from_utf8(out.stdout).unwrap();
    let named = line.replace(
        r#""names":{"O":"White","X":"Black"}"#,
        &format!(r#""names":{{"O":"{BIDI}","X":"{BIDI}"}}"#),
    );
    assert_ne!(named, line, "{line}");
    named.trim().to_owned()
}

/// The opening position as one line of SGF, both names hostile.
fn sgf_line() -> String {
    format!(
        "(;FF[4]GM[6]CA[UTF-8]AP[bgedit:0.1.0]MI[length:0][game:0][ws:0][bs:0]PW[{BIDI}]PB[{BIDI}]RU[]\
         ;PL[B]AE[a:y]AW[f][f][f][f][f][h][h][h][m][m][m][m][m][x][x]\
         AB[s][s][s][s][s][q][q][q][l][l][l][l][l][a][a];CV[1];CP[c])"
    )
}

/// A match file with hostile names and comments.
fn sgf_file(dir: &std::path::Path) -> std::path::PathBuf {
    let hostile = HOSTILE.replace(']', "\\]");
    let text = format!(
        "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:1][game:0][ws:0][bs:0]\
         PW[{BIDI}]PB[{BIDI}]GC[{hostile}]RU[]\n;B[31qtst]C[{hostile}]\n;W[64xrrn]C[{hostile}])\n"
    );
    let path = dir.join("names.sgf");
    std::fs::write(&path, text).unwrap();
    path
}

/// One road: its arguments, its standard input, and whether the names are
/// in its answer (an ID alone holds none).
struct Road {
    args: Vec<String>,
    stdin: String,
    names_shown: bool,
}

fn road(args: &[&str], stdin: &str, names_shown: bool) -> Road {
    Road {
        args: args.iter().map(|a| a.to_string()).collect(),
        stdin: stdin.to_owned(),
        names_shown,
    }
}

#[test]
fn hostile_names_and_comments_come_out_escaped_through_every_road_of_show_and_convert() {
    let dir = tempfile::tempdir().unwrap();
    let file = sgf_file(dir.path());
    let file = file.to_str().unwrap();
    let (json, sgf) = (json(), sgf_line());
    let named = ["--name-o", BIDI, "--name-x", BIDI];
    let mut roads = vec![
        road(&[&["show"][..], &named, &[ID]].concat(), "", true),
        road(&[&["show"][..], &named].concat(), &format!("{ID}\n"), true),
        road(&["show", &json], "", true),
        road(&["show"], &format!("{json}\n"), true),
        road(&["show", &sgf], "", true),
        road(&["show"], &format!("{sgf}\n"), true),
    ];
    let with_names = ["json", "sgf", "fibs", "snowie", "xgtext"];
    for to in with_names
        .iter()
        .chain(&["gnubg", "xgid", "posid", "matchid", "header"])
    {
        let shown = with_names.contains(to);
        let convert = ["convert", "--to", to];
        roads.push(road(&[&convert[..], &named, &[ID]].concat(), "", shown));
        roads.push(road(
            &[&convert[..], &named].concat(),
            &format!("{ID}\n"),
            shown,
        ));
        roads.push(road(&[&convert[..], &[json.as_str()]].concat(), "", shown));
        roads.push(road(&convert, &format!("{json}\n{sgf}\n"), shown));
        roads.push(road(&[&convert[..], &["--file", file]].concat(), "", shown));
    }
    let mut leaks = Vec::new();
    for r in &roads {
        let out = output_of(command().args(&r.args), &r.stdin);
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        for (stream, text) in [("stdout", &stdout), ("stderr", &stderr)] {
            if let Some(c) = raw_control(text) {
                leaks.push(format!("{:?}: {stream} holds {c:?}: {text:?}", r.args));
            }
        }
        // Escaped as text (`\u{202e}`) or in JSON's own way (`\u202e`).
        let escaped = ["\\u{202e}gpj", "\\u202egpj"];
        if r.names_shown && !escaped.iter().any(|e| stdout.contains(e)) {
            leaks.push(format!(
                "{:?}: the name is not shown escaped: {stdout:?} {stderr:?}",
                r.args
            ));
        }
    }
    assert!(leaks.is_empty(), "{}", leaks.join("\n"));
}
