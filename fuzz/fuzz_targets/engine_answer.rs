//! The engines' answers as bgedit reads them: a line of gnubg's bridge
//! (`engine::answer::parse_line`) and of Open Sage's (`internals::parse_sage_line`,
//! which names Sage's boards by bgedit's own legal moves). A process's output
//! is input like any file: it never panics, and an answer accepted has its
//! numbers in range and, for Sage, only moves legal in the position asked.
#![no_main]

use bgedit_core::codec;
use bgedit_core::domain::Position;
use bgedit_engine::answer::{Garbage, Reply, parse_line};
use bgedit_engine::internals::parse_sage_line;
use bgedit_engine::{Analysis, Request};
use bgedit_fuzz::text;
use libfuzzer_sys::fuzz_target;

fn request(id: &str) -> Request {
    Request {
        id: 1,
        position: codec::parse_any(id, &Position::default()).unwrap().position,
        plies: 0,
        moves: 0,
    }
}

fn check(reply: Result<Reply, Garbage>) {
    if let Ok(Reply::Answer(_, Ok(a)) | Reply::Progress(_, a)) = reply {
        if let Analysis::Moves { moves, .. } = &a {
            for m in moves {
                assert!(m.equity.is_finite() && m.probs.iter().all(|p| p.is_finite()));
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some(line) = text(data) else { return };
    check(parse_line(line));
    // The opening 31 (moves), and the opening position without dice (cube).
    for id in ["4HPwATDgc/ABMA:cIkFAAAAAAAA", "4HPwATDgc/ABMA:cAkAAAAAAAAA"] {
        let req = request(id);
        let reply = parse_sage_line(line, &req);
        if let Ok(Reply::Answer(_, Ok(Analysis::Moves { moves, .. }))) = &reply {
            // Every move named is one of the position's legal moves.
            let legal: Vec<String> = bgedit_core::domain::moves::position_moves(&req.position)
                .map(|l| l.iter().map(|m| m.notation()).collect())
                .unwrap_or_default();
            for m in moves {
                assert!(legal.contains(&m.notation), "{}", m.notation);
            }
        }
        check(reply);
    }
});
