//! Andantino's fixed spaces, exactly those of `hexgames.integrations.encoding.
//! AndantinoEncoding`.
//!
//! **The hexagon.** Under docs/rules.md with `T = tiles_per_player` tiles each, no game from
//! the start leaves the hexagon of radius `T` around White's set-up tile (the proof is
//! in the Python module's docstring), so its `3T(T + 1) + 1` cells (1951 for the
//! standard game) hold every placement. Extended play can walk tiles farther: it is
//! played confined to the hexagon (relocations are (from, to) pairs of its cells, moves
//! leaving it are not offered, and a side left without an action there ends the game
//! drawn for a framework). Unlimited tiles have no fixed space and are refused.
//!
//! **Actions.** `index(to)` for a placement, cells numbered as [`Hexagon`]; in extended
//! play also `N + index(from) * N + index(to)` for a relocation (N cells).
//!
//! **Planes** (`ANDANTINO_PLANES`), from `player`'s point of view: own tiles, the
//! opponent's, the target cells of the side to move's legal moves, the hexagon, then on
//! the hexagon only: own and opponent tiles in hand divided by `tiles_per_player`, 1 if
//! `player` is to move, 1 while Red may still make its balance-variant placement, and
//! relocations so far divided by `extended_move_limit` (0 outside extended play); with
//! [`AndantinoEncoding::with_move_count`], the plies over [`AndantinoEncoding::max_plies`]
//! last ([`MOVE_COUNT`]).

use super::{
    check_observe, check_player, Direct, Encoding, Hexagon, Layout, Sink, Sketch, MAX_SIZE,
};
use crate::andantino::{Board, Cell, Move, Rules};
use crate::error::{Error, Result};
use crate::game::{Color, Game};

/// The observation planes, in order (the Python `ANDANTINO_PLANES`).
pub const PLANES: [&str; 9] = [
    "own",
    "opponent",
    "legal",
    "hexagon",
    "own_hand",
    "opponent_hand",
    "to_move",
    "single_right",
    "relocations",
];

/// The planes with a window (the Python `ANDANTINO_WINDOW_PLANES`): [`PLANES`] on the
/// window, then the tiles of `player` and of the opponent outside it divided by
/// `tiles_per_player`, and the share of the legal target cells outside it.
pub const WINDOW_PLANES: [&str; 12] = window_planes();

const fn window_planes() -> [&'static str; 12] {
    let mut out = [""; 12];
    let mut i = 0;
    while i < PLANES.len() {
        out[i] = PLANES[i];
        i += 1;
    }
    out[9] = "own_outside";
    out[10] = "opponent_outside";
    out[11] = "legal_outside";
    out
}

/// The most tiles each with extended play, and without, that the spaces allow (the
/// Python `MAX_EXTENDED_TILES` and `MAX_TILES`).
pub const MAX_EXTENDED_TILES: u32 = 36;
pub const MAX_TILES: u32 = 682;

/// `n` with a comma every three digits, as Python's `f"{n:,}"`.
fn thousands(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Actions and observations of Andantino on the hexagon of radius `tiles_per_player`.
#[derive(Clone, Debug)]
pub struct AndantinoEncoding {
    rules: Rules,
    hexagon: Hexagon,
    start: Board,
    /// The observation window (radius W around [`AndantinoEncoding::window_centre`]),
    /// or `None` for observations of the whole hexagon.
    window: Option<Hexagon>,
    /// The hexagon's cells `(q, r)` by number.
    cells: Vec<(i32, i32)>,
    /// Whether the observation ends with the [`MOVE_COUNT`] plane.
    move_count: bool,
}

/// The optional last plane of both games' observations: the plies played divided by the
/// longest game's (the Python `MOVE_COUNT`), at most 1.
pub const MOVE_COUNT: &str = "move_count";

impl AndantinoEncoding {
    /// The encoding of games under `rules`.
    ///
    /// Errors: `Error::InvalidRules` (the Python encoding's messages) for unlimited
    /// tiles, for spaces above [`MAX_SIZE`] (more than [`MAX_EXTENDED_TILES`] tiles each
    /// with extended play, [`MAX_TILES`] without), or rules whose start has no legal
    /// move; and whatever `Rules::check` refuses.
    pub fn new(rules: Rules) -> Result<AndantinoEncoding> {
        rules.check()?;
        let Some(radius) = rules.tiles_per_player else {
            return Err(Error::InvalidRules(
                "Andantino with unlimited tiles (tiles_per_player=None) has no fixed action \
                 space: a game can grow beyond any hexagon; give a tile count"
                    .to_string(),
            ));
        };
        let big = radius as u128;
        let cells = 3 * big * (big + 1) + 1;
        let actions = cells + if rules.extended { cells * cells } else { 0 };
        let floats = PLANES.len() as u128 * (2 * big + 1) * (2 * big + 1);
        if actions > MAX_SIZE as u128 || floats > MAX_SIZE as u128 {
            return Err(Error::InvalidRules(format!(
                "Andantino with tiles_per_player={radius}{} needs {} actions and observations \
                 of {} values; the fixed spaces are capped at {} of each (a mask or a tensor \
                 of that size is made at every step): at most {MAX_EXTENDED_TILES} tiles each \
                 with extended play, {MAX_TILES} without",
                if rules.extended {
                    " and extended play"
                } else {
                    ""
                },
                thousands(actions),
                thousands(floats),
                thousands(MAX_SIZE as u128),
            )));
        }
        let start = Board::new(None, rules).map_err(|e| {
            Error::InvalidRules(format!(
                "Andantino with {} has no legal first move: {}",
                rules.options().join(" "),
                e.message()
            ))
        })?;
        let hexagon = Hexagon::new(radius);
        let cells = (0..hexagon.len()).filter_map(|i| hexagon.cell(i)).collect();
        Ok(AndantinoEncoding {
            rules,
            hexagon,
            start,
            window: None,
            cells,
            move_count: false,
        })
    }

    /// The encoding of games under `rules` with observations of the hexagon of radius
    /// `window` around [`AndantinoEncoding::window_centre`] (the Python
    /// `AndantinoEncoding(rules, window=W)`); `None` for the whole hexagon.
    ///
    /// Errors: those of [`AndantinoEncoding::new`], and `Error::InvalidArgument` for a
    /// window outside `1..=tiles_per_player`.
    pub fn with_window(rules: Rules, window: Option<u32>) -> Result<AndantinoEncoding> {
        let mut encoding = AndantinoEncoding::new(rules)?;
        if let Some(w) = window {
            let radius = encoding.hexagon.radius() as u32;
            if !(1..=radius).contains(&w) {
                return Err(Error::InvalidArgument(format!(
                    "window must be a whole number from 1 to tiles_per_player ({radius}), \
                     not {w}"
                )));
            }
            let side = 2 * w as usize + 1;
            if WINDOW_PLANES.len() * side * side > MAX_SIZE {
                return Err(Error::InvalidArgument(format!(
                    "a window of radius {w} needs observations of {} values; they are \
                     capped at {}: use a smaller window",
                    thousands((WINDOW_PLANES.len() * side * side) as u128),
                    thousands(MAX_SIZE as u128)
                )));
            }
            encoding.window = Some(Hexagon::new(w));
        }
        Ok(encoding)
    }

    /// The same encoding with the [`MOVE_COUNT`] plane last if `on`.
    pub fn with_move_count(mut self, on: bool) -> AndantinoEncoding {
        self.move_count = on;
        self
    }

    /// Whether the observation ends with the [`MOVE_COUNT`] plane.
    pub fn move_count(&self) -> bool {
        self.move_count
    }

    /// The longest game in plies: `2 tiles_per_player - 2` placements, and the
    /// relocation limit in extended play.
    pub fn max_plies(&self) -> u32 {
        let rules = &self.rules;
        (2 * rules.tiles_per_player.unwrap_or(1)).saturating_sub(2)
            + if rules.extended {
                rules.extended_move_limit
            } else {
                0
            }
    }

    /// The value of the [`MOVE_COUNT`] plane: plies over [`AndantinoEncoding::max_plies`]
    /// (in double precision, stored as f32, as the Python code), at most 1.
    fn move_fraction(&self, game: &Board) -> f32 {
        let most = f64::from(self.max_plies().max(1));
        (game.ply() as f64 / most).min(1.0) as f32
    }

    /// The observation window's radius, if there is one.
    pub fn window(&self) -> Option<u32> {
        self.window.as_ref().map(|w| w.radius() as u32)
    }

    /// The centre of the observation window: the middle of the box of the tiles' axial
    /// coordinates, rounded down (the Python `window_centre`).
    pub fn window_centre(&self, game: &Board) -> (i32, i32) {
        let (mut lo_q, mut hi_q, mut lo_r, mut hi_r) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
        for color in [0, 1] {
            for c in game.tiles_unsorted(color) {
                lo_q = lo_q.min(c.q());
                hi_q = hi_q.max(c.q());
                lo_r = lo_r.min(c.r());
                hi_r = hi_r.max(c.r());
            }
        }
        if lo_q > hi_q {
            return (0, 0);
        }
        ((lo_q + hi_q).div_euclid(2), (lo_r + hi_r).div_euclid(2))
    }

    /// The planes of one value: own and opponent tiles in hand divided by
    /// `tiles_per_player`, 1 if `player` is to move, 1 while Red may still make its
    /// balance-variant placement, relocations divided by `extended_move_limit`. (The
    /// Python code divides in double precision and stores the quotient as f32.)
    fn scalars(&self, game: &Board, player: Color) -> [f32; 5] {
        let rules = &self.rules;
        let tiles = f64::from(rules.tiles_per_player.unwrap_or(1));
        let hand = |c: Color| (f64::from(game.hand(c).unwrap_or(0)) / tiles) as f32;
        let relocations = if rules.extended {
            game.relocations() as f64 / f64::from(rules.extended_move_limit)
        } else {
            0.0
        };
        [
            hand(player),
            hand(1 - player),
            f32::from(u8::from(game.turn() == player)),
            f32::from(u8::from(
                rules.single_adjacency && !game.single_adjacency_used(),
            )),
            relocations as f32,
        ]
    }

    /// The cell numbered `i` of the hexagon as `(q, r)` (inside it).
    #[inline]
    fn cell_qr(&self, i: u32) -> Option<(i32, i32)> {
        self.cells.get(i as usize).copied()
    }

    /// Draw the observation through the window `window` (see [`WINDOW_PLANES`]) into
    /// `sink`; `legal` the legal actions, `scratch` scratch space.
    #[allow(clippy::too_many_arguments)]
    fn draw_window<S: Sink>(
        &self,
        window: &Hexagon,
        game: &Board,
        player: Color,
        layout: Layout,
        legal: &[u32],
        scratch: &mut Vec<u32>,
        sink: &mut S,
    ) {
        let w = window.radius();
        let (cq, cr) = self.window_centre(game);
        // The window's square of (q, r) as its row times 2^15 plus its column, if inside
        // (a window's side is below 2^15: its observation has at most 2^24 values).
        let inside = |q: i32, r: i32| {
            let (dq, dr) = (q - cq, r - cr);
            (dq.abs().max(dr.abs()).max((dq + dr).abs()) <= w)
                .then(|| ((dr + w) as u32) << 15 | (dq + w) as u32)
        };
        // One pass over the tiles and the legal targets: the squares to mark (plane
        // times 2^30 plus the square) into `scratch`, and how many lie outside.
        scratch.clear();
        let colors = [player, 1 - player];
        let mut outside = [0usize; 2];
        for (plane, color) in colors.into_iter().enumerate() {
            for &c in game.tiles_unsorted(color) {
                match inside(c.q(), c.r()) {
                    Some(square) => scratch.push((plane as u32) << 30 | square),
                    None => outside[plane] += 1,
                }
            }
        }
        // The legal target cells of the space's moves, each once: relocations share
        // targets (placements are each once).
        let n = self.hexagon.len() as u32;
        let mut targets = 0usize;
        let mut legal_outside = 0usize;
        for &a in legal {
            let t = if a < n { a } else { (a - n) % n };
            if let Some((q, r)) = self.cell_qr(t) {
                targets += 1;
                match inside(q, r) {
                    Some(square) => scratch.push(2 << 30 | square),
                    None => legal_outside += 1,
                }
            }
        }
        if self.rules.extended {
            // Count each target once (the marks may repeat), sorted after the marks.
            let start = scratch.len();
            scratch.extend(legal.iter().map(|&a| if a < n { a } else { (a - n) % n }));
            let cells = &mut scratch[start..];
            cells.sort_unstable();
            (targets, legal_outside) = (0, 0);
            for (k, &t) in cells.iter().enumerate() {
                if k > 0 && cells[k - 1] == t {
                    continue;
                }
                targets += 1;
                let out = self.cell_qr(t).is_some_and(|(q, r)| inside(q, r).is_none());
                legal_outside += usize::from(out);
            }
            scratch.truncate(start);
        }
        let share = if targets == 0 {
            0.0
        } else {
            legal_outside as f64 / targets as f64
        };
        // The hexagon plane is the whole window while the window lies inside the
        // hexagon (the common case): a constant plane.
        let big = self.hexagon.radius();
        let whole = cq.abs().max(cr.abs()).max((cq + cr).abs()) + w <= big;
        let tiles = f64::from(self.rules.tiles_per_player.unwrap_or(1));
        let [own, opponent, to_move, single, relocations] = self.scalars(game, player);
        let fills = [
            0.0,
            0.0,
            0.0,
            f32::from(u8::from(whole)),
            own,
            opponent,
            to_move,
            single,
            relocations,
            (outside[0] as f64 / tiles) as f32,
            (outside[1] as f64 / tiles) as f32,
            share as f32,
            self.move_fraction(game),
        ];
        sink.begin(layout, window, &fills[..self.num_planes()]);
        for &m in scratch.iter() {
            let (row, col) = ((m >> 15) & 0x7fff, m & 0x7fff);
            sink.mark((m >> 30) as usize, row as usize, col as usize);
        }
        if !whole {
            for r in -w..=w {
                for q in (-w).max(-w - r)..=w.min(w - r) {
                    if self.hexagon.index(cq + q, cr + r).is_some() {
                        sink.mark(3, (r + w) as usize, (q + w) as usize);
                    }
                }
            }
        }
    }

    /// The rules encoded.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The hexagon of cells (radius `tiles_per_player`).
    pub fn hexagon(&self) -> &Hexagon {
        &self.hexagon
    }

    /// N, the number of cells (and of placement actions).
    pub fn num_cells(&self) -> usize {
        self.hexagon.len()
    }

    #[inline]
    fn index(&self, c: Cell) -> Option<u32> {
        self.hexagon.index(c.q(), c.r())
    }

    fn cell(&self, i: usize) -> Result<Cell> {
        let (q, r) = self
            .hexagon
            .cell(i)
            .ok_or_else(|| Error::InvalidArgument(format!("no cell {i} in the hexagon")))?;
        Cell::new(q as i64, r as i64)
    }

    fn leaves(&self, mv: Move) -> Error {
        Error::InvalidArgument(format!(
            "move {mv} leaves the hexagon of radius {}",
            self.hexagon.radius()
        ))
    }
}

impl Encoding for AndantinoEncoding {
    type Game = Board;

    fn num_actions(&self) -> usize {
        let n = self.hexagon.len();
        n + if self.rules.extended { n * n } else { 0 }
    }

    fn num_planes(&self) -> usize {
        let planes = if self.window.is_some() {
            WINDOW_PLANES.len()
        } else {
            PLANES.len()
        };
        planes + usize::from(self.move_count)
    }

    fn side(&self) -> usize {
        self.window.as_ref().unwrap_or(&self.hexagon).side()
    }

    fn new_game(&self) -> Board {
        self.start.clone()
    }

    fn fits(&self, game: &Board) -> bool {
        game.rules() == self.rules
    }

    fn legal_actions(&self, game: &Board, moves: &mut Vec<Move>, out: &mut Vec<u32>) -> Result<()> {
        game.legal_moves(moves);
        out.clear();
        let n = self.hexagon.len() as u32;
        for &mv in moves.iter() {
            let to = self.index(mv.to());
            match (mv.from(), to) {
                (None, Some(to)) => out.push(to),
                (Some(from), Some(to)) if self.rules.extended => {
                    if let Some(from) = self.index(from) {
                        out.push(n * (1 + from) + to);
                    }
                }
                // Extended play is confined to the hexagon; outside it no game from the
                // start gets here, and the Python encoding raises.
                _ if self.rules.extended => {}
                _ => return Err(self.leaves(mv)),
            }
        }
        out.sort_unstable();
        Ok(())
    }

    fn move_of(&self, action: i64) -> Result<Move> {
        let n = self.hexagon.len();
        let total = self.num_actions();
        let Some(a) = usize::try_from(action).ok().filter(|&a| a < total) else {
            return Err(Error::InvalidArgument(format!(
                "action {action} is outside 0..{}",
                total - 1
            )));
        };
        if a < n {
            if let Some(&(q, r)) = self.cells.get(a) {
                return Ok(Move::place(Cell::new(i64::from(q), i64::from(r))?));
            }
            return Ok(Move::place(self.cell(a)?));
        }
        let (from, to) = ((a - n) / n, (a - n) % n);
        Ok(Move::relocate(self.cell(from)?, self.cell(to)?))
    }

    fn action_of(&self, mv: Move) -> Result<u32> {
        let to = self.index(mv.to()).ok_or_else(|| self.leaves(mv))?;
        let Some(from) = mv.from() else {
            return Ok(to);
        };
        if !self.rules.extended {
            return Err(Error::InvalidArgument(format!(
                "relocation {mv} has no action: extended play is off"
            )));
        }
        let from = self.index(from).ok_or_else(|| self.leaves(mv))?;
        Ok(self.hexagon.len() as u32 * (1 + from) + to)
    }

    fn illegal(&self, game: &Board, mv: Move) -> Option<String> {
        game.check_move(mv).err().map(|e| e.message().to_string())
    }

    fn grid(&self) -> &Hexagon {
        self.window.as_ref().unwrap_or(&self.hexagon)
    }

    fn observe_with(
        &self,
        game: &Board,
        player: Color,
        layout: Layout,
        legal: Option<&[u32]>,
        moves: &mut Vec<Move>,
        out: &mut [f32],
    ) -> Result<()> {
        check_observe(out.len(), self.observation_len(), player)?;
        let mut scratch = Vec::new();
        self.draw(
            game,
            player,
            layout,
            legal,
            moves,
            &mut scratch,
            &mut Direct::new(out),
        )
    }

    fn sketch(
        &self,
        game: &Board,
        player: Color,
        layout: Layout,
        legal: Option<&[u32]>,
        moves: &mut Vec<Move>,
        out: &mut Sketch,
    ) -> Result<()> {
        check_player(player)?;
        let mut scratch = std::mem::take(&mut out.scratch);
        let result = self.draw(game, player, layout, legal, moves, &mut scratch, out);
        out.scratch = scratch;
        result
    }
}

impl AndantinoEncoding {
    /// Draw the observation of `game` from `player`'s point of view (a checked player)
    /// into `sink`; `legal` the legal actions if known; `moves` and `scratch` scratch
    /// space.
    #[allow(clippy::too_many_arguments)]
    fn draw<S: Sink>(
        &self,
        game: &Board,
        player: Color,
        layout: Layout,
        legal: Option<&[u32]>,
        moves: &mut Vec<Move>,
        scratch: &mut Vec<u32>,
        sink: &mut S,
    ) -> Result<()> {
        if let Some(window) = &self.window {
            let mut own = Vec::new();
            let legal = match legal {
                Some(legal) => legal,
                None => {
                    self.legal_actions(game, moves, &mut own)?;
                    &own
                }
            };
            self.draw_window(window, game, player, layout, legal, scratch, sink);
            return Ok(());
        }
        let big = self.hexagon.radius();
        let hexagon = &self.hexagon;
        let [own, opponent, to_move, single, relocations] = self.scalars(game, player);
        let fills = [
            0.0,
            0.0,
            0.0,
            1.0,
            own,
            opponent,
            to_move,
            single,
            relocations,
            self.move_fraction(game),
        ];
        sink.begin(layout, hexagon, &fills[..self.num_planes()]);
        let square = |q: i32, r: i32| {
            hexagon
                .index(q, r)
                .map(|_| ((r + big) as usize, (q + big) as usize))
        };
        for (plane, color) in [(0, player), (1, 1 - player)] {
            for &c in game.tiles_unsorted(color) {
                if let Some((row, col)) = square(c.q(), c.r()) {
                    sink.mark(plane, row, col);
                }
            }
        }
        match legal {
            // Without extended play the legal actions are the legal moves (every
            // placement lies on the hexagon).
            Some(legal) if !self.rules.extended => {
                for &a in legal {
                    if let Some((q, r)) = self.cell_qr(a) {
                        sink.mark(2, (r + big) as usize, (q + big) as usize);
                    }
                }
            }
            // The targets of every legal move, relocations from outside the hexagon
            // included.
            _ => {
                game.legal_moves(moves);
                for mv in moves.iter() {
                    if let Some((row, col)) = square(mv.to().q(), mv.to().r()) {
                        sink.mark(2, row, col);
                    }
                }
            }
        }
        Ok(())
    }
}
