//! The retrograde kernel against an independent brute force: the game graph's win/lose/draw
//! outcomes by the plainest fixpoint, on the position plus every nim-heap *k. Smith's value
//! says everything about those sums (γ = i finite: P with *i, N with every other heap; γ = ∞_K:
//! N with *k for k in K, a draw otherwise), so agreeing on all of them is agreeing on every
//! value, finite or ∞ with its K. Smith's local conditions are checked position by position
//! too, and sums of two and three positions against the brute force of the sum's graph.

use grundy_compute::retrograde::{generalized_values, GameGraph, GeneralizedValues, INFINITE};
use grundy_compute::{NoProgress, ThreadCount, Threads};
use grundy_core::{LoopyOutcome, LoopyValue};

/// A small deterministic generator (xorshift), so that a failure names its graph again.
struct Draws(u64);

impl Draws {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Win/lose/draw of every position of a graph given as option lists, by the definition: a
/// position is P when every option is N (so a position without a move is P), N when some
/// option is P, repeated until nothing changes; what is left is a draw.
fn brute_outcomes(options: &[Vec<usize>]) -> Vec<LoopyOutcome> {
    let mut outcome: Vec<Option<LoopyOutcome>> = vec![None; options.len()];
    loop {
        let mut changed = false;
        for u in 0..options.len() {
            if outcome[u].is_some() {
                continue;
            }
            let of = |v: &usize| outcome[*v];
            if options[u].iter().any(|v| of(v) == Some(LoopyOutcome::P)) {
                outcome[u] = Some(LoopyOutcome::N);
                changed = true;
            } else if options[u].iter().all(|v| of(v) == Some(LoopyOutcome::N)) {
                outcome[u] = Some(LoopyOutcome::P);
                changed = true;
            }
        }
        if !changed {
            return outcome.into_iter().map(|o| o.unwrap_or(LoopyOutcome::D)).collect();
        }
    }
}

/// The graph of the sum of graphs `parts`: a position is one position of each, a move moves
/// in one of them.
fn sum_graph(parts: &[&[Vec<usize>]]) -> (Vec<Vec<usize>>, Vec<usize>) {
    let sizes: Vec<usize> = parts.iter().map(|p| p.len()).collect();
    let total: usize = sizes.iter().product();
    let mut options = vec![Vec::new(); total];
    let mut stride = vec![1; parts.len()];
    for j in 1..parts.len() {
        stride[j] = stride[j - 1] * sizes[j - 1];
    }
    for (x, out) in options.iter_mut().enumerate() {
        for (j, part) in parts.iter().enumerate() {
            let at = x / stride[j] % sizes[j];
            for &v in &part[at] {
                out.push(x - at * stride[j] + v * stride[j]);
            }
        }
    }
    (options, stride)
}

/// The nim-heap graph *0 … *top.
fn nim(top: usize) -> Vec<Vec<usize>> {
    (0..=top).map(|h| (0..h).collect()).collect()
}

fn kernel_values(options: &[Vec<usize>]) -> (GameGraph, GeneralizedValues) {
    let graph = GameGraph::build(options.len(), |u, out| out.extend(&options[u])).unwrap();
    let values = generalized_values(&graph, &NoProgress).unwrap();
    (graph, values)
}

/// Every value of the graph agrees with the brute force of the graph plus each nim-heap, and
/// meets Smith's local conditions.
fn values_agree(options: &[Vec<usize>], what: &str) -> GeneralizedValues {
    let (graph, values) = kernel_values(options);
    let labels = values.labels();
    let largest = labels.iter().filter(|&&l| l != INFINITE).max().copied().unwrap_or(0) as usize;
    let top = largest + 2;
    let heaps = nim(top);
    let (sum, stride) = sum_graph(&[options, &heaps]);
    let outcomes = brute_outcomes(&sum);
    for u in 0..options.len() {
        let value = values.value(&graph, u);
        assert_eq!(values.outcome(&graph, u), value.outcome(), "{what}: outcome of {u}");
        for k in 0..=top {
            let expected = match &value {
                LoopyValue::Finite(i) if *i as usize == k => LoopyOutcome::P,
                LoopyValue::Finite(_) => LoopyOutcome::N,
                LoopyValue::Infinite(set) if set.contains(&(k as u32)) => LoopyOutcome::N,
                LoopyValue::Infinite(_) => LoopyOutcome::D,
            };
            let found = outcomes[u * stride[0] + k * stride[1]];
            assert_eq!(found, expected, "{what}: position {u} (value {value}) plus *{k}");
        }
        // Smith's conditions, position by position.
        let of: Vec<u32> = options[u].iter().map(|&v| labels[v]).collect();
        if let LoopyValue::Finite(i) = value {
            assert!(!of.contains(&i), "{what}: {u} has an option of its own value {i}");
            assert!((0..i).all(|j| of.contains(&j)), "{what}: {u} misses a value below {i}");
            for &v in &options[u] {
                if labels[v] > i {
                    let answer = options[v].iter().any(|&w| labels[w] == i);
                    assert!(answer, "{what}: {u} = {i} moves to {v} with no way back to {i}");
                }
            }
        }
    }
    values
}

/// A random graph of `n` positions with up to `degree` options each, cycles and self-loops
/// allowed.
fn random_graph(draws: &mut Draws, n: usize, degree: u64) -> Vec<Vec<usize>> {
    (0..n)
        .map(|_| (0..draws.below(degree + 1)).map(|_| draws.below(n as u64) as usize).collect())
        .collect()
}

#[test]
fn random_graphs_agree_with_the_brute_force() {
    let mut draws = Draws(0x9e37_79b9_7f4a_7c15);
    let mut kinds = [0usize; 3];
    for case in 0..300 {
        let n = 1 + draws.below(40) as usize;
        let degree = 1 + draws.below(4);
        let options = random_graph(&mut draws, n, degree);
        let values = values_agree(&options, &format!("graph {case}"));
        for &l in values.labels() {
            kinds[match l {
                0 => 0,
                INFINITE => 2,
                _ => 1,
            }] += 1;
        }
    }
    // The graphs are not all of one kind: P-, N- and ∞ positions all occur, many times.
    assert!(kinds.iter().all(|&k| k > 500), "{kinds:?}");
}

/// A random loopy board, `rows` × `columns`: a token moved by a few fixed offsets, some of
/// which go up or right (a move that would leave the board is not a move).
fn random_board(draws: &mut Draws, rows: i64, columns: i64) -> Vec<Vec<usize>> {
    let mut offsets: Vec<(i64, i64)> = Vec::new();
    for _ in 0..2 + draws.below(4) {
        let offset = (draws.below(7) as i64 - 3, draws.below(7) as i64 - 3);
        if offset != (0, 0) && !offsets.contains(&offset) {
            offsets.push(offset);
        }
    }
    let mut options = Vec::new();
    for i in 0..rows {
        for j in 0..columns {
            let on = |(a, b): &(i64, i64)| {
                let (x, y) = (i + a, j + b);
                (x >= 0 && x < rows && y >= 0 && y < columns).then_some((x * columns + y) as usize)
            };
            options.push(offsets.iter().filter_map(on).collect());
        }
    }
    options
}

/// A random loopy heap game on heaps 0..=top: take an amount from one set, or add one from
/// another, staying within 0..=top.
fn random_heaps(draws: &mut Draws, top: i64) -> Vec<Vec<usize>> {
    let takes: Vec<i64> = (0..1 + draws.below(3)).map(|_| 1 + draws.below(6) as i64).collect();
    let adds: Vec<i64> = (0..1 + draws.below(2)).map(|_| 1 + draws.below(6) as i64).collect();
    (0..=top)
        .map(|h| {
            let down = takes.iter().map(|t| h - t);
            let up = adds.iter().map(|a| h + a);
            down.chain(up).filter(|&x| (0..=top).contains(&x)).map(|x| x as usize).collect()
        })
        .collect()
}

#[test]
fn random_loopy_boards_and_heap_games_agree_with_the_brute_force() {
    let mut draws = Draws(0x2545_f491_4f6c_dd1d);
    for case in 0..20 {
        let (rows, columns) = (2 + draws.below(11) as i64, 2 + draws.below(11) as i64);
        let board = random_board(&mut draws, rows, columns);
        values_agree(&board, &format!("board {case} ({rows}x{columns})"));
        let top = 10 + draws.below(51) as i64;
        let heaps = random_heaps(&mut draws, top);
        values_agree(&heaps, &format!("heap game {case} (to {top})"));
    }
}

#[test]
fn sums_of_two_and_three_positions_follow_smiths_rule() {
    let mut draws = Draws(0x1234_5678_9abc_def1);
    for case in 0..60 {
        let count = 2 + draws.below(2) as usize;
        let graphs: Vec<Vec<Vec<usize>>> = (0..count)
            .map(|_| {
                let n = 2 + draws.below(9) as usize;
                random_graph(&mut draws, n, 3)
            })
            .collect();
        let parts: Vec<&[Vec<usize>]> = graphs.iter().map(|g| g.as_slice()).collect();
        let (sum, stride) = sum_graph(&parts);
        let outcomes = brute_outcomes(&sum);
        let values: Vec<(GameGraph, GeneralizedValues)> =
            graphs.iter().map(|g| kernel_values(g)).collect();
        for (x, &found) in outcomes.iter().enumerate() {
            let components: Vec<LoopyValue> = values
                .iter()
                .enumerate()
                .map(|(j, (graph, v))| v.value(graph, x / stride[j] % graphs[j].len()))
                .collect();
            let rule = LoopyValue::sum(&components).outcome();
            assert_eq!(rule, found, "case {case}: sum {x} of {components:?}");
        }
    }
}

#[test]
fn values_are_the_same_on_every_thread_count() {
    let mut draws = Draws(77);
    let board = random_board(&mut draws, 300, 300);
    let labels = |threads: usize| {
        let pool = Threads::new(Some(ThreadCount::new(threads).unwrap())).unwrap();
        pool.install(|| kernel_values(&board).1)
    };
    let one = labels(1);
    assert_eq!(labels(2), one);
    assert_eq!(labels(3), one);
}

#[test]
fn cycles_without_an_exit_are_draws_and_exits_decide() {
    // a ⇄ b alone: both ∞ with K empty, draws.
    let (graph, values) = kernel_values(&[vec![1], vec![0]]);
    assert_eq!(values.value(&graph, 0), LoopyValue::Infinite(vec![]));
    // a → b, b → a, b → t: t = 0, a = 0 (its one move reaches b, from which the mover must
    // win by going to t), b = 1.
    let (graph, values) = kernel_values(&[vec![1], vec![0, 2], vec![]]);
    let found: Vec<LoopyValue> = (0..3).map(|u| values.value(&graph, u)).collect();
    assert_eq!(found, [LoopyValue::Finite(0), LoopyValue::Finite(1), LoopyValue::Finite(0)]);
    // A self-loop with an exit to a P-position: ∞ with K = {0}, an N-position.
    let (graph, values) = kernel_values(&[vec![0, 1], vec![]]);
    assert_eq!(values.value(&graph, 0), LoopyValue::Infinite(vec![0]));
    assert_eq!(values.value(&graph, 0).outcome(), LoopyOutcome::N);
}
