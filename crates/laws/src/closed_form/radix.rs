//! Values as digits: G = c · q + r with r = G mod c and q = G div c, each found by the synthesis
//! on its own. Larger formulas than the synthesis reaches, by structure first: kiki's values are
//! `2 * ((min(n, m) + 1) % 2) + (n + m) % 2` (16 nodes, two of 7 and 5), and the block nim-sum
//! of `wythoff-short-diagonal` is `3 * xor(a / 3, b / 3) + (a + b) % 3`.

use super::synthesis::Synthesis;
use super::{LawSearch, Proposal, LARGEST_FORMULA};
use crate::conjecture::ClaimKind;
use grundy_expr::Expr;
use rayon::prelude::*;
use std::time::Instant;

/// The radixes tried.
const RADIXES: [i64; 3] = [2, 3, 4];

/// The largest remainder's formula (nodes): `(a + b) % 3` has 5.
const LARGEST_DIGIT: usize = 5;

/// Values laws `c * q + r` on the sample cells `points` whose values are `target`.
pub(super) fn propose(
    names: &[String],
    points: &[Vec<i64>],
    target: &[i64],
    deadline: Instant,
    search: &mut LawSearch,
) -> Vec<Proposal> {
    // The radixes are independent: tried at once on the pool, in their order.
    let tried: Vec<(Option<Proposal>, u64)> = RADIXES
        .into_par_iter()
        .map(|c| {
            let mut tried = 0;
            (digits(c, names, points, target, deadline, &mut tried), tried)
        })
        .collect();
    search.formulas_tried += tried.iter().map(|(_, n)| n).sum::<u64>();
    tried.into_iter().filter_map(|(law, _)| law).collect()
}

/// The law `c * q + r`, when both digits have a formula on the samples.
fn digits(
    c: i64,
    names: &[String],
    points: &[Vec<i64>],
    target: &[i64],
    deadline: Instant,
    tried: &mut u64,
) -> Option<Proposal> {
    let digit: Vec<i64> = target.iter().map(|v| v.rem_euclid(c)).collect();
    let rest: Vec<i64> = target.iter().map(|v| v.div_euclid(c)).collect();
    // A radix that leaves one of the two parts constant is no split at all.
    if digit.iter().all(|&d| d == digit[0]) || rest.iter().all(|&q| q == rest[0]) {
        return None;
    }
    let mut find = |values: &[i64], most: usize| {
        let found = Synthesis::new(names, points).find(values, most, deadline);
        *tried += found.tried;
        found.candidates.into_iter().next()
    };
    let r = find(&digit, LARGEST_DIGIT)?;
    let q = find(&rest, LARGEST_FORMULA)?;
    Some(Proposal {
        kind: ClaimKind::Values,
        statement: format!(
            "the value in base {c}: its last digit is {r} and the digits above it are {q}"
        ),
        expression: joined(c, &q, &r, names),
        found_by: "digits",
    })
}

/// `c * q + r`, without the parentheses that do not bind: the first text whose syntax tree is
/// the fully parenthesised one's.
fn joined(c: i64, q: &str, r: &str, names: &[String]) -> String {
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let tree = |text: &str| Expr::parse(text, &names).ok().map(|e| format!("{:?}", e.root()));
    let careful = format!("{c} * ({q}) + ({r})");
    let want = tree(&careful);
    [format!("{c} * {q} + {r}"), format!("{c} * ({q}) + {r}"), format!("{c} * {q} + ({r})")]
        .into_iter()
        .find(|text| want.is_some() && tree(text) == want)
        .unwrap_or(careful)
}
