use super::*;

#[test]
fn deep_nesting_and_huge_expressions_are_refused_not_overflowed() {
    let nested = |depth: usize| format!("{}n{}", "(".repeat(depth), ")".repeat(depth));
    assert!(Expr::parse(&nested(60), &["n"]).is_ok());
    let err = Expr::parse(&nested(100), &["n"]).unwrap_err();
    assert!(err.to_string().contains("nested too deeply"), "{err}");
    let err = Expr::parse(&format!("{}n", "-".repeat(200)), &["n"]).unwrap_err();
    assert!(err.to_string().contains("nested too deeply"), "{err}");
    let err = Expr::parse(&format!("{}n > 0", "!".repeat(100)), &["n"]).unwrap_err();
    assert!(err.to_string().contains("nested too deeply"), "{err}");
    let long = vec!["n"; 600].join(" + ");
    let err = Expr::parse(&long, &["n"]).unwrap_err();
    assert!(err.to_string().contains("too long (more than 1000 tokens)"), "{err}");
    let fits = vec!["n"; 400].join(" + ");
    assert_eq!(Expr::parse(&fits, &["n"]).unwrap().eval(&[2]).unwrap(), Value::Int(800));
}

fn value(text: &str, vars: &[i64]) -> Value {
    Expr::parse(text, &["n", "m", "g"]).unwrap_or_else(|e| panic!("{e}")).eval(vars).unwrap()
}

#[test]
fn evaluates() {
    let check =
        |text: &str, expected: Value| assert_eq!(value(text, &[7, 4, 3]), expected, "{text}");
    check("n % 2 == 1 && m % 2 == 1", Value::Bool(false));
    check("n + m * 2 - 1", Value::Int(14));
    check("n / 2", Value::Int(3));
    check("-n / 2", Value::Int(-4));
    check("-n % 2", Value::Int(1));
    check("xor(n, m)", Value::Int(3));
    check("min(n, m, 9)", Value::Int(4));
    check("max(n, 2.5)", Value::Real(7.0));
    check("floor(n * phi)", Value::Int(11));
    check("ceil(sqrt(n))", Value::Int(3));
    check("abs(m - n)", Value::Int(3));
    check("if(n > m, n, m)", Value::Int(7));
    check("!(g <= n + m) || true", Value::Bool(true));
    check("(n == 7) == (m == 4)", Value::Bool(true));
    check("2 + 3 * 4 % 5", Value::Int(4));
    check("n - m - 1", Value::Int(2));
    check("n != 7 || m >= 4 && g < 3", Value::Bool(false));
}

#[test]
fn wythoff_p_positions_with_phi() {
    let p = Expr::parse("min(a, b) == floor(abs(a - b) * phi)", &["a", "b"]).unwrap();
    assert!(p.eval_bool(&[3, 5]).unwrap());
    assert!(p.eval_bool(&[5, 3]).unwrap());
    assert!(!p.eval_bool(&[4, 5]).unwrap());
}

#[test]
fn errors_say_where() {
    let error = |text: &str| Expr::parse(text, &["n", "m"]).unwrap_err().to_string();
    assert_eq!(
        error("n % 2 = 1"),
        "bad expression `n % 2 = 1` at column 7: `=` is not an operator; write `==` to compare"
    );
    assert_eq!(error("n +"), "bad expression `n +` at column 4: the expression ends too early");
    assert_eq!(error("(n + 1"), "bad expression `(n + 1` at column 7: expected `)`");
    assert_eq!(error("n $ 2"), "bad expression `n $ 2` at column 3: unexpected character `$`");
    assert_eq!(
        error("x + 1"),
        "bad expression `x + 1` at column 1: unknown variable `x` (allowed: n, m, and the constant phi)"
    );
    assert!(error("foo(n)").contains("unknown function `foo`"));
    assert!(error("n && m").contains("`&&` needs a condition, not an integer"));
    assert!(error("n < m < 3").contains("do not chain"));
    assert!(error("xor(n)").contains("`xor` takes 2 arguments, not 1"));
    assert!(error("n & m").contains("write `&&`"));
    assert!(error("n m").contains("unexpected `m`"));
    assert!(error("").contains("ends too early"));
}

#[test]
fn runtime_errors() {
    let e = Expr::parse("n / m", &["n", "m"]).unwrap();
    assert_eq!(e.eval(&[1, 0]), Err(EvalError::DivisionByZero));
    let e = Expr::parse("n * n * n * n * n", &["n"]).unwrap();
    assert_eq!(e.eval(&[1 << 20]), Err(EvalError::Overflow));
    let e = Expr::parse("sqrt(n)", &["n"]).unwrap();
    assert_eq!(e.eval_int(&[4]), Ok(2));
    assert_eq!(e.eval_int(&[5]), Err(EvalError::NotAnInteger));
}

#[test]
fn periods_come_from_the_form() {
    let periods = |text: &str| Expr::parse(text, &["n", "m", "g"]).unwrap().periods();
    let cases: &[(&str, Option<[u64; 3]>)] = &[
        ("n % 2 == 1 && m % 2 == 1", Some([2, 2, 1])),
        ("n % 2 == 1 || n % 3 == 0", Some([6, 1, 1])),
        ("if(m % 4 == 1, 3, xor(n % 2, 1))", Some([2, 4, 1])),
        ("(n + 1) % 2 == 0", Some([2, 1, 1])),
        ("(n + m) % 3 == 0", Some([3, 3, 1])),
        ("(2 * n - 3 * m) % 6", Some([3, 2, 1])),
        ("floor(n / 2) % 2 == 0", Some([4, 1, 1])),
        ("(n / 3 + m) % 2", Some([6, 2, 1])),
        ("-(n % 5)", Some([5, 1, 1])),
        ("true", Some([1, 1, 1])),
        ("7", Some([1, 1, 1])),
        // A coordinate outside a residue: not periodic, whatever a table shows.
        ("n % 2 == 1 && n > 3", None),
        ("n % 2 == 1 && m % 2 == 1 && n < 1000", None),
        ("n", None),
        ("n / 2", None),
        ("(n * m) % 2", None),
        ("n % m == 0", None),
        ("floor(n * phi) % 2 == 0", None),
        ("abs(n - m) % 2 == 0", None),
        ("min(n, 5) % 2 == 0", None),
    ];
    for (text, expected) in cases {
        assert_eq!(periods(text), expected.map(|p| p.to_vec()), "{text}");
    }
}

/// Whatever period the form gives holds on every integer, negative ones included.
#[test]
fn periods_from_the_form_hold_everywhere() {
    let texts = [
        "(n + 1) % 2 == 0",
        "(2 * n - 3 * m) % 6",
        "floor(n / 2) % 2 == 0",
        "(n / 3 + m) % 2",
        "((n - m) / 4 + n / 6) % 5 * 3 + m % 4",
        "if((n + 2 * m) % 3 == 1, (m / 2) % 7, -((n / 5) % 2))",
        "xor(n % 4, m % 6) == (n + m) % 3",
    ];
    for text in texts {
        let expr = Expr::parse(text, &["n", "m"]).unwrap();
        let periods = expr.periods().unwrap_or_else(|| panic!("{text} has a period"));
        for n in -40..40 {
            for m in -40..40 {
                let here = expr.eval(&[n, m]).unwrap();
                let right = expr.eval(&[n + periods[0] as i64, m]).unwrap();
                let up = expr.eval(&[n, m + periods[1] as i64]).unwrap();
                assert_eq!((here, here), (right, up), "{text} at ({n}, {m})");
            }
        }
    }
}

#[test]
fn types() {
    let ty = |text: &str| Expr::parse(text, &["n"]).unwrap().ty();
    assert_eq!(ty("n + 1"), Type::Int);
    assert_eq!(ty("n * phi"), Type::Real);
    assert_eq!(ty("n > 1"), Type::Bool);
    let e = Expr::parse("n + 1", &["n"]).unwrap();
    assert!(e
        .expect(Type::Bool, "--p-set")
        .unwrap_err()
        .to_string()
        .contains("--p-set must be a condition"));
}
