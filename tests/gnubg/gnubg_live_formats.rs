//! bgedit's own SGF and Snowie text, given to the real gnubg 1.07 (`load
//! position`, `import snowietxt`): gnubg must read back the position bgedit
//! reads from the same file. Needs gnubg: ignored, saying so, when it is
//! missing, but a failure when `BGEDIT_REQUIRE_GNUBG=1`.

use crate::common;
use bgedit_core::codec::{self, gnubg_id, sgf, snowie};
use bgedit_core::domain::{Names, Position};
use serde::Deserialize;
use std::process::{Command, Stdio};

#[derive(Deserialize)]
struct Row {
    kind: String,
    ids: String,
    names: [String; 2],
}

fn ids(p: &Position) -> String {
    gnubg_id::encode(&p.board, &p.state)
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn gnubg_reads_bgedits_sgf_and_snowie_text_to_the_same_ids() {
    let gnubg = common::gnubg();
    let rows: Vec<Row> = include_str!("../fixtures/gnubg_formats.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &Row| r.kind == "position")
        .collect();
    let dir = std::env::temp_dir().join(format!("bgedit_live_formats_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut script = String::from(
        "set player 0 human\nset player 1 human\nset confirm new off\nset confirm save off\n",
    );
    let mut expected = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let mut p = codec::parse_any(&r.ids, &Position::default())
            .unwrap()
            .position;
        // gnubg 1.07 crashes loading an SGF with a cube of 1024 or more.
        if p.state.cube_log2 >= 10 {
            continue;
        }
        p.names = Names {
            o: r.names[0].clone(),
            x: r.names[1].clone(),
        };
        let (mut s, mut t) = (String::new(), String::new());
        sgf::write(&p, &mut s);
        snowie::write(&p, &mut t);
        let sgf_path = dir.join(format!("p{i}.sgf"));
        let txt_path = dir.join(format!("p{i}.txt"));
        std::fs::write(&sgf_path, &s).unwrap();
        std::fs::write(&txt_path, &t).unwrap();
        script += &format!(
            "load position {}\nshow board\nbgedit_marker_s{i}\nimport snowietxt {}\nshow board\nbgedit_marker_t{i}\n",
            sgf_path.display(),
            txt_path.display()
        );
        expected.push((
            i,
            ids(&sgf::read(&s).unwrap()),
            ids(&snowie::read(&t).unwrap()),
        ));
    }
    // One stream, unbuffered, so the markers (unknown commands, on stderr)
    // fall between the boards they follow.
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("exec stdbuf -o0 -e0 \"$0\" -t -q 2>&1")
        .arg(&gnubg)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gnubg runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(script.as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    // Each case's output is what comes before its marker.
    let shown = |marker: &str| -> Option<String> {
        let end = text.find(&format!("`{marker}'"))?;
        // Only this case's output: after the previous marker.
        let start = text[..end].rfind("bgedit_marker_").map_or(0, |i| i + 14);
        let before = &text[start..end];
        let p = before.rfind("Position ID: ")?;
        let m = before.rfind("Match ID   : ")?;
        let pos = before[p + 13..].split_whitespace().next()?;
        let mid = before[m + 13..].split_whitespace().next()?;
        Some(format!("{pos}:{mid}"))
    };
    let mut failures = Vec::new();
    for (i, want_sgf, want_snowie) in &expected {
        let got = shown(&format!("bgedit_marker_s{i}"));
        if got.as_deref() != Some(want_sgf.as_str()) {
            failures.push(format!(
                "SGF {}: bgedit {want_sgf}, gnubg {got:?}",
                rows[*i].ids
            ));
        }
        let got = shown(&format!("bgedit_marker_t{i}"));
        if got.as_deref() != Some(want_snowie.as_str()) {
            failures.push(format!(
                "Snowie {}: bgedit {want_snowie}, gnubg {got:?}",
                rows[*i].ids
            ));
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(expected.len() >= 150, "{}", expected.len());
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        2 * expected.len(),
        failures[..failures.len().min(8)].join("\n")
    );
}
