//! The Abande board under make/unmake: the rules of docs/rules.md ("Abande") exactly as
//! the Python board (`hexgames.abande.Board`) plays them, with the same legal-move order and
//! the same Zobrist keys.
//!
//! State: the occupied set, the set each colour controls (top pieces), one set per stack
//! height, every stack as a code (a sentinel bit above the pieces, bottom piece in bit 0,
//! 1 for White: `c3=BW` is `0b110`), the entry points (empty points next to the band),
//! the holes of the band (empty points it walls off from the rim) and the Zobrist key.
//! The holes change only when an entry closes a loop, which the Euler characteristic
//! change of the entry shows by a table lookup, or when a lifted stack opens or joins a
//! hole: only then is empty space flood-filled (as in the Python board). Undo records
//! live in a vector reserved for the longest possible game (also in a clone), so
//! make/unmake never allocates.

use crate::error::{Error, Result};
use crate::game::{Color, Game, GameResult, Termination};

use super::bits::{self, dilate, ring_index, BOARD, EULER, NB, SIZE};
use super::keys::{self, HAND, MAX_LEVELS, PASSES, PIECE, PIECES, TURN};
use super::moves::Move;
use super::position::{self, Setup};
use super::rules::Rules;

/// Black's hand while the opening restriction forbids stack moves (fewer than two of its
/// pieces entered; docs/rules.md, "Opening restriction").
const OPENING_HAND: u8 = PIECES as u8 - 2;

/// The most plies any game can last from any position: at most 36 entries and 35 stack
/// moves (each removes a stack), and no two passes in a row but the last two.
pub const MAX_PLIES: usize = 2 * (2 * PIECES + 2 * PIECES - 1) + 2;

/// The side names of messages.
pub(super) const NAMES: [&str; 2] = ["Black", "White"];

/// The height of a stack code (0 for an empty point).
#[inline(always)]
pub const fn height(code: u64) -> u32 {
    if code == 0 {
        0
    } else {
        63 - code.leading_zeros()
    }
}

/// The colour of the top piece of a non-empty stack code.
#[inline(always)]
const fn top_color(code: u64) -> usize {
    (code >> (height(code) - 1) & 1) as usize
}

/// How a finished game ended (docs/rules.md, "End" and "Scoring").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// 0 Black, 1 White, `None` for a draw (equal scores).
    pub winner: Option<Color>,
    /// The final score, as (Black, White).
    pub score: (u32, u32),
}

#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    passes: u8,
    hash: u64,
    entries: u64,
    holes: u64,
    /// The stack codes on the source and target before a stack move.
    source: u64,
    target: u64,
}

/// An Abande position with the moves pushed since it was made.
#[derive(Debug)]
pub struct Board {
    rules: Rules,
    code: [u64; SIZE],
    occupied: u64,
    top: [u64; 2],
    /// `heights[h]`: the stacks of height h (index 0 unused).
    heights: [u64; MAX_LEVELS + 1],
    entries: u64,
    holes: u64,
    hands: [u8; 2],
    passes: u8,
    turn: u8,
    hash: u64,
    outcome: Option<Outcome>,
    undo: Vec<Undo>,
}

impl Clone for Board {
    fn clone(&self) -> Board {
        let mut undo = Vec::with_capacity(MAX_PLIES.max(self.undo.len()));
        undo.extend_from_slice(&self.undo);
        Board {
            rules: self.rules,
            code: self.code,
            occupied: self.occupied,
            top: self.top,
            heights: self.heights,
            entries: self.entries,
            holes: self.holes,
            hands: self.hands,
            passes: self.passes,
            turn: self.turn,
            hash: self.hash,
            outcome: self.outcome,
            undo,
        }
    }
}

impl Board {
    /// A board from a position string (docs/notation.md, "Abande positions"; `passes=2`
    /// is a game two passes have ended), or the empty board with Black to move for
    /// `None`.
    ///
    /// Errors: `Error::InvalidPosition` naming the field at fault, with the messages of
    /// `hexgames.abande._parse_position`.
    pub fn new(position: Option<&str>, rules: Rules) -> Result<Board> {
        let setup = match position {
            None => Setup::start(),
            Some(text) => position::parse(text, &rules)?,
        };
        Ok(Board::from_setup(&setup, rules))
    }

    fn from_setup(setup: &Setup, rules: Rules) -> Board {
        let mut board = Board {
            rules,
            code: [0; SIZE],
            occupied: 0,
            top: [0; 2],
            heights: [0; MAX_LEVELS + 1],
            entries: 0,
            holes: 0,
            hands: setup.hands,
            passes: setup.passes,
            turn: setup.turn,
            hash: 0,
            outcome: None,
            undo: Vec::with_capacity(MAX_PLIES),
        };
        let mut hash = HAND[0][setup.hands[0] as usize] ^ HAND[1][setup.hands[1] as usize];
        hash ^= PASSES[setup.passes as usize];
        if setup.turn == 1 {
            hash ^= TURN;
        }
        for b in bits::bits(setup.occupied()) {
            let code = setup.code[b as usize];
            board.code[b as usize] = code;
            board.occupied |= 1 << b;
            board.top[top_color(code)] |= 1 << b;
            board.heights[height(code) as usize] |= 1 << b;
            hash ^= keys::stack_key(b, code);
        }
        board.hash = hash;
        board.entries = board.fresh_entries();
        board.holes = bits::holes(board.occupied);
        if setup.passes == 2 {
            board.outcome = Some(board.final_outcome());
        }
        board
    }

    fn fresh_entries(&self) -> u64 {
        if self.occupied == 0 {
            BOARD
        } else {
            dilate(self.occupied) & !self.occupied
        }
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Pieces still in hand, as (Black, White).
    pub fn hands(&self) -> (u32, u32) {
        (self.hands[0] as u32, self.hands[1] as u32)
    }

    /// The search's null move (see `search::alphabeta`, null-move pruning): the other
    /// side is to move, the stacks and hands stay. Its own inverse; the caller makes
    /// sure the game is not over and the last ply was not a pass.
    #[inline]
    pub fn flip_turn(&mut self) {
        self.turn ^= 1;
        self.hash ^= TURN;
    }

    /// 1 if the previous ply was a pass, 2 once two passes in succession ended the game,
    /// else 0.
    pub fn passes(&self) -> u32 {
        self.passes as u32
    }

    /// Whether stack moves are still forbidden: Black has entered fewer than two pieces.
    pub fn opening_restriction(&self) -> bool {
        self.hands[0] > OPENING_HAND
    }

    /// The occupied points (the band), as a bit set.
    pub fn occupied(&self) -> u64 {
        self.occupied
    }

    /// The stack code on the point `b` (0 for an empty point): bit i is the colour of the
    /// i-th piece from the bottom (1 White), with a sentinel bit above the top piece.
    pub fn stack_code(&self, b: u32) -> u64 {
        self.code[b as usize]
    }

    /// The stack on `b` from bottom to top as `B`/`W` letters (`""` for an empty point).
    pub fn stack_text(&self, b: u32) -> String {
        position::stack_text(self.code[b as usize])
    }

    /// Every stack, as (point bit, stack text bottom to top), in board order.
    pub fn stacks(&self) -> Vec<(u32, String)> {
        bits::bits(self.occupied)
            .map(|b| (b, self.stack_text(b)))
            .collect()
    }

    /// The colour of the top piece on `b`, or `None` for an empty point.
    pub fn controller(&self, b: u32) -> Option<Color> {
        let code = self.code[b as usize];
        (code != 0).then(|| top_color(code) as Color)
    }

    /// The awake stacks of (Black, White): those next to a stack the opponent controls
    /// (docs/rules.md, "Scoring"); only top pieces count.
    pub fn awake(&self) -> (u64, u64) {
        let [black, white] = self.top;
        (black & dilate(white), white & dilate(black))
    }

    /// The sleeping stacks (which score nothing), as a bit set.
    pub fn sleeping(&self) -> u64 {
        let (black, white) = self.awake();
        self.occupied & !(black | white)
    }

    /// The points each side would score now, as (Black, White): the heights of the awake
    /// stacks it controls.
    pub fn score(&self) -> (u32, u32) {
        let (black, white) = self.awake();
        let mut score = (0, 0);
        for h in 1..=self.rules.max_height as usize {
            score.0 += h as u32 * (black & self.heights[h]).count_ones();
            score.1 += h as u32 * (white & self.heights[h]).count_ones();
        }
        score
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn final_outcome(&self) -> Outcome {
        let score = self.score();
        let winner = match score.0.cmp(&score.1) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        Outcome { winner, score }
    }

    /// The stacks `color` controls (its piece on top), as a bit set.
    #[inline]
    pub fn controlled(&self, color: Color) -> u64 {
        self.top[color as usize & 1]
    }

    /// The stacks of height `h` (1 to the rules' `max_height`), as a bit set; 0 for
    /// any other height.
    #[inline]
    pub fn stacks_of_height(&self, h: u32) -> u64 {
        self.heights.get(h as usize).copied().unwrap_or(0)
    }

    /// The holes of the band: the empty points it walls off from the rim of the board.
    pub fn holes(&self) -> u64 {
        self.holes
    }

    /// Whether lifting the stack on `s` would split the band.
    #[inline(always)]
    fn lift_splits(&self, s: u32) -> bool {
        bits::splits(s, self.occupied, self.holes)
    }

    /// The legal stack moves of the side to move into `out`, by source then target in
    /// board order (the opening restriction is the caller's test).
    #[inline]
    fn stack_moves(&self, out: &mut Vec<Move>) {
        if self.rules.max_height <= 4 {
            self.stack_moves_below::<5>(out);
        } else {
            self.stack_moves_below::<{ MAX_LEVELS + 1 }>(out);
        }
    }

    /// The legal stack moves (every one a capture) of the side to move into `out`
    /// (cleared), in the order of [`Game::legal_moves`]: none once the game is over or
    /// while the opening restriction lasts.
    pub fn captures(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome.is_none() && self.hands[0] <= OPENING_HAND {
            self.stack_moves(out);
        }
    }

    /// [`Board::stack_moves`] for a `max_height` below `N`.
    #[inline(always)]
    fn stack_moves_below<const N: usize>(&self, out: &mut Vec<Move>) {
        let color = self.turn as usize;
        let mover = self.top[color];
        let enemy = self.top[1 - color];
        let max = self.rules.max_height as usize;
        // reach[k]: the enemy stacks of height at most k; a stack of height h may land
        // on reach[max - h].
        let mut reach = [0u64; N];
        let mut candidates = 0u64;
        let mut below = 0u64;
        for (slot, &stacks) in reach[1..max].iter_mut().zip(&self.heights[1..max]) {
            below |= enemy & stacks;
            *slot = below;
        }
        for h in 1..max {
            let sources = mover & self.heights[h];
            if sources != 0 {
                candidates |= sources & dilate(reach[max - h]);
            }
        }
        // Sources whose occupied neighbours form one run keep the band whole; with no
        // holes the others are cut points.
        let multi = candidates & bits::multi_run(self.occupied);
        let mut sources = candidates & !multi;
        if multi != 0 && self.holes != 0 {
            for s in bits::bits(multi) {
                if !self.lift_splits(s) {
                    sources |= 1 << s;
                }
            }
        }
        // Each source writes a move onto each of its neighbours in board order and keeps
        // those onto targets: no branch on how many there are. Six slots a source make
        // room for the last source's six writes.
        let mut len = out.len();
        out.resize(len + 6 * sources.count_ones() as usize, Move::PASS);
        for s in bits::bits(sources) {
            let h = height(self.code[s as usize]) as usize;
            let targets = reach[max - h];
            for &t in &bits::NEIGHBOURS[s as usize] {
                if let Some(slot) = out.get_mut(len) {
                    *slot = Move::stack(s, t as u32);
                }
                len += (targets >> t & 1) as usize;
            }
        }
        out.truncate(len);
    }

    /// Why `mv` is not legal here, or `None` if it is: the reasons of the Python board's
    /// `_illegal_reason`, in the same order.
    pub fn illegal_reason(&self, mv: Move) -> Option<String> {
        if self.outcome.is_some() {
            return Some("the game is over".into());
        }
        let color = self.turn as usize;
        let hand = self.hands[color];
        let Some(t) = mv.to() else {
            return (hand > 0).then(|| {
                format!(
                    "{} still has {hand} piece(s) in hand; a player passes only with an empty \
                     hand",
                    NAMES[color]
                )
            });
        };
        let Some(s) = mv.from() else {
            if hand == 0 {
                return Some(format!("{} has no pieces left in hand", NAMES[color]));
            }
            if self.code[t as usize] != 0 {
                return Some(format!("{} is occupied", bits::name(t)));
            }
            if self.entries >> t & 1 == 0 {
                return Some(format!(
                    "{} touches no occupied point; a piece enters next to the band",
                    bits::name(t)
                ));
            }
            return None;
        };
        self.stack_move_reason(s, t, color)
    }

    fn stack_move_reason(&self, s: u32, t: u32, color: usize) -> Option<String> {
        let (name_s, name_t) = (bits::name(s), bits::name(t));
        if self.opening_restriction() {
            return Some(
                "no stack moves before Black has entered its second piece (the opening \
                 restriction)"
                    .into(),
            );
        }
        let (cs, ct) = (self.code[s as usize], self.code[t as usize]);
        if cs == 0 {
            return Some(format!("{name_s} is empty"));
        }
        if top_color(cs) != color {
            return Some(format!(
                "the stack on {name_s} is controlled by {}",
                NAMES[1 - color]
            ));
        }
        if NB[s as usize] >> t & 1 == 0 {
            return Some(format!("{name_s} and {name_t} are not adjacent"));
        }
        if ct == 0 {
            return Some(format!(
                "{name_t} is empty; a stack moves only onto an enemy stack"
            ));
        }
        if top_color(ct) == color {
            return Some(format!(
                "the stack on {name_t} is {}'s own; a stack moves only onto an enemy stack",
                NAMES[color]
            ));
        }
        let total = height(cs) + height(ct);
        if total > self.rules.max_height {
            return Some(format!(
                "the stack would be {total} high; the rules allow at most {}",
                self.rules.max_height
            ));
        }
        if self.lift_splits(s) {
            return Some(format!("moving the stack on {name_s} would split the band"));
        }
        None
    }

    /// The legal move that `text` names here, as the Python board's `parse_notation`.
    ///
    /// Errors: `Error::InvalidMove` for text that is not a move, `Error::IllegalMove`
    /// (`illegal move c3-d4: <reason>`) for a move the rules forbid here.
    pub fn parse_move(&self, text: &str) -> Result<Move> {
        let mv = Move::parse(text)?;
        match self.illegal_reason(mv) {
            None => Ok(mv),
            Some(reason) => Err(Error::IllegalMove(format!("illegal move {mv}: {reason}"))),
        }
    }

    /// Play `text` as the Python board's `push_notation` (the board is unchanged on an
    /// error; see [`Board::parse_move`]).
    pub fn push_notation(&mut self, text: &str) -> Result<Move> {
        let mv = self.parse_move(text)?;
        self.push(mv);
        Ok(mv)
    }

    /// The moves pushed since the position was made, oldest first.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.undo.iter().map(|u| u.mv)
    }

    #[inline]
    fn push_entry(&mut self, t: u32) {
        let bit = 1u64 << t;
        let color = self.turn as usize;
        let hand = self.hands[color] as usize;
        let occupied = self.occupied;
        if self.holes & bit != 0 {
            self.holes ^= bit;
        } else if EULER[ring_index(occupied, t)] < 0 {
            // The entry closed a loop: a new hole for each unit the characteristic fell.
            self.holes |= bits::enclosed_by_entry(t, occupied | bit);
        }
        self.occupied = occupied | bit;
        self.entries = if occupied == 0 {
            NB[t as usize]
        } else {
            (self.entries | NB[t as usize]) & !(occupied | bit)
        };
        self.top[color] |= bit;
        self.heights[1] |= bit;
        self.code[t as usize] = 2 | color as u64;
        self.hands[color] -= 1;
        self.hash ^= PIECE[0][t as usize][color] ^ HAND[color][hand] ^ HAND[color][hand - 1];
    }

    #[inline]
    fn push_stack_move(&mut self, s: u32, t: u32, cs: u64, ct: u64) {
        let color = self.turn as usize;
        let (hs, ht) = (height(cs), height(ct));
        let (bs, bt) = (1u64 << s, 1u64 << t);
        self.code[s as usize] = 0;
        self.code[t as usize] = (ct ^ 1 << ht) | cs << ht;
        let occupied = self.occupied ^ bs;
        self.occupied = occupied;
        self.holes = bits::holes_after_lift(s, occupied, self.holes);
        self.top[color] ^= bs | bt;
        self.top[1 - color] ^= bt;
        self.heights[hs as usize] ^= bs;
        self.heights[ht as usize] ^= bt;
        self.heights[(hs + ht) as usize] |= bt;
        self.entries = dilate(occupied) & !occupied;
        let mut key = 0;
        for level in 0..hs {
            let c = (cs >> level & 1) as usize;
            key ^=
                PIECE[level as usize][s as usize][c] ^ PIECE[(ht + level) as usize][t as usize][c];
        }
        self.hash ^= key;
    }
}

impl Game for Board {
    type Move = Move;

    const NAME: &'static str = "abande";

    #[inline]
    fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    fn ply(&self) -> usize {
        self.undo.len()
    }

    /// Entries in board order (a1, a2, ..., g4), then stack moves by source then target
    /// in board order, then the pass: the order of the Python board.
    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let may_move = self.hands[0] <= OPENING_HAND;
        if self.hands[self.turn as usize] > 0 {
            out.extend(bits::bits(self.entries).map(Move::entry));
            if may_move {
                self.stack_moves(out);
            }
        } else {
            if may_move {
                self.stack_moves(out);
            }
            out.push(Move::PASS);
        }
    }

    /// Play a legal move (one of `legal_moves`; check others with `parse_move`).
    fn push(&mut self, mv: Move) {
        debug_assert!(self.illegal_reason(mv).is_none(), "illegal {mv}");
        self.undo.push(Undo {
            mv,
            passes: self.passes,
            holes: self.holes,
            hash: self.hash,
            entries: self.entries,
            source: 0,
            target: 0,
        });
        match (mv.from(), mv.to()) {
            (None, Some(t)) => self.push_entry(t),
            (Some(s), Some(t)) => {
                let (cs, ct) = (self.code[s as usize], self.code[t as usize]);
                if let Some(record) = self.undo.last_mut() {
                    record.source = cs;
                    record.target = ct;
                }
                self.push_stack_move(s, t, cs, ct);
            }
            _ => {
                let passes = self.passes as usize;
                self.hash ^= PASSES[passes] ^ PASSES[passes + 1] ^ TURN;
                self.passes += 1;
                self.turn ^= 1;
                if passes == 1 {
                    self.outcome = Some(self.final_outcome());
                }
                return;
            }
        }
        self.hash ^= TURN ^ PASSES[self.passes as usize];
        self.passes = 0;
        self.turn ^= 1;
    }

    fn pop(&mut self) {
        let record = self.undo.pop().expect("pop with no move pushed");
        self.turn ^= 1;
        let color = self.turn as usize;
        self.hash = record.hash;
        self.entries = record.entries;
        self.passes = record.passes;
        self.holes = record.holes;
        match (record.mv.from(), record.mv.to()) {
            (None, Some(t)) => {
                let bit = 1u64 << t;
                self.occupied ^= bit;
                self.top[color] ^= bit;
                self.heights[1] ^= bit;
                self.code[t as usize] = 0;
                self.hands[color] += 1;
            }
            (Some(s), Some(t)) => {
                let (cs, ct) = (record.source, record.target);
                let (hs, ht) = (height(cs), height(ct));
                let (bs, bt) = (1u64 << s, 1u64 << t);
                self.code[s as usize] = cs;
                self.code[t as usize] = ct;
                self.occupied |= bs;
                self.top[color] ^= bs | bt;
                self.top[1 - color] ^= bt;
                self.heights[(hs + ht) as usize] ^= bt;
                self.heights[ht as usize] |= bt;
                self.heights[hs as usize] |= bs;
            }
            _ => self.outcome = None,
        }
    }

    #[inline]
    fn result(&self) -> Option<GameResult> {
        self.outcome.map(|o| GameResult {
            termination: Termination::Score,
            winner: o.winner,
        })
    }

    #[inline]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn move_id(mv: Move) -> u64 {
        mv.id()
    }

    fn notation(&self, mv: Move) -> String {
        mv.notation()
    }

    fn parse_move(&self, text: &str) -> Result<Move> {
        Board::parse_move(self, text)
    }

    fn position(&self) -> String {
        let mut out = String::from("abande");
        for b in bits::bits(self.occupied) {
            out.push(' ');
            out.push_str(bits::name(b));
            out.push('=');
            out.push_str(&self.stack_text(b));
        }
        out.push_str(if self.turn == 0 { " turn=b" } else { " turn=w" });
        out.push_str(&format!(" hands=b{},w{}", self.hands[0], self.hands[1]));
        if self.passes > 0 {
            out.push_str(&format!(" passes={}", self.passes));
        }
        out
    }
}

impl Board {
    /// The position string (docs/notation.md), byte for byte what the Python board's
    /// `position()` writes.
    pub fn position(&self) -> String {
        Game::position(self)
    }

    /// The side to move: 0 Black, 1 White.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The legal moves here, in the Python board's order (empty once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        Game::legal_moves(self, &mut out);
        out
    }

    /// The Zobrist key, equal to the Python board's `zobrist_hash()`.
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// Whether the game has ended.
    pub fn is_game_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The entry points kept under make/unmake (for tests).
    pub fn entries(&self) -> u64 {
        self.entries
    }
}
