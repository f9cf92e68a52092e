//! The conjecture checker on arbitrary expressions: a parse error, or a claim that checks against
//! a small table to a verdict or a one-line error (such as a division by zero), never a panic;
//! and bare expressions evaluate without panicking at coordinates near the integer limits.
#![no_main]

use grundy_core::read_csv;
use grundy_laws::conjecture::{check, ClaimKind, Conjecture};
use grundy_laws::expr::Expr;
use libfuzzer_sys::fuzz_target;

const KINDS: [ClaimKind; 3] = [ClaimKind::PSet, ClaimKind::Values, ClaimKind::Holds];
const SAMPLES: [i64; 6] = [0, 1, 7, 1 << 31, i64::MAX, i64::MIN];
const NIM_3X3: &str = "a\\b,0,1,2,3\n0,0,1,2,3\n1,1,0,3,2\n2,2,3,0,1\n3,3,2,1,0\n";

fuzz_target!(|input: (u8, &str)| {
    let (selector, text) = input;
    let kind = KINDS[usize::from(selector) % KINDS.len()];
    if let Ok(conjecture) = Conjecture::parse(kind, text, &["a", "b"]) {
        let (table, cells) = read_csv(NIM_3X3.as_bytes()).expect("the fixed table reads");
        let _ = check(&table, cells, None, "nim", &conjecture, None, 3);
    }
    if let Ok(expr) = Expr::parse(text, &["n", "m", "g"]) {
        for &n in &SAMPLES {
            for &m in &SAMPLES {
                let _ = expr.eval(&[n, m, n ^ m]);
            }
        }
    }
});
