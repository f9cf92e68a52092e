//! The claim language (grundy-expr) and the names of axes (grundy-core) agree on which words are
//! the language's: the one test that reads both crates.

use grundy_laws::expr::Expr;

/// Issue 59, item 6: the words the language gives a meaning of its own are exactly those no axis
/// may take (`grundy_core::RESERVED_NAMES`): each constant parses without variables, each
/// function is known, and `g` is the value a claim about values names beside the axes.
#[test]
fn the_reserved_names_are_the_words_of_the_language() {
    let known_function =
        |name: &str| match Expr::parse(&format!("{name}(1)"), &[]).map_err(|e| e.to_string()) {
            Err(why) => !why.contains("unknown function"),
            Ok(_) => true,
        };
    for &word in grundy_core::RESERVED_NAMES {
        let constant = Expr::parse(word, &[]).is_ok();
        assert!(word == "g" || constant || known_function(word), "`{word}` means nothing");
        assert!(!grundy_core::Axis::is_name(word), "`{word}` names an axis");
    }
    // Every other identifier in the language's messages is an axis' to take.
    let err = Expr::parse("frobnicate(1)", &[]).unwrap_err().to_string();
    let listed = err.split("known: ").nth(1).unwrap().trim_end_matches(')');
    for function in listed.split(", ") {
        assert!(grundy_core::RESERVED_NAMES.contains(&function), "`{function}` is not reserved");
    }
    for constant in ["true", "false", "phi"] {
        assert!(
            Expr::parse(constant, &[]).is_ok() && grundy_core::RESERVED_NAMES.contains(&constant)
        );
    }
}
