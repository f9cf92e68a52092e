//! Sums of heap games: a board whose moves on each axis are independent has
//! G(x, y, …) = G(x, y₀, …) ⊕ G(x₀, y, …) ⊕ … (the Sprague–Grundy theorem), the table's edges
//! being the heap games. Each heap game gets a formula: the shortest the synthesis finds on its
//! whole line, or a lookup of its period (with its saltus and preperiod). A part whose formula's
//! form the sum theorem cannot read (no period or slope it can see), or that has no formula at
//! all (the subtraction game with the Fibonacci numbers), is named by its edge, `g_x`: a law
//! the sum theorem proves about every board all the same.

use super::synthesis::Synthesis;
use super::{LawSearch, Proposal, Source};
use crate::conjecture::ClaimKind;
use crate::periodicity::find_period;
use crate::proof::sum::{is_sum, knows_part};
use grundy_expr::{node_shift, Expr};
use std::time::Instant;

/// Lookups of periods up to this are written out.
const LONGEST_LOOKUP: usize = 16;

/// A part of a sum: a formula, or the table's edge.
struct PartFormula {
    text: String,
    nodes: usize,
    edge: bool,
    /// The axis it reads.
    axis: usize,
    /// Its name in the statement: f, g, h.
    letter: &'static str,
}

/// The laws G = f(x) ⊕ g(y) ⊕ … (and the P-set f(x) ⊕ … == h(z)) when the table is the sum of
/// its edges: the parts' formulas, and the edges where a formula's form is out of the sum
/// theorem's reach (proposed as a search of their own, "sum of the edges").
pub(super) fn propose(
    source: &Source<'_>,
    value: &(dyn Fn(usize) -> i64 + Sync),
    deadline: Instant,
    search: &mut LawSearch,
) -> Vec<Proposal> {
    let Some((edges, moving)) = sum_of_edges(&source.lens, value) else {
        return Vec::new();
    };
    let choices = part_choices(source, &edges, &moving, deadline, search);
    let combos = combinations(&choices);
    let found_by = |combo: &[&PartFormula]| {
        if combo.iter().any(|p| p.edge) {
            "sum of the edges"
        } else {
            "sum of games"
        }
    };
    let count = ["", "one", "two", "three"].get(moving.len()).unwrap_or(&"several");
    let values = combos.iter().map(|combo| Proposal {
        kind: ClaimKind::Values,
        expression: xor_of(combo),
        statement: format!(
            "the sum of {count} heap games: G({}) = {} with {}",
            source.names.join(", "),
            terms(source, combo),
            described(source, combo)
        ),
        found_by: found_by(combo),
    });
    // A sum is a P-position exactly where its parts' values xor to 0: the last part equals the
    // xor of the others. The first combination of each search.
    let mut p_searches: Vec<&str> = Vec::new();
    let p_sets = combos.iter().filter_map(|combo| {
        let by = found_by(combo);
        if p_searches.contains(&by) {
            return None;
        }
        p_searches.push(by);
        let (last, rest) = combo.split_last().expect("two parts or more");
        Some(Proposal {
            kind: ClaimKind::PSet,
            expression: format!("{} == {}", xor_of(rest), last.text),
            statement: format!(
                "the P-positions of a sum of heap games are where the parts' values xor to 0 ({} \
                 == 0) with {}",
                terms(source, combo),
                described(source, combo)
            ),
            found_by: by,
        })
    });
    let proposals: Vec<Proposal> = values.collect();
    proposals.into_iter().chain(p_sets.collect::<Vec<_>>()).collect()
}

/// The edges of a table of `lens` (each axis' values, the other coordinates at their
/// minimums) and the axes whose edge is not all 0, when every cell is the xor of the edges and
/// two axes or more move; `None` otherwise (not a sum, or one heap game, which the synthesis
/// states).
fn sum_of_edges(
    lens: &[usize],
    value: &(dyn Fn(usize) -> i64 + Sync),
) -> Option<(Vec<Vec<i64>>, Vec<usize>)> {
    let dims = lens.len();
    if dims < 2 || lens.iter().any(|&len| len < 2) || value(0) != 0 {
        return None;
    }
    let (edges, sum) = edges_and_sum(lens, value);
    let moving: Vec<usize> = (0..dims).filter(|&d| edges[d].iter().any(|&v| v != 0)).collect();
    (sum && moving.len() >= 2).then_some((edges, moving))
}

/// A table's edges (each axis' values, every other coordinate at its minimum), and whether
/// every cell is their xor: the law search's sums and a 3-D report read both.
pub(crate) fn edges_and_sum(lens: &[usize], value: &dyn Fn(usize) -> i64) -> (Vec<Vec<i64>>, bool) {
    let dims = lens.len();
    let mut strides = vec![1usize; dims];
    for d in (0..dims - 1).rev() {
        strides[d] = strides[d + 1] * lens[d + 1];
    }
    let edges: Vec<Vec<i64>> =
        (0..dims).map(|d| (0..lens[d]).map(|x| value(x * strides[d])).collect()).collect();
    // Row by row (the last axis): the other axes' parts are one xor per row.
    let (last, row_len) = (dims - 1, lens[dims - 1]);
    let rows: usize = lens[..last].iter().product();
    let sum = (0..rows).all(|row| {
        let base = row * row_len;
        let others = (0..last).fold(0, |acc, d| acc ^ edges[d][base / strides[d] % lens[d]]);
        (0..row_len).all(|j| value(base + j) == others ^ edges[last][j])
    });
    (edges, sum)
}

/// Each moving axis' choices: its formulas, then its edge when no formula is in the sum
/// theorem's reach (the theorem knows no law for the part, or the formula's form shows no
/// period or slope), and the board may be a sum.
fn part_choices(
    source: &Source<'_>,
    edges: &[Vec<i64>],
    moving: &[usize],
    deadline: Instant,
    search: &mut LawSearch,
) -> Vec<Vec<PartFormula>> {
    let game = source.described.game();
    // A board known not to be a sum has no edge law the theorem could prove.
    let sum = game.is_none_or(is_sum);
    let letters = ["f", "g", "h"];
    moving
        .iter()
        .enumerate()
        .map(|(k, &axis)| {
            let name = &source.names[axis];
            let letter = letters[k.min(2)];
            let mut parts: Vec<PartFormula> =
                heap_formulas(name, source.mins[axis], &edges[axis], deadline, search)
                    .into_iter()
                    .map(|(text, nodes)| PartFormula { text, nodes, edge: false, axis, letter })
                    .collect();
            let readable = |p: &PartFormula| {
                Expr::parse(&p.text, &[name.as_str()])
                    .is_ok_and(|e| node_shift(e.root(), 1).is_some())
            };
            // On a table read from a file, whose game is unknown, the form alone decides.
            let known = game.is_none_or(|game| knows_part(game, axis));
            if sum && (!known || !parts.iter().any(readable)) {
                let text = format!("{}{name}", grundy_core::EDGE_PREFIX);
                parts.push(PartFormula { text, nodes: 1, edge: true, axis, letter });
            }
            parts
        })
        .collect()
}

/// Every combination of one choice per axis, those without edges first, then the smallest: the
/// check keeps the first of each search that holds, and the ranking puts a proved one first.
fn combinations(choices: &[Vec<PartFormula>]) -> Vec<Vec<&PartFormula>> {
    let mut combos: Vec<Vec<&PartFormula>> = vec![Vec::new()];
    for options in choices {
        combos = combos
            .into_iter()
            .flat_map(|combo| {
                options.iter().map(move |part| {
                    let mut next = combo.clone();
                    next.push(part);
                    next
                })
            })
            .collect();
    }
    combos.sort_by_key(|combo| {
        let edges = combo.iter().filter(|p| p.edge).count();
        let nodes: usize = combo.iter().map(|p| p.nodes).sum();
        (edges, nodes, combo.iter().map(|p| p.text.len()).sum::<usize>())
    });
    combos
}

/// `xor(xor(f, g), h)`.
fn xor_of(parts: &[&PartFormula]) -> String {
    let mut text = parts[0].text.clone();
    for part in &parts[1..] {
        text = format!("xor({text}, {})", part.text);
    }
    text
}

/// `f(a) XOR g_b`: the parts by name.
fn terms(source: &Source<'_>, combo: &[&PartFormula]) -> String {
    let terms: Vec<String> = combo
        .iter()
        .map(|part| match part.edge {
            true => part.text.clone(),
            false => format!("{}({})", part.letter, source.names[part.axis]),
        })
        .collect();
    terms.join(" XOR ")
}

/// Each part and where it is read: `f(x) = x % 3 (the column y = 0)`, `g_b (the row a = 0,
/// read from the table)`, the edge `b = 0, c = 0` on three axes.
fn described(source: &Source<'_>, combo: &[&PartFormula]) -> String {
    let dims = source.names.len();
    let line_of = |d: usize| -> String {
        let others: Vec<String> = (0..dims)
            .filter(|&o| o != d)
            .map(|o| format!("{} = {}", source.names[o], source.mins[o]))
            .collect();
        match (dims, d) {
            (2, 0) => format!("the column {}", others[0]),
            (2, _) => format!("the row {}", others[0]),
            _ => format!("the edge {}", others.join(", ")),
        }
    };
    let parts: Vec<String> = combo
        .iter()
        .map(|part| {
            let (name, line) = (&source.names[part.axis], line_of(part.axis));
            match part.edge {
                true => format!("{} ({line}, read from the table)", part.text),
                false => format!("{}({name}) = {} ({line})", part.letter, part.text),
            }
        })
        .collect();
    match parts.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Formulas in `name` (from `min`) equal to `values` at every coordinate, each with its size in
/// nodes: the synthesis' first and the period's lookup, when they exist.
fn heap_formulas(
    name: &str,
    min: i64,
    values: &[i64],
    deadline: Instant,
    search: &mut LawSearch,
) -> Vec<(String, usize)> {
    let names = [name.to_string()];
    let spread = (values.len() / 48).max(1);
    let picked: Vec<usize> =
        (0..values.len().min(24)).chain((24..values.len()).step_by(spread)).collect();
    let points: Vec<Vec<i64>> = picked.iter().map(|&k| vec![min + k as i64]).collect();
    let target: Vec<i64> = picked.iter().map(|&k| values[k]).collect();
    let found = Synthesis::new(&names, &points).find(&target, search.largest_size, deadline);
    search.formulas_tried += found.tried;
    let holds = |text: String| {
        let expr = Expr::parse(&text, &[name]).ok()?;
        let all =
            values.iter().enumerate().all(|(k, &v)| expr.eval_int(&[min + k as i64]) == Ok(v));
        all.then(|| (text, expr.size()))
    };
    let mut formulas: Vec<(String, usize)> = Vec::new();
    formulas.extend(found.candidates.into_iter().find_map(holds));
    formulas.extend(lookup(name, min, values).and_then(holds));
    formulas.sort_by_key(|(text, size)| (*size, text.len()));
    formulas.dedup_by(|a, b| a.0 == b.0);
    formulas
}

/// The longest preperiod whose heaps a lookup names one by one.
const LONGEST_PREPERIOD: usize = 12;

/// A periodic heap game as a lookup on residues, plus the saltus (arithmetic periodicity), the
/// heaps of a short preperiod that the lookup misses named one by one: Lasker's Nim (hex
/// 4.333…), whose values are n for n ≡ 1, 2 and n ± 1 for n ≡ 3, 0 (mod 4) but 0 at n = 0.
pub(super) fn lookup(name: &str, min: i64, values: &[i64]) -> Option<String> {
    let period = find_period(values)
        .filter(|p| p.preperiod <= LONGEST_PREPERIOD && p.period <= LONGEST_LOOKUP)?;
    let (p, s, e) = (period.period, period.saltus, period.preperiod);
    let t = if min == 0 { name.to_string() } else { format!("({name} - {min})") };
    // The lookup's entry for residue r, from the periodic part: the value less the saltus of
    // the whole periods before it, so that value(n) = entry[n % p] + s * (n / p).
    let mut entry = vec![0i64; p];
    for n in e..e + p {
        entry[n % p] = values[n] - s * (n / p) as i64;
    }
    let periodic = |n: usize| entry[n % p] + s * (n / p) as i64;
    let mut text = if s == 0 && (0..p).all(|r| entry[r] == r as i64) {
        // 0, 1, ..., p - 1 repeating: the remainder itself.
        format!("{t} % {p}")
    } else if p == 1 {
        // An arithmetic progression: v + s·n.
        let v = entry[0];
        let slope = if s == 1 { t.clone() } else { format!("{s} * {t}") };
        match v {
            0 if s == 0 => "0".to_string(),
            0 => slope,
            _ if s == 0 => v.to_string(),
            _ => format!("{slope} + {v}"),
        }
    } else {
        let mut text = entry[p - 1].to_string();
        for r in (0..p - 1).rev() {
            if entry[r].to_string() != text {
                text = format!("if({t} % {p} == {r}, {}, {text})", entry[r]);
            }
        }
        if s != 0 {
            text = format!("{text} + {s} * ({t} / {p})");
        }
        text
    };
    for n in (0..e).rev() {
        if values[n] != periodic(n) {
            text = format!("if({t} == {n}, {}, {text})", values[n]);
        }
    }
    Some(text)
}
