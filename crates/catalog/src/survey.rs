//! Surveys of whole families of games (`grundy survey`): the members of a family, each computed
//! and analysed (its row), and the classes of members whose sequences agree.
//!
//! A family is written as one of:
//! - an octal or hex code with `?` wildcards: `octal:0.??` (every code with two digits after
//!   the point), `octal:4.??`, `octal:0.?7`, `hex:0.?`. A wildcard stands for every digit
//!   (0–7, or 0–f), except that the last digit is never 0 (a code ending in 0 is the shorter
//!   code, in the family of one digit fewer);
//! - a family of subtraction sets: `subtraction:3-of-12` (every 3-subset of 1..=12),
//!   `subtraction:any-of-6` (every non-empty subset of 1..=6), `subtraction:all-but-2-of-8`
//!   (every set of all positive amounts except a 2-subset of 1..=8);
//! - a spec template: TOML whose `[parameters]` table gives integer ranges (`k = "1..=20"`),
//!   used as `{k}` anywhere in the rest of the text ([`Family::from_template`]).
//!
//! Members are listed in order (codes by their digits, sets by their elements), and the
//! representative of a class is its first member, as the literature names a class by its
//! smallest code.

mod extent;
mod family;
mod member;
mod partial;
mod row;

pub use extent::Extent;
pub use family::{Family, FamilyError, FamilyErrorKind, MAX_MEMBERS};
pub use member::{classify, survey_member, MemberError, MemberErrorKind};
pub use partial::{
    packed, partial_header, partial_line, read_partial, Computed, PartialError, PartialErrorKind,
};
pub(crate) use row::text;
pub use row::{write_rows, Equivalence, PeriodicLines, Row, RowsFormat, Timing};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_values_round_trip_in_every_width() {
        for values in [vec![], vec![0, 1, 2, 255], vec![3, 300, 65535], vec![7, 70000, u32::MAX]] {
            let computed = Computed { row: empty_row(), values: values.clone(), note: None };
            let line = serde_json::to_string(&computed).unwrap();
            let back: Computed = serde_json::from_str(&line).unwrap();
            assert_eq!(back.values, values);
        }
        // A periodic million values pack into a few kilobytes.
        let periodic = Computed {
            row: empty_row(),
            values: (0..1_000_000u32).map(|n| n % 12).collect(),
            note: None,
        };
        assert!(serde_json::to_string(&periodic).unwrap().len() < 20_000);
    }

    fn empty_row() -> Row {
        Row { game: "g".into(), ..Row::default() }
    }

    fn member(name: &str) -> grundy_core::Game {
        grundy_core::lookup(name).unwrap()
    }

    /// Classes: members equal on every position both computed share the first one's class; the
    /// equivalence is proved only when both are proved periodic and agree past both preperiods
    /// plus the lcm of the periods; boards never share a heap game's class.
    #[test]
    fn members_are_classified_by_their_values_and_proved_only_past_the_periods() {
        let extent =
            |size| Extent { size, until_proved: None, seconds: None, search_seconds: None };
        let proved =
            Extent { size: 100, until_proved: Some(1 << 14), seconds: None, search_seconds: None };
        let computed: Vec<Computed> = [
            (member("octal:0.07"), proved),
            // Dawson's Kayles is 0.07 stated as a spec of its own.
            (member("dawsons-kayles"), proved),
            // Too short for the Octal Periodicity Theorem (0.07 needs 176 values).
            (member("octal:0.07"), extent(120)),
            (member("subtraction:1"), extent(500)),
            (member("octal:0.1"), extent(500)),
            (member("kiki"), extent(20)),
        ]
        .iter()
        .map(|(game, extent)| {
            survey_member(&Default::default(), game, *extent, &grundy_compute::NoProgress).unwrap()
        })
        .collect();
        let rows = classify(&computed);
        let classes: Vec<(&str, Equivalence)> =
            rows.iter().map(|row| (row.class.as_str(), row.equivalence)).collect();
        assert_eq!(
            classes,
            [
                ("octal:0.07", Equivalence::Representative),
                ("octal:0.07", Equivalence::Proved),
                ("octal:0.07", Equivalence::AgreeUpTo(121)),
                // 0 1 0 1 … and 0 1 0 0 …: different from heap 3 on.
                ("subtraction:1", Equivalence::Representative),
                ("octal:0.1", Equivalence::Representative),
                ("kiki", Equivalence::Representative),
            ]
        );
        assert!(rows[0].proof.as_ref().is_some_and(|p| p.is_proved()));
        assert!(!rows[2].proof.as_ref().is_some_and(|p| p.is_proved()));
        assert!(rows[5].periodic_lines.is_some() && rows[0].periodic_lines.is_none());
    }

    #[test]
    fn families_list_their_members_in_order() {
        let names = |text: &str| -> Vec<String> {
            Family::parse(text).unwrap().members.iter().map(|g| g.name().to_string()).collect()
        };
        assert_eq!(names("octal:0.?")[..3], ["octal:0.1", "octal:0.2", "octal:0.3"]);
        assert_eq!(names("octal:0.??").len(), 56);
        assert_eq!(names("hex:0.?").len(), 15);
        assert_eq!(
            names("subtraction:2-of-4"),
            [
                "subtraction:1,2",
                "subtraction:1,3",
                "subtraction:1,4",
                "subtraction:2,3",
                "subtraction:2,4",
                "subtraction:3,4"
            ]
        );
        assert_eq!(names("subtraction:any-of-3").len(), 7);
    }
}
