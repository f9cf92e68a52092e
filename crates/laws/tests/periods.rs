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
