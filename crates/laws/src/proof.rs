//! Whether a finding holds beyond its table, and why: the one proof type of every report (a
//! heap game's period, a board's outcome rule, a checked conjecture, a survey's row).
//!
//! A finding is *proved* only when a named theorem's finite check has passed
//! ([`Proof::Proved`]); everything else is evidence, with the reason no proof holds
//! ([`Proof::Unproved`]). In JSON (and a survey's CSV) a proof is the two keys it always was:
//! `proved` (a boolean) and `argument` (the text; `null` where there was no finding to prove).
//!
//! Proofs are made in this module's rooms, one per kind of theorem: [`theorems`] (heap games'
//! periods: the subtraction window and the Octal Periodicity Theorem), [`certificate`] (the
//! finite box that proves a periodic claim about a board with bounded moves), [`sum`] (the
//! Sprague–Grundy sum of independent parts) and [`automatic`] (sentences decided by automata,
//! for unbounded moves). A new theorem is a room here and a [`Theorem`] variant.

pub mod automatic;
pub mod certificate;
pub mod sum;
pub mod theorems;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;

/// A theorem that turns a finite check into a proof for every position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Theorem {
    /// A subtraction game with a finite set: the `t = max(S)` values before a position determine
    /// its value, so a period seen on a window of `t` values past the preperiod holds forever.
    SubtractionWindow,
    /// The Octal Periodicity Theorem (Guy and Smith) for octal games.
    OctalPeriodicity,
    /// An octal game whose moves never split a heap (digits 0 to 3), under either convention:
    /// past its largest removal t every heap has the same moves, so the t values before a heap
    /// determine its value, and a period seen on t values past that holds forever.
    TakeAwayWindow,
    /// A claim periodic on the whole board about a game with bounded moves, checked on a finite
    /// box that holds every case of the infinite board ([`crate::proof::certificate`]).
    FiniteBox,
    /// The sentences that make a claim the game's P-set or values, decided by finite automata in
    /// base 2 or Fibonacci numeration ([`crate::proof::automatic`]).
    Automata,
    /// The Sprague–Grundy theorem for a game whose rules split its axes into independent parts,
    /// each part's law proved ([`crate::proof::sum`]).
    SumOfGames,
}

impl Theorem {
    /// Every theorem.
    pub const ALL: [Theorem; 6] = [
        Theorem::SubtractionWindow,
        Theorem::OctalPeriodicity,
        Theorem::TakeAwayWindow,
        Theorem::FiniteBox,
        Theorem::Automata,
        Theorem::SumOfGames,
    ];

    /// The theorem's name.
    pub fn name(self) -> &'static str {
        match self {
            Theorem::SubtractionWindow => "subtraction window",
            Theorem::OctalPeriodicity => "Octal Periodicity Theorem",
            Theorem::TakeAwayWindow => "take-away window",
            Theorem::FiniteBox => "finite box",
            Theorem::Automata => "automata",
            Theorem::SumOfGames => "Sprague–Grundy sum",
        }
    }

    /// How an argument by this theorem begins: arguments are written after it, so a proof read
    /// back from its text knows its theorem.
    pub fn lead(self) -> &'static str {
        match self {
            Theorem::SubtractionWindow => "subtraction game with a finite set, ",
            Theorem::OctalPeriodicity => "Octal Periodicity Theorem (Guy and Smith): ",
            Theorem::TakeAwayWindow => "octal game without splits, ",
            Theorem::FiniteBox => "the claim is periodic with period ",
            Theorem::Automata => "decided by automata in ",
            Theorem::SumOfGames => "Sprague–Grundy sum of ",
        }
    }
}

/// Whether a finding holds beyond its table, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// `theorem`'s finite check passed: the finding holds for every position.
    Proved {
        /// The theorem.
        theorem: Theorem,
        /// The check that passed, in words, beginning with [`Theorem::lead`].
        argument: String,
    },
    /// Evidence only.
    Unproved {
        /// Why no proof holds: no theorem applies, the check failed, or it needs a longer table.
        why: String,
    },
}

impl Proof {
    /// A proof by `theorem` whose check `rest` says, after the theorem's [`Theorem::lead`].
    pub fn by(theorem: Theorem, rest: impl fmt::Display) -> Proof {
        Proof::Proved { theorem, argument: format!("{}{rest}", theorem.lead()) }
    }

    /// No proof, for the reason `why`.
    pub fn none(why: impl Into<String>) -> Proof {
        Proof::Unproved { why: why.into() }
    }

    /// Whether the finding is proved.
    pub fn is_proved(&self) -> bool {
        matches!(self, Proof::Proved { .. })
    }

    /// The theorem that proves it.
    pub fn theorem(&self) -> Option<Theorem> {
        match self {
            Proof::Proved { theorem, .. } => Some(*theorem),
            Proof::Unproved { .. } => None,
        }
    }

    /// The argument, or why there is none.
    pub fn argument(&self) -> &str {
        match self {
            Proof::Proved { argument, .. } => argument,
            Proof::Unproved { why } => why,
        }
    }
}

/// A proof as JSON has it.
#[derive(Serialize, Deserialize)]
struct Fields<'a> {
    proved: bool,
    #[serde(borrow)]
    argument: Option<Cow<'a, str>>,
}

impl Serialize for Proof {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Fields { proved: self.is_proved(), argument: Some(self.argument().into()) }
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Proof {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Proof, D::Error> {
        optional::deserialize(deserializer)?.ok_or_else(|| D::Error::custom("no argument"))
    }
}

/// `Option<Proof>` as a report's two keys (`#[serde(flatten, with = "optional")]`): `None`, no
/// finding to prove, is `proved: false, argument: null`.
pub mod optional {
    use super::*;

    /// Writes `proof` as `proved` and `argument`.
    pub fn serialize<S: Serializer>(
        proof: &Option<Proof>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let fields = Fields {
            proved: proof.as_ref().is_some_and(Proof::is_proved),
            argument: proof.as_ref().map(|p| p.argument().into()),
        };
        fields.serialize(serializer)
    }

    /// Reads what [`serialize`] wrote: a proved argument names its theorem by its lead.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Proof>, D::Error> {
        let Fields { proved, argument } = Fields::deserialize(deserializer)?;
        from_fields(proved, argument.map(Cow::into_owned)).map_err(D::Error::custom)
    }

    /// The proof whose two keys are `proved` and `argument`.
    pub fn from_fields(
        proved: bool,
        argument: Option<String>,
    ) -> Result<Option<Proof>, &'static str> {
        let Some(argument) = argument else {
            return if proved { Err("a proof without an argument") } else { Ok(None) };
        };
        if !proved {
            return Ok(Some(Proof::none(argument)));
        }
        match Theorem::ALL.into_iter().find(|t| argument.starts_with(t.lead())) {
            Some(theorem) => Ok(Some(Proof::Proved { theorem, argument })),
            None => Err("a proof that names no theorem"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Report {
        before: u8,
        #[serde(flatten, with = "optional")]
        proof: Option<Proof>,
        after: u8,
    }

    #[test]
    fn proofs_are_the_two_keys_they_always_were_and_read_back() {
        let cases = [
            (
                Some(Proof::by(Theorem::OctalPeriodicity, "code 0.07 ...")),
                r#""proved":true,"argument":"Octal Periodicity Theorem (Guy and Smith): code 0.07 ...""#,
            ),
            (Some(Proof::none("no theorem")), r#""proved":false,"argument":"no theorem""#),
            (None, r#""proved":false,"argument":null"#),
        ];
        for (proof, keys) in cases {
            let report = Report { before: 1, proof, after: 2 };
            let json = serde_json::to_string(&report).unwrap();
            assert_eq!(json, format!(r#"{{"before":1,{keys},"after":2}}"#));
            assert_eq!(serde_json::from_str::<Report>(&json).unwrap(), report);
        }
        for theorem in Theorem::ALL {
            let proof = Proof::by(theorem, "the check");
            assert_eq!(proof.theorem(), Some(theorem));
            let json = serde_json::to_string(&proof).unwrap();
            assert_eq!(serde_json::from_str::<Proof>(&json).unwrap(), proof);
        }
        let forged = r#"{"before":1,"proved":true,"argument":"trust me","after":2}"#;
        assert!(serde_json::from_str::<Report>(forged).is_err());
    }
}
