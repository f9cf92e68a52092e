//! The members of a family of games, in order: code patterns, families of subtraction sets and
//! spec templates (see [`crate::survey`]).

use grundy_core::{lookup, parse_spec, Axis, Game, ModelError, Rule, StepSet, StepSetError};
use std::fmt;

/// The most members a family may have.
pub const MAX_MEMBERS: u64 = 1 << 20;

/// Why a family cannot be surveyed: the family as written and what is wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyError {
    family: String,
    kind: FamilyErrorKind,
}

/// What is wrong with a family.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum FamilyErrorKind {
    /// It is none of the forms a family is written in.
    Form,
    /// A spec template is not TOML.
    Toml(toml::de::Error),
    /// A spec template's `parameters` is not a table.
    NoParameters,
    /// A parameter's name is not letters, digits and `_`.
    ParameterName(String),
    /// A parameter's text is not a range.
    ParameterRange {
        /// The parameter.
        name: String,
        /// Its text.
        text: String,
    },
    /// A parameter is neither an integer nor a range.
    ParameterValue {
        /// The parameter.
        name: String,
        /// Its value, as TOML writes it.
        value: String,
    },
    /// A parameter's range is empty.
    EmptyRange {
        /// The parameter.
        name: String,
        /// Its first value.
        low: i64,
        /// Its last value.
        high: i64,
    },
    /// More than [`MAX_MEMBERS`] members (`what` they are: members, codes or sets).
    TooMany {
        /// What the members are.
        what: &'static str,
    },
    /// A member is not a game.
    Member(ModelError),
    /// A set of amounts is not a step set.
    Steps(StepSetError),
    /// The family has no members.
    NoMembers,
    /// Two members of a template have one name (the spec's `name` holds no parameter).
    SameName {
        /// The name.
        name: String,
        /// The first member's parameters (`k=1`).
        first: String,
        /// The second member's parameters.
        second: String,
    },
    /// A code pattern has no point.
    NoPoint,
    /// A code pattern has other than one digit before its point, or none after it.
    Digits,
    /// A character of a code pattern is neither a digit of its radix nor `?`.
    NotADigit {
        /// The character.
        found: char,
        /// Whether the code is hexadecimal.
        hex: bool,
    },
    /// A count in a family of subtraction sets is not a whole number from 1 to 64.
    NotANumber(String),
    /// `all-but-` without `K-of-M`.
    AllButForm,
    /// A family of subtraction sets of another form.
    SubsetForm,
    /// `K-of-M` with K larger than M.
    NoSubset {
        /// The subsets' size.
        k: u64,
        /// The largest amount.
        of: u64,
    },
}

impl FamilyError {
    /// What is wrong.
    pub fn kind(&self) -> &FamilyErrorKind {
        &self.kind
    }
}

impl fmt::Display for FamilyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FamilyErrorKind as K;
        write!(f, "family `{}`: ", self.family)?;
        match &self.kind {
            K::Form => f.write_str(
                "write octal:0.?? (a code with ? for any digit), hex:0.?, subtraction:3-of-12, \
                 subtraction:any-of-6, subtraction:all-but-2-of-8, a game of the catalog, or a \
                 spec file (with [parameters] for a family of games)",
            ),
            K::Toml(err) => write!(f, "{err}"),
            K::NoParameters => {
                f.write_str("a spec family's [parameters] is a table, e.g. k = \"1..=20\"")
            }
            K::ParameterName(name) => write!(f, "parameter name `{name}`: use letters, digits, _"),
            K::ParameterRange { name, text } => {
                write!(f, "parameter {name} = {text:?}: write a range such as \"1..=20\"")
            }
            K::ParameterValue { name, value } => write!(
                f,
                "parameter {name} = {value}: write an integer or a range such as \"1..=20\""
            ),
            K::EmptyRange { name, low, high } => {
                write!(f, "parameter {name} runs from {low} to {high}: empty")
            }
            K::TooMany { what: "codes" } => {
                write!(f, "more than {MAX_MEMBERS} codes; use fewer ?")
            }
            K::TooMany { what } => write!(f, "more than {MAX_MEMBERS} {what}"),
            K::Member(err) => write!(f, "{err}"),
            K::Steps(err) => write!(f, "{err}"),
            K::NoMembers => f.write_str("the family has no members"),
            K::SameName { name, first, second } => write!(
                f,
                "members [{first}] and [{second}] are both named `{name}`: put the parameters \
                 in the spec's name (`name = \"game-{{k}}\"`) so that every member has its own"
            ),
            K::NoPoint => f.write_str("a code has a point, e.g. 0.?? or 4.?7"),
            K::Digits => {
                f.write_str("a code has one digit before the point and at least one after")
            }
            K::NotADigit { found, hex } => {
                let what = if *hex { "0-9, a-f" } else { "0-7" };
                write!(f, "`{found}` is not a digit ({what}) or ?")
            }
            K::NotANumber(text) => write!(f, "`{text}` is not a whole number from 1 to 64"),
            K::AllButForm => f.write_str("write all-but-K-of-M"),
            K::SubsetForm => {
                f.write_str("write K-of-M, any-of-M or all-but-K-of-M (subsets of 1..=M)")
            }
            K::NoSubset { k, of } => write!(f, "there is no {k}-subset of 1..={of}"),
        }
    }
}

impl std::error::Error for FamilyError {}

fn bad(family: &str, kind: FamilyErrorKind) -> FamilyError {
    FamilyError { family: family.to_string(), kind }
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
    /// The family written as `text` (a code pattern, a family of subtraction sets, or a game of
    /// the catalog: a family of one).
    pub fn parse(text: &str) -> Result<Family, FamilyError> {
        let members = if let Some(pattern) = text.strip_prefix("octal:") {
            codes(text, pattern, false)?
        } else if let Some(pattern) = text.strip_prefix("hex:") {
            codes(text, pattern, true)?
        } else if let Some(spec) = text.strip_prefix("subtraction:") {
            // One subtraction game (`subtraction:1,2,5`) is a family of one.
            match subtraction_sets(text, spec) {
                Ok(members) => members,
                Err(err) => vec![lookup(text).map_err(|_| err)?],
            }
        } else if let Ok(game) = lookup(text) {
            // A game of the catalog is a family of one.
            vec![game]
        } else {
            return Err(bad(text, FamilyErrorKind::Form));
        };
        Family::of(text, members)
    }

    /// The members of several families in turn, each game once (where it first appears).
    pub fn join(families: Vec<Family>) -> Family {
        let text = families.iter().map(|f| f.text.as_str()).collect::<Vec<_>>().join(" ");
        let mut seen = std::collections::HashSet::new();
        let members = families
            .into_iter()
            .flat_map(|f| f.members)
            .filter(|game| seen.insert(game.name().to_string()))
            .collect();
        Family { text, members }
    }

    /// The members of a spec template: TOML whose `[parameters]` table maps names to integer
    /// ranges (`k = "1..=20"`, or a single integer), each used as `{name}` in the rest of the
    /// text; every combination of values is a member (the first parameter varies slowest).
    pub fn from_template(text: &str, origin: &str) -> Result<Family, FamilyError> {
        let table: toml::Table =
            text.parse().map_err(|err| bad(origin, FamilyErrorKind::Toml(err)))?;
        let parameters = match table.get("parameters") {
            Some(toml::Value::Table(parameters)) => parameters,
            // A spec without parameters is a family of one.
            None => {
                let game = parse_spec(text, origin)
                    .map_err(|e| bad(origin, FamilyErrorKind::Member(e)))?;
                return Family::of(origin, vec![game]);
            }
            Some(_) => return Err(bad(origin, FamilyErrorKind::NoParameters)),
        };
        let mut ranges: Vec<(String, Vec<i64>)> = Vec::new();
        let mut count: u64 = 1;
        for (name, value) in parameters {
            if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(bad(origin, FamilyErrorKind::ParameterName(name.clone())));
            }
            let (low, high) = match value {
                toml::Value::Integer(v) => (*v, *v),
                toml::Value::String(range) => parse_range(range).ok_or_else(|| {
                    let kind =
                        FamilyErrorKind::ParameterRange { name: name.clone(), text: range.clone() };
                    bad(origin, kind)
                })?,
                other => {
                    let value = other.to_string();
                    return Err(bad(
                        origin,
                        FamilyErrorKind::ParameterValue { name: name.clone(), value },
                    ));
                }
            };
            if low > high {
                let kind = FamilyErrorKind::EmptyRange { name: name.clone(), low, high };
                return Err(bad(origin, kind));
            }
            let len = u64::try_from(high as i128 - low as i128 + 1).unwrap_or(u64::MAX);
            count = count
                .checked_mul(len)
                .filter(|&c| c <= MAX_MEMBERS)
                .ok_or_else(|| bad(origin, FamilyErrorKind::TooMany { what: "members" }))?;
            ranges.push((name.clone(), (low..=high).collect()));
        }
        // The rules are the text without the [parameters] table, with the values put in.
        let body = without_parameters(text);
        let mut members = Vec::new();
        // A survey keys its rows and its partial file by name: every member needs its own.
        let mut labels: std::collections::HashMap<String, String> = Default::default();
        let mut index = vec![0usize; ranges.len()];
        loop {
            let mut spec = body.clone();
            let mut label = Vec::new();
            for ((name, values), &i) in ranges.iter().zip(&index) {
                spec = spec.replace(&format!("{{{name}}}"), &values[i].to_string());
                label.push(format!("{name}={}", values[i]));
            }
            let label = label.join(", ");
            let origin_member = format!("{origin} [{label}]");
            let game = parse_spec(&spec, &origin_member)
                .map_err(|err| bad(origin, FamilyErrorKind::Member(err)))?;
            if let Some(first) = labels.insert(game.name().to_string(), label.clone()) {
                let name = game.name().to_string();
                return Err(bad(origin, FamilyErrorKind::SameName { name, first, second: label }));
            }
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
            return Err(bad(text, FamilyErrorKind::NoMembers));
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
        return Err(bad(family, FamilyErrorKind::NoPoint));
    };
    let slots: Vec<char> = before.chars().chain(after.chars()).collect();
    if before.chars().count() != 1 || after.is_empty() {
        return Err(bad(family, FamilyErrorKind::Digits));
    }
    for c in &slots {
        if *c != '?' && c.to_digit(radix).is_none() {
            return Err(bad(family, FamilyErrorKind::NotADigit { found: *c, hex }));
        }
    }
    let wild = slots.iter().filter(|&&c| c == '?').count() as u32;
    let count = u64::from(radix).checked_pow(wild).filter(|&c| c <= MAX_MEMBERS);
    let Some(count) = count else {
        return Err(bad(family, FamilyErrorKind::TooMany { what: "codes" }));
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
            .ok_or_else(|| bad(family, FamilyErrorKind::NotANumber(text.to_string())))
    };
    let (all_but, size, of) = if let Some(rest) = spec.strip_prefix("all-but-") {
        let (k, m) =
            rest.split_once("-of-").ok_or_else(|| bad(family, FamilyErrorKind::AllButForm))?;
        (true, Some(number(k)?), number(m)?)
    } else if let Some(m) = spec.strip_prefix("any-of-") {
        (false, None, number(m)?)
    } else if let Some((k, m)) = spec.split_once("-of-") {
        (false, Some(number(k)?), number(m)?)
    } else {
        return Err(bad(family, FamilyErrorKind::SubsetForm));
    };
    if size.is_some_and(|k| k > of) {
        return Err(bad(family, FamilyErrorKind::NoSubset { k: size.unwrap_or(0), of }));
    }
    let count = match size {
        Some(k) => binomial(of, k),
        None => 1u64.checked_shl(of as u32).map(|n| n - 1),
    };
    if count.is_none_or(|c| c > MAX_MEMBERS) {
        return Err(bad(family, FamilyErrorKind::TooMany { what: "sets" }));
    }
    let mut members = Vec::new();
    let mut subsets = Vec::new();
    subsets_of(of, size, &mut Vec::new(), 1, &mut subsets);
    for set in subsets {
        let list: Vec<String> = set.iter().map(u64::to_string).collect();
        let game = if all_but {
            let steps = StepSet::from(1)
                .and_then(|s| s.all_but(set.clone()))
                .map_err(|err| bad(family, FamilyErrorKind::Steps(err)))?;
            Game::new(
                &format!("subtraction:all-but:{}", list.join(",")),
                &format!("subtraction game: remove any number of stones but {}", list.join(", ")),
                vec![Axis::new("n", 0)],
                vec![Rule::Jump { directions: vec![vec![-1]], steps }],
            )
            .map_err(|err| bad(family, FamilyErrorKind::Member(err)))?
        } else {
            lookup(&format!("subtraction:{}", list.join(",")))
                .map_err(|err| bad(family, FamilyErrorKind::Member(err)))?
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
