//! P-positions on two mirror rays: (aₙ, bₙ) and (bₙ, aₙ) with bₙ − aₙ = k·n + c, the aₙ a
//! Beatty sequence ⌊nα⌋. Wythoff's game is the first example (k = 1, α = φ).
//!
//! Every pair the table shows bounds α: ⌊nα⌋ = aₙ puts α in [aₙ/n, (aₙ + 1)/n), and the bounds of
//! n pairs meet in an interval about 1/n² wide. The constant reported is the simplest quadratic
//! irrational (p + q√d)/r with small coefficients in that interval (its continued fraction is
//! eventually periodic, which the statement shows); the law `grundy check` then runs holds on
//! every cell or is not reported. Coordinates are shifted by the axes' first values, so a board
//! whose axes start at 1 gets the same law in x − 1 and y − 1.

use super::{Proposal, Source};
use crate::conjecture::ClaimKind;

/// Pairs needed before a ray's slope is worth recognising.
const FEWEST_PAIRS: usize = 8;

/// The quadratic irrational (p + q√d)/r.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Quadratic {
    p: i64,
    q: i64,
    d: i64,
    r: i64,
}

impl Quadratic {
    fn value(self) -> f64 {
        (self.p as f64 + self.q as f64 * (self.d as f64).sqrt()) / self.r as f64
    }

    /// How simple it is (smaller is simpler).
    fn weight(self) -> i64 {
        self.p.abs() + self.q.abs() + self.r + self.d
    }

    /// In the expression language (`phi` for the golden ratio's forms).
    fn text(self) -> String {
        let Quadratic { p, q, d, r } = self;
        if d == 5 && r == 2 && (p - q) % 2 == 0 {
            // (p + q√5)/2 = (p − q)/2 + q·φ
            let (whole, times) = ((p - q) / 2, q);
            let phi = match times {
                1 => "phi".to_string(),
                -1 => "-phi".to_string(),
                t => format!("{t} * phi"),
            };
            return match whole {
                0 => phi,
                w if w > 0 => format!("{phi} + {w}"),
                w => format!("{phi} - {}", -w),
            };
        }
        let root = match q {
            1 => format!("sqrt({d})"),
            -1 => format!("-sqrt({d})"),
            q => format!("{q} * sqrt({d})"),
        };
        let top = match p {
            0 => root,
            p if q > 0 => format!("{p} + {root}"),
            p => format!("{p} {root}").replace(" -", " - "),
        };
        if r == 1 {
            top
        } else {
            format!("({top}) / {r}")
        }
    }
}

/// The simplest quadratic irrational with small coefficients in [low, high).
fn recognise(low: f64, high: f64) -> Option<Quadratic> {
    let mut best: Option<Quadratic> = None;
    for d in [2, 3, 5, 6, 7, 10, 11, 13] {
        for q in [-2, -1, 1, 2] {
            for r in 1..=4 {
                for p in -8..=8 {
                    let candidate = Quadratic { p, q, d, r };
                    let v = candidate.value();
                    if v >= low && v < high && best.is_none_or(|b| candidate.weight() < b.weight())
                    {
                        best = Some(candidate);
                    }
                }
            }
        }
    }
    best
}

/// The first terms of the continued fraction of `x`.
fn continued_fraction(mut x: f64, terms: usize) -> String {
    let mut parts = Vec::new();
    for _ in 0..terms {
        let whole = x.floor();
        parts.push(whole as i64);
        let rest = x - whole;
        if rest < 1e-9 {
            break;
        }
        x = 1.0 / rest;
    }
    let rest: Vec<String> = parts[1..].iter().map(i64::to_string).collect();
    format!("[{}; {}, ...]", parts[0], rest.join(", "))
}

/// The Beatty law of `source`'s P-positions, when they lie on two mirror rays.
pub(super) fn propose(source: &Source<'_>) -> Vec<Proposal> {
    let [rows, cols] = [source.lens[0], source.lens[1]];
    // (a, b) with a < b, in coordinates from the axes' first values, by increasing a: at most
    // one per row, so at most `rows` of them.
    let mut pairs: Vec<(i64, i64)> = Vec::new();
    let mut diagonal_p = false;
    for i in 0..rows {
        for j in 0..cols {
            if !(source.is_p)(i * cols + j) {
                continue;
            }
            let (a, b) = (i as i64, j as i64);
            match a.cmp(&b) {
                // Two pairs with one a are no two rays: stop before a table full of
                // P-positions (kiki's quarter of the cells) is listed.
                std::cmp::Ordering::Less if pairs.last().is_some_and(|&(last, _)| last == a) => {
                    return Vec::new();
                }
                std::cmp::Ordering::Less => pairs.push((a, b)),
                std::cmp::Ordering::Equal => diagonal_p |= a == 0,
                std::cmp::Ordering::Greater => {}
            }
        }
    }
    pairs.sort_unstable();
    if pairs.len() < FEWEST_PAIRS || pairs.windows(2).any(|w| w[0].0 == w[1].0) {
        return Vec::new();
    }
    // Only the pairs whose b is on the board, which are a prefix: the rays leave the board there.
    let differences: Vec<i64> = pairs.iter().map(|&(a, b)| b - a).collect();
    let k = differences[1] - differences[0];
    let c = differences[0] - k;
    if k < 1 || differences.iter().enumerate().any(|(n, &d)| d != k * (n as i64 + 1) + c) {
        return Vec::new();
    }
    let (mut low, mut high) = (f64::MIN, f64::MAX);
    for (n, &(a, _)) in (1i64..).zip(&pairs) {
        low = low.max(a as f64 / n as f64);
        high = high.min((a + 1) as f64 / n as f64);
    }
    let Some(alpha) = recognise(low, high) else { return Vec::new() };
    let (x, y) = (&source.names[0], &source.names[1]);
    let shifted =
        |name: &str, min: i64| if min == 0 { name.to_string() } else { format!("{name} - {min}") };
    let (u, v) = (shifted(x, source.mins[0]), shifted(y, source.mins[1]));
    let gap = if source.mins[0] == source.mins[1] {
        format!("abs({x} - {y})")
    } else {
        format!("abs({u} - ({v}))")
    };
    let low_coord = format!("min({u}, {v})");
    let alpha_text = alpha.text();
    let times = |n: &str| {
        if alpha_text.contains(' ') {
            format!("{n} * ({alpha_text})")
        } else {
            format!("{n} * {alpha_text}")
        }
    };
    let n = match (k, c) {
        (1, 0) => gap.clone(),
        (k, 0) => format!("{gap} / {k}"),
        (k, c) => format!("({gap} - {c}) / {k}"),
    };
    let mut expression = format!("{low_coord} == floor({})", times(&n));
    if k > 1 || c != 0 {
        let residue = if c == 0 { gap.clone() } else { format!("({gap} - {c})") };
        if k > 1 {
            expression = format!("{residue} % {k} == 0 && {expression}");
        }
        if c != 0 {
            expression = format!("{gap} >= {c} && {expression}");
        }
    }
    let step = if k == 1 { "n".to_string() } else { format!("{k}n") };
    let offset = match c {
        0 => String::new(),
        c if c > 0 => format!(" + {c}"),
        c => format!(" - {}", -c),
    };
    let mut statement = format!(
        "the P-positions lie on two mirror rays: (a_n, b_n) and (b_n, a_n) with a_n = \
         floor(n * {alpha_text}) and b_n = a_n + {step}{offset}, n >= 1 (the slope's continued \
         fraction is {}; recognised from the {} pairs on the board)",
        continued_fraction(alpha.value(), 8),
        pairs.len()
    );
    if diagonal_p {
        statement.push_str(", and the corner");
    }
    if follows_mex_recursion(&pairs, diagonal_p) {
        statement.push_str(&format!(
            "; they follow the mex recursion a_n = mex{{a_i, b_i : i < n}}, b_n = a_n + {step}{offset} \
             (checked for n <= {})",
            pairs.len()
        ));
    }
    vec![Proposal { kind: ClaimKind::PSet, expression, statement, found_by: "beatty" }]
}

/// Whether a_n = mex{a_i, b_i : i < n} for every pair on the board (with the corner (0, 0) as
/// pair 0 when it is a P-position).
fn follows_mex_recursion(pairs: &[(i64, i64)], corner: bool) -> bool {
    let most = pairs.last().map_or(0, |&(_, b)| b) as usize + 2;
    let mut seen = vec![false; most];
    if corner {
        seen[0] = true;
    }
    let mut mex = 0usize;
    for &(a, b) in pairs {
        while seen[mex] {
            mex += 1;
        }
        if a as usize != mex {
            return false;
        }
        seen[a as usize] = true;
        seen[b as usize] = true;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_golden_ratio_and_the_square_root_of_two_are_recognised() {
        let phi = (1.0 + 5f64.sqrt()) / 2.0;
        let q = recognise(phi - 1e-6, phi + 1e-6).unwrap();
        assert_eq!(q.text(), "phi");
        let root = 2f64.sqrt();
        assert_eq!(recognise(root - 1e-6, root + 1e-6).unwrap().text(), "sqrt(2)");
        assert_eq!(recognise(phi + 1.0 - 1e-6, phi + 1.0 + 1e-6).unwrap().text(), "phi + 1");
        assert_eq!(continued_fraction(phi, 5), "[1; 1, 1, 1, 1, ...]");
        assert_eq!(continued_fraction(root, 4), "[1; 2, 2, 2, ...]");
    }
}
