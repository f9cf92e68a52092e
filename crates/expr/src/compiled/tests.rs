//! The program against the interpreter, its reference: the same value in every lane, and the
//! same first failure, for random expressions of every construct on variables of every range
//! (small, negative, and at the ends of the 64-bit integers, where operations overflow).

use super::*;

/// A tiny deterministic generator (the same expressions every run).
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }

    fn int(&mut self, depth: u32) -> String {
        let leaf = depth == 0 || self.below(4) == 0;
        if leaf {
            return match self.below(7) {
                0 => "a".into(),
                1 => "b".into(),
                2 => "g".into(),
                3 => ["0", "1", "2", "3", "-1"][self.below(5) as usize].into(),
                4 => ["7", "9223372036854775807", "4611686018427387904"][self.below(3) as usize]
                    .into(),
                5 => "a".into(),
                _ => "b".into(),
            };
        }
        let (x, y) = (self.int(depth - 1), self.int(depth - 1));
        match self.below(13) {
            0 => format!("({x} + {y})"),
            1 => format!("({x} - {y})"),
            2 => format!("({x} * {y})"),
            3 => format!("({x} / {y})"),
            4 => format!("({x} % {y})"),
            5 => format!("xor({x}, {y})"),
            6 => format!("min({x}, {y}, {})", self.int(depth - 1)),
            7 => format!("max({x}, {y})"),
            8 => format!("abs({x})"),
            9 => format!("(-{x})"),
            10 => format!("if({}, {x}, {y})", self.cond(depth - 1)),
            11 => format!("floor({})", self.real(depth - 1)),
            _ => format!("ceil({})", self.real(depth - 1)),
        }
    }

    fn real(&mut self, depth: u32) -> String {
        let x = self.int(depth.saturating_sub(1));
        match self.below(7) {
            0 => format!("({x} * phi)"),
            1 => format!("({x} / phi)"),
            2 => format!("sqrt({x})"),
            3 => format!("({x} / 2.5)"),
            4 => format!("({x} % 1.5)"),
            5 => format!("min({x}, 0.5)"),
            _ => format!("if({}, {x}, phi)", self.cond(depth.saturating_sub(1))),
        }
    }

    fn cond(&mut self, depth: u32) -> String {
        if depth == 0 || self.below(3) == 0 {
            let (x, y) = (self.int(depth), self.int(depth));
            let op = ["==", "!=", "<", "<=", ">", ">="][self.below(6) as usize];
            return format!("{x} {op} {y}");
        }
        match self.below(6) {
            0 => format!("({} && {})", self.cond(depth - 1), self.cond(depth - 1)),
            1 => format!("({} || {})", self.cond(depth - 1), self.cond(depth - 1)),
            2 => format!("!({})", self.cond(depth - 1)),
            3 => format!("({} == {})", self.cond(depth - 1), self.cond(depth - 1)),
            4 => format!("{} < {}", self.real(depth - 1), self.int(depth - 1)),
            _ => {
                format!("if({}, {}, {})", self.cond(depth - 1), self.cond(depth - 1), self.cond(0))
            }
        }
    }
}

/// Runs `expr` compiled for `ranges` on `lanes` cells (a fixed, b from `b0` along the row, g
/// one value per lane) and compares every lane with the interpreter.
fn agrees(expr: &Expr, ranges: &[Range], a: i64, b0: i64, g: &[i64]) {
    let compiled = Compiled::new(expr, ranges);
    let mut scratch = compiled.scratch();
    let inputs = [Input::Splat(a), Input::Ramp(b0), Input::Lanes(g)];
    let ran = compiled.run(&inputs, g.len(), &mut scratch);
    let expected: Vec<Result<i64, EvalError>> =
        (0..g.len()).map(|k| result_lane(expr, &[a, b0 + k as i64, g[k]])).collect();
    let first_error = expected.iter().position(Result::is_err);
    assert_eq!(ran.first_failure, first_error, "`{}` at a = {a}, b from {b0}", expr.text());
    for (k, want) in expected.iter().enumerate().take(first_error.unwrap_or(g.len())) {
        assert_eq!(Ok(ran.values[k]), *want, "`{}` at a = {a}, b = {}", expr.text(), b0 + k as i64);
    }
}

#[test]
fn programs_give_the_interpreters_values_and_failures() {
    let mut draw = Draw(7);
    let names = ["a", "b", "g"];
    let mut compiled = 0;
    let mut checked_programs = 0;
    while compiled < 3000 {
        let text = match draw.below(3) {
            0 => draw.int(4),
            1 => draw.cond(3),
            _ => draw.real(3),
        };
        let Ok(expr) = Expr::parse(&text, &names) else { continue };
        compiled += 1;
        // Small coordinates (a table's), negative ones, and the ends of i64.
        let cases: [(i64, i64, i64, i64); 4] = [
            (0, 40, 0, 9),
            (-20, 20, -3, 3),
            (i64::MAX - 300, i64::MAX - 100, 0, 1 << 40),
            (i64::MIN, i64::MIN + 300, -1, 5),
        ];
        for (lo, hi, glo, ghi) in cases {
            let ranges = [Range { lo, hi }, Range { lo, hi }, Range { lo: glo, hi: ghi }];
            if let Compiled::Program(program) = Compiled::new(&expr, &ranges) {
                checked_programs += usize::from(!program.may_fail());
            }
            let g: Vec<i64> =
                (0..LANES as i64).map(|k| glo + (k * 7919).rem_euclid(ghi - glo + 1)).collect();
            for (a, b0, lanes) in [(lo, lo, 37), (hi, hi - 36, 37), (lo + 3, lo, LANES)] {
                let b0 = b0.min(hi - lanes as i64 + 1).max(lo);
                let lanes = lanes.min((hi - b0 + 1) as usize);
                agrees(&expr, &ranges, a, b0, &g[..lanes]);
            }
        }
    }
    // The ranges make most programs run without checks: the test saw both kinds.
    assert!(checked_programs > 1000, "{checked_programs}");
}

#[test]
fn the_claims_of_the_catalog_run_without_checks_on_a_table() {
    let names = ["a", "b", "g"];
    let table =
        [Range { lo: 0, hi: 8191 }, Range { lo: 0, hi: 8191 }, Range { lo: 0, hi: 1 << 20 }];
    for text in [
        "xor(a, b)",
        "min(a, b) == floor(abs(a - b) * phi)",
        "2 * ((min(a, b) + 1) % 2) + (a + b) % 2",
        "3 * xor(a / 3, b / 3) + (a + b) % 3",
        "g == xor(a, b) || a > b",
    ] {
        let expr = Expr::parse(text, &names).unwrap();
        let Compiled::Program(program) = Compiled::Program(Program::new(&expr, &table)) else {
            unreachable!()
        };
        assert!(!program.may_fail(), "{text}");
    }
    // Near the end of i64 the same sum must be checked.
    let huge = [Range { lo: 0, hi: i64::MAX }, Range { lo: 0, hi: 1 }, Range::ANY];
    let expr = Expr::parse("a + b", &names).unwrap();
    assert!(Program::new(&expr, &huge).may_fail());
}

#[test]
fn a_periodic_claim_is_read_from_its_residues() {
    let names = ["a", "b", "g"];
    let table = [Range { lo: 0, hi: 1000 }, Range { lo: 0, hi: 1000 }, Range { lo: 0, hi: 9 }];
    let expr = Expr::parse("a % 2 == 1 && b % 2 == 1", &names).unwrap();
    assert!(matches!(Compiled::new(&expr, &table), Compiled::Lookup { .. }));
    let g = vec![0; 100];
    agrees(&expr, &table, 7, 3, &g);
    // A product that may overflow is run, not looked up: the lookup would miss the failure.
    let expr = Expr::parse("(a * 4611686018427387904) % 7", &names).unwrap();
    assert!(matches!(Compiled::new(&expr, &table), Compiled::Program(_)));
    agrees(&expr, &table, 5, 0, &g);
}
