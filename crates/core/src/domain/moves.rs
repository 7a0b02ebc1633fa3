//! Legal moves: generating them for a roll, checking a typed move against the
//! dice, playing one, and free moves for setting up.
//!
//! Points are counted for the player who moves (1–24, the bar 25, off 0), as
//! in the notation ([`super::notation`]).
//!
//! The API:
//! - [`legal_moves`]`(&Board, on_roll, dice) -> Vec<LegalMove>`: one entry per
//!   distinct resulting position, in the order gnubg 1.07's move generator
//!   finds them (larger die first, then the smaller, sources from the back),
//!   each with its steps, gnubg's notation and the board after it.
//! - [`check_move`]`(&Position, &TypedMove) -> Result<LegalMove, MoveRuleError>`:
//!   the legal move a typed move means, or the rule it breaks.
//! - [`apply`]`(&Position, &LegalMove) -> Position`: gnubg's `move`: the board
//!   after the move, the turn passed to the opponent, the dice cleared.
//! - [`pass_turn`]: the turn passed without moving.
//! - [`free_move`]`(&Board, player, &TypedMove)`: any checker from a place to
//!   another, hitting a lone opposing checker; no dice, refused when it
//!   would leave an illegal board.
//! - [`classify_steps`]: whether steps made one at a time (pick up and drop)
//!   are a legal move, part of one, or neither.
//!
//! The generator follows gnubg's rules exactly: both dice when possible,
//! otherwise the larger when either can be played alone, doubles up to four
//! times, the bar first, bearing off only with every checker home and from
//! below the highest point only with an exact die. Of several step orders
//! reaching one position, the first found is kept, as gnubg keeps it, so the
//! notation is gnubg's.

use super::board::{BAR, Board};
use super::match_state::GameState;
use super::notation::{BAR_POINT, OFF_POINT, Step, TypedMove, format_steps};
use super::player::Player;
use super::position::Position;

/// One legal move for a roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalMove {
    steps: [Step; 4],
    len: u8,
    /// Bit p set: the opponent had a checker on the mover's point p before
    /// the move (gnubg marks hits from the board before the move).
    opponent_before: u32,
    /// The board after the move.
    pub result: Board,
}

impl LegalMove {
    /// The single-die steps, in the order they are played.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..usize::from(self.len)]
    }

    /// gnubg's notation for the move (`24/18*/14 13/9`).
    pub fn notation(&self) -> String {
        let mask = self.opponent_before;
        format_steps(self.steps(), |p| mask & (1 << p) != 0)
    }
}

/// Mover-relative view of a board: `me[i]` the mover's checkers on its point
/// i+1 (i = 24: bar), `opp[i]` the opponent's on its own point i+1. The
/// mover's point p is the opponent's point 25 - p, index 24 - p.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Sides {
    me: [u8; 25],
    opp: [u8; 25],
}

impl Sides {
    fn of(board: &Board, mover: Player) -> Sides {
        Sides {
            me: *board.side(mover),
            opp: *board.side(mover.opponent()),
        }
    }

    fn to_board(self, mover: Player) -> Board {
        match mover {
            Player::X => Board::from_sides_unchecked(self.opp, self.me),
            Player::O => Board::from_sides_unchecked(self.me, self.opp),
        }
    }

    /// Opponent checkers on the mover's point p (1–24).
    fn opp_at(&self, point: u8) -> u8 {
        self.opp[24 - usize::from(point)]
    }

    fn opponent_mask(&self) -> u32 {
        (1..=24u8)
            .filter(|&p| self.opp_at(p) > 0)
            .fold(0, |m, p| m | 1 << p)
    }

    /// Highest point (1–25) holding a mover's checker, 0 when none.
    fn highest(&self) -> u8 {
        (0..25)
            .rev()
            .find(|&i| self.me[i] > 0)
            .map_or(0, |i| i as u8 + 1)
    }

    /// gnubg's `LegalMove`: may a checker on `from` (1–25) move `die` pips?
    fn can_step(&self, from: u8, die: u8) -> bool {
        if from > die {
            return self.opp_at(from - die) < 2;
        }
        let highest = self.highest();
        highest <= 6 && (from == highest || from == die)
    }

    /// Moves one checker `die` pips from `from`, hitting a blot it lands on.
    fn step(&mut self, from: u8, die: u8) -> Step {
        self.me[usize::from(from) - 1] -= 1;
        if from > die {
            let to = from - die;
            self.me[usize::from(to) - 1] += 1;
            let opp_index = 24 - usize::from(to);
            if self.opp[opp_index] == 1 {
                self.opp[opp_index] = 0;
                self.opp[BAR] += 1;
            }
            Step { from, to }
        } else {
            Step {
                from,
                to: OFF_POINT,
            }
        }
    }
}

/// The resulting positions found so far, by a hash of the board, to keep
/// one move per position without comparing every pair (doubles reach
/// hundreds of moves).
#[derive(Default)]
struct SeenPositions {
    /// Open addressing: (hash, index into the moves + 1); 0 is empty.
    slots: Vec<(u64, u32)>,
    len: usize,
}

impl SeenPositions {
    fn hash(sides: &Sides) -> u64 {
        let word = |a: &[u8; 25], i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&a[i..i + 8]);
            u64::from_le_bytes(w)
        };
        let mut h: u64 = 0;
        for a in [&sides.me, &sides.opp] {
            for i in [0, 8, 16] {
                h = (h ^ word(a, i)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            }
            h = (h ^ u64::from(a[24])).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        h ^ (h >> 32)
    }

    fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = (0, 0));
        self.len = 0;
    }

    /// Adds a position as number `keys.len()`; false when one of `keys`
    /// (the positions found so far) is the same.
    fn insert(&mut self, sides: &Sides, keys: &[Sides]) -> bool {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow(keys);
        }
        let hash = Self::hash(sides);
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let (h, index) = self.slots[i];
            if index == 0 {
                self.slots[i] = (hash, keys.len() as u32 + 1);
                self.len += 1;
                return true;
            }
            if h == hash && keys[index as usize - 1] == *sides {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self, keys: &[Sides]) {
        let size = (self.slots.len() * 2).max(64);
        self.slots = vec![(0, 0); size];
        self.len = 0;
        let mask = size - 1;
        for (k, key) in keys.iter().enumerate() {
            let hash = Self::hash(key);
            let mut i = hash as usize & mask;
            while self.slots[i].1 != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = (hash, k as u32 + 1);
            self.len += 1;
        }
    }
}

struct Search {
    moves: Vec<LegalMove>,
    seen: SeenPositions,
    keys: Vec<Sides>,
    max_steps: u8,
    max_pips: u8,
    opponent_before: u32,
    mover: Player,
}

impl Search {
    /// gnubg's `SaveMoves`: keeps only moves that play the most dice and
    /// pips, and the first found for each resulting position.
    fn save(&mut self, steps: &[Step; 4], len: u8, pips: u8, sides: &Sides) {
        if len < self.max_steps || pips < self.max_pips {
            return;
        }
        if len > self.max_steps || pips > self.max_pips {
            self.moves.clear();
            self.seen.clear();
            self.keys.clear();
        }
        self.max_steps = len;
        self.max_pips = pips;
        if !self.seen.insert(sides, &self.keys) {
            return;
        }
        self.keys.push(*sides);
        self.moves.push(LegalMove {
            steps: *steps,
            len,
            opponent_before: self.opponent_before,
            result: sides.to_board(self.mover),
        });
    }

    /// gnubg's `GenerateMovesSub`. Returns true when no checker could move
    /// at this depth, so the caller saves the move made so far.
    fn sub(
        &mut self,
        dice: &[u8; 4],
        depth: usize,
        start: u8,
        pips: u8,
        sides: &Sides,
        steps: &mut [Step; 4],
    ) -> bool {
        if depth > 3 || dice[depth] == 0 {
            return true;
        }
        let die = dice[depth];
        if sides.me[BAR] > 0 {
            if sides.opp[usize::from(die) - 1] >= 2 {
                return true;
            }
            let mut next = *sides;
            steps[depth] = next.step(BAR_POINT, die);
            if self.sub(dice, depth + 1, 24, pips + die, &next, steps) {
                self.save(steps, depth as u8 + 1, pips + die, &next);
            }
            return false;
        }
        let mut used = false;
        for from in (1..=start).rev() {
            if sides.me[usize::from(from) - 1] > 0 && sides.can_step(from, die) {
                let mut next = *sides;
                steps[depth] = next.step(from, die);
                let next_start = if dice[0] == dice[1] { from } else { 24 };
                if self.sub(dice, depth + 1, next_start, pips + die, &next, steps) {
                    self.save(steps, depth as u8 + 1, pips + die, &next);
                }
                used = true;
            }
        }
        !used
    }
}

/// Every legal move of `on_roll` for `dice`, one per distinct resulting
/// position, in gnubg's generation order. Empty when no checker can move.
pub fn legal_moves(board: &Board, on_roll: Player, dice: [u8; 2]) -> Vec<LegalMove> {
    let [a, b] = dice;
    if !(1..=6).contains(&a) || !(1..=6).contains(&b) {
        return Vec::new();
    }
    let sides = Sides::of(board, on_roll);
    let mut search = Search {
        moves: Vec::with_capacity(32),
        seen: SeenPositions::default(),
        keys: Vec::with_capacity(32),
        max_steps: 0,
        max_pips: 0,
        opponent_before: sides.opponent_mask(),
        mover: on_roll,
    };
    let doubles = if a == b { a } else { 0 };
    let mut steps = [Step { from: 0, to: 0 }; 4];
    search.sub(&[a, b, doubles, doubles], 0, 24, 0, &sides, &mut steps);
    if a != b {
        search.sub(&[b, a, 0, 0], 0, 24, 0, &sides, &mut steps);
    }
    search.moves
}

/// Why there is nothing to play in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoMovesReason {
    #[error("no dice rolled")]
    NoDice,
    #[error("the game is not in play ({0})")]
    NotPlaying(&'static str),
    #[error("a double is on offer: it must be taken or dropped before moving")]
    DoubleOffered,
    #[error("a resignation is on offer")]
    ResignationOffered,
    #[error("no legal move: {0} cannot move with these dice")]
    NoLegalMove(Player),
}

/// The legal moves of a position's player on roll for its dice, or why there
/// are none.
pub fn position_moves(position: &Position) -> Result<Vec<LegalMove>, NoMovesReason> {
    let dice = playable_dice(position)?;
    let moves = legal_moves(&position.board, position.state.on_roll, dice);
    if moves.is_empty() {
        return Err(NoMovesReason::NoLegalMove(position.state.on_roll));
    }
    Ok(moves)
}

fn playable_dice(position: &Position) -> Result<[u8; 2], NoMovesReason> {
    let state = &position.state;
    if state.game_state != GameState::Playing {
        return Err(NoMovesReason::NotPlaying(state.game_state.words()));
    }
    if state.double_offered {
        return Err(NoMovesReason::DoubleOffered);
    }
    if state.resignation != super::match_state::Resignation::None {
        return Err(NoMovesReason::ResignationOffered);
    }
    state.dice.ok_or(NoMovesReason::NoDice)
}

/// gnubg's `move`: the board after the move, the opponent on roll, the dice
/// cleared. When the mover bears off its last checker the game is over:
/// gnubg then scores it and starts the next game on a new board, bgedit keeps
/// the final board with the game marked over.
pub fn apply(position: &Position, legal: &LegalMove) -> Position {
    let mut next = position.clone();
    next.board = legal.result.clone();
    pass_state(&mut next);
    if next.board.on_board(position.state.on_roll) == 0 {
        // gnubg scores the game and sets up the next one with an opening
        // roll; bgedit keeps the final position for study.
        next.state.game_state = GameState::Over;
    }
    next
}

/// The turn passed to the opponent without moving (for setting up).
pub fn pass_turn(position: &Position) -> Position {
    let mut next = position.clone();
    pass_state(&mut next);
    next
}

fn pass_state(position: &mut Position) {
    let next = position.state.on_roll.opponent();
    position.state.on_roll = next;
    position.state.turn = next;
    position.state.dice = None;
    position.state.double_offered = false;
}

/// A typed move that is not legal for the dice, with the rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveRuleError {
    #[error("{0}")]
    Nothing(NoMovesReason),
    #[error("{player} has no checker on {place}")]
    NoChecker { player: Player, place: String },
    #[error("{from}/{to} moves backwards; checkers move from higher points to lower")]
    Backwards { from: String, to: String },
    #[error("must enter from the bar first ({0} on the bar)")]
    EnterFirst(u8),
    #[error("wrong dice: {from}/{to} is {pips} pips; the dice are {dice}")]
    WrongDie {
        from: String,
        to: String,
        pips: u8,
        dice: String,
    },
    #[error("blocked point: the opponent holds your {0} point")]
    Blocked(u8),
    #[error("may not bear off yet: not every checker is in the home board")]
    NotAllHome,
    #[error("may bear off from {point} with a {die} only when no checker stands higher")]
    HigherCheckerFirst { point: u8, die: u8 },
    #[error("must use both dice: a move using both can be played")]
    MustUseBoth,
    #[error("must play as many dice as possible ({0})")]
    MustUseMore(u8),
    #[error("must play the larger die ({0}) when only one die can be played")]
    MustPlayLarger(u8),
    #[error("the move plays more dice than the roll gives")]
    TooManyDice,
    #[error("not a legal move for {0}")]
    NotLegal(String),
}

fn place_name(point: u8) -> String {
    match point {
        BAR_POINT => "the bar".to_owned(),
        OFF_POINT => "off".to_owned(),
        p => format!("point {p}"),
    }
}

fn point_text(point: u8) -> String {
    match point {
        BAR_POINT => "bar".to_owned(),
        OFF_POINT => "off".to_owned(),
        p => p.to_string(),
    }
}

fn dice_text(dice: [u8; 2]) -> String {
    format!("{}-{}", dice[0], dice[1])
}

/// Applies typed hops directly: each checker goes from its source to its
/// destination, landing (and hitting a blot) on every point named. `None`
/// when a source has no checker or a landing is held by two or more.
fn apply_hops(sides: &Sides, hops: &[super::notation::Step]) -> Option<Sides> {
    let mut s = *sides;
    for hop in hops {
        if hop.from == 0 || hop.from > 25 || hop.to > 24 {
            return None;
        }
        let from = usize::from(hop.from) - 1;
        if s.me[from] == 0 {
            return None;
        }
        s.me[from] -= 1;
        if hop.to != OFF_POINT {
            let opp_index = 24 - usize::from(hop.to);
            match s.opp[opp_index] {
                0 => {}
                1 => {
                    s.opp[opp_index] = 0;
                    s.opp[BAR] += 1;
                }
                _ => return None,
            }
            s.me[usize::from(hop.to) - 1] += 1;
        }
    }
    Some(s)
}

/// The legal move a typed move means for the position's dice, or the rule
/// it breaks. The typed move matches the legal move reaching the same
/// position, so any order of steps and `*` or not are accepted; a path
/// without an intermediate point (`13/6`) means the checker does not touch
/// down where it would hit.
pub fn check_move(position: &Position, typed: &TypedMove) -> Result<LegalMove, MoveRuleError> {
    let dice = playable_dice(position).map_err(MoveRuleError::Nothing)?;
    let mover = position.state.on_roll;
    let moves = legal_moves(&position.board, mover, dice);
    if moves.is_empty() {
        return Err(MoveRuleError::Nothing(NoMovesReason::NoLegalMove(mover)));
    }
    let sides = Sides::of(&position.board, mover);
    let hops = typed.hops();
    if let Some(after) = apply_hops(&sides, &hops) {
        let target = after.to_board(mover);
        if let Some(found) = moves.iter().find(|m| m.result == target) {
            return Ok(found.clone());
        }
    }
    Err(diagnose(&sides, mover, dice, &hops, &moves))
}

/// Finds the rule a typed move breaks: tries every way of playing its hops
/// with the dice and reports the failure of the attempt that got furthest.
fn diagnose(
    sides: &Sides,
    mover: Player,
    dice: [u8; 2],
    hops: &[Step],
    moves: &[LegalMove],
) -> MoveRuleError {
    for hop in hops {
        if hop.from != BAR_POINT && hop.from <= hop.to {
            return MoveRuleError::Backwards {
                from: point_text(hop.from),
                to: point_text(hop.to),
            };
        }
    }
    // Sources must hold checkers (a checker may continue from where an
    // earlier hop put it).
    let mut counts = sides.me;
    for hop in hops {
        let from = usize::from(hop.from) - 1;
        if counts[from] == 0 {
            return MoveRuleError::NoChecker {
                player: mover,
                place: place_name(hop.from),
            };
        }
        counts[from] -= 1;
        if hop.to != OFF_POINT {
            counts[usize::from(hop.to) - 1] += 1;
        }
    }
    let on_bar = sides.me[BAR];
    if on_bar > 0 {
        let entering = hops.iter().filter(|h| h.from == BAR_POINT).count();
        let first_other = hops.iter().position(|h| h.from != BAR_POINT);
        if let Some(k) = first_other
            && (entering < usize::from(on_bar) || hops[..k].iter().any(|h| h.from != BAR_POINT))
        {
            return MoveRuleError::EnterFirst(on_bar);
        }
    }
    let pool: Vec<u8> = if dice[0] == dice[1] {
        vec![dice[0]; 4]
    } else {
        vec![dice[0], dice[1]]
    };
    // Each hop's distance must be some of the dice added up (a bear-off
    // may use more than the distance).
    for hop in hops {
        let pips = hop.from - hop.to;
        let reachable = (1u32..(1 << pool.len())).any(|subset| {
            let sum: u8 = (0..pool.len())
                .filter(|i| subset & (1 << i) != 0)
                .map(|i| pool[i])
                .sum();
            sum == pips || (hop.to == OFF_POINT && sum > pips)
        });
        if !reachable {
            return MoveRuleError::WrongDie {
                from: point_text(hop.from),
                to: point_text(hop.to),
                pips,
                dice: dice_text(dice),
            };
        }
    }
    // Bar hops first, then the others in written order.
    let mut ordered: Vec<Step> = hops
        .iter()
        .filter(|h| h.from == BAR_POINT)
        .copied()
        .collect();
    ordered.extend(hops.iter().filter(|h| h.from != BAR_POINT));
    let mut best: Option<(usize, MoveRuleError)> = None;
    let mut completed: Vec<Vec<u8>> = Vec::new();
    play_hops(
        sides,
        &ordered,
        0,
        &pool,
        &mut Vec::new(),
        0,
        &mut best,
        &mut completed,
    );
    if let Some(used) = completed.first() {
        let max_steps = moves.iter().map(|m| m.len).max().unwrap_or(0);
        let used_count = used.len() as u8;
        if used_count < max_steps {
            return if dice[0] != dice[1] {
                MoveRuleError::MustUseBoth
            } else {
                MoveRuleError::MustUseMore(max_steps)
            };
        }
        if dice[0] != dice[1] && max_steps == 1 {
            let larger = dice[0].max(dice[1]);
            if completed.iter().all(|u| u.first() != Some(&larger)) {
                return MoveRuleError::MustPlayLarger(larger);
            }
        }
        return MoveRuleError::NotLegal(dice_text(dice));
    }
    match best {
        Some((_, err)) => err,
        None => {
            let hop = ordered.first().copied().unwrap_or(Step { from: 0, to: 0 });
            let pips = hop.from.saturating_sub(hop.to);
            if pool.len() < hops.len() {
                return MoveRuleError::TooManyDice;
            }
            MoveRuleError::WrongDie {
                from: point_text(hop.from),
                to: point_text(hop.to),
                pips,
                dice: dice_text(dice),
            }
        }
    }
}

/// Plays `hops[k..]` with the dice left in `pool`, each hop taking one or
/// more dice in turn. Records the deepest failure in `best` and the dice
/// used by each complete attempt in `completed`.
#[allow(clippy::too_many_arguments)]
fn play_hops(
    sides: &Sides,
    hops: &[Step],
    k: usize,
    pool: &[u8],
    used: &mut Vec<u8>,
    depth: usize,
    best: &mut Option<(usize, MoveRuleError)>,
    completed: &mut Vec<Vec<u8>>,
) {
    if k == hops.len() {
        completed.push(used.clone());
        return;
    }
    let hop = hops[k];
    let fail = |best: &mut Option<(usize, MoveRuleError)>, depth: usize, err: MoveRuleError| {
        if best.as_ref().is_none_or(|(d, _)| depth > *d) {
            *best = Some((depth, err));
        }
    };
    // Try each die first, then continue the same hop with the rest.
    let mut tried = [false; 7];
    for (i, &die) in pool.iter().enumerate() {
        if tried[usize::from(die)] {
            continue;
        }
        tried[usize::from(die)] = true;
        let distance = hop.from - hop.to;
        if die > distance && hop.to != OFF_POINT {
            continue;
        }
        if hop.from > die {
            let to = hop.from - die;
            if to < hop.to {
                continue;
            }
            if sides.opp_at(to) >= 2 {
                fail(best, depth + 1, MoveRuleError::Blocked(to));
                continue;
            }
        } else if !sides.can_step(hop.from, die) {
            let err = if sides.highest() > 6 {
                MoveRuleError::NotAllHome
            } else {
                MoveRuleError::HigherCheckerFirst {
                    point: hop.from,
                    die,
                }
            };
            fail(best, depth + 1, err);
            continue;
        }
        let mut next = *sides;
        let step = next.step(hop.from, die);
        let mut rest: Vec<u8> = pool.to_vec();
        rest.remove(i);
        used.push(die);
        if step.to == hop.to {
            play_hops(&next, hops, k + 1, &rest, used, depth + 1, best, completed);
        } else {
            let mut remaining = hops.to_vec();
            remaining[k] = Step {
                from: step.to,
                to: hop.to,
            };
            if rest.is_empty() {
                fail(best, depth + 1, MoveRuleError::TooManyDice);
            } else {
                play_hops(
                    &next,
                    &remaining,
                    k,
                    &rest,
                    used,
                    depth + 1,
                    best,
                    completed,
                );
            }
        }
        used.pop();
    }
}

/// Why a free move (no dice) is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FreeMoveError {
    #[error("{player} has no checker on {place}")]
    NoChecker { player: Player, place: String },
    #[error("the opponent holds your {0} point with two or more checkers")]
    Held(u8),
    #[error("a checker cannot move from {0} to the same place")]
    SamePlace(String),
}

/// Moves checkers of `player` from place to place without dice (for
/// setting up): any distance, either direction, to the bar (25) or off (0);
/// a lone opposing checker where one lands goes to its bar.
pub fn free_move(board: &Board, player: Player, typed: &TypedMove) -> Result<Board, FreeMoveError> {
    let mut s = Sides::of(board, player);
    for hop in typed.hops() {
        if hop.from == hop.to {
            return Err(FreeMoveError::SamePlace(place_name(hop.from)));
        }
        let no_checker = || FreeMoveError::NoChecker {
            player,
            place: place_name(hop.from),
        };
        if hop.from == OFF_POINT {
            if s.me.iter().map(|&n| u32::from(n)).sum::<u32>() >= 15 {
                return Err(no_checker());
            }
        } else {
            let from = usize::from(hop.from) - 1;
            if s.me[from] == 0 {
                return Err(no_checker());
            }
            s.me[from] -= 1;
        }
        match hop.to {
            OFF_POINT => {}
            BAR_POINT => s.me[BAR] += 1,
            to => {
                let opp_index = 24 - usize::from(to);
                match s.opp[opp_index] {
                    0 => {}
                    1 => {
                        s.opp[opp_index] = 0;
                        s.opp[BAR] += 1;
                    }
                    _ => return Err(FreeMoveError::Held(to)),
                }
                s.me[usize::from(to) - 1] += 1;
            }
        }
    }
    Ok(s.to_board(player))
}

/// The board `steps` reach when `mover` plays them one at a time from
/// `board`, hitting as they land; `None` when a step is impossible (from
/// an empty point, onto a point the opponent holds). A file's own steps
/// are checked with it against the legal move it names.
pub(crate) fn steps_reach(board: &Board, mover: Player, steps: &[Step]) -> Option<Board> {
    let sides = Sides::of(board, mover);
    apply_hops(&sides, steps).map(|now| now.to_board(mover))
}

/// How far steps made one at a time (picking up and dropping checkers) are
/// from a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepsVerdict {
    /// The steps are a whole legal move.
    Legal(LegalMove),
    /// The steps so far are the start of this many legal moves.
    Partial(usize),
    /// No legal move starts with these steps.
    NotLegal,
}

/// Classifies the board reached by free steps against the legal moves: a
/// legal move's result, a position on the way to some legal moves, or
/// neither. `steps` are the (from, to) hops made so far by the mover.
pub fn classify_steps(position: &Position, steps: &[Step]) -> Option<StepsVerdict> {
    let dice = playable_dice(position).ok()?;
    let mover = position.state.on_roll;
    let moves = legal_moves(&position.board, mover, dice);
    let sides = Sides::of(&position.board, mover);
    let Some(now) = apply_hops(&sides, steps) else {
        return Some(StepsVerdict::NotLegal);
    };
    let board_now = now.to_board(mover);
    if let Some(m) = moves.iter().find(|m| m.result == board_now) {
        return Some(StepsVerdict::Legal(m.clone()));
    }
    // Partial: some of a legal move's steps, in some order, reach it.
    let count = moves
        .iter()
        .filter(|m| prefix_orders_reach(&sides, m, &board_now, mover))
        .count();
    Some(if count > 0 {
        StepsVerdict::Partial(count)
    } else {
        StepsVerdict::NotLegal
    })
}

/// Whether some subset of a legal move's steps, played in some order,
/// reaches `target` (the player may play the dice in either order).
fn prefix_orders_reach(sides: &Sides, m: &LegalMove, target: &Board, mover: Player) -> bool {
    let steps = m.steps();
    let n = steps.len();
    (1u32..(1 << n) - 1).any(|subset| {
        let chosen: Vec<Step> = (0..n)
            .filter(|i| subset & (1 << i) != 0)
            .map(|i| steps[i])
            .collect();
        match apply_hops(sides, &chosen) {
            Some(s) => s.to_board(mover) == *target,
            None => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::notation::parse;

    fn notations(board: &Board, dice: [u8; 2]) -> Vec<String> {
        legal_moves(board, Player::X, dice)
            .iter()
            .map(LegalMove::notation)
            .collect()
    }

    #[test]
    fn opening_rolls_have_gnubgs_counts() {
        let b = Board::starting();
        assert_eq!(notations(&b, [3, 1]).len(), 16);
        assert_eq!(notations(&b, [1, 1]).len(), 42);
        assert!(notations(&b, [3, 1]).contains(&"8/5 6/5".to_owned()));
        assert!(notations(&b, [6, 1]).contains(&"13/7 8/7".to_owned()));
        assert!(notations(&b, [6, 5]).contains(&"24/13".to_owned()));
    }

    fn position_with_dice(dice: [u8; 2]) -> Position {
        let mut p = Position::default();
        p.state.dice = Some(dice);
        p
    }

    #[test]
    fn typed_moves_are_matched_or_refused_with_the_rule() {
        let p = position_with_dice([6, 1]);
        let m = check_move(&p, &parse("8-7 13-7").unwrap()).unwrap();
        assert_eq!(m.notation(), "13/7 8/7");
        assert_eq!(
            check_move(&p, &parse("13/7").unwrap()),
            Err(MoveRuleError::MustUseBoth)
        );
        assert!(matches!(
            check_move(&p, &parse("13/8 6/5").unwrap()),
            Err(MoveRuleError::WrongDie { .. })
        ));
        assert!(matches!(
            check_move(&p, &parse("7/1 6/5").unwrap()),
            Err(MoveRuleError::NoChecker { .. })
        ));
        assert_eq!(
            check_move(&p, &parse("6/off 6/5").unwrap()),
            Err(MoveRuleError::NotAllHome)
        );
        assert!(matches!(
            check_move(&p, &parse("7/13").unwrap()),
            Err(MoveRuleError::Backwards { .. })
        ));
        let none = Position::default();
        assert_eq!(
            check_move(&none, &parse("13/7").unwrap()),
            Err(MoveRuleError::Nothing(NoMovesReason::NoDice))
        );
    }

    /// X on roll with `dice`; X's and O's checkers by own point (25 = bar).
    fn custom(x: &[(usize, u8)], o: &[(usize, u8)], dice: [u8; 2]) -> Position {
        let side = |list: &[(usize, u8)]| {
            let mut s = [0u8; 25];
            for &(point, n) in list {
                s[point - 1] = n;
            }
            s
        };
        let mut p = position_with_dice(dice);
        p.board = Board::from_sides(side(o), side(x)).unwrap();
        p
    }

    #[test]
    fn each_rule_is_named() {
        let bar = custom(
            &[(25, 1), (24, 2), (13, 4), (8, 3), (6, 5)],
            &[(6, 5), (13, 5)],
            [6, 1],
        );
        assert_eq!(
            check_move(&bar, &parse("13/7 8/7").unwrap()),
            Err(MoveRuleError::EnterFirst(1))
        );
        // O holds X's 19 point (its 6): the 1 enters, the 6 moves on.
        assert_eq!(
            check_move(&bar, &parse("bar/24 24/18").unwrap())
                .unwrap()
                .notation(),
            "bar/18"
        );

        let start = position_with_dice([6, 1]);
        assert_eq!(
            check_move(&start, &parse("24/18 13/12").unwrap()),
            Err(MoveRuleError::Blocked(12))
        );

        // Only one checker left, on 13; O holds X's 6 point: 13/7 or 13/12,
        // never both, so the 6 must be played.
        let one = custom(&[(13, 1)], &[(19, 2), (1, 3)], [6, 1]);
        let moves: Vec<String> = legal_moves(&one.board, Player::X, [6, 1])
            .iter()
            .map(LegalMove::notation)
            .collect();
        assert_eq!(moves, ["13/7"]);
        assert_eq!(
            check_move(&one, &parse("13/12").unwrap()),
            Err(MoveRuleError::MustPlayLarger(6))
        );

        let home = custom(&[(6, 1), (3, 2)], &[(20, 2)], [4, 1]);
        assert!(matches!(
            check_move(&home, &parse("3/off").unwrap()),
            Err(MoveRuleError::HigherCheckerFirst { .. })
        ));

        let doubles = custom(
            &[(24, 2), (13, 5), (8, 3), (6, 5)],
            &[(6, 5), (13, 5)],
            [2, 2],
        );
        assert_eq!(
            check_move(&doubles, &parse("13/11 13/11").unwrap()),
            Err(MoveRuleError::MustUseMore(4))
        );
    }

    #[test]
    fn applying_passes_the_turn_and_clears_the_dice() {
        let p = position_with_dice([6, 1]);
        let m = check_move(&p, &parse("13/7 8/7").unwrap()).unwrap();
        let next = apply(&p, &m);
        assert_eq!(next.state.on_roll, Player::O);
        assert_eq!(next.state.turn, Player::O);
        assert_eq!(next.state.dice, None);
        assert_eq!(next.board.side(Player::X)[6], 2);
    }

    #[test]
    fn free_moves_hit_a_blot_and_refuse_a_held_point() {
        let b = Board::starting();
        // O's 24 point is X's 1 point: one of O's back checkers to X's 5.
        let b = free_move(&b, Player::O, &parse("24/20").unwrap()).unwrap();
        let hit = free_move(&b, Player::X, &parse("6/5").unwrap()).unwrap();
        assert_eq!(hit.side(Player::O)[BAR], 1);
        assert_eq!(hit.side(Player::X)[4], 1);
        assert_eq!(hit.side(Player::X)[5], 4);
        assert_eq!(
            free_move(&b, Player::X, &parse("13/12").unwrap()),
            Err(FreeMoveError::Held(12))
        );
    }
}
