//! The spec parser on arbitrary text: an error or a game, never a panic; a game it accepts
//! prints back (`to_spec`) as a spec that parses to the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(game) = grundy_core::parse_spec(text, "fuzz.toml") {
        let printed = grundy_core::to_spec(&game);
        let again = grundy_core::parse_spec(&printed, "printed.toml")
            .expect("to_spec prints a spec that parses");
        assert_eq!(game, again, "to_spec round trip");
    }
});
