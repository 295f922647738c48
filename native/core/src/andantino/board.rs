//! The Andantino [`Board`]: a position with its history under make/unmake, implementing
//! [`Game`], with the reading API of `hexgames.andantino.Board`.

use super::cell::{Cell, Move};
use super::position::{parse_position, starting_position, Setup};
use super::rules::Rules;
use super::rules::SelfTrap;
use super::state::{BBox, State};
use super::surface::{Dense, Sparse, Surface, COUNT, ENCLOSED, TILE, TILES};
use crate::error::{Error, Result};
use crate::game::{Color, Game, GameResult, Termination};
use crate::zobrist::Rng;

/// How a finished game ended, as the Python board's `Outcome`: the winner (`None` for a
/// draw), why, the cells of the winning line(s) and the tiles trapped (for a trap, the
/// opponent tiles the winning move walled in; for a self-trap, the tile placed), each
/// sorted by `(q, r)` and empty where they do not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub termination: Termination,
    pub winner: Option<Color>,
    pub line: Vec<Cell>,
    pub trapped: Vec<Cell>,
}

#[derive(Clone)]
pub(super) enum Inner {
    Dense(State<Dense>),
    Sparse(State<Sparse>),
}

/// Run `$body` with `$st` bound to the state, whichever surface it lives on.
macro_rules! with_state {
    ($board:expr, $st:ident => $body:expr) => {
        match &$board.inner {
            Inner::Dense($st) => $body,
            Inner::Sparse($st) => $body,
        }
    };
    (mut $board:expr, $st:ident => $body:expr) => {
        match &mut $board.inner {
            Inner::Dense($st) => $body,
            Inner::Sparse($st) => $body,
        }
    };
}
pub(super) use with_state;

/// An Andantino position (docs/rules.md, "Andantino") with the moves played since it was
/// set up.
///
/// The surface is a dense window of cells around the tiles (re-centred and grown when a
/// tile comes near its edge) or, for tiles spread wider than 256 cells, a hash map;
/// either way the rules, keys and positions are the same.
#[derive(Clone)]
pub struct Board {
    pub(super) inner: Inner,
    /// The line and trapped tiles of a set-up position already decided (the outcome
    /// before any move).
    root_line: Vec<Cell>,
    root_trapped: Vec<Cell>,
}

impl Board {
    /// The position `position` (a position string, docs/notation.md), or the standard start
    /// under `rules` when `None`.
    ///
    /// Errors: `Error::InvalidRules` for rules values the Python `Rules` refuses;
    /// `Error::InvalidPosition` naming the field at fault (see [`parse_position`]), or
    /// for a position that is not decided and has no legal move.
    pub fn new(position: Option<&str>, rules: Rules) -> Result<Board> {
        rules.check()?;
        let setup = match position {
            Some(text) => parse_position(text, &rules)?,
            None => parse_position(&starting_position(&rules), &rules)?,
        };
        let bbox = BBox::of(setup.tiles.iter().flatten().copied());
        let inner = match Dense::covering(bbox.qlo, bbox.qhi, bbox.rlo, bbox.rhi) {
            Some(dense) => Inner::Dense(State::build(dense, &setup, rules)),
            None => Inner::Sparse(State::build(Sparse::default(), &setup, rules)),
        };
        let mut board = Board {
            inner,
            root_line: Vec::new(),
            root_trapped: Vec::new(),
        };
        let (line, trapped) = with_state!(mut board, st => decide_setup(st, &setup))?;
        board.root_line = line;
        board.root_trapped = trapped;
        if board.result().is_none() && !with_state!(board, st => st.has_legal_move()) {
            return Err(Error::InvalidPosition(
                "no legal move in this position (every move needs a cell touching two tiles; \
                 are the tiles in one group?)"
                    .to_string(),
            ));
        }
        Ok(board)
    }

    /// The rules the game is played under.
    pub fn rules(&self) -> Rules {
        with_state!(self, st => st.rules)
    }

    /// The colour of the tile on `cell`, if any.
    pub fn color_at(&self, cell: Cell) -> Option<Color> {
        let v = with_state!(self, st => st.peek(cell));
        match v & TILES {
            0 => None,
            t => Some(u8::from(t == TILE[1])),
        }
    }

    /// The cells of `color`'s tiles, sorted by `(q, r)`.
    pub fn tiles(&self, color: Color) -> Vec<Cell> {
        let mut cells: Vec<Cell> = with_state!(self, st => st.tiles[color as usize & 1].clone());
        cells.sort_unstable();
        cells
    }

    /// Tiles `color` still has to place; `None` when the supply is unlimited.
    pub fn hand(&self, color: Color) -> Option<u32> {
        let h = with_state!(self, st => st.hands[color as usize & 1]);
        self.rules().tiles_per_player.map(|_| h as u32)
    }

    /// Whether Red has used its balance-variant right (always false when it is off).
    pub fn single_adjacency_used(&self) -> bool {
        with_state!(self, st => st.single_used)
    }

    /// Relocations played so far (extended play).
    pub fn relocations(&self) -> u64 {
        with_state!(self, st => st.relocations)
    }

    /// The cells (empty or holding the other colour's tiles) that `color` walls off
    /// from infinity, sorted by `(q, r)`: a tile of the other colour placed there would
    /// be self-trapped.
    pub fn enclosed_cells(&self, color: Color) -> Vec<Cell> {
        let mut cells = with_state!(self, st => st.enclosed_cells(color as usize & 1));
        cells.sort_unstable();
        cells
    }

    /// How the game ended, in full, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        let result = self.result()?;
        let (line, trapped) =
            with_state!(self, st => details(st, result, &self.root_line, &self.root_trapped));
        Some(Outcome {
            termination: result.termination,
            winner: result.winner,
            line,
            trapped,
        })
    }

    /// The number of legal moves.
    pub fn legal_count(&self) -> usize {
        with_state!(self, st => st.legal_count())
    }

    /// Whether `mv` is legal here; `Err(Error::IllegalMove)` with the Python board's
    /// message (`illegal move <move>: <reason>`) if not.
    pub fn check_move(&self, mv: Move) -> Result<()> {
        match with_state!(self, st => st.illegal_reason(mv)) {
            None => Ok(()),
            Some(reason) => Err(Error::IllegalMove(format!("illegal move {mv}: {reason}"))),
        }
    }

    /// Take back the last move and return it; `None` if no move was pushed.
    pub fn pop_move(&mut self) -> Option<Move> {
        if let Inner::Dense(st) = &self.inner {
            // A relocation's tile goes back to where it was, which the window may have
            // left behind since (it follows the tiles): bring the window back first.
            if let Some(from) = st.last().and_then(|u| u.mv.from()) {
                if !st.surf.fits(from) {
                    self.grow(&[from]);
                }
            }
        }
        with_state!(mut self, st => st.pop())
    }

    /// The moves pushed since the set-up, oldest first.
    pub fn moves(&self) -> Vec<Move> {
        with_state!(self, st => st.undo.iter().map(|u| u.mv).collect())
    }

    /// Move the state to a surface covering every tile and `cells` (a new window, or
    /// the hash map when they spread too wide).
    #[cold]
    fn grow(&mut self, cells: &[Cell]) {
        let Inner::Dense(st) = &self.inner else {
            return;
        };
        let bbox = BBox::of(st.tiles.iter().flatten().chain(cells).copied());
        self.inner = match Dense::covering(bbox.qlo, bbox.qhi, bbox.rlo, bbox.rhi) {
            Some(dense) => Inner::Dense(st.rebuilt(dense)),
            None => Inner::Sparse(st.rebuilt(Sparse::default())),
        };
    }

    // -- raw reads for search code (incremental evaluation, forcing analysis) ----------

    /// Whether `cell` (empty or holding a tile of the other colour) is walled off from
    /// infinity by `color`'s tiles (docs/rules.md, "Trap"): a tile of the other colour
    /// placed there is self-trapped, and an opponent tile there is already enclosed.
    #[inline]
    pub fn walled_off(&self, cell: Cell, color: Color) -> bool {
        with_state!(self, st => st.peek(cell) & ENCLOSED[color as usize & 1] != 0)
    }

    /// How many tiles touch `cell` (0 to 6).
    #[inline]
    pub fn touching(&self, cell: Cell) -> u32 {
        with_state!(self, st => u32::from(st.peek(cell) & COUNT))
    }

    /// Whether the side to move may place a tile touching only one tile now (Red, under
    /// the balance variant, with the right unused).
    #[inline]
    pub fn single_available(&self) -> bool {
        with_state!(self, st => st.single_available())
    }

    /// The search's null move (see `search::alphabeta`, null-move pruning): the other
    /// side is to move, the tiles stay. Its own inverse; the caller makes sure the
    /// game is not over and neither side relocates.
    #[inline]
    pub fn flip_turn(&mut self) {
        with_state!(mut self, st => st.flip_turn())
    }

    /// Whether the side to move relocates a tile (extended play with an empty hand).
    #[inline]
    pub fn relocating(&self) -> bool {
        with_state!(self, st => st.relocating())
    }

    /// Tiles `color` still holds, an unlimited supply counting as a large number.
    #[inline]
    pub fn hand_count(&self, color: Color) -> u64 {
        with_state!(self, st => st.hands[color as usize & 1])
    }

    /// Each colour's tiles, unsorted (in the board's own order).
    #[inline]
    pub fn tiles_unsorted(&self, color: Color) -> &[Cell] {
        with_state!(self, st => &st.tiles[color as usize & 1])
    }

    /// Whether the cells live in a dense window (else in a hash map).
    pub fn is_dense(&self) -> bool {
        matches!(self.inner, Inner::Dense(_))
    }

    /// Whether the incremental enclosures equal those recomputed from scratch (tests).
    #[doc(hidden)]
    pub fn enclosures_agree(&self) -> bool {
        (0..2).all(|c| self.enclosed_cells(c) == self.enclosed_from_scratch(c))
    }

    /// The cells `color` walls off, recomputed from scratch by flood fills, sorted (what
    /// [`Board::enclosed_cells`] keeps incrementally; for tests).
    #[doc(hidden)]
    pub fn enclosed_from_scratch(&self, color: Color) -> Vec<Cell> {
        let c = color as usize & 1;
        let mut cells: Vec<Cell> = with_state!(self, st => st
            .enclosed_from_scratch(c)
            .into_iter()
            .map(|s| st.surf.cell(s))
            .filter(|&cell| st.peek(cell) & TILE[c] == 0)
            .collect());
        cells.sort_unstable();
        cells
    }
}

/// The outcome of a set-up position that is already decided, into the state; returns
/// its line and trapped cells. As `hexgames.andantino._decided`: a game ends at the
/// first line, trap or self-trap, so only the player who moved last can have made one
/// (loaded as finished); a line of the side to move, or anything else no game can end
/// with, is refused. Under `self_trap=ignore` walled-in tiles end nothing.
///
/// Errors: `Error::InvalidPosition` naming the field of the colour at fault.
fn decide_setup<S: Surface>(st: &mut State<S>, setup: &Setup) -> Result<(Vec<Cell>, Vec<Cell>)> {
    let turn = st.turn;
    let mover = 1 - turn;
    const NAMES: [&str; 2] = ["White", "Red"];
    const LETTERS: [&str; 2] = ["w", "r"];
    let refuse = |color: usize, why: String| {
        Error::InvalidPosition(format!(
            "field {}=: {why}; no game of these rules reaches this position",
            LETTERS[color]
        ))
    };
    if let Some(first) = st.tiles[turn]
        .iter()
        .copied()
        .filter(|&t| !st.lines_through(t, turn).is_empty())
        .min()
    {
        return Err(refuse(
            turn,
            format!(
                "{} to move already has five in a row through {first} (a game ends at its \
                 first line)",
                NAMES[turn]
            ),
        ));
    }
    let mut line: Vec<Cell> = st.tiles[mover]
        .iter()
        .flat_map(|&t| st.lines_through(t, mover))
        .collect();
    line.sort_unstable();
    line.dedup();
    let mut trapped: Vec<Cell> = Vec::new();
    let win = |termination, winner: usize| {
        Some(GameResult {
            termination,
            winner: Some(winner as Color),
        })
    };
    if st.rules.self_trap != SelfTrap::Ignore {
        trapped = st.tiles[turn]
            .iter()
            .copied()
            .filter(|&t| st.peek(t) & ENCLOSED[mover] != 0)
            .collect();
        trapped.sort_unstable();
        let mut caught: Vec<Cell> = st.tiles[mover]
            .iter()
            .copied()
            .filter(|&t| st.peek(t) & ENCLOSED[turn] != 0)
            .collect();
        caught.sort_unstable();
        if let Some(&first) = caught.first() {
            if st.rules.self_trap == SelfTrap::Illegal {
                return Err(refuse(
                    mover,
                    format!(
                        "{}'s tile on {first} is walled in by {}, which self_trap=illegal \
                         forbids",
                        NAMES[mover], NAMES[turn]
                    ),
                ));
            }
            if !line.is_empty() || !trapped.is_empty() || caught.len() > 1 {
                return Err(refuse(
                    mover,
                    format!(
                        "{}'s tile on {first} is walled in by {} beside another end of the \
                         game",
                        NAMES[mover], NAMES[turn]
                    ),
                ));
            }
            st.result = win(Termination::SelfTrap, turn);
            return Ok((Vec::new(), caught));
        }
    }
    let draw = |termination| {
        Some(GameResult {
            termination,
            winner: None,
        })
    };
    st.result = match (line.is_empty(), trapped.is_empty()) {
        (false, false) => win(Termination::LineAndTrap, mover),
        (false, true) => win(Termination::Line, mover),
        (true, false) => win(Termination::Trap, mover),
        (true, true) if st.hands[st.turn] == 0 && !st.rules.extended => {
            draw(Termination::TilesExhausted)
        }
        (true, true) if st.rules.extended && setup.relocations >= st.rules.extended_move_limit => {
            draw(Termination::MoveLimit)
        }
        (true, true) => None,
    };
    Ok((line, trapped))
}

/// The line and trapped cells of a finished game.
fn details<S: Surface>(
    st: &State<S>,
    result: GameResult,
    root_line: &[Cell],
    root_trapped: &[Cell],
) -> (Vec<Cell>, Vec<Cell>) {
    let Some(undo) = st.last() else {
        return (root_line.to_vec(), root_trapped.to_vec());
    };
    let mover = 1 - st.turn;
    let to = undo.mv.to();
    let mut line = Vec::new();
    let mut trapped = Vec::new();
    match result.termination {
        Termination::Line | Termination::Trap | Termination::LineAndTrap => {
            if result.termination != Termination::Trap {
                line = st.lines_through(to, mover);
            }
            if result.termination != Termination::Line {
                let opened = &st.enc_removed[undo.enc_removed as usize..];
                trapped = st.enc_added[undo.enc_added as usize..]
                    .iter()
                    .copied()
                    .filter(|&c| st.peek(c) & TILE[1 - mover] != 0 && !opened.contains(&c))
                    .collect();
            }
        }
        Termination::SelfTrap => trapped.push(to),
        _ => {}
    }
    line.sort_unstable();
    line.dedup();
    trapped.sort_unstable();
    (line, trapped)
}

impl Game for Board {
    type Move = Move;

    const NAME: &'static str = "andantino";

    #[inline]
    fn turn(&self) -> Color {
        with_state!(self, st => st.turn as Color)
    }

    #[inline]
    fn ply(&self) -> usize {
        with_state!(self, st => st.undo.len())
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        with_state!(self, st => st.legal_moves(out))
    }

    #[inline]
    fn random_move(&self, rng: &mut Rng, scratch: &mut Vec<Move>) -> Option<Move> {
        with_state!(self, st => st.random_move(rng, scratch))
    }

    #[inline]
    fn push(&mut self, mv: Move) {
        if let Inner::Dense(st) = &mut self.inner {
            // (A legal source is a tile, which fits; checking it keeps even a bad move
            // inside the window.)
            let from = mv.from();
            if st.surf.fits(mv.to()) && from.map_or(true, |c| st.surf.fits(c)) {
                st.push(mv);
                return;
            }
            self.grow(&[mv.to(), from.unwrap_or(mv.to())]);
        }
        with_state!(mut self, st => st.push(mv))
    }

    #[inline]
    fn pop(&mut self) {
        let popped = self.pop_move();
        debug_assert!(popped.is_some(), "pop with no move pushed");
    }

    #[inline]
    fn result(&self) -> Option<GameResult> {
        with_state!(self, st => st.result)
    }

    #[inline]
    fn zobrist(&self) -> u64 {
        with_state!(self, st => st.hash)
    }

    #[inline]
    fn move_id(mv: Move) -> u64 {
        mv.id()
    }

    fn notation(&self, mv: Move) -> String {
        mv.notation()
    }

    fn parse_move(&self, text: &str) -> Result<Move> {
        let mv = Move::from_notation(text)?;
        self.check_move(mv)?;
        Ok(mv)
    }

    fn position(&self) -> String {
        let rules = self.rules();
        let mut parts = vec!["andantino".to_string()];
        for (color, letter) in [(0, 'w'), (1, 'r')] {
            let mut cells: Vec<Cell> = with_state!(self, st => st.tiles[color].clone());
            cells.sort_unstable_by_key(|c| c.row_order());
            let list: Vec<String> = cells.iter().map(Cell::to_string).collect();
            parts.push(format!(
                "{letter}={}",
                if list.is_empty() {
                    "-".to_string()
                } else {
                    list.join(";")
                }
            ));
        }
        parts.push(format!("turn={}", ['w', 'r'][self.turn() as usize]));
        if rules.tiles_per_player.is_some() {
            let (w, r) = (self.hand(0).unwrap_or(0), self.hand(1).unwrap_or(0));
            parts.push(format!("hands=w{w},r{r}"));
        }
        if rules.single_adjacency {
            parts.push(format!(
                "single={}",
                if self.single_adjacency_used() {
                    "used"
                } else {
                    "unused"
                }
            ));
        }
        if rules.extended {
            parts.push(format!("relocations={}", self.relocations()));
        }
        parts.join(" ")
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({:?})", self.position())
    }
}

// --- Raw reads for search code (`andantino::ai`) ----------------------------------

impl Board {
    /// The placements on the empty cells touching two or more tiles, whatever the
    /// variant rules allow (in the standard game, exactly the legal moves).
    #[inline]
    pub fn placements(&self) -> &[Move] {
        with_state!(self, st => &st.legal)
    }

    /// `color`'s tiles, in no particular order (without the copy and sort of
    /// [`Board::tiles`]).
    #[inline]
    pub fn tile_list(&self, color: Color) -> &[Cell] {
        with_state!(self, st => &st.tiles[color as usize & 1])
    }
}
