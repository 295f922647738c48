//! The search tree in flat arrays: nodes in one vector, each expanded node's children
//! as a run of slots in parallel vectors (child node, visits, wins, the move's dense
//! number, which also names the move: 20 bytes a child),
//! and the all-moves-as-first tables as blocks of one vector, indexed by a dense number
//! per move. Nothing is allocated per node beyond these arenas, and every growth is
//! fallible: a full arena (the memory budget or the allocator) is reported, never a
//! panic.

use std::collections::HashMap;

use crate::fxhash::FxBuild;

/// No node, no table, no children.
pub(crate) const NONE: u32 = u32::MAX;

/// A proven value, for the player who moved into the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Proof {
    Loss,
    Draw,
    Win,
}

impl Proof {
    /// 0.0, 0.5 or 1.0.
    #[inline]
    pub(crate) fn value(self) -> f64 {
        match self {
            Proof::Loss => 0.0,
            Proof::Draw => 0.5,
            Proof::Win => 1.0,
        }
    }

    /// The same result seen by the other player.
    #[inline]
    pub(crate) fn flip(self) -> Proof {
        match self {
            Proof::Loss => Proof::Win,
            Proof::Draw => Proof::Draw,
            Proof::Win => Proof::Loss,
        }
    }
}

/// A position in the tree. Its children's statistics live in the tree's slots
/// `first..first + len`, from the point of view of the side to move here.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<M> {
    /// Simulations through this node.
    pub(crate) n: u32,
    /// The first child slot ([`NONE`] until expanded).
    pub(crate) first: u32,
    pub(crate) len: u32,
    /// Children put in random order so far (the unvisited are tried first).
    pub(crate) nexp: u32,
    /// Children not proven yet.
    pub(crate) unproven: u32,
    /// The all-moves-as-first table, or [`NONE`].
    pub(crate) amaf: u32,
    /// Plies from here to the end of the game along the proof.
    pub(crate) plies: u32,
    /// The most plies of a child proven lost for the side to move here.
    pub(crate) loss_plies: u32,
    /// The proven value for the player who moved into the node.
    pub(crate) result: Option<Proof>,
    /// The best proven child value for the side to move here (draws and losses).
    pub(crate) best: Option<Proof>,
    /// The winning move of a node proven by the immediate-win test.
    pub(crate) win: Option<M>,
}

impl<M> Node<M> {
    fn new() -> Node<M> {
        Node {
            n: 0,
            first: NONE,
            len: 0,
            nexp: 0,
            unproven: 0,
            amaf: NONE,
            plies: 0,
            loss_plies: 0,
            result: None,
            best: None,
            win: None,
        }
    }

    /// Whether the children are listed.
    #[inline]
    pub(crate) fn expanded(&self) -> bool {
        self.first != NONE
    }
}

/// All-moves-as-first statistics of one move: simulations and wins.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Amaf {
    pub(crate) n: u32,
    pub(crate) w: f32,
}

/// Where a table lives in the AMAF arena: `cap` entries from `start`, indexed by the
/// dense move number.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Table {
    pub(crate) start: u32,
    pub(crate) cap: u32,
}

/// Children listed between two questions whether to go on ([`Tree::expand`]).
pub(crate) const EXPAND_CHUNK: usize = 4096;

/// The smallest AMAF table (entries).
const MIN_TABLE: u32 = 64;

/// The arena was full: the memory budget or the allocator said no.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Full;

/// Push onto `v`, growing it fallibly.
#[inline]
fn push<T>(v: &mut Vec<T>, x: T) -> Result<(), Full> {
    if v.len() == v.capacity() {
        v.try_reserve(1).map_err(|_| Full)?;
    }
    v.push(x);
    Ok(())
}

/// The tree: the node arena, the child slots, the AMAF tables and the move numbers.
#[derive(Clone, Debug)]
pub(crate) struct Tree<M> {
    pub(crate) nodes: Vec<Node<M>>,
    pub(crate) kids: Vec<u32>,
    pub(crate) cn: Vec<u32>,
    pub(crate) cw: Vec<f64>,
    /// The dense number of each child's move (for the AMAF tables).
    pub(crate) aid: Vec<u32>,
    pub(crate) tables: Vec<Table>,
    pub(crate) amaf: Vec<Amaf>,
    /// Free AMAF blocks by log2 of their size (left by tables that grew).
    free: Vec<Vec<u32>>,
    /// Game move id -> dense number.
    ids: HashMap<u64, u32, FxBuild>,
    /// Dense number -> move.
    dense_moves: Vec<M>,
    /// The memory budget in bytes.
    budget: usize,
}

impl<M: Copy> Tree<M> {
    /// An empty tree that may use about `budget` bytes.
    pub(crate) fn new(budget: usize) -> Tree<M> {
        Tree {
            nodes: Vec::new(),
            kids: Vec::new(),
            cn: Vec::new(),
            cw: Vec::new(),
            aid: Vec::new(),
            tables: Vec::new(),
            amaf: Vec::new(),
            free: Vec::new(),
            ids: HashMap::default(),
            dense_moves: Vec::new(),
            budget,
        }
    }

    /// Drop every node and free the arenas (the move numbers stay: they mean the same
    /// in any tree).
    pub(crate) fn clear(&mut self) {
        let ids = std::mem::take(&mut self.ids);
        let dense_moves = std::mem::take(&mut self.dense_moves);
        *self = Tree::new(self.budget);
        self.ids = ids;
        self.dense_moves = dense_moves;
    }

    /// The bytes the arenas hold.
    pub(crate) fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.nodes.capacity() * size_of::<Node<M>>()
            + self.kids.capacity() * (4 + 4 + 8 + 4)
            + self.tables.capacity() * size_of::<Table>()
            + self.amaf.capacity() * size_of::<Amaf>()
            + self.ids.capacity() * 24
            + self.dense_moves.capacity() * size_of::<M>()
    }

    fn check_budget(&self) -> Result<(), Full> {
        if self.bytes() > self.budget {
            Err(Full)
        } else {
            Ok(())
        }
    }

    /// A new, unexpanded node.
    pub(crate) fn add_node(&mut self) -> Result<u32, Full> {
        self.check_budget()?;
        let id = self.nodes.len() as u32;
        if id == NONE {
            return Err(Full);
        }
        push(&mut self.nodes, Node::new())?;
        Ok(id)
    }

    /// The dense number of `mv` (whose move id is `id`), numbering it if new.
    #[inline]
    pub(crate) fn dense(&mut self, mv: M, id: u64) -> Result<u32, Full> {
        let next = self.ids.len() as u32;
        if let Some(&d) = self.ids.get(&id) {
            return Ok(d);
        }
        if self.ids.len() == self.ids.capacity() {
            self.ids.try_reserve(1).map_err(|_| Full)?;
        }
        push(&mut self.dense_moves, mv)?;
        self.ids.insert(id, next);
        Ok(next)
    }

    /// The dense number of the move with id `id`, if it has one.
    #[inline]
    pub(crate) fn dense_of(&self, id: u64) -> Option<u32> {
        self.ids.get(&id).copied()
    }

    /// The move of child slot `s`.
    #[inline(always)]
    pub(crate) fn move_at(&self, s: u32) -> M {
        self.dense_moves[self.aid[s as usize] as usize]
    }

    /// List `node`'s children: the moves of `legal` with their move ids. `go_on(n)` is
    /// asked after each [`EXPAND_CHUNK`] children listed (`n` of them): when it says
    /// no, the node is left as it was, unexpanded, and `Ok(false)` returned (a node of
    /// an extended-play position with 500 tiles a side has 500,000 children, 25 to 50
    /// ms of work).
    pub(crate) fn expand(
        &mut self,
        node: u32,
        legal: &[M],
        id_of: impl Fn(M) -> u64,
        mut go_on: impl FnMut(usize) -> bool,
    ) -> Result<bool, Full> {
        self.check_budget()?;
        let k = legal.len();
        let first = self.kids.len();
        if first + k >= NONE as usize {
            return Err(Full);
        }
        self.kids.try_reserve(k).map_err(|_| Full)?;
        self.cn.try_reserve(k).map_err(|_| Full)?;
        self.cw.try_reserve(k).map_err(|_| Full)?;
        self.aid.try_reserve(k).map_err(|_| Full)?;
        for chunk in legal.chunks(EXPAND_CHUNK) {
            for &mv in chunk {
                let d = match self.dense(mv, id_of(mv)) {
                    Ok(d) => d,
                    Err(Full) => {
                        self.truncate_slots(first);
                        return Err(Full);
                    }
                };
                self.kids.push(NONE);
                self.cn.push(0);
                self.cw.push(0.0);
                self.aid.push(d);
            }
            if chunk.len() == EXPAND_CHUNK && !go_on(chunk.len()) {
                self.truncate_slots(first);
                return Ok(false);
            }
        }
        let nd = &mut self.nodes[node as usize];
        nd.first = first as u32;
        nd.len = k as u32;
        nd.unproven = k as u32;
        Ok(true)
    }

    /// Drop the child slots from `len` on (an expansion given up).
    fn truncate_slots(&mut self, len: usize) {
        self.kids.truncate(len);
        self.cn.truncate(len);
        self.cw.truncate(len);
        self.aid.truncate(len);
    }

    /// Swap two child slots.
    #[inline]
    pub(crate) fn swap_slots(&mut self, a: usize, b: usize) {
        self.kids.swap(a, b);
        self.cn.swap(a, b);
        self.cw.swap(a, b);
        self.aid.swap(a, b);
    }

    /// A block of `cap` (a power of two) zeroed AMAF entries; returns its start.
    fn block(&mut self, cap: u32) -> Result<u32, Full> {
        let class = cap.trailing_zeros() as usize;
        if let Some(start) = self.free.get_mut(class).and_then(Vec::pop) {
            self.amaf[start as usize..(start + cap) as usize].fill(Amaf::default());
            return Ok(start);
        }
        self.check_budget()?;
        let start = self.amaf.len();
        if start + cap as usize >= NONE as usize {
            return Err(Full);
        }
        self.amaf.try_reserve(cap as usize).map_err(|_| Full)?;
        self.amaf.resize(start + cap as usize, Amaf::default());
        Ok(start as u32)
    }

    /// A new, empty AMAF table for the moves numbered so far.
    pub(crate) fn add_table(&mut self) -> Result<u32, Full> {
        let cap = (self.ids.len() as u32).max(MIN_TABLE).next_power_of_two();
        let start = self.block(cap)?;
        let id = self.tables.len() as u32;
        if self.tables.len() == self.tables.capacity() {
            self.tables.try_reserve(1).map_err(|_| Full)?;
        }
        self.tables.push(Table { start, cap });
        Ok(id)
    }

    /// Count one simulation with result `r` for the move numbered `d` in table `t`.
    #[inline]
    pub(crate) fn amaf_add(&mut self, t: u32, d: u32, r: f32) -> Result<(), Full> {
        let mut table = self.tables[t as usize];
        if d >= table.cap {
            let cap = (d + 1).max(self.ids.len() as u32).next_power_of_two();
            let start = self.block(cap)?;
            let (old, len) = (table.start as usize, table.cap as usize);
            self.amaf.copy_within(old..old + len, start as usize);
            let class = table.cap.trailing_zeros() as usize;
            if self.free.len() <= class {
                self.free.resize_with(class + 1, Vec::new);
            }
            push(&mut self.free[class], table.start)?;
            table = Table { start, cap };
            self.tables[t as usize] = table;
        }
        let a = &mut self.amaf[(table.start + d) as usize];
        a.n += 1;
        a.w += r;
        Ok(())
    }

    /// The subtree under `root` alone, as a new tree whose root is node 0 (the move
    /// numbers are kept).
    pub(crate) fn subtree(&self, root: u32) -> Result<Tree<M>, Full> {
        let mut order: Vec<u32> = Vec::new();
        let mut map: Vec<u32> = Vec::new();
        map.try_reserve_exact(self.nodes.len()).map_err(|_| Full)?;
        map.resize(self.nodes.len(), NONE);
        push(&mut order, root)?;
        map[root as usize] = 0;
        let mut i = 0;
        let mut slots = 0usize;
        let mut entries = 0usize;
        while let Some(&old) = order.get(i) {
            i += 1;
            let nd = &self.nodes[old as usize];
            if nd.amaf != NONE {
                entries += self.tables[nd.amaf as usize].cap as usize;
            }
            if !nd.expanded() {
                continue;
            }
            slots += nd.len as usize;
            for s in nd.first..nd.first + nd.len {
                let kid = self.kids[s as usize];
                if kid != NONE {
                    map[kid as usize] = order.len() as u32;
                    push(&mut order, kid)?;
                }
            }
        }
        let mut out = Tree::new(self.budget);
        out.ids.clone_from(&self.ids);
        out.dense_moves.clone_from(&self.dense_moves);
        out.nodes.try_reserve_exact(order.len()).map_err(|_| Full)?;
        out.kids.try_reserve_exact(slots).map_err(|_| Full)?;
        out.cn.try_reserve_exact(slots).map_err(|_| Full)?;
        out.cw.try_reserve_exact(slots).map_err(|_| Full)?;
        out.aid.try_reserve_exact(slots).map_err(|_| Full)?;
        out.amaf.try_reserve_exact(entries).map_err(|_| Full)?;
        for &old in &order {
            let mut nd = self.nodes[old as usize];
            if nd.expanded() {
                let (a, b) = (nd.first as usize, (nd.first + nd.len) as usize);
                nd.first = out.kids.len() as u32;
                out.kids.extend(self.kids[a..b].iter().map(|&k| {
                    if k == NONE {
                        NONE
                    } else {
                        map[k as usize]
                    }
                }));
                out.cn.extend_from_slice(&self.cn[a..b]);
                out.cw.extend_from_slice(&self.cw[a..b]);
                out.aid.extend_from_slice(&self.aid[a..b]);
            }
            if nd.amaf != NONE {
                let table = self.tables[nd.amaf as usize];
                let start = out.amaf.len() as u32;
                let (a, b) = (table.start as usize, (table.start + table.cap) as usize);
                out.amaf.extend_from_slice(&self.amaf[a..b]);
                nd.amaf = out.tables.len() as u32;
                push(
                    &mut out.tables,
                    Table {
                        start,
                        cap: table.cap,
                    },
                )?;
            }
            out.nodes.push(nd);
        }
        Ok(out)
    }
}
