//! The soundness of `Expr::periods` (issue 11): whenever it reads a period from an expression's
//! form, shifting any variable by its period leaves the value unchanged, on every integer tried,
//! negative ones included. Random expressions over the whole grammar, by proptest.

use grundy_laws::expr::Expr;
use proptest::prelude::*;

/// A random expression in the claim language over `n` and `m`, as text.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("n".to_string()),
        Just("m".to_string()),
        (-7i64..8).prop_map(|c| format!("({c})")),
    ];
    leaf.prop_recursive(5, 40, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone(), prop_oneof![Just("+"), Just("-"), Just("*")])
                .prop_map(|(a, b, op)| format!("({a} {op} {b})")),
            (inner.clone(), 1i64..7, prop_oneof![Just("%"), Just("/")])
                .prop_map(|(a, c, op)| format!("({a} {op} {c})")),
            (inner.clone(), inner.clone(), prop_oneof![Just("%"), Just("/")])
                .prop_map(|(a, b, op)| format!("({a} {op} (abs({b}) + 1))")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("if({a} % 2 == 0, {b}, {a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("xor(abs({a}), abs({b}))")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("max({a}, {b})")),
            inner.clone().prop_map(|a| format!("floor({a} / 2)")),
            inner.clone().prop_map(|a| format!("abs({a})")),
            inner.clone().prop_map(|a| format!("(-{a})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("if({a} < {b}, 1, 0)")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn a_period_read_from_the_form_holds_everywhere(text in expression()) {
        let expr = Expr::parse(&text, &["n", "m"]).unwrap();
        if let Some(periods) = expr.periods() {
            let (p, q) = (periods[0] as i64, periods[1] as i64);
            for n in -13..13i64 {
                for m in -13..13i64 {
                    let here = expr.eval(&[n, m]);
                    // Values that overflow are no counterexample to the form's arithmetic.
                    let Ok(here) = here else { continue };
                    if let Ok(right) = expr.eval(&[n + p, m]) {
                        prop_assert_eq!(here, right, "{} at ({}, {}) + ({}, 0)", text, n, m, p);
                    }
                    if let Ok(up) = expr.eval(&[n, m + q]) {
                        prop_assert_eq!(here, up, "{} at ({}, {}) + (0, {})", text, n, m, q);
                    }
                }
            }
        }
    }
}

/// A random expression of one coordinate `n`, with the comparisons, `min`, `max` and `abs` of
/// growing terms that laws with a preperiod use (`if(n == 2, 2, n % 2)`, `min(n, 2 - n % 3)`).
fn heap_expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![Just("n".to_string()), (-7i64..8).prop_map(|c| format!("({c})"))];
    leaf.prop_recursive(5, 40, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone(), prop_oneof![Just("+"), Just("-"), Just("*")])
                .prop_map(|(a, b, op)| format!("({a} {op} {b})")),
            (inner.clone(), 1i64..7, prop_oneof![Just("%"), Just("/")])
                .prop_map(|(a, c, op)| format!("({a} {op} {c})")),
            (inner.clone(), inner.clone(), prop_oneof![Just("=="), Just("<"), Just(">=")])
                .prop_map(|(a, b, op)| format!("if({a} {op} {b}, 1, 0)")),
            (inner.clone(), inner.clone(), inner.clone(), -3i64..9)
                .prop_map(|(a, b, c, k)| { format!("if(n == {k} || {a} < {b}, {c}, {a})") }),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, c)| format!("max({a}, {b}, {c})")),
            inner.clone().prop_map(|a| format!("abs({a})")),
            inner.clone().prop_map(|a| format!("(-{a})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("xor(abs({a}) % 5, abs({b}) % 3)")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// The soundness of `Expr::eventual_period`: from the start it gives on, shifting the
    /// coordinate by the period leaves the value unchanged, far past the start.
    #[test]
    fn an_eventual_period_read_from_the_form_holds_from_its_start(
        text in heap_expression(),
        lo in -5i64..3,
    ) {
        let expr = Expr::parse(&text, &["n"]).unwrap();
        if let Some((period, from)) = expr.eventual_period(&[true], lo) {
            prop_assert!(from >= lo);
            let p = period as i64;
            for n in from..from + 3 * p + 200 {
                let (Ok(here), Ok(later)) = (expr.eval(&[n]), expr.eval(&[n + p])) else {
                    continue;
                };
                prop_assert_eq!(here, later, "{} at {} + {} (from {})", text, n, p, from);
            }
        }
    }
}

/// Laws with a preperiod, as the law search states them, repeat from a start at most a period
/// past their last exception (the start is where the form shows every comparison settled).
#[test]
fn preperiodic_laws_repeat_from_their_last_exception() {
    for (text, period, from) in [
        ("if(n == 0, 0, if(n % 2 == 0, 1, 0))", 2, 1),
        ("min(n, 2 - n % 3)", 3, 3),
        ("abs(n - 1) % 3", 3, 2),
        ("if(n == 2, 2, n % 2)", 2, 3),
        ("max(n, 1) % 2", 2, 2),
        ("n % (5 - min(n, 3))", 2, 4),
        ("n % 2", 2, 0),
    ] {
        let expr = Expr::parse(text, &["n"]).unwrap();
        assert_eq!(expr.eventual_period(&[true], 0), Some((period, from)), "{text}");
    }
    for text in ["n", "n * n % 3 + n", "if(n % 2 == 0, n, 0)", "xor(n, 1)"] {
        let expr = Expr::parse(text, &["n"]).unwrap();
        assert_eq!(expr.eventual_period(&[true], 0), None, "{text}");
    }
}
