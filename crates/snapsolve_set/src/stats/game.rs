//! Whole games of SET, simulated by the million.
//!
//! **Rules** (as seed 003's `onegame()`): deal 12 cards. While the table holds
//! a SET, take one (uniformly at random among all SETs, or the first one in
//! table order) and deal back up to 12 cards while the deck lasts. With no SET,
//! deal 3 more cards; if the deck is empty the game ends. Removed cards leave
//! the table order, new ones go to its end.
//!
//! **Positions.** Every table in which players look for a SET is a position:
//! after the deck is empty too, and the final one (no SET, empty deck)
//! included. Seed 003's histogram leaves out that final position; both
//! shares are reported.
//!
//! **Speed.** The deck is shuffled once per game (batched Lemire draws, see
//! `random.rs`) and dealt in order. The SETs on the table are kept up to
//! date instead of being searched for again: a new card `c` forms a SET with
//! every pair `{a, third(c, a)}` already on the table, and taking a SET drops
//! the SETs that shared one of its cards. Two engines do this
//! ([`GameEngine`]): the portable one with one lookup per table card and no
//! branch, the vectorised one (AVX-512 VBMI, `game/vbmi.rs`) with the whole
//! table in one register; they play identical games. Figures: BENCHMARKS.md.
//!
//! **Reproducibility.** Game `i` draws from its own random stream
//! `(seed, i)`, and all tallies are integers added up, so the result is the
//! same for any number of threads.
//!
//! **Confidence intervals.** Positions of one game are not independent; the
//! shares over positions are ratio estimators over independent games, whose
//! variance is estimated per game (cluster-robust, delta method).

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

#[cfg(target_arch = "x86_64")]
mod vbmi;

use super::Progress;
use super::random::{Stream, below, rng_for, shuffle};
use crate::card::Card;

/// How the SET to take is chosen when the table holds several.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Uniformly at random among all SETs on the table.
    Random,
    /// The first SET `finders::find_sets` lists for the table in its order.
    First,
}

/// Largest table: 20 cards can hold no SET, so 21 always do.
pub const MAX_TABLE: usize = 21;
/// Deck sizes are multiples of 3: index `left / 3`.
const DECK_STEPS: usize = 81 / 3 + 1;
/// Games per progress report and per parallel work unit.
const GAMES_PER_CHUNK: u64 = 4096;

/// Sums over games that give a share over positions and its interval.
///
/// For game `g` with `n_g` positions of some kind of which `k_g` count, the
/// share is `K / N`; its variance is estimated by
/// `Σ (k_g − p n_g)² / N² · G / (G − 1)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RatioSums {
    /// `Σ k_g`.
    pub hits: u64,
    /// `Σ n_g`.
    pub trials: u64,
    hits_sq: u128,
    trials_sq: u128,
    cross: u128,
    games: u64,
}

impl RatioSums {
    fn add_game(&mut self, hits: u64, trials: u64) {
        self.hits += hits;
        self.trials += trials;
        self.hits_sq += u128::from(hits * hits);
        self.trials_sq += u128::from(trials * trials);
        self.cross += u128::from(hits * trials);
        self.games += 1;
    }

    fn merge(&mut self, other: &RatioSums) {
        self.hits += other.hits;
        self.trials += other.trials;
        self.hits_sq += other.hits_sq;
        self.trials_sq += other.trials_sq;
        self.cross += other.cross;
        self.games += other.games;
    }

    /// `Σ k_g / Σ n_g` (0 without trials).
    pub fn ratio(&self) -> f64 {
        if self.trials == 0 {
            0.0
        } else {
            self.hits as f64 / self.trials as f64
        }
    }

    /// 95% interval of the ratio, games being the independent units.
    pub fn ci95(&self) -> (f64, f64) {
        if self.trials == 0 || self.games < 2 {
            return (0.0, f64::INFINITY);
        }
        let p = self.ratio();
        let n = self.trials as f64;
        let spread =
            self.hits_sq as f64 - 2.0 * p * self.cross as f64 + p * p * self.trials_sq as f64;
        let g = self.games as f64;
        let half = 1.959_964 * (spread.max(0.0) / (n * n) * g / (g - 1.0)).sqrt();
        (p - half, p + half)
    }
}

/// Everything counted over a run of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStats {
    /// Games played.
    pub games: u64,
    /// `positions[t][d]`: positions with `t` cards on the table and `3d` in the deck.
    pub positions: Vec<[u64; DECK_STEPS]>,
    /// Same, positions without a SET.
    pub no_set: Vec<[u64; DECK_STEPS]>,
    /// Per table size `t`: positions without a SET among positions with `t` cards.
    pub no_set_by_size: Vec<RatioSums>,
    /// Positions without a SET among all positions.
    pub no_set_all: RatioSums,
    /// The same without each game's final position (how seed 003 counts).
    pub no_set_before_end: RatioSums,
    /// `sets_at_12[s]`: 12-card positions holding `s` SETs.
    pub sets_at_12: Vec<u64>,
    /// `sets_all[s]`: positions (any size) holding `s` SETs.
    pub sets_all: Vec<u64>,
    /// Mean number of SETs at 12-card positions (SETs over positions).
    pub mean_sets_at_12: RatioSums,
    /// `cards_left[t]`: games ending with `t` cards on the table.
    pub cards_left: Vec<u64>,
    /// `largest_table[t]`: games whose largest table had `t` cards.
    pub largest_table: Vec<u64>,
    /// SETs taken over all games.
    pub sets_taken: u64,
}

impl GameStats {
    fn new() -> GameStats {
        GameStats {
            games: 0,
            positions: vec![[0; DECK_STEPS]; MAX_TABLE + 1],
            no_set: vec![[0; DECK_STEPS]; MAX_TABLE + 1],
            no_set_by_size: vec![RatioSums::default(); MAX_TABLE + 1],
            no_set_all: RatioSums::default(),
            no_set_before_end: RatioSums::default(),
            sets_at_12: vec![0; MAX_SETS + 1],
            sets_all: vec![0; MAX_SETS + 1],
            mean_sets_at_12: RatioSums::default(),
            cards_left: vec![0; MAX_TABLE + 1],
            largest_table: vec![0; MAX_TABLE + 1],
            sets_taken: 0,
        }
    }

    fn merge(mut self, other: GameStats) -> GameStats {
        self.games += other.games;
        for (a, b) in self.positions.iter_mut().zip(&other.positions) {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        for (a, b) in self.no_set.iter_mut().zip(&other.no_set) {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        for (a, b) in self.no_set_by_size.iter_mut().zip(&other.no_set_by_size) {
            a.merge(b);
        }
        self.no_set_all.merge(&other.no_set_all);
        self.no_set_before_end.merge(&other.no_set_before_end);
        add_into(&mut self.sets_at_12, &other.sets_at_12);
        add_into(&mut self.sets_all, &other.sets_all);
        self.mean_sets_at_12.merge(&other.mean_sets_at_12);
        add_into(&mut self.cards_left, &other.cards_left);
        add_into(&mut self.largest_table, &other.largest_table);
        self.sets_taken += other.sets_taken;
        self
    }

    /// Makes every game a unit of every per-size ratio, with zeros where it
    /// had no position of that size.
    fn count_every_game(mut self) -> GameStats {
        for sums in &mut self.no_set_by_size {
            sums.games = self.games;
        }
        self
    }

    /// Positions with `t` cards on the table, all deck sizes.
    pub fn positions_with(&self, t: usize) -> u64 {
        self.positions.get(t).map_or(0, |row| row.iter().sum())
    }

    /// Games whose table grew to at least `t` cards.
    pub fn games_reaching(&self, t: usize) -> u64 {
        self.largest_table.iter().skip(t).sum()
    }

    /// Mean number of cards left on the table at the end, with its 95% interval.
    pub fn cards_left_mean(&self) -> (f64, (f64, f64)) {
        let g = self.games as f64;
        let (sum, sum_sq) = self
            .cards_left
            .iter()
            .enumerate()
            .fold((0.0, 0.0), |(s, q), (t, &n)| {
                (s + (t as f64) * n as f64, q + (t * t) as f64 * n as f64)
            });
        let mean = sum / g;
        let variance = (sum_sq / g - mean * mean) * g / (g - 1.0).max(1.0);
        let half = 1.959_964 * (variance.max(0.0) / g).sqrt();
        (mean, (mean - half, mean + half))
    }
}

fn add_into(a: &mut [u64], b: &[u64]) {
    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
}

/// More SETs than 21 cards can hold (each pair in one SET at most: 21·20/6 = 70).
const MAX_SETS: usize = 70;

/// How the simulator keeps the table's SETs up to date. Both play exactly
/// the same games (same SET lists in the same order, so the same picks);
/// only their speed differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEngine {
    /// One third-card lookup per card on the table for each dealt card.
    Portable,
    /// The whole table in one AVX-512 VBMI register: two byte permutes per
    /// dealt card (x86-64 CPUs with AVX-512 VBMI and VBMI2 only).
    Vectorised,
}

impl GameEngine {
    /// The fastest engine this CPU runs.
    pub fn best() -> GameEngine {
        if GameEngine::Vectorised.available() {
            GameEngine::Vectorised
        } else {
            GameEngine::Portable
        }
    }

    /// Whether this CPU runs the engine.
    pub fn available(self) -> bool {
        match self {
            GameEngine::Portable => true,
            #[cfg(target_arch = "x86_64")]
            GameEngine::Vectorised => vbmi::Game::new().is_some(),
            #[cfg(not(target_arch = "x86_64"))]
            GameEngine::Vectorised => false,
        }
    }
}

/// Plays `games` games on all cores with the fastest engine; the same `seed`
/// gives the same statistics whatever the thread count (and engine).
pub fn simulate_games(games: u64, pick: Pick, seed: u64, progress: Progress<'_>) -> GameStats {
    simulate_games_on(GameEngine::best(), games, pick, seed, progress)
        .expect("the best engine is available")
}

/// [`simulate_games`] with a chosen engine; `None` if this CPU cannot run it.
pub fn simulate_games_on(
    engine: GameEngine,
    games: u64,
    pick: Pick,
    seed: u64,
    progress: Progress<'_>,
) -> Option<GameStats> {
    match engine {
        GameEngine::Portable => Some(simulate_with(Game::default(), games, pick, seed, progress)),
        #[cfg(target_arch = "x86_64")]
        GameEngine::Vectorised => {
            vbmi::Game::new().map(|game| simulate_with(game, games, pick, seed, progress))
        }
        #[cfg(not(target_arch = "x86_64"))]
        GameEngine::Vectorised => None,
    }
}

/// One way of keeping a game's table and SETs (see [`GameEngine`]).
trait Player: Clone + Send + Sync {
    /// Plays game number `index` of the run with `seed`, reporting every
    /// position, and returns the game's tally.
    fn play(&mut self, pick: Pick, seed: u64, index: u64, report: impl FnMut(Position)) -> Tally;
}

fn simulate_with<P: Player>(
    player: P,
    games: u64,
    pick: Pick,
    seed: u64,
    progress: Progress<'_>,
) -> GameStats {
    let chunks = games.div_ceil(GAMES_PER_CHUNK);
    let done = AtomicU64::new(0);
    (0..chunks)
        .into_par_iter()
        .fold(GameStats::new, |mut stats, chunk| {
            let first = chunk * GAMES_PER_CHUNK;
            let last = (first + GAMES_PER_CHUNK).min(games);
            let mut game = player.clone();
            for index in first..last {
                let tally = game.play(pick, seed, index, |position| {
                    stats_position(&mut stats, position)
                });
                tally.add_into(&mut stats);
            }
            progress(
                done.fetch_add(last - first, Ordering::Relaxed) + last - first,
                games,
            );
            stats
        })
        .reduce(GameStats::new, GameStats::merge)
        .count_every_game()
}

/// One game's counts, added into the run's [`GameStats`] at its end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    /// `(positions, positions without a SET)` by table size.
    per_size: [(u8, u8); MAX_TABLE + 1],
    positions: u64,
    no_set_positions: u64,
    sets_at_12: u64,
    largest: usize,
    taken: u64,
    /// Cards on the table at the end.
    left: usize,
}

impl Tally {
    #[inline]
    fn count(&mut self, position: Position) {
        let slot = &mut self.per_size[position.table];
        slot.0 += 1;
        slot.1 += u8::from(position.sets == 0);
        self.positions += 1;
        self.no_set_positions += u64::from(position.sets == 0);
        if position.table == 12 {
            self.sets_at_12 += position.sets as u64;
        }
        self.largest = self.largest.max(position.table);
    }

    fn add_into(&self, stats: &mut GameStats) {
        stats.games += 1;
        // Sizes this game never had add nothing but the game itself, which
        // `GameStats::count_every_game` adds at the end (all games count).
        for (sums, &(n, k)) in stats.no_set_by_size.iter_mut().zip(&self.per_size) {
            if n > 0 {
                sums.add_game(k.into(), n.into());
            }
        }
        stats
            .no_set_all
            .add_game(self.no_set_positions, self.positions);
        // The final position (no SET, empty deck) is the one seed 003 leaves out.
        stats
            .no_set_before_end
            .add_game(self.no_set_positions - 1, self.positions - 1);
        stats
            .mean_sets_at_12
            .add_game(self.sets_at_12, self.per_size[12].0.into());
        stats.cards_left[self.left] += 1;
        stats.largest_table[self.largest] += 1;
        stats.sets_taken += self.taken;
    }
}

/// The SET whose sorted table positions come first (the first one
/// `finders::find_sets` would list), among `sets` on `table`.
fn first_set(table: &[u8], sets: impl Iterator<Item = [u8; 3]>) -> [u8; 3] {
    let mut position = [0u8; 81];
    for (i, &card) in table.iter().enumerate() {
        position[usize::from(card) % 81] = i as u8;
    }
    let key = |s: &[u8; 3]| {
        let mut p = s.map(|c| position[usize::from(c) % 81]);
        p.sort_unstable();
        p
    };
    sets.min_by_key(key)
        .expect("first_set is called only when the table holds a SET")
}

/// What players see at one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Cards on the table.
    pub table: usize,
    /// Cards still in the deck.
    pub deck: usize,
    /// SETs on the table.
    pub sets: usize,
}

fn stats_position(stats: &mut GameStats, position: Position) {
    let (t, d) = (position.table, position.deck / 3);
    stats.positions[t][d] += 1;
    if position.sets == 0 {
        stats.no_set[t][d] += 1;
    }
    stats.sets_all[position.sets] += 1;
    if t == 12 {
        stats.sets_at_12[position.sets] += 1;
    }
}

/// `THIRD_ABOVE[c][a]`: the card completing `a` and `c` if it is above `a`,
/// else [`NO_CARD`]. A new card `c` then finds each SET `{a, b, c}` it makes
/// with the table once, from the smaller of its two old cards, without a
/// compare. Rows (and [`Game::present`]) have 128 entries so that an index
/// masked with `& 127` needs no bounds check.
static THIRD_ABOVE: AboveRows = AboveRows({
    let mut table = [[NO_CARD; 128]; 81];
    let mut c = 0;
    while c < 81 {
        let mut a = 0;
        while a < 81 {
            if let (Some(x), Some(y)) = (Card::from_index(c as u8), Card::from_index(a as u8)) {
                let b = x.third(y).index();
                if b > a as u8 {
                    table[c][a] = b;
                }
            }
            a += 1;
        }
        c += 1;
    }
    table
});

/// Rows of 128 bytes at 64-byte aligned addresses: two AVX-512 registers each.
#[repr(C, align(64))]
struct AboveRows([[u8; 128]; 81]);

/// Index mask for [`THIRD_ABOVE`] rows and [`Game::present`].
const CARD_MASK: usize = 127;
/// Index mask for [`Game::sets`], which has room for more than [`MAX_SETS`].
const SET_MASK: usize = 127;

/// A card index that is never on the table.
const NO_CARD: u8 = 81;

/// The state of one game on the portable table, reused from game to game to avoid allocation.
#[derive(Clone, Debug)]
struct Game {
    /// The shuffled deck, dealt in order: `deck[dealt..]` are still to come.
    deck: [u8; 81],
    dealt: usize,
    /// Cards on the table, in table order (indices).
    table: [u8; MAX_TABLE],
    len: usize,
    /// `present[card]` is 1 for a card on the table, 0 otherwise
    /// (`present[NO_CARD]` always 0).
    present: [u8; CARD_MASK + 1],
    /// SETs on the table, as card triples packed by [`pack`]: `sets[..set_count]`.
    sets: [u32; SET_MASK + 1],
    set_count: usize,
    tally: Tally,
}

impl Default for Game {
    fn default() -> Self {
        Game {
            deck: ORDERED_DECK,
            dealt: 0,
            table: [0; MAX_TABLE],
            len: 0,
            present: [0; CARD_MASK + 1],
            sets: [0; SET_MASK + 1],
            set_count: 0,
            tally: Tally::default(),
        }
    }
}

/// Three cards in one word, so that a candidate SET is one store.
#[inline]
fn pack(a: u8, b: u8, c: u8) -> u32 {
    u32::from_le_bytes([a, b, c, 0])
}

#[inline]
fn unpack(set: u32) -> [u8; 3] {
    let [a, b, c, _] = set.to_le_bytes();
    [a, b, c]
}

/// The deck in index order, before shuffling.
const ORDERED_DECK: [u8; 81] = {
    let mut deck = [0; 81];
    let mut i = 0;
    while i < 81 {
        deck[i] = i as u8;
        i += 1;
    }
    deck
};

impl Player for Game {
    fn play(
        &mut self,
        pick: Pick,
        seed: u64,
        index: u64,
        mut report: impl FnMut(Position),
    ) -> Tally {
        let mut rng = rng_for(seed, index);
        self.reset(&mut rng);
        self.deal(12);
        loop {
            let position = Position {
                table: self.len,
                deck: 81 - self.dealt,
                sets: self.set_count,
            };
            report(position);
            self.tally.count(position);
            if self.set_count == 0 {
                if self.dealt == 81 {
                    self.tally.left = self.len;
                    return self.tally;
                }
                self.deal(3);
            } else {
                let chosen = match pick {
                    Pick::Random => {
                        self.sets[below(&mut rng, self.set_count as u64) as usize & SET_MASK]
                    }
                    Pick::First => self.first_set(),
                };
                self.take(chosen);
                self.deal(12usize.saturating_sub(self.len));
            }
        }
    }
}

impl Game {
    /// A fresh game: empty table, the deck shuffled by this game's stream.
    fn reset(&mut self, rng: &mut Stream) {
        self.deck = ORDERED_DECK;
        shuffle(rng, &mut self.deck);
        self.dealt = 0;
        self.len = 0;
        self.present = [0; CARD_MASK + 1];
        self.set_count = 0;
        self.tally = Tally::default();
    }

    /// Deals the next `n` cards of the deck (fewer if it runs out).
    fn deal(&mut self, n: usize) {
        let end = (self.dealt + n).min(81);
        for i in self.dealt..end {
            self.add(self.deck[i]);
        }
        self.dealt = end;
    }

    /// Puts `card` on the table with the SETs it makes there.
    #[inline]
    fn add(&mut self, card: u8) {
        // Branch-free: whether a pair makes a SET is a coin flip for the
        // branch predictor, so every candidate is written and kept or not.
        let row = &THIRD_ABOVE.0[usize::from(card)];
        let mut count = self.set_count;
        for &a in &self.table[..self.len] {
            let b = row[usize::from(a) & CARD_MASK];
            // At most MAX_SETS < SET_MASK SETs fit on a table: the mask never wraps.
            self.sets[count & SET_MASK] = pack(a, b, card);
            count += usize::from(self.present[usize::from(b) & CARD_MASK]);
        }
        self.set_count = count;
        self.table[self.len] = card;
        self.len += 1;
        self.present[usize::from(card) & CARD_MASK] = 1;
    }

    /// Takes `set` off the table with every SET that shares a card with it.
    fn take(&mut self, set: u32) {
        for card in unpack(set) {
            self.present[usize::from(card) & CARD_MASK] = 0;
        }
        let present = &self.present;
        let on_table = |card: u8| present[usize::from(card) & CARD_MASK];
        let mut kept = 0;
        for i in 0..self.set_count {
            let set = self.sets[i & SET_MASK];
            self.sets[kept & SET_MASK] = set;
            let [a, b, c] = unpack(set);
            kept += usize::from(on_table(a) & on_table(b) & on_table(c));
        }
        self.set_count = kept;
        let mut kept = 0;
        for i in 0..self.len {
            let card = self.table[i];
            self.table[kept] = card;
            kept += usize::from(on_table(card));
        }
        self.len = kept;
        self.tally.taken += 1;
    }

    /// The first SET in table order (see [`first_set`]).
    fn first_set(&self) -> u32 {
        let sets = self.sets[..self.set_count].iter().map(|&s| unpack(s));
        let [a, b, c] = first_set(&self.table[..self.len], sets);
        pack(a, b, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finders::find_sets;
    use crate::stats::no_progress;

    /// Plain reference: the table as a list of cards, SETs searched afresh
    /// at every position with the library finder, the same random draws
    /// (the deck shuffled first, then a pick per position).
    /// Returns (table size, deck size, SETs) per position.
    fn reference_game(pick: Pick, seed: u64, index: u64) -> Vec<(usize, usize, usize)> {
        let mut rng = rng_for(seed, index);
        let mut deck: Vec<Card> = Card::all().collect();
        shuffle(&mut rng, &mut deck);
        let mut deck = deck.into_iter();
        let mut table: Vec<Card> = deck.by_ref().take(12).collect();
        let mut positions = Vec::new();
        loop {
            let sets = find_sets(&table);
            positions.push((table.len(), deck.len(), sets.len()));
            if sets.is_empty() {
                if deck.len() == 0 {
                    return positions;
                }
                table.extend(deck.by_ref().take(3));
            } else {
                let chosen = match pick {
                    Pick::First => sets[0],
                    Pick::Random => sets[below(&mut rng, sets.len() as u64) as usize],
                };
                let mut position = 0;
                table.retain(|_| {
                    position += 1;
                    !chosen.contains(&(position - 1))
                });
                let n = 12usize.saturating_sub(table.len());
                table.extend(deck.by_ref().take(n));
            }
        }
    }

    #[test]
    fn first_pick_matches_the_plain_reference_game_by_game() {
        let mut game = Game::default();
        for index in 0..500 {
            let mut seen = Vec::new();
            game.play(Pick::First, 5, index, |p| {
                seen.push((p.table, p.deck, p.sets))
            });
            assert_eq!(seen, reference_game(Pick::First, 5, index), "game {index}");
        }
    }

    /// Every position and tally of `games` games played by `player`.
    fn transcript(mut player: impl Player, pick: Pick, games: u64) -> Vec<(Vec<Position>, Tally)> {
        (0..games)
            .map(|index| {
                let mut seen = Vec::new();
                let tally = player.play(pick, 9, index, |p| seen.push(p));
                (seen, tally)
            })
            .collect()
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vectorised_games_are_the_portable_games() {
        let Some(vectorised) = vbmi::Game::new() else {
            eprintln!(
                "skipped: this CPU lacks AVX-512 VBMI (the portable engine is tested instead)"
            );
            return;
        };
        for pick in [Pick::Random, Pick::First] {
            let expected = transcript(Game::default(), pick, 3000);
            assert_eq!(
                transcript(vectorised.clone(), pick, 3000),
                expected,
                "{pick:?}"
            );
        }
    }

    #[test]
    fn engines_give_the_same_statistics() {
        let portable = simulate_games_on(GameEngine::Portable, 5000, Pick::Random, 2, &no_progress);
        let best = simulate_games_on(GameEngine::best(), 5000, Pick::Random, 2, &no_progress);
        assert!(portable.is_some());
        assert_eq!(portable, best);
    }

    #[test]
    fn random_pick_agrees_with_the_plain_reference_statistically() {
        let games = 20_000u64;
        let fast = simulate_games(games, Pick::Random, 11, &no_progress);
        let (mut no_set, mut positions) = (0u64, 0u64);
        for index in 0..games {
            for (_, _, sets) in reference_game(Pick::Random, 12, index) {
                positions += 1;
                no_set += u64::from(sets == 0);
            }
        }
        let p_ref = no_set as f64 / positions as f64;
        let p_fast = fast.no_set_all.ratio();
        let (lo, hi) = fast.no_set_all.ci95();
        let se = (hi - lo) / (2.0 * 1.959_964);
        // Two independent estimates of similar precision: 4.5 standard errors of the difference.
        assert!(
            (p_fast - p_ref).abs() < 4.5 * se * 2f64.sqrt(),
            "fast {p_fast}, reference {p_ref}"
        );
    }

    #[test]
    fn games_are_reproducible_whatever_the_thread_count() {
        let run = |threads, seed| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| simulate_games(10_000, Pick::Random, seed, &no_progress))
        };
        let one = run(1, 3);
        assert_eq!(one, run(2, 3));
        assert_eq!(one, run(2, 3));
        assert_ne!(one, run(2, 4));
    }

    #[test]
    fn every_card_is_taken_or_left_and_three_are_never_left() {
        let stats = simulate_games(20_000, Pick::Random, 1, &no_progress);
        let left: u64 = stats
            .cards_left
            .iter()
            .enumerate()
            .map(|(t, &n)| t as u64 * n)
            .sum();
        assert_eq!(3 * stats.sets_taken + left, 81 * stats.games);
        // The 81 cards sum to 0 (mod 3) digit-wise, and so does every SET:
        // three cards left would sum to 0 and be a SET themselves.
        assert_eq!(stats.cards_left[3], 0);
        assert_eq!(stats.positions_with(21), stats.no_set_by_size[21].trials);
        assert_eq!(
            stats.no_set_by_size[21].hits, 0,
            "21 cards always hold a SET"
        );
        assert_eq!(
            stats.sets_at_12.iter().sum::<u64>(),
            stats.positions_with(12)
        );
    }
}
