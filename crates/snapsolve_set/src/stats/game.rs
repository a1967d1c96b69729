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
//! **Speed.** The SETs on the table are kept up to date instead of being
//! searched for again: a new card `c` forms a SET with every pair `{a, third(c, a)}`
//! already on the table, which is one table lookup per card on the table,
//! and taking a SET drops the SETs that shared one of its cards.
//!
//! **Reproducibility.** Game `i` draws from its own random stream
//! `(seed, i)`, and all tallies are integers added up, so the result is the
//! same for any number of threads.
//!
//! **Confidence intervals.** Positions of one game are not independent; the
//! shares over positions are ratio estimators over independent games, whose
//! variance is estimated per game (cluster-robust, delta method).

use std::sync::atomic::{AtomicU64, Ordering};

use rand::Rng;
use rayon::prelude::*;

use super::caps::third_index;
use super::{Progress, rng_for};

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

/// Plays `games` games on all cores; the same `seed` gives the same
/// statistics whatever the thread count.
pub fn simulate_games(games: u64, pick: Pick, seed: u64, progress: Progress<'_>) -> GameStats {
    let chunks = games.div_ceil(GAMES_PER_CHUNK);
    let done = AtomicU64::new(0);
    (0..chunks)
        .into_par_iter()
        .fold(GameStats::new, |mut stats, chunk| {
            let first = chunk * GAMES_PER_CHUNK;
            let last = (first + GAMES_PER_CHUNK).min(games);
            let mut game = Game::default();
            for index in first..last {
                game.play(pick, seed, index, |position| {
                    stats_position(&mut stats, position)
                });
                game.finish_into(&mut stats);
            }
            progress(
                done.fetch_add(last - first, Ordering::Relaxed) + last - first,
                games,
            );
            stats
        })
        .reduce(GameStats::new, GameStats::merge)
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

/// The state of one game, reused from game to game to avoid allocation.
#[derive(Clone, Debug)]
struct Game {
    /// Cards on the table, in table order (indices).
    table: [u8; MAX_TABLE],
    len: usize,
    /// The same cards as a mask.
    on_table: u128,
    /// The deck: `deck[dealt..]` are the cards not dealt yet.
    deck: [u8; 81],
    dealt: usize,
    /// SETs on the table, as card triples: `sets[..set_count]`.
    sets: [[u8; 3]; MAX_SETS + 1],
    set_count: usize,
    /// Per-game counts for the ratio sums, by table size.
    per_size: [(u8, u8); MAX_TABLE + 1],
    positions: u64,
    no_set_positions: u64,
    sets_at_12: u64,
    largest: usize,
    taken: u64,
}

impl Default for Game {
    fn default() -> Self {
        Game {
            table: [0; MAX_TABLE],
            len: 0,
            on_table: 0,
            deck: [0; 81],
            dealt: 0,
            sets: [[0; 3]; MAX_SETS + 1],
            set_count: 0,
            per_size: [(0, 0); MAX_TABLE + 1],
            positions: 0,
            no_set_positions: 0,
            sets_at_12: 0,
            largest: 0,
            taken: 0,
        }
    }
}

impl Game {
    /// Plays game number `index` of the run with `seed`, reporting every position.
    fn play(&mut self, pick: Pick, seed: u64, index: u64, mut report: impl FnMut(Position)) {
        let mut rng = rng_for(seed, index);
        self.reset();
        self.deal(12, &mut rng);
        loop {
            let position = Position {
                table: self.len,
                deck: 81 - self.dealt,
                sets: self.set_count,
            };
            report(position);
            self.count(position);
            if self.set_count == 0 {
                if self.dealt == 81 {
                    return;
                }
                self.deal(3, &mut rng);
            } else {
                let chosen = match pick {
                    Pick::Random => self.sets[rng.random_range(0..self.set_count)],
                    Pick::First => self.first_set(),
                };
                self.take(chosen);
                self.deal(12usize.saturating_sub(self.len), &mut rng);
            }
        }
    }

    fn reset(&mut self) {
        self.len = 0;
        self.on_table = 0;
        for (i, card) in self.deck.iter_mut().enumerate() {
            *card = i as u8;
        }
        self.dealt = 0;
        self.set_count = 0;
        self.per_size = [(0, 0); MAX_TABLE + 1];
        self.positions = 0;
        self.no_set_positions = 0;
        self.sets_at_12 = 0;
        self.largest = 0;
        self.taken = 0;
    }

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

    /// Deals up to `n` cards from the deck (a partial Fisher–Yates shuffle),
    /// adding the SETs each new card makes with the table.
    fn deal(&mut self, n: usize, rng: &mut impl Rng) {
        for _ in 0..n {
            if self.dealt == 81 {
                return;
            }
            let j = rng.random_range(self.dealt..81);
            self.deck.swap(self.dealt, j);
            let card = self.deck[self.dealt];
            self.dealt += 1;
            self.add(card);
        }
    }

    #[inline]
    fn add(&mut self, card: u8) {
        // Branch-free: whether a pair makes a SET is a coin flip for the
        // branch predictor, so every candidate is written and kept or not.
        for &a in &self.table[..self.len] {
            let b = third_index(card, a);
            let hit = (a < b) & ((self.on_table >> b) & 1 != 0);
            self.sets[self.set_count] = [a, b, card];
            self.set_count += usize::from(hit);
        }
        self.table[self.len] = card;
        self.len += 1;
        self.on_table |= 1 << card;
    }

    fn take(&mut self, set: [u8; 3]) {
        let gone = set.iter().fold(0u128, |m, &c| m | 1 << c);
        let mut kept_sets = 0;
        for i in 0..self.set_count {
            let set = self.sets[i];
            self.sets[kept_sets] = set;
            kept_sets += usize::from(set.iter().all(|&c| gone & (1 << c) == 0));
        }
        self.set_count = kept_sets;
        let mut kept = 0;
        for i in 0..self.len {
            let card = self.table[i];
            if gone & (1 << card) == 0 {
                self.table[kept] = card;
                kept += 1;
            }
        }
        self.len = kept;
        self.on_table &= !gone;
        self.taken += 1;
    }

    /// The SET whose sorted table positions come first (the first one
    /// `finders::find_sets` would list).
    fn first_set(&self) -> [u8; 3] {
        let mut position = [0u8; 81];
        for (i, &card) in self.table[..self.len].iter().enumerate() {
            position[card as usize] = i as u8;
        }
        let key = |s: &[u8; 3]| {
            let mut p = s.map(|c| position[c as usize]);
            p.sort_unstable();
            p
        };
        *self.sets[..self.set_count]
            .iter()
            .min_by_key(|s| key(s))
            .expect("first_set is called only when the table holds a SET")
    }

    /// Adds this game's per-game sums into the run's statistics.
    fn finish_into(&self, stats: &mut GameStats) {
        stats.games += 1;
        // Every game counts for every size, with zeros where it had no such
        // position: the ratio estimator's games are all games.
        for (sums, &(n, k)) in stats.no_set_by_size.iter_mut().zip(&self.per_size) {
            sums.add_game(k.into(), n.into());
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
        stats.cards_left[self.len] += 1;
        stats.largest_table[self.largest] += 1;
        stats.sets_taken += self.taken;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Card;
    use crate::finders::find_sets;
    use crate::stats::no_progress;

    /// Plain reference: the table as a list of cards, SETs searched afresh
    /// at every position with the library finder, the same random draws.
    /// Returns (table size, deck size, SETs) per position.
    fn reference_game(pick: Pick, seed: u64, index: u64) -> Vec<(usize, usize, usize)> {
        fn deal(
            deck: &mut [u8],
            dealt: &mut usize,
            table: &mut Vec<Card>,
            n: usize,
            rng: &mut impl Rng,
        ) {
            for _ in 0..n {
                if *dealt < 81 {
                    let j = rng.random_range(*dealt..81);
                    deck.swap(*dealt, j);
                    table.push(Card::from_index(deck[*dealt]).unwrap());
                    *dealt += 1;
                }
            }
        }
        let mut rng = rng_for(seed, index);
        let mut deck: Vec<u8> = (0..81).collect();
        let mut dealt = 0;
        let mut table = Vec::new();
        deal(&mut deck, &mut dealt, &mut table, 12, &mut rng);
        let mut positions = Vec::new();
        loop {
            let sets = find_sets(&table);
            positions.push((table.len(), 81 - dealt, sets.len()));
            if sets.is_empty() {
                if dealt == 81 {
                    return positions;
                }
                deal(&mut deck, &mut dealt, &mut table, 3, &mut rng);
            } else {
                let chosen = match pick {
                    Pick::First => sets[0],
                    Pick::Random => sets[rng.random_range(0..sets.len())],
                };
                let mut position = 0;
                table.retain(|_| {
                    position += 1;
                    !chosen.contains(&(position - 1))
                });
                let n = 12usize.saturating_sub(table.len());
                deal(&mut deck, &mut dealt, &mut table, n, &mut rng);
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
