//! Enumerative synthesis: the shortest formula over the axis variables and small constants that
//! gives a target's values on sample cells.
//!
//! Formulas are built bottom-up by size (the number of nodes, as [`grundy_expr::Expr::size`]
//! counts them), from the variables and the constants 0..=5 with `+ - * / % xor min max` and
//! `abs`. Two formulas that agree on every sample cell are one formula for the search (the first
//! built, so the smallest, is kept): the standard observational-equivalence pruning of
//! enumerative synthesis. The formulas of the largest size are not kept, only compared, so the
//! last size costs time and no memory. Integer arithmetic is the expression language's: `/` and
//! `%` are Euclidean, a division by zero or an overflow drops the formula. The values are
//! computed by the compiled evaluator's kernels (`expr::compiled::int_rows`), the same that
//! run every check: one evaluator.
//!
//! A formula that gives the samples is only a candidate: the caller checks it on every cell.

use grundy_expr::compiled::{abs_rows, int_rows, IntOp};
use grundy_expr::BinOp;
use std::collections::HashMap;
use std::time::Instant;

/// The operations of the grammar, in the expression language's spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Xor,
    Min,
    Max,
}

impl Op {
    const ALL: [Op; 8] = [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Rem, Op::Xor, Op::Min, Op::Max];

    fn commutes(self) -> bool {
        matches!(self, Op::Add | Op::Mul | Op::Xor | Op::Min | Op::Max)
    }

    /// The operation as the compiled evaluator runs it.
    fn kernel(self) -> IntOp {
        match self {
            Op::Add => IntOp::Bin(BinOp::Add),
            Op::Sub => IntOp::Bin(BinOp::Sub),
            Op::Mul => IntOp::Bin(BinOp::Mul),
            Op::Div => IntOp::Bin(BinOp::Div),
            Op::Rem => IntOp::Bin(BinOp::Rem),
            Op::Xor => IntOp::Xor,
            Op::Min => IntOp::Min,
            Op::Max => IntOp::Max,
        }
    }

    /// The infix symbol and its precedence, or `None` for a function.
    fn infix(self) -> Option<(&'static str, u8)> {
        match self {
            Op::Add => Some(("+", 1)),
            Op::Sub => Some(("-", 1)),
            Op::Mul => Some(("*", 2)),
            Op::Div => Some(("/", 2)),
            Op::Rem => Some(("%", 2)),
            _ => None,
        }
    }

    fn function(self) -> &'static str {
        match self {
            Op::Xor => "xor",
            Op::Min => "min",
            _ => "max",
        }
    }
}

/// A formula of the search, its children by index into the bank.
#[derive(Clone, Copy, Debug)]
enum Node {
    Var(usize),
    Const(i64),
    Abs(u32),
    Bin(Op, u32, u32),
}

/// Why a search ended without covering every size up to its largest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stopped {
    /// Every formula up to this size was tried.
    pub(crate) complete: usize,
    /// Formulas tried in all.
    pub(crate) tried: u64,
    /// Whether the bank was full ([`MOST_KEPT`]) rather than the time out.
    pub(crate) bank_full: bool,
}

/// The outcome of one search.
pub(crate) struct Found {
    /// Candidates, shortest text first, all of the smallest size that gives the samples.
    pub(crate) candidates: Vec<String>,
    /// Every formula up to this size was tried: the largest size asked for when the search
    /// ran to its end, the candidates' size when it found some, less when it stopped.
    pub(crate) searched: usize,
    /// Formulas tried.
    pub(crate) tried: u64,
    /// `Some` when the deadline came first.
    pub(crate) stopped: Option<Stopped>,
}

/// The constants the grammar starts from.
const CONSTANTS: [i64; 6] = [0, 1, 2, 3, 4, 5];

/// Formulas kept in the bank at most (the bank's sizes below the largest): a bound on memory.
const MOST_KEPT: usize = 400_000;

/// A bottom-up search over `names`, with `samples[k]` the variables' values at sample cell k.
pub(crate) struct Synthesis<'a> {
    names: &'a [String],
    samples: &'a [Vec<i64>],
    nodes: Vec<Node>,
    /// Each node's values on the samples, `samples.len()` per node.
    values: Vec<i64>,
    /// The nodes of each size.
    by_size: Vec<Vec<u32>>,
    seen: HashMap<Vec<i64>, u32>,
}

impl<'a> Synthesis<'a> {
    pub(crate) fn new(names: &'a [String], samples: &'a [Vec<i64>]) -> Synthesis<'a> {
        let mut search = Synthesis {
            names,
            samples,
            nodes: Vec::new(),
            values: Vec::new(),
            by_size: vec![Vec::new(), Vec::new()],
            seen: HashMap::new(),
        };
        for var in 0..names.len() {
            let row: Vec<i64> = samples.iter().map(|s| s[var]).collect();
            search.keep(Node::Var(var), row, 1);
        }
        for c in CONSTANTS {
            search.keep(Node::Const(c), vec![c; samples.len()], 1);
        }
        search
    }

    fn keep(&mut self, node: Node, row: Vec<i64>, size: usize) {
        if self.seen.contains_key(&row) {
            return;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        self.values.extend_from_slice(&row);
        self.seen.insert(row, id);
        while self.by_size.len() <= size {
            self.by_size.push(Vec::new());
        }
        self.by_size[size].push(id);
    }

    fn row(&self, id: u32) -> &[i64] {
        let n = self.samples.len();
        &self.values[id as usize * n..(id as usize + 1) * n]
    }

    /// The smallest formulas up to `most` nodes whose values on the samples are `target`,
    /// stopping at `deadline`.
    pub(crate) fn find(&mut self, target: &[i64], most: usize, deadline: Instant) -> Found {
        self.search(target, most, deadline, false)
    }

    /// Every formula up to `most` nodes that differs from the smaller ones on the samples, with
    /// its values there (fewer when `deadline` comes first).
    pub(crate) fn bank(&mut self, most: usize, deadline: Instant) -> Vec<(String, Vec<i64>)> {
        // No formula of the grammar gives i64::MIN on every sample.
        let nothing = vec![i64::MIN; self.samples.len()];
        self.search(&nothing, most, deadline, true);
        (0..self.nodes.len() as u32).map(|id| (self.render(id), self.row(id).to_vec())).collect()
    }

    fn search(&mut self, target: &[i64], most: usize, deadline: Instant, keep_last: bool) -> Found {
        let mut tried = self.nodes.len() as u64;
        let mut matches = self.matching(target, 1);
        if !matches.is_empty() {
            matches.sort_by_key(|m| (m.len(), m.clone()));
            return Found { candidates: matches, searched: 1, tried, stopped: None };
        }
        let mut complete = 1;
        for size in 2..=most {
            let last = size == most && !keep_last;
            while self.by_size.len() <= size {
                self.by_size.push(Vec::new());
            }
            let Level { found, fresh, out_of_time } =
                self.grow(size, target, last, deadline, &mut tried);
            if out_of_time || !found.is_empty() {
                let mut candidates: Vec<String> =
                    found.into_iter().map(|node| self.render_node(node).0).collect();
                candidates.sort_by_key(|m| (m.len(), m.clone()));
                let stopped = out_of_time.then_some(Stopped { complete, tried, bank_full: false });
                let searched = if out_of_time { complete } else { size };
                return Found { candidates, searched, tried, stopped };
            }
            complete = size;
            if last {
                break;
            }
            if size == most && self.nodes.len() + fresh.len() < MOST_KEPT {
                for (node, row) in fresh {
                    self.keep(node, row, size);
                }
                break;
            }
            if self.nodes.len() + fresh.len() >= MOST_KEPT {
                // The bank is full: larger formulas cannot all be built from it.
                return Found {
                    candidates: Vec::new(),
                    searched: complete,
                    tried,
                    stopped: Some(Stopped { complete, tried, bank_full: true }),
                };
            }
            for (node, row) in fresh {
                self.keep(node, row, size);
            }
        }
        Found { candidates: Vec::new(), searched: most, tried, stopped: None }
    }

    /// The formulas of `size` nodes built from the smaller ones kept: those whose values are
    /// `target`, and (unless it is the `last` size) those with values not seen yet; `tried`
    /// counts the pairs, and the work stops at `deadline`.
    fn grow(
        &self,
        size: usize,
        target: &[i64],
        last: bool,
        deadline: Instant,
        tried: &mut u64,
    ) -> Level {
        let mut row = vec![0i64; self.samples.len()];
        let mut found = Vec::new();
        let mut fresh: Vec<(Node, Vec<i64>)> = Vec::new();
        let mut out_of_time = false;
        // The level's new formulas are held only while the bank has room for them: past it the
        // search stops after this level (a level of 10 nodes held 12 GB before this bound).
        let room = MOST_KEPT.saturating_sub(self.nodes.len());
        let mut consider = |node: Node, row: &[i64], found: &mut Vec<Node>| {
            if row == target {
                found.push(node);
            }
            if !last && fresh.len() <= room && !self.seen.contains_key(row) {
                fresh.push((node, row.to_vec()));
            }
        };
        let mut fails = vec![false; self.samples.len()];
        // abs of the formulas one node smaller.
        for &a in &self.by_size[size - 1] {
            let src = self.row(a);
            if src.iter().any(|&v| v < 0) && abs_rows(src, &mut row, &mut fails) {
                consider(Node::Abs(a), &row, &mut found);
            }
        }
        'pairs: for left in 1..size - 1 {
            let right = size - 1 - left;
            for op in Op::ALL {
                if op.commutes() && left > right {
                    continue;
                }
                for (ka, &a) in self.by_size[left].iter().enumerate() {
                    *tried += self.by_size[right].len() as u64;
                    if ka % 64 == 0 && Instant::now() > deadline {
                        out_of_time = true;
                        break 'pairs;
                    }
                    // Constants fold into constants, and `0 - x` reads worse than what
                    // it stands for: neither is worth a formula.
                    let constant = |id: u32| matches!(self.nodes[id as usize], Node::Const(_));
                    if op == Op::Sub && matches!(self.nodes[a as usize], Node::Const(0)) {
                        continue;
                    }
                    let ra = self.row(a);
                    let skip = if op.commutes() && left == right { ka } else { 0 };
                    let kernel = op.kernel();
                    for &b in &self.by_size[right][skip..] {
                        if constant(a) && constant(b) {
                            continue;
                        }
                        // A division by zero or an overflow at a sample drops the formula.
                        if int_rows(kernel, ra, self.row(b), &mut row, &mut fails) {
                            consider(Node::Bin(op, a, b), &row, &mut found);
                        }
                    }
                }
            }
        }
        Level { found, fresh, out_of_time }
    }

    fn matching(&self, target: &[i64], size: usize) -> Vec<String> {
        self.by_size[size]
            .iter()
            .filter(|&&id| self.row(id) == target)
            .map(|&id| self.render(id))
            .collect()
    }

    /// The formula `id` in the expression language.
    fn render(&self, id: u32) -> String {
        self.render_node(self.nodes[id as usize]).0
    }

    /// The text of `node` and, for an infix operation, its precedence.
    fn render_node(&self, node: Node) -> (String, Option<u8>) {
        match node {
            Node::Var(v) => (self.names[v].clone(), None),
            Node::Const(c) => (c.to_string(), None),
            Node::Abs(a) => (format!("abs({})", self.render(a)), None),
            Node::Bin(op, a, b) => {
                let (left, lp) = self.render_node(self.nodes[a as usize]);
                let (right, rp) = self.render_node(self.nodes[b as usize]);
                match op.infix() {
                    Some((symbol, p)) => {
                        let left =
                            if lp.is_some_and(|l| l < p) { format!("({left})") } else { left };
                        let right =
                            if rp.is_some_and(|r| r <= p) { format!("({right})") } else { right };
                        (format!("{left} {symbol} {right}"), Some(p))
                    }
                    None => (format!("{}({left}, {right})", op.function()), None),
                }
            }
        }
    }
}

/// One size of formulas, as [`Synthesis::grow`] builds it.
struct Level {
    /// Those whose values are the target.
    found: Vec<Node>,
    /// Those whose values were not seen yet, with their values, to keep.
    fresh: Vec<(Node, Vec<i64>)>,
    /// Whether the deadline stopped the size before its end.
    out_of_time: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_expr::Expr;
    use std::time::Duration;

    fn samples(n: i64) -> Vec<Vec<i64>> {
        (0..n).flat_map(|a| (0..n).map(move |b| vec![a, b])).collect()
    }

    fn find(f: impl Fn(i64, i64) -> i64, most: usize) -> Vec<String> {
        let names = vec!["a".to_string(), "b".to_string()];
        let samples = samples(7);
        let target: Vec<i64> = samples.iter().map(|s| f(s[0], s[1])).collect();
        let mut search = Synthesis::new(&names, &samples);
        search.find(&target, most, Instant::now() + Duration::from_secs(60)).candidates
    }

    #[test]
    fn finds_the_shortest_and_renders_what_the_language_reads() {
        assert_eq!(find(|a, b| a ^ b, 5)[0], "xor(a, b)");
        assert_eq!(find(|a, b| (a + b) % 3, 5)[0], "(a + b) % 3");
        let found = find(|a, b| (a % 3) ^ (b % 3), 7);
        let names = ["a", "b"];
        for text in &found {
            let expr = Expr::parse(text, &names).unwrap();
            for a in 0..7 {
                for b in 0..7 {
                    assert_eq!(expr.eval_int(&[a, b]).unwrap(), (a % 3) ^ (b % 3), "{text}");
                }
            }
        }
        assert!(found.iter().any(|f| f == "xor(a % 3, b % 3)"), "{found:?}");
    }

    #[test]
    fn right_operands_keep_their_parentheses() {
        assert_eq!(find(|a, b| a - (b - 1), 5)[0], "a + 1 - b");
        let found = find(|a, b| a / (b + 1), 5);
        assert_eq!(found[0], "a / (b + 1)");
    }

    #[test]
    fn a_deadline_in_the_past_stops_and_says_where() {
        let names = vec!["a".to_string(), "b".to_string()];
        let samples = samples(5);
        let target: Vec<i64> = samples.iter().map(|s| s[0] * s[0] * s[1] + 17).collect();
        let mut search = Synthesis::new(&names, &samples);
        let found = search.find(&target, 9, Instant::now());
        let stopped = found.stopped.expect("stopped");
        assert!(stopped.complete <= 2 && found.candidates.is_empty(), "{stopped:?}");
        assert_eq!(found.searched, stopped.complete);
    }

    /// `searched` is what a report may say was ruled out: the size of the candidates when some
    /// give the samples (larger ones were never built), the cap when none does.
    #[test]
    fn the_size_searched_is_where_the_search_ended() {
        let names = vec!["a".to_string(), "b".to_string()];
        let samples = samples(5);
        let later = Instant::now() + Duration::from_secs(60);
        type Law = fn(i64, i64) -> i64;
        let cases: [(Law, usize); 3] =
            [(|a, _| a, 1), (|a, b| a ^ b, 3), (|a, b| a * a * b * b * b + 17 * a + 5, 5)];
        for (f, searched) in cases {
            let target: Vec<i64> = samples.iter().map(|s| f(s[0], s[1])).collect();
            let found = Synthesis::new(&names, &samples).find(&target, 5, later);
            assert_eq!(found.searched, searched, "{:?}", found.candidates);
            assert!(found.stopped.is_none());
        }
    }
}
