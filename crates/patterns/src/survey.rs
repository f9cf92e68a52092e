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

use crate::analysis::{analysis_bytes, analyze, LineReport, Report};
use crate::search::ProofSearch;
use grundy_compute::{FillRequest, NoProgress, SequenceRecords, Threads};
use grundy_core::{lookup, parse_spec, Axis, Coord, Game, Rule, StepSet, Table, TableShape};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Instant;

/// The most members a family may have.
pub const MAX_MEMBERS: u64 = 1 << 20;

/// Why a family cannot be surveyed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyError(String);

impl fmt::Display for FamilyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FamilyError {}

fn bad(family: &str, why: impl fmt::Display) -> FamilyError {
    FamilyError(format!("family `{family}`: {why}"))
}

/// The members of a family, in order.
#[derive(Clone, Debug)]
pub struct Family {
    /// The family as written.
    pub text: String,
    /// Its members.
    pub members: Vec<Game>,
}

impl Family {
    /// The family written as `text` (a code pattern or a family of subtraction sets).
    pub fn parse(text: &str) -> Result<Family, FamilyError> {
        let members = if let Some(pattern) = text.strip_prefix("octal:") {
            codes(text, pattern, false)?
        } else if let Some(pattern) = text.strip_prefix("hex:") {
            codes(text, pattern, true)?
        } else if let Some(spec) = text.strip_prefix("subtraction:") {
            subtraction_sets(text, spec)?
        } else {
            return Err(bad(
                text,
                "write octal:0.?? (a code with ? for any digit), hex:0.?, subtraction:3-of-12, \
                 subtraction:any-of-6, subtraction:all-but-2-of-8, or a spec file with \
                 [parameters]",
            ));
        };
        Family::of(text, members)
    }

    /// The members of a spec template: TOML whose `[parameters]` table maps names to integer
    /// ranges (`k = "1..=20"`, or a single integer), each used as `{name}` in the rest of the
    /// text; every combination of values is a member (the first parameter varies slowest).
    pub fn from_template(text: &str, origin: &str) -> Result<Family, FamilyError> {
        let table: toml::Table = text.parse().map_err(|err| bad(origin, err))?;
        let Some(toml::Value::Table(parameters)) = table.get("parameters") else {
            return Err(bad(
                origin,
                "a spec family needs a [parameters] table, e.g. k = \"1..=20\"",
            ));
        };
        let mut ranges: Vec<(String, Vec<i64>)> = Vec::new();
        let mut count: u64 = 1;
        for (name, value) in parameters {
            if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(bad(
                    origin,
                    format!("parameter name `{name}`: use letters, digits, _"),
                ));
            }
            let (low, high) = match value {
                toml::Value::Integer(v) => (*v, *v),
                toml::Value::String(range) => parse_range(range)
                    .ok_or_else(|| bad(origin, format!("parameter {name} = {range:?}: write a range such as \"1..=20\"")))?,
                other => {
                    return Err(bad(origin, format!("parameter {name} = {other}: write an integer or a range such as \"1..=20\"")))
                }
            };
            if low > high {
                return Err(bad(
                    origin,
                    format!("parameter {name} runs from {low} to {high}: empty"),
                ));
            }
            let len = u64::try_from(high as i128 - low as i128 + 1).unwrap_or(u64::MAX);
            count = count
                .checked_mul(len)
                .filter(|&c| c <= MAX_MEMBERS)
                .ok_or_else(|| bad(origin, format!("more than {MAX_MEMBERS} members")))?;
            ranges.push((name.clone(), (low..=high).collect()));
        }
        // The rules are the text without the [parameters] table, with the values put in.
        let body = without_parameters(text);
        let mut members = Vec::new();
        let mut index = vec![0usize; ranges.len()];
        loop {
            let mut spec = body.clone();
            let mut label = Vec::new();
            for ((name, values), &i) in ranges.iter().zip(&index) {
                spec = spec.replace(&format!("{{{name}}}"), &values[i].to_string());
                label.push(format!("{name}={}", values[i]));
            }
            let origin_member = format!("{origin} [{}]", label.join(", "));
            let game = parse_spec(&spec, &origin_member).map_err(|err| bad(origin, err))?;
            members.push(game);
            // The next combination, the last parameter fastest.
            let mut d = ranges.len();
            loop {
                if d == 0 {
                    return Family::of(origin, members);
                }
                d -= 1;
                index[d] += 1;
                if index[d] < ranges[d].1.len() {
                    break;
                }
                index[d] = 0;
            }
        }
    }

    fn of(text: &str, members: Vec<Game>) -> Result<Family, FamilyError> {
        if members.is_empty() {
            return Err(bad(text, "the family has no members"));
        }
        Ok(Family { text: text.to_string(), members })
    }
}

fn parse_range(text: &str) -> Option<(i64, i64)> {
    let (low, high) = text.split_once("..=")?;
    Some((low.trim().parse().ok()?, high.trim().parse().ok()?))
}

/// `text` without its `[parameters]` table (up to the next table header).
fn without_parameters(text: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for line in text.lines() {
        let header = line.trim_start().starts_with('[');
        if header {
            skipping = line.trim() == "[parameters]";
        }
        if !skipping {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Every code matching `pattern` (digits and `?`), last digit not 0, that is a valid code.
fn codes(family: &str, pattern: &str, hex: bool) -> Result<Vec<Game>, FamilyError> {
    let radix: u32 = if hex { 16 } else { 8 };
    let Some((before, after)) = pattern.split_once('.') else {
        return Err(bad(family, "a code has a point, e.g. 0.?? or 4.?7"));
    };
    let slots: Vec<char> = before.chars().chain(after.chars()).collect();
    if before.chars().count() != 1 || after.is_empty() {
        return Err(bad(family, "a code has one digit before the point and at least one after"));
    }
    for c in &slots {
        if *c != '?' && c.to_digit(radix).is_none() {
            let what = if hex { "0-9, a-f" } else { "0-7" };
            return Err(bad(family, format!("`{c}` is not a digit ({what}) or ?")));
        }
    }
    let wild = slots.iter().filter(|&&c| c == '?').count() as u32;
    let count = u64::from(radix).checked_pow(wild).filter(|&c| c <= MAX_MEMBERS);
    let Some(count) = count else {
        return Err(bad(family, format!("more than {MAX_MEMBERS} codes; use fewer ?")));
    };
    let mut members = Vec::new();
    for mut n in 0..count {
        // The first wildcard varies slowest, so codes come in the order of their digits.
        let mut digits = vec![0u32; slots.len()];
        for (i, c) in slots.iter().enumerate().rev() {
            digits[i] = match c.to_digit(radix) {
                Some(d) => d,
                None => {
                    let d = (n % u64::from(radix)) as u32;
                    n /= u64::from(radix);
                    d
                }
            };
        }
        if digits.last() == Some(&0) && after.len() > 1 || digits[1..].iter().all(|&d| d == 0) {
            continue;
        }
        let digit = |d: u32| char::from_digit(d, radix).expect("a digit");
        let code: String = std::iter::once(digit(digits[0]))
            .chain(std::iter::once('.'))
            .chain(digits[1..].iter().map(|&d| digit(d)))
            .collect();
        // Codes the parser refuses (a digit before the point that removes nothing) are not
        // games: they are left out.
        let prefix = if hex { "hex" } else { "octal" };
        if let Ok(game) = lookup(&format!("{prefix}:{code}")) {
            members.push(game);
        }
    }
    Ok(members)
}

/// `k-of-m`, `any-of-m` and `all-but-k-of-m` families of subtraction sets.
fn subtraction_sets(family: &str, spec: &str) -> Result<Vec<Game>, FamilyError> {
    let number = |text: &str| -> Result<u64, FamilyError> {
        text.parse::<u64>()
            .ok()
            .filter(|&n| (1..=64).contains(&n))
            .ok_or_else(|| bad(family, format!("`{text}` is not a whole number from 1 to 64")))
    };
    let (all_but, size, of) = if let Some(rest) = spec.strip_prefix("all-but-") {
        let (k, m) = rest.split_once("-of-").ok_or_else(|| bad(family, "write all-but-K-of-M"))?;
        (true, Some(number(k)?), number(m)?)
    } else if let Some(m) = spec.strip_prefix("any-of-") {
        (false, None, number(m)?)
    } else if let Some((k, m)) = spec.split_once("-of-") {
        (false, Some(number(k)?), number(m)?)
    } else {
        return Err(bad(family, "write K-of-M, any-of-M or all-but-K-of-M (subsets of 1..=M)"));
    };
    if size.is_some_and(|k| k > of) {
        return Err(bad(family, format!("there is no {}-subset of 1..={of}", size.unwrap_or(0))));
    }
    let count = match size {
        Some(k) => binomial(of, k),
        None => 1u64.checked_shl(of as u32).map(|n| n - 1),
    };
    if count.is_none_or(|c| c > MAX_MEMBERS) {
        return Err(bad(family, format!("more than {MAX_MEMBERS} sets")));
    }
    let mut members = Vec::new();
    let mut subsets = Vec::new();
    subsets_of(of, size, &mut Vec::new(), 1, &mut subsets);
    for set in subsets {
        let list: Vec<String> = set.iter().map(u64::to_string).collect();
        let game = if all_but {
            let steps = StepSet::from(1)
                .and_then(|s| s.all_but(set.clone()))
                .map_err(|err| bad(family, err))?;
            Game::new(
                &format!("subtraction:all-but:{}", list.join(",")),
                &format!("subtraction game: remove any number of stones but {}", list.join(", ")),
                vec![Axis::new("n", 0)],
                vec![Rule::Jump { directions: vec![vec![-1]], steps }],
            )
            .map_err(|err| bad(family, err))?
        } else {
            lookup(&format!("subtraction:{}", list.join(","))).map_err(|err| bad(family, err))?
        };
        members.push(game);
    }
    Ok(members)
}

fn binomial(n: u64, k: u64) -> Option<u64> {
    let k = k.min(n - k);
    let mut c: u64 = 1;
    for i in 0..k {
        c = c.checked_mul(n - i)? / (i + 1);
    }
    Some(c)
}

/// Subsets of `from..=m` of `size` elements (any non-empty size when `None`), in the order of
/// their elements, appended to `out`.
fn subsets_of(
    m: u64,
    size: Option<u64>,
    current: &mut Vec<u64>,
    from: u64,
    out: &mut Vec<Vec<u64>>,
) {
    let complete = match size {
        Some(k) => current.len() as u64 == k,
        None => !current.is_empty(),
    };
    if complete {
        out.push(current.clone());
        if size.is_some() {
            return;
        }
    }
    for x in from..=m {
        current.push(x);
        subsets_of(m, size, current, x + 1, out);
        current.pop();
    }
}

/// How a member is computed.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The largest coordinate on each axis (heap size for heap games; both axes for boards).
    pub size: Coord,
    /// Compute heap games until a theorem proves the period, from `size` up to `limit`.
    pub until_proved: Option<u64>,
}

/// One member's row: what it is, what was computed, what was found.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The member.
    pub game: String,
    /// The representative of its class (itself for the first of a class).
    pub class: String,
    /// How its equivalence with the representative stands: `representative`, `proved`, or
    /// `agree up to N` (the values that were compared).
    pub equivalence: String,
    /// No move from any position computed: every value 0.
    pub trivial: bool,
    /// Values computed (positions of its table).
    pub values: usize,
    /// The largest value.
    pub max: u32,
    /// Where the largest value first appears (heap games).
    pub max_first_at: Option<Coord>,
    /// Positions of value 0.
    pub p_positions: u64,
    /// The period, preperiod and saltus of a heap game's sequence, when one was found.
    pub period: Option<usize>,
    /// See `period`.
    pub preperiod: Option<usize>,
    /// See `period`.
    pub saltus: Option<i64>,
    /// Whether a theorem proves the period (heap games) or the outcome rule (boards).
    pub proved: bool,
    /// The theorem and its check, or why none applies.
    pub argument: Option<String>,
    /// Values the theorem needs.
    pub needed_length: Option<usize>,
    /// The sparse-space records of take-and-break games.
    pub rare_mask: Option<u64>,
    /// See `rare_mask`.
    pub rare: Option<u64>,
    /// See `rare_mask`.
    pub last_rare: Option<u64>,
    /// A board's exact rule for its P-positions, when one was found.
    pub outcome_rule: Option<String>,
    /// A board's P-positions: whether they form a product of two sets (separable).
    pub separable: Option<bool>,
    /// A board's values: whether the table is symmetric.
    pub symmetric: Option<bool>,
    /// A board's rows, columns and diagonals: how many are periodic, as `k/n`.
    pub periodic_lines: Option<String>,
    /// Seconds spent on the member.
    pub seconds: f64,
}

/// A member's row before classes, and its values (kept to compare members).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Computed {
    /// The row (`class` and `equivalence` not yet set).
    pub row: Row,
    /// The values, row-major (serialised packed: see [`packed`]).
    #[serde(with = "packed")]
    pub values: Vec<u32>,
}

/// Values as a survey's partial file keeps them: `W:` then, in base64, the values as
/// little-endian cells of W bytes (the narrowest that holds them), deflated. A periodic
/// sequence of a million byte values takes a few kilobytes instead of megabytes of JSON.
pub mod packed {
    use base64::engine::general_purpose::STANDARD;
    use base64::Engine as _;
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};
    use std::io::{Read, Write};

    /// Packs `values`.
    pub fn serialize<S: Serializer>(values: &[u32], serializer: S) -> Result<S::Ok, S::Error> {
        let max = values.iter().copied().max().unwrap_or(0);
        let width = if max <= 0xff {
            1
        } else if max <= 0xffff {
            2
        } else {
            4
        };
        let mut encoder =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        for v in values {
            encoder.write_all(&v.to_le_bytes()[..width]).map_err(serde::ser::Error::custom)?;
        }
        let deflated = encoder.finish().map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(&format!("{width}:{}", STANDARD.encode(deflated)))
    }

    /// Unpacks values packed by [`serialize`].
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u32>, D::Error> {
        let text = String::deserialize(deserializer)?;
        let (width, data) = text.split_once(':').ok_or_else(|| D::Error::custom("no width"))?;
        let width: usize = match width {
            "1" => 1,
            "2" => 2,
            "4" => 4,
            other => return Err(D::Error::custom(format!("cell width {other}"))),
        };
        let deflated = STANDARD.decode(data).map_err(D::Error::custom)?;
        let mut bytes = Vec::new();
        flate2::read::DeflateDecoder::new(&deflated[..])
            .read_to_end(&mut bytes)
            .map_err(D::Error::custom)?;
        if bytes.len() % width != 0 {
            return Err(D::Error::custom("a cell cut short"));
        }
        Ok(bytes
            .chunks_exact(width)
            .map(|cell| {
                let mut le = [0u8; 4];
                le[..width].copy_from_slice(cell);
                u32::from_le_bytes(le)
            })
            .collect())
    }
}

/// Why a member could not be computed.
#[derive(Debug)]
pub struct MemberError(pub String);

impl fmt::Display for MemberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MemberError {}

/// Computes and analyses one member on the current rayon pool.
pub fn survey_member(game: &Game, plan: Plan) -> Result<Computed, MemberError> {
    let started = Instant::now();
    let fail = |err: &dyn fmt::Display| MemberError(format!("{}: {err}", game.name()));
    let theorem = plan
        .until_proved
        .filter(|_| game.dims() == 1 && crate::proofs::has_periodicity_theorem(game));
    let (report, table) = match theorem {
        Some(limit) => {
            let start = game.axes()[0].min.max(plan.size);
            let mut search = ProofSearch::new(game, Some(start), limit, Threads::current())
                .map_err(|e| fail(&e))?;
            loop {
                if let Some(found) = search.round(&NoProgress).map_err(|e| fail(&e))? {
                    break (found.report, search.last_table().expect("a round ran").clone());
                }
            }
        }
        None => {
            let max: Vec<Coord> = game.axes().iter().map(|a| a.min.max(plan.size)).collect();
            let text: Vec<String> = max.iter().map(Coord::to_string).collect();
            let shape = TableShape::new(game, &max, &text.join("x")).map_err(|e| fail(&e))?;
            let fill = FillRequest::new(game, &shape)
                .table(analysis_bytes(&shape.lens()))
                .map_err(|e| fail(&e))?;
            let table = fill.fill(&NoProgress).map_err(|e| fail(&e))?;
            let described = Table::of_game(game.clone(), table);
            let report = analyze(&described).map_err(|e| fail(&e))?;
            (report, described.into_data())
        }
    };
    let stats = table.stats();
    let records = SequenceRecords::of(Some(game), &table);
    let mut row = Row {
        game: game.name().to_string(),
        trivial: stats.max == 0,
        values: table.len(),
        max: stats.max,
        max_first_at: records.as_ref().map(|r| r.max_first_at),
        p_positions: stats.p_positions,
        rare_mask: records.as_ref().and_then(|r| r.rare_mask),
        rare: records.as_ref().and_then(|r| r.rare),
        last_rare: records.as_ref().and_then(|r| r.last_rare),
        ..Row::default()
    };
    match &report {
        Report::Sequence(r) => {
            let s = &r.sequence;
            (row.period, row.preperiod, row.saltus) = (s.period, s.preperiod, s.saltus);
            (row.proved, row.argument, row.needed_length) =
                (s.proved, s.argument.clone(), s.needed_length);
        }
        Report::Board(r) => {
            row.outcome_rule = r.outcome.rule.clone();
            (row.proved, row.argument) = (r.outcome.proved, r.outcome.argument.clone());
            (row.separable, row.symmetric) = (Some(r.outcome.separable), Some(r.symmetric));
            let periodic = |lines: &[LineReport]| {
                let k = lines.iter().filter(|l| l.period.is_some()).count();
                format!("{k}/{}", lines.len())
            };
            row.periodic_lines = Some(format!(
                "rows {}, columns {}, diagonals {}",
                periodic(&r.rows),
                periodic(&r.columns),
                periodic(&r.diagonals)
            ));
        }
    }
    row.seconds = started.elapsed().as_secs_f64();
    Ok(Computed { row, values: table.cells().to_u32_vec() })
}

/// The rows of `computed` (in member order) with their classes: members whose values agree on
/// every position both computed form a class named after its first member. An equivalence is
/// `proved` when both are proved periodic (heap games) and they agree on at least the larger
/// preperiod plus the least common multiple of the periods (with the same saltus): from there
/// on both repeat, so they agree everywhere. Trivial members form classes of their own kind
/// only with each other.
pub fn classify(computed: &[Computed]) -> Vec<Row> {
    let mut rows: Vec<Row> = computed.iter().map(|c| c.row.clone()).collect();
    let mut representatives: Vec<usize> = Vec::new();
    for i in 0..computed.len() {
        let found = representatives.iter().copied().find(|&r| {
            let (a, b) = (&computed[r], &computed[i]);
            let common = a.values.len().min(b.values.len());
            a.row.trivial == b.row.trivial
                && same_axes(&a.row, &b.row)
                && a.values[..common] == b.values[..common]
        });
        match found {
            None => {
                representatives.push(i);
                rows[i].class = rows[i].game.clone();
                rows[i].equivalence = "representative".to_string();
            }
            Some(r) => {
                rows[i].class = rows[r].game.clone();
                let common = computed[r].values.len().min(computed[i].values.len());
                rows[i].equivalence = if proves_equal(&rows[r], &rows[i], common) {
                    "proved".to_string()
                } else {
                    format!("agree up to {common}")
                };
            }
        }
    }
    rows
}

/// Heap games only: boards of different shapes never share a class.
fn same_axes(a: &Row, b: &Row) -> bool {
    a.max_first_at.is_some() == b.max_first_at.is_some()
}

fn proves_equal(a: &Row, b: &Row, agree: usize) -> bool {
    let (Some(pa), Some(pb), Some(ea), Some(eb)) = (a.period, b.period, a.preperiod, b.preperiod)
    else {
        return false;
    };
    // Arithmetic periodicity (a saltus) repeats only with the same period and saltus.
    if !(a.proved && b.proved) || a.saltus != b.saltus || (a.saltus != Some(0) && pa != pb) {
        return false;
    }
    let lcm = pa / gcd(pa, pb) * pb;
    ea.max(eb) + lcm <= agree
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_values_round_trip_in_every_width() {
        for values in [vec![], vec![0, 1, 2, 255], vec![3, 300, 65535], vec![7, 70000, u32::MAX]] {
            let computed = Computed { row: empty_row(), values: values.clone() };
            let line = serde_json::to_string(&computed).unwrap();
            let back: Computed = serde_json::from_str(&line).unwrap();
            assert_eq!(back.values, values);
        }
        // A periodic million values pack into a few kilobytes.
        let periodic =
            Computed { row: empty_row(), values: (0..1_000_000u32).map(|n| n % 12).collect() };
        assert!(serde_json::to_string(&periodic).unwrap().len() < 20_000);
    }

    fn empty_row() -> Row {
        Row { game: "g".into(), ..Row::default() }
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
