//! Spec files: games stated in TOML.
//!
//! ```toml
//! name = "kiki"
//! description = "move a coin one cell left, down or diagonally left-down (HDU 2147)"
//! axes = [{ name = "n", min = 1 }, { name = "m", min = 1 }]
//!
//! [[rules]]
//! kind = "step"
//! offsets = [[-1, 0], [0, -1], [-1, -1]]
//! ```
//!
//! Rule kinds and their fields:
//! - `step`: `offsets`, a list of offsets (one integer per axis);
//! - `jump`: `directions` and `steps`: a list `[2, 5]`, a range `"1..=4"` or a named set
//!   (`"primes"`, `"squares"`, `"fibonacci"`, `"powers-of-two"`, `"triangular"`); optionally
//!   `all-but`, a list of amounts to leave out;
//! - `slide`: `directions`, optionally `max`, the largest distance;
//! - `split`: `axis` (a name), `min-piece`, optionally `unequal = true`;
//! - `take-and-break`: `code`, e.g. `"0.77"`; hexadecimal digits allow three-heap moves (bit 8).
//!
//! An axis may be bounded, `{ name = "x", min = 0, max = 11 }`: a move may raise a coordinate
//! only on a bounded axis, and a game with such a move is *loopy* (play may go round in
//! circles; its values are generalized Sprague–Grundy values over the whole bounded board).
//!
//! A top-level `play = "misere"` states the game under misère play (the last mover loses);
//! `play = "normal"` is the default. A top-level `terminal = "a + b <= 1"` names the positions
//! where no move starts, by a condition over the axes' names in the claim language.
//!
//! Every error names the rule (counted from 1) and the field, and fits on one line.

use super::{Axis, Coord, Game, NamedSet, OctalCode, Rule, StepSet};
use crate::error::ModelError;
use crate::play::Play;
use std::fmt::Write as _;
use toml::{Table, Value};

/// Parses the spec in `text`. `origin` (a file name, usually) starts every error message.
pub fn parse_spec(text: &str, origin: &str) -> Result<Game, ModelError> {
    let error = |detail: String| ModelError::Spec { origin: origin.to_string(), detail };
    if text.len() as u64 > SPEC_LIMIT_BYTES {
        return Err(error(format!(
            "it is larger than {} MiB; a spec is a few lines",
            SPEC_LIMIT_BYTES >> 20
        )));
    }
    let (name, description, axes, rules, play, terminal) = parse_parts(text).map_err(error)?;
    let game = Game::new(&name, &description, axes, rules)
        .map_err(|e| error(e.to_string()))?
        .with_play(play);
    match terminal {
        Some(terminal) => game.with_terminal(&terminal).map_err(|e| error(e.to_string())),
        None => Ok(game),
    }
}

/// The most bytes a spec may have: a spec is a few lines (the longest step lists in use are a few
/// MB), and a path such as `/dev/zero` must not be read until memory runs out. Every front end
/// reads at most one byte more than this, and [`parse_spec`] refuses a longer text.
pub const SPEC_LIMIT_BYTES: u64 = 16 << 20;

/// The name, description, axes and rules of a spec, checked for form but not yet as a game.
/// A spec's parts: name, description, axes, rules, play convention and terminal condition.
type Parts = (String, String, Vec<Axis>, Vec<Rule>, Play, Option<String>);

fn parse_parts(text: &str) -> Result<Parts, String> {
    let table: Table = text.parse().map_err(|e: toml::de::Error| syntax_error(text, &e))?;
    let mut top = Fields::new(&table, String::new());
    let name = top.string("name")?.ok_or_else(|| top.problem("name", "is missing"))?.to_string();
    if name.chars().any(char::is_control) {
        // A name is printed in tables, reports and on terminals (issue 28: ESC sequences).
        let shown: String = name.chars().flat_map(char::escape_default).take(60).collect();
        return Err(top.problem("name", format!("`{shown}` holds control characters")));
    }
    let description = top.string("description")?.unwrap_or_default().to_string();
    let play = match top.string("play")? {
        None => Play::Normal,
        Some(text) => text.parse().map_err(|e| top.problem("play", e))?,
    };
    let axes = top.axes()?;
    let rules = top
        .array("rules")?
        .ok_or_else(|| top.problem("rules", "is missing: a game needs move rules"))?;
    let rules = rules
        .iter()
        .enumerate()
        .map(|(index, rule)| parse_rule(index + 1, rule, &axes))
        .collect::<Result<Vec<Rule>, String>>()?;
    let terminal = top.string("terminal")?.map(str::to_string);
    top.finish()?;
    Ok((name, description, axes, rules, play, terminal))
}

/// A one-line TOML syntax error with its line and column.
fn syntax_error(text: &str, err: &toml::de::Error) -> String {
    let message = err.message().trim().replace('\n', "; ");
    match err.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("TOML syntax error at line {line}, column {column}: {message}")
        }
        None => format!("TOML syntax error: {message}"),
    }
}

fn parse_rule(number: usize, value: &Value, axes: &[Axis]) -> Result<Rule, String> {
    let Some(table) = value.as_table() else {
        return Err(format!(
            "rule {number}: a rule is a table such as {{ kind = \"step\", offsets = [[-1]] }}"
        ));
    };
    let kind = match table.get("kind") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(_) => return Err(format!("rule {number}, field `kind`: must be a string")),
        None => return Err(format!("rule {number}, field `kind`: is missing")),
    };
    let mut fields = Fields::new(table, format!("rule {number} ({kind})"));
    fields.used.push("kind");
    let rule = match kind {
        "step" => Rule::Step { offsets: fields.vectors("offsets")? },
        "jump" => {
            let directions = fields.vectors("directions")?;
            let mut steps = fields.step_set("steps")?;
            if let Some(exceptions) = fields.exceptions("all-but")? {
                steps = steps.all_but(exceptions).map_err(|e| fields.problem("all-but", e))?;
            }
            Rule::Jump { directions, steps }
        }
        "slide" => {
            let directions = fields.vectors("directions")?;
            let max = fields.integer("max")?.map(|m| fields.positive("max", m)).transpose()?;
            Rule::Slide { directions, max }
        }
        "split" => {
            let axis_name = fields.string("axis")?.ok_or_else(|| fields.problem("axis", "is missing"))?;
            let axis = axes.iter().position(|a| a.name == axis_name).ok_or_else(|| {
                let names: Vec<&str> = axes.iter().map(|a| a.name.as_str()).collect();
                fields.problem("axis", format!("no axis `{axis_name}` (the axes are {})", names.join(", ")))
            })?;
            let min_piece = fields.integer("min-piece")?.unwrap_or(1);
            let unequal = fields.boolean("unequal")?.unwrap_or(false);
            Rule::Split { axis, min_piece, unequal }
        }
        "take-and-break" => {
            let code = fields.string("code")?.ok_or_else(|| fields.problem("code", "is missing"))?;
            Rule::TakeAndBreak { code: OctalCode::parse_hex(code).map_err(|e| fields.problem("code", e))? }
        }
        other => {
            return Err(format!(
                "rule {number}, field `kind`: unknown rule kind `{}` (known: step, jump, slide, split, take-and-break)",
                other.escape_debug()
            ))
        }
    };
    fields.finish()?;
    Ok(rule)
}

/// Reads the fields of one table, naming the place and the field in every error and refusing
/// fields nobody read.
struct Fields<'a> {
    table: &'a Table,
    place: String,
    used: Vec<&'a str>,
}

impl<'a> Fields<'a> {
    fn new(table: &'a Table, place: String) -> Fields<'a> {
        Fields { table, place, used: Vec::new() }
    }

    fn problem(&self, field: &str, reason: impl std::fmt::Display) -> String {
        if self.place.is_empty() {
            format!("field `{field}`: {reason}")
        } else {
            format!("{}, field `{field}`: {reason}", self.place)
        }
    }

    fn get(&mut self, field: &'a str) -> Option<&'a Value> {
        self.used.push(field);
        self.table.get(field)
    }

    fn string(&mut self, field: &'a str) -> Result<Option<&'a str>, String> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => {
                Err(self.problem(field, format!("must be a string, not {}", other.type_str())))
            }
        }
    }

    fn integer(&mut self, field: &'a str) -> Result<Option<i64>, String> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::Integer(i)) => Ok(Some(*i)),
            Some(other) => {
                Err(self.problem(field, format!("must be an integer, not {}", other.type_str())))
            }
        }
    }

    fn boolean(&mut self, field: &'a str) -> Result<Option<bool>, String> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::Boolean(b)) => Ok(Some(*b)),
            Some(other) => {
                Err(self.problem(field, format!("must be true or false, not {}", other.type_str())))
            }
        }
    }

    fn array(&mut self, field: &'a str) -> Result<Option<&'a Vec<Value>>, String> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::Array(items)) => Ok(Some(items)),
            Some(other) => {
                Err(self.problem(field, format!("must be a list, not {}", other.type_str())))
            }
        }
    }

    fn positive(&self, field: &str, value: i64) -> Result<u64, String> {
        u64::try_from(value)
            .ok()
            .filter(|&v| v >= 1)
            .ok_or_else(|| self.problem(field, format!("{value} is not >= 1")))
    }

    /// A list of integer vectors, e.g. `[[-1, 0], [0, -1]]`. Lengths are checked by the model.
    fn vectors(&mut self, field: &'a str) -> Result<Vec<Vec<Coord>>, String> {
        let items = self.array(field)?.ok_or_else(|| self.problem(field, "is missing"))?;
        let shape = "must be a list of integer lists such as [[-1, 0], [0, -1]]";
        items
            .iter()
            .map(|item| {
                let coords = item.as_array().ok_or_else(|| self.problem(field, shape))?;
                coords
                    .iter()
                    .map(|c| c.as_integer().ok_or_else(|| self.problem(field, shape)))
                    .collect::<Result<Vec<Coord>, String>>()
            })
            .collect()
    }

    /// A list of amounts ≥ 1.
    fn amounts(&mut self, field: &'a str) -> Result<Option<Vec<u64>>, String> {
        let Some(items) = self.array(field)? else { return Ok(None) };
        let amounts = items
            .iter()
            .map(|item| match item.as_integer() {
                Some(i) => self.positive(field, i),
                None => Err(self.problem(field, "must be a list of integers")),
            })
            .collect::<Result<Vec<u64>, String>>()?;
        Ok(Some(amounts))
    }

    /// Amounts left out of a step set: a list, or a range such as `"3..=5"` as `steps` takes.
    fn exceptions(&mut self, field: &'a str) -> Result<Option<Vec<u64>>, String> {
        let Some(Value::String(text)) = self.table.get(field) else { return self.amounts(field) };
        self.used.push(field);
        let not_range = || {
            self.problem(
                field,
                format!("`{text}` is neither a list such as [2, 5] nor a range such as \"3..=5\""),
            )
        };
        let (low, high) = text.split_once("..=").ok_or_else(not_range)?;
        let low: u64 = low.trim().parse().map_err(|_| not_range())?;
        let high: u64 = high.trim().parse().map_err(|_| not_range())?;
        if low == 0 || low > high {
            return Err(
                self.problem(field, format!("`{text}` must run from 1 up to a larger amount"))
            );
        }
        // Left out one by one: as many as a list of amounts in a spec file could name.
        const MOST: u64 = 1 << 22;
        if high - low >= MOST {
            return Err(
                self.problem(field, format!("`{text}` leaves out more than {MOST} amounts"))
            );
        }
        Ok(Some((low..=high).collect()))
    }

    fn step_set(&mut self, field: &'a str) -> Result<StepSet, String> {
        let named: Vec<&str> = NamedSet::ALL.iter().map(|s| s.name()).collect();
        let help = format!(
            "a list such as [2, 5], a range such as \"1..=4\" or \"2..\" or one of {}",
            named.join(", ")
        );
        match self.table.get(field) {
            None => Err(self.problem(field, format!("is missing: give {help}"))),
            Some(Value::Array(_)) => {
                let amounts = self.amounts(field)?.unwrap_or_default();
                StepSet::list(amounts).map_err(|e| self.problem(field, e))
            }
            Some(Value::String(text)) => {
                self.used.push(field);
                if let Some((low, high)) = text.split_once("..=") {
                    let bound = |t: &str| {
                        t.trim().parse::<u64>().map_err(|_| {
                            self.problem(
                                field,
                                format!("`{text}` is not a range such as \"1..=4\""),
                            )
                        })
                    };
                    return StepSet::range(bound(low)?, bound(high)?)
                        .map_err(|e| self.problem(field, e));
                }
                if let Some(low) = text.strip_suffix("..") {
                    let low = low.trim().parse::<u64>().map_err(|_| {
                        self.problem(field, format!("`{text}` is not a range such as \"2..\""))
                    })?;
                    return StepSet::from(low).map_err(|e| self.problem(field, e));
                }
                NamedSet::from_name(text).map(StepSet::named).ok_or_else(|| {
                    self.problem(
                        field,
                        format!("unknown named set `{text}` (known: {})", named.join(", ")),
                    )
                })
            }
            Some(other) => {
                Err(self.problem(field, format!("must be {help}, not {}", other.type_str())))
            }
        }
    }

    fn axes(&mut self) -> Result<Vec<Axis>, String> {
        let items = self.array("axes")?.ok_or_else(|| self.problem("axes", "is missing"))?;
        let shape = "must be a list of tables such as { name = \"n\", min = 0 }";
        items
            .iter()
            .map(|item| {
                let table = item.as_table().ok_or_else(|| self.problem("axes", shape))?;
                let mut fields = Fields::new(table, "axes".to_string());
                let name =
                    fields.string("name")?.ok_or_else(|| fields.problem("name", "is missing"))?;
                let min = fields.integer("min")?.unwrap_or(0);
                if min < 0 {
                    return Err(fields.problem(
                        "min",
                        format!("{min} is negative; coordinates start at 0 or above"),
                    ));
                }
                if min >= crate::game::COORD_LIMIT {
                    return Err(fields.problem(
                        "min",
                        format!(
                            "{min} is too large: an axis must start below 2^31 = {}",
                            1u64 << 31
                        ),
                    ));
                }
                let max = fields.integer("max")?;
                if let Some(max) = max {
                    if max < min || max >= crate::game::COORD_LIMIT {
                        return Err(fields.problem(
                            "max",
                            format!("{max} must lie between the axis' `min` ({min}) and 2^31 - 1"),
                        ));
                    }
                }
                fields.finish()?;
                Ok(Axis { max, ..Axis::new(name, min) })
            })
            .collect()
    }

    fn finish(self) -> Result<(), String> {
        match self.table.keys().find(|key| !self.used.contains(&key.as_str())) {
            Some(key) => Err(self.problem(key, "unknown field")),
            None => Ok(()),
        }
    }
}

/// Writes `game` as a spec that [`parse_spec`] reads back to the same game.
pub fn to_spec(game: &Game) -> String {
    let mut out = String::new();
    let quote = |s: &str| Value::String(s.to_string()).to_string();
    let vectors = |vs: &[Vec<Coord>]| {
        let items: Vec<String> = vs
            .iter()
            .map(|v| format!("[{}]", v.iter().map(Coord::to_string).collect::<Vec<_>>().join(", ")))
            .collect();
        format!("[{}]", items.join(", "))
    };
    let _ = writeln!(out, "name = {}", quote(game.name()));
    let _ = writeln!(out, "description = {}", quote(game.description()));
    let axes: Vec<String> = game
        .axes()
        .iter()
        .map(|a| match a.max {
            Some(max) => format!("{{ name = {}, min = {}, max = {max} }}", quote(&a.name), a.min),
            None => format!("{{ name = {}, min = {} }}", quote(&a.name), a.min),
        })
        .collect();
    let _ = writeln!(out, "axes = [{}]", axes.join(", "));
    if game.play() != Play::Normal {
        let _ = writeln!(out, "play = \"{}\"", game.play());
    }
    if let Some(terminal) = game.terminal() {
        let _ = writeln!(out, "terminal = {}", quote(terminal.text()));
    }
    for rule in game.rules() {
        let _ = writeln!(out, "\n[[rules]]\nkind = \"{}\"", rule.kind());
        let _ = match rule {
            Rule::Step { offsets } => writeln!(out, "offsets = {}", vectors(offsets)),
            Rule::Jump { directions, steps } => {
                let _ = writeln!(out, "directions = {}\nsteps = {steps}", vectors(directions));
                if steps.exceptions().is_empty() {
                    Ok(())
                } else {
                    let list: Vec<String> = steps.exceptions().iter().map(u64::to_string).collect();
                    writeln!(out, "all-but = [{}]", list.join(", "))
                }
            }
            Rule::Slide { directions, max } => {
                let _ = writeln!(out, "directions = {}", vectors(directions));
                max.map_or(Ok(()), |m| writeln!(out, "max = {m}"))
            }
            Rule::Split { axis, min_piece, unequal } => writeln!(
                out,
                "axis = {}\nmin-piece = {min_piece}{}",
                quote(&game.axes()[*axis].name),
                if *unequal { "\nunequal = true" } else { "" }
            ),
            Rule::TakeAndBreak { code } => writeln!(out, "code = \"{code}\""),
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIKI: &str = r#"
name = "kiki"
axes = [{ name = "n", min = 1 }, { name = "m", min = 1 }]

[[rules]]
kind = "step"
offsets = [[-1, 0], [0, -1], [-1, -1]]
"#;

    #[test]
    fn parses_a_spec() {
        let game = parse_spec(KIKI, "kiki.toml").unwrap();
        assert_eq!(game.axes(), &[Axis::new("n", 1), Axis::new("m", 1)]);
        assert_eq!(
            game.rules(),
            &[Rule::Step { offsets: vec![vec![-1, 0], vec![0, -1], vec![-1, -1]] }]
        );
    }

    #[test]
    fn every_rule_kind_round_trips() {
        let text = r#"
name = "everything"
description = "a \"test\" game"
axes = [{ name = "x", min = 0 }, { name = "y", min = 2 }]

[[rules]]
kind = "jump"
directions = [[-1, 0]]
steps = "primes"
all-but = [2]

[[rules]]
kind = "jump"
directions = [[0, -1], [-1, -1]]
steps = "2..=5"

[[rules]]
kind = "jump"
directions = [[0, -1]]
steps = [7, 3]

[[rules]]
kind = "jump"
directions = [[-1, 0]]
steps = "3.."
all-but = [5]

[[rules]]
kind = "slide"
directions = [[-2, -1]]
max = 3

[[rules]]
kind = "split"
axis = "y"
min-piece = 2
unequal = true
"#;
        let game = parse_spec(text, "t.toml").unwrap();
        assert_eq!(parse_spec(&to_spec(&game), "again").unwrap(), game);
        let heap = parse_spec(
            "name = \"h\"\naxes = [{ name = \"n\" }]\n[[rules]]\nkind = \"take-and-break\"\ncode = \"4.8f\"\n",
            "h.toml",
        )
        .unwrap();
        assert_eq!(parse_spec(&to_spec(&heap), "again").unwrap(), heap);
    }

    /// Each validation error names the file, the rule and the field.
    #[test]
    fn errors_name_the_file_the_rule_and_the_field() {
        let rule = |body: &str| {
            format!("name = \"t\"\naxes = [{{ name = \"n\", min = 1 }}, {{ name = \"m\", min = 1 }}]\n[[rules]]\n{body}\n")
        };
        let cases = [
            (rule("kind = \"hop\""), "t.toml: rule 1, field `kind`: unknown rule kind `hop`"),
            (rule("kind = \"jump\"\ndirections = [[-1, 0]]\nsteps = \"evens\""), "t.toml: rule 1 (jump), field `steps`: unknown named set `evens` (known: primes, squares, fibonacci, powers-of-two, triangular)"),
            (rule("kind = \"step\"\noffsets = [[1, 0]]"), "t.toml: rule 1 (step), field `offsets`: offset [1, 0] raises axis `n`, which has no `max`"),
            (rule("kind = \"step\"\noffsets = [[-1, 1]]"), "t.toml: rule 1 (step), field `offsets`: offset [-1, 1] raises axis `m`, which has no `max`"),
            ("name = \"t\"\naxes = [{ name = \"n\", min = 4, max = 2 }]\n[[rules]]\nkind = \"step\"\noffsets = [[-1]]\n".to_string(), "t.toml: axes, field `max`: 2 must lie between the axis' `min` (4) and 2^31 - 1"),
            (rule("kind = \"slide\"\ndirections = [[0, 0]]"), "t.toml: rule 1 (slide), field `directions`: direction [0, 0] is zero"),
            (rule("kind = \"jump\"\ndirections = [[-1, 0]]\nsteps = []"), "t.toml: rule 1 (jump), field `steps`: the step set is empty"),
            (rule("kind = \"jump\"\ndirections = [[-1, 0]]\nsteps = [1]\nall-but = [1]"), "t.toml: rule 1 (jump), field `all-but`: the step set is empty"),
            (rule("kind = \"step\"\noffsets = [[-1]]"), "t.toml: rule 1 (step), field `offsets`: offset [-1] has 1 coordinate but the game has 2 axes"),
            (rule("kind = \"split\"\naxis = \"z\""), "t.toml: rule 1 (split), field `axis`: no axis `z` (the axes are n, m)"),
            (rule("kind = \"take-and-break\"\ncode = \"0.g\""), "t.toml: rule 1 (take-and-break), field `code`: `g` in `0.g` is not a digit"),
            (rule("kind = \"step\"\noffsets = [[-1, 0]]\ncolour = \"red\""), "t.toml: rule 1 (step), field `colour`: unknown field"),
            (rule("kind = \"slide\"\ndirections = [[-1, 0]]\nmax = 0"), "t.toml: rule 1 (slide), field `max`: 0 is not >= 1"),
            ("name = \"t\"\naxes = [{ name = \"n\" }]\n[[rules]\nkind = \"step\"\n".to_string(), "t.toml: TOML syntax error at line 3, column"),
            ("axes = [{ name = \"n\" }]\n".to_string(), "t.toml: field `name`: is missing"),
            (rule("kind = \"jump\"\ndirections = [[-1, 0]]\nsteps = \"0..\""), "t.toml: rule 1 (jump), field `steps`: a step range must start at 1 or more"),
            (rule("kind = \"jump\"\ndirections = [[-1, 0]]\nsteps = \"x..\""), "t.toml: rule 1 (jump), field `steps`: `x..` is not a range such as \"2..\""),
            ("name = \"t\"\naxes = [{ name = \"n\", min = 4000000000 }]\n[[rules]]\nkind = \"step\"\noffsets = [[-1]]\n".to_string(), "t.toml: axes, field `min`: 4000000000 is too large: an axis must start below 2^31 = 2147483648"),
            ("name = \"t\"\naxes = [{ name = \"n\", min = -2 }]\n[[rules]]\nkind = \"step\"\noffsets = [[-1]]\n".to_string(), "t.toml: axes, field `min`: -2 is negative; coordinates start at 0 or above"),
        ];
        for (text, expected) in cases {
            let message = parse_spec(&text, "t.toml").unwrap_err().to_string();
            assert!(
                message.starts_with(expected),
                "\n{text}\ngave    {message}\nwanted  {expected}"
            );
            assert!(!message.contains('\n'), "{message}");
        }
    }
}
