//! Positions like this one: the distance `library like` ranks by, and the
//! coarse key its index is searched by. Pure; the store holds the SQL.
//!
//! A position's *shape* is, for each side seen from the player on roll
//! (the roller's side first, then the opponent's, each counting from its
//! own 1-point), the cumulative count of its checkers on points 1, 1–2, …,
//! 1–24 and then with the bar (25 numbers a side; borne-off checkers are
//! not counted). The distance of two positions is the L1 distance of their
//! shapes: for each side the one-dimensional earth mover's distance between
//! its checkers, in checker-pips, summed over both sides.
//!
//! The index: the 50 numbers fall into four blocks (each side's points
//! 1–12 and 13–25), and a block's sum changes by at most as much as its
//! numbers do, so the sum of the blocks' differences is a lower bound of
//! the distance. Each block's sum, divided by [`WIDTH`], is a coordinate of
//! the position's *cell*; a cell bounds the distance of every position in
//! it from below ([`cell_bound`]). A query visits cells in the order of
//! that bound ([`CellWalk`]) and stops at the first whose bound exceeds the
//! k-th best distance found: every position it did not read is at least as
//! far as that, so the answer is exactly a full scan's.

use bgedit_core::domain::{Player, Position};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Numbers in a shape: 25 a side.
pub const SHAPE_LEN: usize = 50;

/// A position's cumulative checker counts, roller's side first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape(pub [u8; SHAPE_LEN]);

/// The blocks of a shape whose sums are the cell's coordinates.
const BLOCKS: [(usize, usize); 4] = [(0, 12), (12, 25), (25, 37), (37, 50)];

/// A cell's side along each coordinate, in checker-pips. Narrower cells
/// bound more tightly but cost more look-ups (4 measured best on a million
/// random positions; docs/performance.md).
pub const WIDTH: u32 = 4;

/// The largest coordinate: a block of 13 numbers of at most 15.
const MAX_COORD: i32 = (13 * 15 / WIDTH) as i32;

/// The kind of decision a position asks, for `--same-kind` and the
/// tie-break: a checker play when the dice are rolled, else a cube action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LikeKind {
    Checker = 0,
    Cube = 1,
}

impl LikeKind {
    pub fn of(position: &Position) -> LikeKind {
        if position.state.dice.is_some() {
            LikeKind::Checker
        } else {
            LikeKind::Cube
        }
    }

    pub(crate) fn from_code(code: i64) -> LikeKind {
        if code == 0 {
            LikeKind::Checker
        } else {
            LikeKind::Cube
        }
    }

    pub(crate) fn other(self) -> LikeKind {
        match self {
            LikeKind::Checker => LikeKind::Cube,
            LikeKind::Cube => LikeKind::Checker,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            LikeKind::Checker => "checker",
            LikeKind::Cube => "cube",
        }
    }
}

fn cumulative(side: &[u8; 25], out: &mut [u8]) {
    let mut sum = 0u8;
    for (o, &n) in out.iter_mut().zip(side) {
        sum += n;
        *o = sum;
    }
}

/// The shape of a position, from the side on roll.
pub fn shape(position: &Position) -> Shape {
    let roller: Player = position.state.on_roll;
    let mut s = [0u8; SHAPE_LEN];
    cumulative(position.board.side(roller), &mut s[..25]);
    cumulative(position.board.side(roller.opponent()), &mut s[25..]);
    Shape(s)
}

/// The distance of two shapes, in checker-pips.
pub fn distance(a: &[u8], b: &[u8]) -> u32 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| u32::from(x.abs_diff(y)))
        .sum()
}

/// The sums of a shape's blocks.
pub(crate) fn block_sums(shape: &Shape) -> [u32; 4] {
    BLOCKS.map(|(a, b)| shape.0[a..b].iter().map(|&n| u32::from(n)).sum())
}

/// The cell of a shape, as the index stores it: one byte a coordinate.
pub(crate) fn cell_of(shape: &Shape) -> i64 {
    cell_key(block_sums(shape).map(|s| (s / WIDTH) as i32))
}

fn cell_key(coords: [i32; 4]) -> i64 {
    coords.iter().fold(0i64, |k, &c| k << 8 | i64::from(c))
}

/// The least distance from a query (its block sums) to any position in
/// the cell at `coords`.
fn cell_bound(sums: &[u32; 4], coords: &[i32; 4]) -> u32 {
    sums.iter()
        .zip(coords)
        .map(|(&s, &c)| {
            let (lo, hi) = (c as u32 * WIDTH, c as u32 * WIDTH + WIDTH - 1);
            lo.saturating_sub(s) + s.saturating_sub(hi)
        })
        .sum()
}

/// The cells around a query, nearest bound first (each once).
///
/// A cell is an offset from the query's own cell. Each offset but zero has
/// one parent: its last non-zero coordinate moved one step back toward
/// zero. A cell's children step further out, so their bound is never
/// below its own, and a heap ordered by the bound yields every cell in
/// bound order without a set of those seen. A cell off the grid (a
/// coordinate below 0 or past the largest) holds nothing and neither does
/// any cell beyond it: it is not entered.
pub struct CellWalk {
    sums: [u32; 4],
    home: [i32; 4],
    heap: BinaryHeap<Reverse<(u32, [i32; 4])>>,
}

impl CellWalk {
    pub fn new(shape: &Shape) -> CellWalk {
        let sums = block_sums(shape);
        let home = sums.map(|s| (s / WIDTH) as i32);
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((0, [0; 4])));
        CellWalk { sums, home, heap }
    }

    fn push(&mut self, offset: [i32; 4]) {
        let mut coords = self.home;
        for (c, o) in coords.iter_mut().zip(offset) {
            *c += o;
        }
        if coords.iter().all(|&c| (0..=MAX_COORD).contains(&c)) {
            let bound = cell_bound(&self.sums, &coords);
            self.heap.push(Reverse((bound, offset)));
        }
    }
}

impl Iterator for CellWalk {
    /// A cell's bound and its key.
    type Item = (u32, i64);

    fn next(&mut self) -> Option<(u32, i64)> {
        let Reverse((bound, offset)) = self.heap.pop()?;
        let last = offset.iter().rposition(|&o| o != 0);
        if let Some(l) = last {
            let mut out = offset;
            out[l] += offset[l].signum();
            self.push(out);
        }
        for j in last.map_or(0, |l| l + 1)..4 {
            for step in [1, -1] {
                let mut out = offset;
                out[j] = step;
                self.push(out);
            }
        }
        let mut coords = self.home;
        for (c, o) in coords.iter_mut().zip(offset) {
            *c += o;
        }
        Some((bound, cell_key(coords)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bgedit_core::codec::parse_any;
    use bgedit_core::domain::Board;

    fn of(id: &str) -> Position {
        parse_any(id, &Position::default()).unwrap().position
    }

    #[test]
    fn the_start_has_its_cumulative_counts() {
        let s = shape(&Position::default());
        // 5 on the 6 point, 3 on the 8, 5 on the 13, 2 on the 24.
        assert_eq!(s.0[4], 0);
        assert_eq!(s.0[5], 5);
        assert_eq!(s.0[7], 8);
        assert_eq!(s.0[12], 13);
        assert_eq!(s.0[23], 15);
        assert_eq!(s.0[24], 15);
        assert_eq!(s.0[..25], s.0[25..]);
    }

    fn with_x(x: [u8; 25]) -> Position {
        let start = Position::default();
        Position {
            board: Board::from_sides(*start.board.side(Player::O), x).unwrap(),
            ..start
        }
    }

    #[test]
    fn distances_are_in_checker_pips_and_borne_off_is_not_counted() {
        let start = Position::default();
        let mut x = *start.board.side(Player::X);
        // One back checker from the 24 point to the 23.
        x[23] -= 1;
        x[22] += 1;
        assert_eq!(distance(&shape(&start).0, &shape(&with_x(x)).0), 1);
        // A checker from the 6 point to the 2 point: 4 pips.
        let mut x = *start.board.side(Player::X);
        x[5] -= 1;
        x[1] += 1;
        let home = with_x(x);
        assert_eq!(distance(&shape(&start).0, &shape(&home).0), 4);
        // That checker borne off: one fewer on every count from the 2
        // point to the bar, 24 in all.
        x[1] -= 1;
        assert_eq!(distance(&shape(&home).0, &shape(&with_x(x)).0), 24);
    }

    #[test]
    fn each_side_is_seen_from_the_side_on_roll() {
        let start = Position::default();
        let mut x = *start.board.side(Player::X);
        x[23] -= 1;
        x[22] += 1;
        let mut a = with_x(x);
        a.state.on_roll = Player::X;
        let s = shape(&a);
        assert_eq!((s.0[22], s.0[25 + 22]), (14, 13));
        a.state.on_roll = Player::O;
        let t = shape(&a);
        assert_eq!((t.0[22], t.0[25 + 22]), (13, 14));
    }

    #[test]
    fn the_walk_yields_every_cell_near_once_in_bound_order() {
        let s = shape(&Position::default());
        let sums = block_sums(&s);
        let mut seen = std::collections::HashSet::new();
        let mut last = 0;
        const NEAR: u32 = 40;
        for (bound, key) in CellWalk::new(&s).take_while(|&(b, _)| b <= NEAR) {
            assert!(bound >= last, "{bound} after {last}");
            last = bound;
            assert!(seen.insert(key), "cell {key:x} twice");
            let coords = [24, 16, 8, 0].map(|sh| (key >> sh & 0xff) as i32);
            assert_eq!(bound, cell_bound(&sums, &coords));
        }
        // Every cell on the grid within that bound, counted directly: a
        // coordinate more than NEAR / WIDTH + 1 away is beyond it.
        let home = sums.map(|s| (s / WIDTH) as i32);
        let reach = (NEAR / WIDTH) as i32 + 1;
        let span = |h: i32| (h - reach).max(0)..=(h + reach).min(MAX_COORD);
        let mut near = 0;
        for a in span(home[0]) {
            for b in span(home[1]) {
                for c in span(home[2]) {
                    for d in span(home[3]) {
                        near += usize::from(cell_bound(&sums, &[a, b, c, d]) <= NEAR);
                    }
                }
            }
        }
        assert_eq!(seen.len(), near);
    }

    #[test]
    fn a_cell_bounds_the_distance_of_what_is_in_it() {
        let a = shape(&Position::default());
        let b = shape(&of("XGID=-CCBBBB------------bbbbcc-:0:0:1:00:0:0:0:0:10"));
        let coords = block_sums(&b).map(|s| (s / WIDTH) as i32);
        assert!(cell_bound(&block_sums(&a), &coords) <= distance(&a.0, &b.0));
    }
}
