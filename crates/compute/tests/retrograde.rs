//! The retrograde kernel against an independent brute force: the game graph's win/lose/draw
//! outcomes by the plainest fixpoint, on the position plus every nim-heap *k. Smith's value
//! says everything about those sums (γ = i finite: P with *i, N with every other heap; γ = ∞_K:
//! N with *k for k in K, a draw otherwise), so agreeing on all of them is agreeing on every
//! value, finite or ∞ with its K. Smith's local conditions are checked position by position
//! too, and sums of two and three positions against the brute force of the sum's graph.
//! Random loopy games written as spec files go through the parser and the library's fill, and
//! are checked against the graph the test builds from their rules itself.

use grundy_compute::retrograde::{
    descending_values, generalized_values, GameGraph, GeneralizedValues, INFINITE,
};
use grundy_compute::{NoProgress, ThreadCount, Threads};
use grundy_core::{LoopyOutcome, LoopyValue};
use grundy_testkit::loopy::{brute_outcomes, sum_graph};

/// A seeded generator (fastrand's wyrand), so that a failure names its case again.
type Draws = fastrand::Rng;

/// The nim-heap graph *0 … *top.
fn nim(top: usize) -> Vec<Vec<usize>> {
    (0..=top).map(|h| (0..h).collect()).collect()
}

fn kernel_values(options: &[Vec<usize>]) -> (GameGraph, GeneralizedValues) {
    let graph = GameGraph::build(&Default::default(), options.len(), |u, out: &mut Vec<usize>| {
        out.extend(&options[u])
    })
    .unwrap();
    let values = generalized_values(&graph, &NoProgress).unwrap();
    (graph, values)
}

/// Every value of the graph agrees with the brute force of the graph plus each nim-heap, and
/// meets Smith's local conditions.
fn values_agree(options: &[Vec<usize>], what: &str) -> GeneralizedValues {
    let (graph, values) = kernel_values(options);
    for u in 0..options.len() {
        let value = values.value(&graph, u);
        assert_eq!(value, value_from(options, values.labels(), u), "{what}: K of {u}");
        assert_eq!(values.outcome(&graph, u), value.outcome(), "{what}: outcome of {u}");
    }
    labels_agree(options, values.labels(), what);
    values
}

/// The value a label gives position `u` of the graph `options`: finite, or ∞ with K, the
/// finite labels among its options.
fn value_from(options: &[Vec<usize>], labels: &[u32], u: usize) -> LoopyValue {
    if labels[u] != INFINITE {
        return LoopyValue::Finite(labels[u]);
    }
    let mut k: Vec<u32> =
        options[u].iter().map(|&v| labels[v]).filter(|&l| l != INFINITE).collect();
    k.sort_unstable();
    k.dedup();
    LoopyValue::Infinite(k)
}

/// Labels found by anything (the kernel, or a whole fill) against the graph `options`: every
/// value, finite or ∞ with its K, agrees with the brute force of the graph plus each
/// nim-heap, and meets Smith's local conditions.
fn labels_agree(options: &[Vec<usize>], labels: &[u32], what: &str) {
    assert_eq!(labels.len(), options.len(), "{what}: one label per position");
    let largest = labels.iter().filter(|&&l| l != INFINITE).max().copied().unwrap_or(0) as usize;
    let top = largest + 2;
    let heaps = nim(top);
    let (sum, stride) = sum_graph(&[options, &heaps]);
    let outcomes = brute_outcomes(&sum);
    for u in 0..options.len() {
        let value = value_from(options, labels, u);
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
}

/// A random graph of `n` positions with up to `degree` options each, cycles and self-loops
/// allowed.
fn random_graph(draws: &mut Draws, n: usize, degree: u64) -> Vec<Vec<usize>> {
    (0..n)
        .map(|_| (0..draws.u64(..degree + 1)).map(|_| draws.u64(..n as u64) as usize).collect())
        .collect()
}

#[test]
fn random_graphs_agree_with_the_brute_force() {
    let mut draws = Draws::with_seed(0x9e37_79b9_7f4a_7c15);
    let mut kinds = [0usize; 3];
    for case in 0..300 {
        let n = 1 + draws.u64(..40) as usize;
        let degree = 1 + draws.u64(..4);
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
    for _ in 0..2 + draws.u64(..4) {
        let offset = (draws.u64(..7) as i64 - 3, draws.u64(..7) as i64 - 3);
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
    let takes: Vec<i64> = (0..1 + draws.u64(..3)).map(|_| 1 + draws.u64(..6) as i64).collect();
    let adds: Vec<i64> = (0..1 + draws.u64(..2)).map(|_| 1 + draws.u64(..6) as i64).collect();
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
    let mut draws = Draws::with_seed(0x2545_f491_4f6c_dd1d);
    for case in 0..20 {
        let (rows, columns) = (2 + draws.u64(..11) as i64, 2 + draws.u64(..11) as i64);
        let board = random_board(&mut draws, rows, columns);
        values_agree(&board, &format!("board {case} ({rows}x{columns})"));
        let top = 10 + draws.u64(..51) as i64;
        let heaps = random_heaps(&mut draws, top);
        values_agree(&heaps, &format!("heap game {case} (to {top})"));
    }
}

#[test]
fn sums_of_two_and_three_positions_follow_smiths_rule() {
    let mut draws = Draws::with_seed(0x1234_5678_9abc_def1);
    for case in 0..60 {
        let count = 2 + draws.u64(..2) as usize;
        let graphs: Vec<Vec<Vec<usize>>> = (0..count)
            .map(|_| {
                let n = 2 + draws.u64(..9) as usize;
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
    let mut draws = Draws::with_seed(77);
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

/// One rule of a random spec game, as the test means it (independently of the model's own
/// `Game::options`).
enum Move {
    Step(Vec<Vec<i64>>),
    Jump(Vec<i64>, Vec<i64>),
    Slide(Vec<i64>, Option<i64>),
}

impl Move {
    fn toml(&self) -> String {
        let vector = |v: &[i64]| format!("{v:?}");
        match self {
            Move::Step(offsets) => {
                let list: Vec<String> = offsets.iter().map(|o| vector(o)).collect();
                format!("[[rules]]\nkind = \"step\"\noffsets = [{}]\n", list.join(", "))
            }
            Move::Jump(direction, steps) => format!(
                "[[rules]]\nkind = \"jump\"\ndirections = [{}]\nsteps = {steps:?}\n",
                vector(direction)
            ),
            Move::Slide(direction, max) => {
                let max = max.map(|m| format!("max = {m}\n")).unwrap_or_default();
                format!("[[rules]]\nkind = \"slide\"\ndirections = [{}]\n{max}", vector(direction))
            }
        }
    }

    /// The positions this rule moves `pos` to, inside the box `low..=high`.
    fn options(&self, pos: &[i64], low: &[i64], high: &[i64]) -> Vec<Vec<i64>> {
        let inside =
            |p: &Vec<i64>| p.iter().zip(low.iter().zip(high)).all(|(c, (l, h))| l <= c && c <= h);
        let along = |direction: &[i64], k: i64| -> Vec<i64> {
            pos.iter().zip(direction).map(|(c, d)| c + k * d).collect()
        };
        match self {
            Move::Step(offsets) => offsets.iter().map(|o| along(o, 1)).filter(inside).collect(),
            Move::Jump(direction, steps) => {
                steps.iter().map(|&k| along(direction, k)).filter(inside).collect()
            }
            Move::Slide(direction, max) => {
                (1..=max.unwrap_or(1000)).map(|k| along(direction, k)).take_while(inside).collect()
            }
        }
    }
}

/// A random direction of `dims` coordinates in -`reach`..=`reach`, not zero.
fn random_vector(draws: &mut Draws, dims: usize, reach: i64) -> Vec<i64> {
    loop {
        let v: Vec<i64> =
            (0..dims).map(|_| draws.u64(..2 * reach as u64 + 1) as i64 - reach).collect();
        if v.iter().any(|&c| c != 0) {
            return v;
        }
    }
}

/// A random loopy spec game: a board up to 12×12 or a heap game up to 60, with steps, jumps
/// and slides in every direction, and at least one move that raises a coordinate. Returns the
/// spec's text, the rules as the test means them and the board's smallest and largest corner.
fn random_spec(draws: &mut Draws, case: usize) -> (String, Vec<Move>, Vec<i64>, Vec<i64>) {
    let dims = 1 + case % 2;
    let low: Vec<i64> = (0..dims).map(|_| draws.u64(..2) as i64).collect();
    let high: Vec<i64> = low
        .iter()
        .map(|&l| l + if dims == 1 { 9 + draws.u64(..52) } else { 1 + draws.u64(..12) } as i64)
        .collect();
    let mut moves = Vec::new();
    for _ in 0..1 + draws.u64(..3) {
        let reach = if dims == 1 { 6 } else { 2 };
        moves.push(match draws.u64(..3) {
            0 => Move::Step(
                (0..1 + draws.u64(..3)).map(|_| random_vector(draws, dims, reach)).collect(),
            ),
            1 => {
                let mut steps: Vec<i64> =
                    (0..1 + draws.u64(..3)).map(|_| 1 + draws.u64(..4) as i64).collect();
                steps.sort_unstable();
                steps.dedup();
                Move::Jump(random_vector(draws, dims, 1), steps)
            }
            _ => {
                let max = (draws.u64(..2) == 0).then(|| 1 + draws.u64(..4) as i64);
                Move::Slide(random_vector(draws, dims, 1), max)
            }
        });
    }
    let raises = |m: &Move| match m {
        Move::Step(offsets) => offsets.iter().flatten().any(|&c| c > 0),
        Move::Jump(d, _) | Move::Slide(d, _) => d.iter().any(|&c| c > 0),
    };
    if !moves.iter().any(raises) {
        let mut up = vec![0; dims];
        up[draws.u64(..dims as u64) as usize] = 1 + draws.u64(..2) as i64;
        moves.push(Move::Step(vec![up]));
    }
    let names = ["n", "m"];
    let axes: Vec<String> = (0..dims)
        .map(|d| format!("{{ name = \"{}\", min = {}, max = {} }}", names[d], low[d], high[d]))
        .collect();
    let mut text = format!(
        "name = \"random-{case}\"\ndescription = \"a random loopy game\"\naxes = [{}]\n",
        axes.join(", ")
    );
    for m in &moves {
        text.push_str(&m.toml());
    }
    (text, moves, low, high)
}

/// Issue 32's check: 40 random loopy games written as spec files, read by the spec parser and
/// computed by the library's own fill (what `grundy compute` runs), against the game graph the
/// test builds from the rules as it means them.
#[test]
fn random_loopy_spec_games_agree_with_a_brute_force_of_their_rules() {
    use grundy_compute::{FillRequest, PreparedFill};
    let mut draws = Draws::with_seed(0x5eed_1005_f00d_cafe);
    let mut outcomes = [0usize; 3];
    let mut acyclic = 0;
    for case in 0..40 {
        let (text, moves, low, high) = random_spec(&mut draws, case);
        let game = grundy_core::parse_spec(&text, "random.toml")
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        assert!(game.is_loopy(), "case {case}:\n{text}");
        let shape = grundy_core::TableShape::new(&game, &high, "random").unwrap();
        let Ok(PreparedFill::Retrograde(fill)) = FillRequest::new(&game, &shape).prepare() else {
            panic!("case {case}: a loopy game runs the retrograde kernel\n{text}");
        };
        let table = fill.fill(&NoProgress).unwrap();
        // A game whose moves all lower a weighted sum is valued in one pass instead of rounds.
        assert_eq!(table.descent().map(<[i64]>::to_vec), game.descent(), "case {case}");
        acyclic += usize::from(table.descent().is_some());
        // The test's own graph, positions in row-major order.
        let lens: Vec<i64> = low.iter().zip(&high).map(|(l, h)| h - l + 1).collect();
        let count: i64 = lens.iter().product();
        let index =
            |p: &[i64]| p.iter().zip(&low).zip(&lens).fold(0, |at, ((c, l), n)| at * n + (c - l));
        let position = |mut u: i64| -> Vec<i64> {
            let mut p = vec![0; lens.len()];
            for d in (0..lens.len()).rev() {
                p[d] = low[d] + u % lens[d];
                u /= lens[d];
            }
            p
        };
        let options: Vec<Vec<usize>> = (0..count)
            .map(|u| {
                let p = position(u);
                moves
                    .iter()
                    .flat_map(|m| m.options(&p, &low, &high))
                    .map(|q| index(&q) as usize)
                    .collect()
            })
            .collect();
        labels_agree(&options, table.labels(), &format!("case {case}:\n{text}"));
        for u in 0..options.len() {
            let value = value_from(&options, table.labels(), u);
            assert_eq!(table.value_at(u), value, "case {case}: K of {u}\n{text}");
            outcomes[value.outcome() as usize] += 1;
        }
    }
    // The games are not all draws: P-, N-positions and draws all occur, many times; and both
    // the labelling and the one-pass fill of acyclic games run.
    assert!(outcomes.iter().all(|&k| k > 200), "{outcomes:?}");
    assert!((4..=36).contains(&acyclic), "{acyclic} of 40 games acyclic");
}

/// The one-pass fill of acyclic graphs gives the labelling's values, on random graphs whose
/// moves all go to lower-numbered positions (levels of several positions each), on every
/// thread count.
#[test]
fn acyclic_graphs_take_one_pass_and_agree_with_the_labelling() {
    let mut draws = Draws::with_seed(0xace1_c0de);
    for case in 0..100 {
        let n = 1 + draws.u64(..300) as usize;
        let width = 1 + draws.u64(..5) as usize;
        let options: Vec<Vec<usize>> = (0..n)
            .map(|u| {
                let below = u / width * width; // positions on lower levels
                (0..draws.u64(..6))
                    .filter(|_| below > 0)
                    .map(|_| draws.u64(..below as u64) as usize)
                    .collect()
            })
            .collect();
        let (graph, labelled) = kernel_values(&options);
        for threads in 1..=3 {
            let pool = Threads::new(Some(ThreadCount::new(threads).unwrap())).unwrap();
            let level = |u: usize| (u / width) as u64;
            let one_pass = pool.install(|| descending_values(&graph, level, &NoProgress).unwrap());
            assert_eq!(one_pass, labelled, "case {case}, {threads} threads");
        }
        assert!(labelled.labels().iter().all(|&l| l != INFINITE));
    }
}
