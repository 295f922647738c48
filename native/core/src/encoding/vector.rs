//! N games of one encoding stepped together (the native part of
//! `hexgames.integrations.vector`): one call applies N actions, writes N observations,
//! N rewards and N termination flags into the caller's buffers.
//!
//! **Autoreset, same-step** (gymnasium's `AutoresetMode.SAME_STEP`): a game that ends
//! in [`VectorEnv::step`] is marked finished; the step's observation of it is its final
//! position, and [`VectorEnv::autoreset`] then puts it back to the start (writing the
//! new observation) before the next step, so every game always has a legal action.
//!
//! **Rewards** are from the point of view of the player who moved: +1 if that move won,
//! -1 if it lost (a self-trap, or an illegal action when those lose), 0 otherwise. The
//! other player's reward is the opposite (the games are zero-sum).
//!
//! **Observations** are from the point of view of the side to move after the step.
//!
//! **In place.** The vector remembers what it wrote into the observation and mask
//! buffers (each game's [`Sketch`], the legal actions of each mask row) and writes only
//! what changed since: the planes whose value changed and the squares marked before or
//! now. It assumes the buffer is the one it wrote last, untouched since; a caller that
//! passes another buffer, or changed one, calls [`VectorEnv::forget_observations`] or
//! [`VectorEnv::forget_masks`] first.

use super::{is_over, Encoding, Layout, Sketch};
use crate::error::{Error, Result};
use crate::game::{Color, Game};
use crate::zobrist::Rng;

/// The most values (`num_envs` times the action space, or times the observation size)
/// a vector of games may need per buffer: 2^28 (a 1 GiB observation buffer).
pub const MAX_ELEMENTS: usize = 1 << 28;

/// Observations and masks of at most this many values are written whole at every step
/// (Abande's 588 and 260: as fast as finding what changed), larger ones in place.
const WRITE_WHOLE: usize = 1024;

/// The buffers one step writes, one value per game.
pub struct StepOut<'a> {
    /// The reward of the player who moved.
    pub rewards: &'a mut [f32],
    /// 1 if the game ended.
    pub terminated: &'a mut [u8],
    /// The winner of a game that ended (0 or 1), -1 for a draw or a game going on.
    pub winners: &'a mut [i8],
    /// 1 if the game ended by an illegal action (when those lose).
    pub illegal: &'a mut [u8],
    /// Plies played in the game after the step (in the game that ended, for one that
    /// ended).
    pub plies: &'a mut [u32],
}

/// N games under one encoding, with their legal actions kept up to date.
#[derive(Clone)]
pub struct VectorEnv<E: Encoding> {
    encoding: E,
    games: Vec<E::Game>,
    /// The legal actions of each game, ascending.
    legal: Vec<Vec<u32>>,
    /// Games that ended in the last step and wait for [`VectorEnv::autoreset`].
    finished: Vec<bool>,
    moves: Vec<<E::Game as Game>::Move>,
    rng: Rng,
    /// What each game's rows of the observation buffer hold, if `observed`.
    sketches: Vec<Sketch>,
    /// Scratch space for the next sketch.
    next: Sketch,
    /// Whether `sketches` describe the observation buffer.
    observed: bool,
    /// The legal actions each row of the mask buffer marks, if `masked`.
    masked_rows: Vec<Vec<u32>>,
    /// Whether `masked_rows` describe the mask buffer.
    masked: bool,
}

fn check_len(what: &str, len: usize, expected: usize) -> Result<()> {
    if len == expected {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!(
            "{what} has {len} values, expected {expected}"
        )))
    }
}

impl<E: Encoding> VectorEnv<E> {
    /// `num_envs` games at the start; `seed` seeds [`VectorEnv::sample_legal`].
    ///
    /// Errors: `Error::InvalidArgument` for `num_envs` of 0, or buffers of more than
    /// [`MAX_ELEMENTS`] values.
    pub fn new(encoding: E, num_envs: usize, seed: u64) -> Result<VectorEnv<E>> {
        if num_envs == 0 {
            return Err(Error::InvalidArgument(
                "num_envs must be at least 1, not 0".to_string(),
            ));
        }
        let widest = encoding.num_actions().max(encoding.observation_len());
        if num_envs
            .checked_mul(widest)
            .map_or(true, |n| n > MAX_ELEMENTS)
        {
            return Err(Error::InvalidArgument(format!(
                "{num_envs} environments of {} actions and observations of {} values need \
                 buffers of more than {MAX_ELEMENTS} values; use fewer environments",
                encoding.num_actions(),
                encoding.observation_len()
            )));
        }
        let start = encoding.new_game();
        let mut moves = Vec::new();
        let mut legal = Vec::new();
        encoding.legal_actions(&start, &mut moves, &mut legal)?;
        Ok(VectorEnv {
            games: vec![start; num_envs],
            legal: vec![legal; num_envs],
            finished: vec![false; num_envs],
            moves,
            rng: Rng::new(seed),
            encoding,
            sketches: vec![Sketch::default(); num_envs],
            next: Sketch::default(),
            observed: false,
            masked_rows: vec![Vec::new(); num_envs],
            masked: false,
        })
    }

    /// N.
    pub fn num_envs(&self) -> usize {
        self.games.len()
    }

    /// The encoding.
    pub fn encoding(&self) -> &E {
        &self.encoding
    }

    /// The game `i`, if there is one.
    pub fn game(&self, i: usize) -> Option<&E::Game> {
        self.games.get(i)
    }

    /// The legal actions of game `i`, ascending.
    pub fn legal_actions(&self, i: usize) -> Option<&[u32]> {
        self.legal.get(i).map(Vec::as_slice)
    }

    /// Forget what the observation buffer holds: the next write fills it whole (call it
    /// before passing another buffer, or after changing it).
    pub fn forget_observations(&mut self) {
        self.observed = false;
    }

    /// Forget what the mask buffer holds (as [`VectorEnv::forget_observations`]).
    pub fn forget_masks(&mut self) {
        self.masked = false;
    }

    /// Write game `i`'s observation into `row`, over what it held if `known`.
    fn write_observation(
        &mut self,
        i: usize,
        layout: Layout,
        row: &mut [f32],
        known: bool,
    ) -> Result<()> {
        let game = &self.games[i];
        let len = self.encoding.observation_len();
        if len <= WRITE_WHOLE || len > Sketch::MAX_LEN {
            let legal = Some(self.legal[i].as_slice());
            return self.encoding.observe_with(
                game,
                game.turn(),
                layout,
                legal,
                &mut self.moves,
                row,
            );
        }
        self.encoding.sketch(
            game,
            game.turn(),
            layout,
            Some(&self.legal[i]),
            &mut self.moves,
            &mut self.next,
        )?;
        let grid = self.encoding.grid();
        if known {
            self.next.write_over(&self.sketches[i], grid, row);
        } else {
            self.next.write(grid, row);
        }
        // Copied rather than swapped: `next` stays the one hot scratch sketch, and the
        // game's own sketch was just read.
        self.sketches[i].copy_from(&self.next);
        Ok(())
    }

    /// Seed the generator of [`VectorEnv::sample_legal`] anew.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// Put game `i` back at the start (taking its moves back: no allocation).
    fn restart(&mut self, i: usize) -> Result<()> {
        let game = &mut self.games[i];
        while game.ply() > 0 {
            game.pop();
        }
        self.finished[i] = false;
        self.encoding
            .legal_actions(game, &mut self.moves, &mut self.legal[i])
    }

    /// Every game back at the start.
    pub fn reset(&mut self) -> Result<()> {
        for i in 0..self.games.len() {
            self.restart(i)?;
        }
        Ok(())
    }

    /// Play `actions[i]` in game `i`, for every i; write the rewards, terminations and
    /// the rest into `out`, and with `observations` each game's observation after the
    /// move (see the module docs). Games that ended wait for [`VectorEnv::autoreset`];
    /// any still waiting from an earlier step are reset first. Returns how many ended.
    ///
    /// Errors (nothing is played then): `Error::InvalidArgument` for buffers of the
    /// wrong length or an action outside `0..num_actions` (naming the game and the
    /// action); `Error::IllegalMove` naming the game, the action, its move and the
    /// reason for an action that is not legal, unless `illegal_loses`: then that game
    /// ends as a loss of the player to move, with reward -1.
    pub fn step(
        &mut self,
        actions: &[i64],
        illegal_loses: bool,
        out: StepOut<'_>,
        observations: Option<(&mut [f32], Layout)>,
    ) -> Result<usize> {
        let n = self.games.len();
        check_len("actions", actions.len(), n)?;
        check_len("rewards", out.rewards.len(), n)?;
        check_len("terminations", out.terminated.len(), n)?;
        check_len("winners", out.winners.len(), n)?;
        check_len("illegal", out.illegal.len(), n)?;
        check_len("plies", out.plies.len(), n)?;
        if let Some((obs, _)) = &observations {
            check_len(
                "observations",
                obs.len(),
                n * self.encoding.observation_len(),
            )?;
        }
        self.autoreset(None)?;
        let total = self.encoding.num_actions();
        for (i, &a) in actions.iter().enumerate() {
            if a < 0 || a as u64 >= total as u64 {
                return Err(Error::InvalidArgument(format!(
                    "env {i}: action {a} is outside the action space 0..{}",
                    total - 1
                )));
            }
            if !illegal_loses && self.legal[i].binary_search(&(a as u32)).is_err() {
                return Err(Error::IllegalMove(format!(
                    "env {i}: action {a} is not legal: {}",
                    self.why_illegal(i, a)
                )));
            }
        }
        let mut ended = 0;
        // Each game's observation is written right after its move, while its board and
        // legal actions are in the cache.
        let len = self.encoding.observation_len();
        let mut observations = observations;
        let known = self.observed;
        if observations.is_some() {
            self.observed = false;
        }
        for (i, &a) in actions.iter().enumerate() {
            let game = &mut self.games[i];
            let mover = game.turn();
            let legal = self.legal[i].binary_search(&(a as u32)).is_ok();
            let (reward, winner, done, illegal) = if !legal {
                (-1.0, (1 - mover) as i8, true, true)
            } else {
                let mv = self.encoding.move_of(a)?;
                game.push(mv);
                self.encoding
                    .legal_actions(game, &mut self.moves, &mut self.legal[i])?;
                if is_over(game, &self.legal[i]) {
                    let winner = game.result().and_then(|r| r.winner);
                    let reward = match winner {
                        Some(w) if w == mover => 1.0,
                        Some(_) => -1.0,
                        None => 0.0,
                    };
                    (reward, winner.map_or(-1, |w| w as i8), true, false)
                } else {
                    (0.0, -1, false, false)
                }
            };
            out.rewards[i] = reward;
            out.winners[i] = winner;
            out.terminated[i] = u8::from(done);
            out.illegal[i] = u8::from(illegal);
            out.plies[i] = game.ply() as u32;
            self.finished[i] = done;
            ended += usize::from(done);
            if let Some((obs, layout)) = observations.as_mut() {
                let row = &mut obs[i * len..(i + 1) * len];
                self.write_observation(i, *layout, row, known)?;
            }
        }
        if observations.is_some() {
            self.observed = true;
        }
        Ok(ended)
    }

    /// Why action `a` (inside the space) is not legal in game `i`.
    fn why_illegal(&self, i: usize, a: i64) -> String {
        match self.encoding.move_of(a) {
            Err(e) => e.message().to_string(),
            Ok(mv) => self
                .encoding
                .illegal(&self.games[i], mv)
                .unwrap_or_else(|| format!("its move {mv:?} leaves the hexagon of the space")),
        }
    }

    /// Put the games that ended in the last step back at the start, writing their new
    /// observations into their rows of `observations` if given. Returns how many.
    ///
    /// Errors: `Error::InvalidArgument` for an observation buffer of the wrong length.
    pub fn autoreset(&mut self, observations: Option<(&mut [f32], Layout)>) -> Result<usize> {
        let len = self.encoding.observation_len();
        let mut observations = observations;
        if let Some((obs, _)) = &observations {
            check_len("observations", obs.len(), self.games.len() * len)?;
        }
        let mut count = 0;
        for i in 0..self.games.len() {
            if !self.finished[i] {
                continue;
            }
            self.restart(i)?;
            count += 1;
            if let Some((obs, layout)) = observations.as_mut() {
                let row = &mut obs[i * len..(i + 1) * len];
                self.write_observation(i, *layout, row, self.observed)?;
            }
        }
        Ok(count)
    }

    /// Write every game's observation, from the side to move's point of view, into
    /// `out` (`num_envs` rows of `observation_len` values), in place over what the
    /// vector wrote there last (see the module docs).
    ///
    /// Errors: `Error::InvalidArgument` for a buffer of the wrong length.
    pub fn observe(&mut self, layout: Layout, out: &mut [f32]) -> Result<()> {
        let len = self.encoding.observation_len();
        check_len("observations", out.len(), self.games.len() * len)?;
        let known = self.observed;
        self.observed = false;
        for (i, row) in out.chunks_exact_mut(len).enumerate() {
            self.write_observation(i, layout, row, known)?;
        }
        self.observed = true;
        Ok(())
    }

    /// Write each game's legal-action mask (1 for the legal actions, else 0) into `out`
    /// (`num_envs` rows of `num_actions` values), in place over what the vector wrote
    /// there last (see the module docs).
    ///
    /// Errors: `Error::InvalidArgument` for a buffer of the wrong length.
    pub fn masks(&mut self, out: &mut [i8]) -> Result<()> {
        let width = self.encoding.num_actions();
        check_len("masks", out.len(), self.games.len() * width)?;
        let known = self.masked && width > WRITE_WHOLE;
        let rows = self.legal.iter().zip(&mut self.masked_rows);
        for ((legal, before), row) in rows.zip(out.chunks_exact_mut(width)) {
            if known {
                for &a in before.iter() {
                    if let Some(slot) = row.get_mut(a as usize) {
                        *slot = 0;
                    }
                }
            } else {
                row.fill(0);
            }
            for &a in legal {
                if let Some(slot) = row.get_mut(a as usize) {
                    *slot = 1;
                }
            }
            before.clone_from(legal);
        }
        self.masked = true;
        Ok(())
    }

    /// Write the side to move of each game (0 or 1) into `out`.
    ///
    /// Errors: `Error::InvalidArgument` for a buffer of the wrong length.
    pub fn current_players(&self, out: &mut [i8]) -> Result<()> {
        check_len("players", out.len(), self.games.len())?;
        for (game, slot) in self.games.iter().zip(out.iter_mut()) {
            *slot = game.turn() as i8;
        }
        Ok(())
    }

    /// Write a uniformly random legal action of each game into `out` (-1 for a game
    /// without one, which only a game waiting for `autoreset` can be), drawn by the
    /// vector's own generator, or by a new one seeded with `seed`.
    ///
    /// Errors: `Error::InvalidArgument` for a buffer of the wrong length.
    pub fn sample_legal(&mut self, seed: Option<u64>, out: &mut [i64]) -> Result<()> {
        check_len("actions", out.len(), self.games.len())?;
        let mut own = seed.map(Rng::new);
        let rng = own.as_mut().unwrap_or(&mut self.rng);
        for (legal, slot) in self.legal.iter().zip(out.iter_mut()) {
            *slot = if legal.is_empty() {
                -1
            } else {
                i64::from(legal[rng.below(legal.len())])
            };
        }
        Ok(())
    }

    /// The side to move of game `i`.
    pub fn turn(&self, i: usize) -> Option<Color> {
        self.games.get(i).map(Game::turn)
    }
}
