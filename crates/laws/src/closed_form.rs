//! Law search: the closed forms a table suggests, each stated as a `grundy check` claim and
//! checked on every cell of the table before it is reported.
//!
//! Where periodicity ([`crate::grid`], [`crate::periodicity`]) asks whether a table repeats, this
//! room asks what formula it is. Its sources, each a module:
//!
//! - the rules periodicity already found (an outcome rule such as kiki's odd/odd, a lookup of
//!   values on residues);
//! - `synthesis`: the shortest formula over the axes and small constants with
//!   `+ - * / % xor min max abs`, found bottom-up on sample cells (Nim: `xor(a, b)`), and the
//!   shortest equation `s == t` between two small formulas for the P-positions (Nim: `a == b`);
//! - `sums`: a board that is the sum of two heap games, G(x, y) = f(x) ⊕ g(y), with a formula
//!   for each heap game;
//! - `beatty`: P-positions on two mirror rays, (⌊nα⌋, ⌊nα⌋ + k·n), with α recognised exactly
//!   (φ, √2, other quadratic irrationals with small coefficients) and the mex recursion the rays
//!   follow.
//!
//! Every proposal becomes a [`Conjecture`] parsed with the table's axis names and goes through
//! [`crate::conjecture::check`], the code `grundy check` runs: a printed law agrees with every
//! cell, and it is `proved` exactly when that check's proof machinery proves it. The search is
//! one for every play convention: it reads a table's values and its P-positions as the table
//! states them (normal or misère values, a loopy table's outcomes), never the convention.

mod beatty;
mod corner;
pub(crate) mod periodic_rules;
mod pieces;
mod radix;
mod rays;
mod separable;
pub(crate) mod sums;
pub(crate) mod synthesis;

use crate::conjecture::{agreeing, proof_of_agreeing, ClaimKind, Conjecture, Verdict};
use crate::proof::Proof;
use grundy_compute::{Budget, NoProgress, Progress, Seconds, SecondsError};
use grundy_core::Table;
use serde::Serialize;
use std::time::Instant;
use synthesis::Synthesis;

/// A closed form that holds on every cell of a table, as a `grundy check` claim.
#[derive(Clone, Debug, Serialize)]
pub struct Law {
    /// `p-set`, `values` or `holds`: the option of `grundy check` that takes the expression.
    pub kind: ClaimKind,
    /// The claim, exactly as `grundy check --<kind>` takes it.
    pub expression: String,
    /// The law in words.
    pub statement: String,
    /// Where it was checked: every cell of the table, as ranges of the axes.
    pub scope: String,
    /// How it compares with the table (always `agrees`: a law that does not is not reported).
    pub verdict: Verdict,
    /// Whether `grundy check`'s proof machinery proves it for every board, and the argument or
    /// why there is none. JSON: `proved` and `argument`.
    #[serde(flatten)]
    pub proof: Proof,
    /// Which search proposed it: `outcome period`, `values period`, `synthesis`, `period`,
    /// `sum of games`, `sum of the edges`, `digits`, `rays`, `beatty`, `pieces`, `misère corner`.
    pub found_by: &'static str,
    /// The expression's size in nodes ([`grundy_expr::Expr::size`]): laws are ranked by it.
    pub nodes: usize,
    /// Whether the law reads the table's edges (`g_a`, a heap game read from the table): it
    /// names its parts rather than giving their formulas, and ranks after a law that does.
    pub reads_edges: bool,
}

/// How far the search went. JSON: `law_search`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LawSearch {
    /// Formulas tried by the synthesis.
    pub formulas_tried: u64,
    /// The largest formula size (nodes) the synthesis searches.
    pub largest_size: usize,
    /// The size (nodes) up to which the synthesis tried every formula for the values: the
    /// largest size, or less where it found formulas (that the table then refuted) or stopped;
    /// `None` when it did not run (a table of P and N holds no values).
    pub searched_size: Option<usize>,
    /// Where a search stopped before its end, and why; `None` when every search ran to its end.
    pub stopped: Option<String>,
}

/// The laws of a table and how far the search went.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Laws {
    /// The laws: the proved ones first, then the fewest nodes ([`Law::nodes`]).
    pub laws: Vec<Law>,
    /// How far the search went.
    pub law_search: LawSearch,
}

/// How long the law search may take: the synthesis, and the check and proof of every law it
/// proposes (issue 59: the proofs ran past the bound); and the progress it reports to and is
/// stopped through (a view's client that went away, a notebook's interrupt).
#[derive(Clone, Copy)]
pub struct LawOptions<'p> {
    seconds: Seconds,
    proofs: Seconds,
    progress: &'p dyn Progress,
}

impl std::fmt::Debug for LawOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LawOptions")
            .field("seconds", &self.seconds)
            .field("proofs", &self.proofs)
            .finish_non_exhaustive()
    }
}

impl LawOptions<'static> {
    /// The default bound: every search of a 1000 × 1000 board ends well within it on 2 cores.
    pub const DEFAULT_SECONDS: f64 = 10.0;

    /// A search of at most `seconds`; 0 skips it. Nobody stops it before its time
    /// ([`LawOptions::reporting_to`] names who may).
    ///
    /// # Errors
    /// `seconds` is not a finite number from 0 to [`Seconds::MOST`] (NaN, ∞ or negative
    /// included).
    pub fn within(seconds: f64) -> Result<LawOptions<'static>, SecondsError> {
        let seconds = Seconds::new(seconds, "a law search's time bound")?;
        Ok(LawOptions { seconds, proofs: Budget::PROOF_SECONDS, progress: &NoProgress })
    }
}

impl<'p> LawOptions<'p> {
    /// The same search, each proof of the analysis (a period's, an outcome rule's, a law's)
    /// within `proofs` (a law's within what is left of the search's time, too).
    pub fn with_proof_seconds(self, proofs: Seconds) -> LawOptions<'p> {
        LawOptions { proofs, ..self }
    }

    /// The same search and proofs, reporting to `progress` and stopped when it cancels.
    pub fn reporting_to<'q>(self, progress: &'q dyn Progress) -> LawOptions<'q> {
        LawOptions { seconds: self.seconds, proofs: self.proofs, progress }
    }

    /// The bound of the search.
    pub fn seconds(&self) -> Seconds {
        self.seconds
    }

    /// The search's budget, from now.
    fn search_budget(&self) -> Budget<'p> {
        Budget::new(self.seconds, self.progress)
    }

    /// A proof's budget, from now.
    pub fn proof_budget(&self) -> Budget<'p> {
        Budget::new(self.proofs, self.progress)
    }
}

/// The bound in seconds, as a command line takes it back.
impl std::fmt::Display for LawOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.seconds.fmt(f)
    }
}

impl Default for LawOptions<'static> {
    fn default() -> LawOptions<'static> {
        LawOptions::within(LawOptions::DEFAULT_SECONDS).expect("the default is a bound")
    }
}

/// The heaps a heap game's periodic lookup is read from (the law is then checked on all).
const PERIOD_PREFIX: usize = 1 << 16;

/// The fewest values of every coordinate on a table whose laws are proposed.
pub const LEAST_LINES: usize = 8;

/// The largest formula the synthesis builds (nodes) within the default time: `xor(a % 3, b %
/// 3)` has 7.
const LARGEST_FORMULA: usize = 7;

/// The largest formula any time allows: the cap grows by one node each time the search's time
/// doubles past the default's, up to this.
const LARGEST_FORMULA_EVER: usize = 15;

/// The largest formula the synthesis builds within `seconds`: [`LARGEST_FORMULA`] at the
/// default 10 s or less, one node more for each doubling (20 s: 8, 40 s: 9, …). The
/// enumeration grows about tenfold per node, so its deadline, not the cap, usually ends it; the
/// report says which formulas it finished.
fn largest_formula(seconds: f64) -> usize {
    let doublings = (seconds / LawOptions::DEFAULT_SECONDS).log2().floor();
    let more = if doublings.is_finite() && doublings > 0.0 { doublings as usize } else { 0 };
    (LARGEST_FORMULA + more).min(LARGEST_FORMULA_EVER)
}

/// A table as the law search reads it: its axes, and per flat (row-major) cell index its value
/// (when it has values) and whether it is a P-position.
pub(crate) struct Source<'a> {
    pub(crate) described: &'a Table,
    pub(crate) names: Vec<String>,
    pub(crate) mins: Vec<i64>,
    pub(crate) lens: Vec<usize>,
    pub(crate) value: Option<&'a (dyn Fn(usize) -> i64 + Sync)>,
    /// A loopy board's labels as a claim reads `g`: the value, or [`grundy_core::INFINITE_G`]
    /// at ∞ (`None` for a table of values, whose `g` is its value).
    pub(crate) labels: Option<&'a (dyn Fn(usize) -> i64 + Sync)>,
    pub(crate) is_p: &'a (dyn Fn(usize) -> bool + Sync),
    /// Rules periodicity found: (kind, expression, statement, found by).
    pub(crate) rules: Vec<(ClaimKind, String, String, &'static str)>,
}

impl Source<'_> {
    fn coords(&self, flat: usize) -> Vec<i64> {
        let mut pos = vec![0; self.lens.len()];
        let mut rest = flat;
        for d in (0..self.lens.len()).rev() {
            pos[d] = self.mins[d] + (rest % self.lens[d]) as i64;
            rest /= self.lens[d];
        }
        pos
    }

    fn cells(&self) -> usize {
        self.lens.iter().product()
    }

    /// Sample cells: the corner (24 heaps, 8 × 8 cells, or 4 × 4 × 4), then cells spread over
    /// the table by a fixed sequence (the same samples every run).
    fn samples(&self, extra: usize) -> Vec<usize> {
        let side = match self.lens.len() {
            1 => 24,
            2 => 8,
            _ => 4,
        };
        let mut flat: Vec<usize> = vec![0];
        for &len in &self.lens {
            flat = flat
                .into_iter()
                .flat_map(|f| (0..len.min(side)).map(move |x| f * len + x))
                .collect();
        }
        let cells = self.cells();
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..extra {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            flat.push(((state >> 33) % cells as u64) as usize);
        }
        flat.sort_unstable();
        flat.dedup();
        flat
    }

    /// Every cell, as the ranges of the axes.
    fn scope(&self) -> String {
        let ranges: Vec<String> = self
            .names
            .iter()
            .zip(&self.mins)
            .zip(&self.lens)
            .map(|((name, min), len)| format!("{name} = {min}..={}", min + *len as i64 - 1))
            .collect();
        format!("every cell, {}", ranges.join(", "))
    }
}

/// A law proposed, not yet checked.
struct Proposal {
    kind: ClaimKind,
    expression: String,
    statement: String,
    found_by: &'static str,
}

/// Searches `source` for laws, within `options`' time.
pub(crate) fn find_laws(source: &Source<'_>, options: &LawOptions<'_>) -> Laws {
    if source.cells() == 0 {
        return Laws::default();
    }
    if let Some(why) = not_searched(source, options) {
        let law_search = LawSearch { stopped: Some(why), ..LawSearch::default() };
        return Laws { laws: Vec::new(), law_search };
    }
    let budget = options.search_budget();
    // Each law's proof within its own bound and what is left of the search's time.
    let proofs = || options.proof_budget().within(&budget);
    let largest_size = largest_formula(options.seconds.get());
    let mut search = LawSearch { largest_size, ..LawSearch::default() };
    let mut proposals: Vec<Proposal> = source
        .rules
        .iter()
        .map(|(kind, expression, statement, found_by)| Proposal {
            kind: *kind,
            expression: expression.clone(),
            statement: statement.clone(),
            found_by,
        })
        .collect();
    if let Some(value) = source.value {
        proposals.extend(values_proposals(source, value, options, &budget, &mut search));
    }
    if source.lens.len() == 2 {
        // Structure first, the synthesis' equations after: a law both find is named by the
        // last (Nim's `a == b` is the synthesis', though it is also one ray).
        proposals.extend(rays::propose(source));
        proposals.extend(p_equations(source, budget.deadline(), &mut search));
        proposals.extend(beatty::propose(source));
        // A periodic P-set whose rule was written out needs no second reading of its factors.
        if !source.rules.iter().any(|(kind, ..)| *kind == ClaimKind::PSet) {
            proposals.extend(separable::propose(source));
        }
        proposals.extend(pieces::propose(source, budget.deadline(), &mut search));
        proposals.extend(corner::propose(source, budget.deadline(), &mut search));
    }
    let mut laws = check_proposals(source, proposals, &budget, &proofs, &mut search);
    // What a researcher wants first: a law proved for every board, then the shortest.
    laws.sort_by_key(|law| {
        (!law.proof.is_proved(), law.reads_edges, law.nodes, law.expression.clone())
    });
    Laws { laws, law_search: search }
}

/// Why no law is searched for, when none is: a table too thin to tell a law from its edge, or
/// no time at all.
fn not_searched(source: &Source<'_>, options: &LawOptions<'_>) -> Option<String> {
    // On a board of one or two lines along an axis every formula in the other coordinate fits
    // (issue 59: wythoff 1 × 1000, kiki 2 × 2 and others gave laws that failed on a board twice
    // as large), so, as a period must be seen three times, a law needs some lines along every
    // axis.
    let thin = source.names.iter().zip(&source.lens).find(|(_, &lines)| lines < LEAST_LINES);
    if let Some((name, &lines)) = thin {
        return Some(format!(
            "no law is proposed: `{name}` takes {lines} {} on this table, and a law needs at \
             least {LEAST_LINES} of every coordinate to be told from the table's edge",
            if lines == 1 { "value" } else { "values" }
        ));
    }
    // No time at all: no search, and no check of every cell (a pass over the table).
    (options.seconds.get() == 0.0)
        .then(|| "the law search was not run: its time bound is 0 s".to_string())
}

/// The laws the values suggest: the synthesis' candidates (the smallest formulas that give the
/// sample cells), sums of heap games, and a heap game's lookup on residues; all checked with the
/// other proposals.
fn values_proposals(
    source: &Source<'_>,
    value: &(dyn Fn(usize) -> i64 + Sync),
    options: &LawOptions<'_>,
    budget: &Budget<'_>,
    search: &mut LawSearch,
) -> Vec<Proposal> {
    let deadline = budget.deadline();
    let samples = source.samples(64);
    let points: Vec<Vec<i64>> = samples.iter().map(|&f| source.coords(f)).collect();
    let target: Vec<i64> = samples.iter().map(|&f| value(f)).collect();
    let mut synthesis = Synthesis::new(&source.names, &points);
    let found = synthesis.find(&target, search.largest_size, deadline);
    search.formulas_tried += found.tried;
    search.searched_size = Some(found.searched);
    if let Some(stopped) = &found.stopped {
        let why = if stopped.bank_full {
            "the formulas to build larger ones from fill its memory bound".to_string()
        } else {
            format!("its time ({} s) ran out", options.seconds)
        };
        search.stopped = Some(format!(
            "the values' formula search stopped after every formula of up to {} nodes and {} \
             formulas in all: {why}",
            stopped.complete, stopped.tried
        ));
    }
    // The samples are only a filter: each candidate is checked on every cell.
    let mut proposals: Vec<Proposal> = found
        .candidates
        .into_iter()
        .map(|expression| Proposal {
            kind: ClaimKind::Values,
            statement: format!("the value is {expression}"),
            expression,
            found_by: "synthesis",
        })
        .collect();
    if source.lens.len() >= 2 {
        proposals.extend(sums::propose(source, value, deadline, search));
    }
    if proposals.is_empty() {
        // No formula of the synthesis' size: try the values as digits, each found alone.
        proposals.extend(radix::propose(&source.names, &points, &target, deadline, search));
    }
    if let ([len], [name], [min]) = (&source.lens[..], &source.names[..], &source.mins[..]) {
        // A heap game periodic from its start, with no short formula (misère subtraction
        // {1, 2, 3}: 1, 0, 2, 3, ...): its values as a lookup on the residues. Found on a
        // prefix, checked with the other proposals on every heap.
        let prefix: Vec<i64> = (0..(*len).min(PERIOD_PREFIX)).map(value).collect();
        let lookup = sums::lookup(name, *min, &prefix);
        if let Some(expression) = lookup.filter(|e| !proposals.iter().any(|p| &p.expression == e)) {
            let statement = format!("the values repeat by residue: {expression}");
            proposals.push(Proposal {
                kind: ClaimKind::Values,
                expression,
                statement,
                found_by: "period",
            });
        }
    }
    proposals
}

/// The cells a proposal must agree on before it is checked on every cell.
const FILTER_CELLS: usize = 4096;

/// Checks `proposals` on every cell of the table, all in one pass, and keeps, from each search,
/// the first of each kind that holds (the same law found twice says both), each with its proof
/// within what is left of the search's `budget`.
fn check_proposals<'p>(
    source: &Source<'_>,
    proposals: Vec<Proposal>,
    budget: &Budget<'_>,
    proofs: &dyn Fn() -> Budget<'p>,
    search: &mut LawSearch,
) -> Vec<Law> {
    // Each expression once, with every search that proposed it (the last one names it).
    let mut unique: Vec<(Proposal, Vec<&'static str>)> = Vec::new();
    for proposal in proposals {
        let same = unique.iter_mut().find(|(u, _)| u.expression == proposal.expression);
        if let Some((same, by)) = same {
            // Two searches found the same law: say both (Nim's xor is also a sum of games).
            same.statement = format!("{}; {}", same.statement, proposal.statement);
            same.found_by = proposal.found_by;
            by.push(proposal.found_by);
        } else {
            let by = vec![proposal.found_by];
            unique.push((proposal, by));
        }
    }
    let names: Vec<&str> = source.names.iter().map(String::as_str).collect();
    // Most proposals that fail, fail on a few thousand cells spread over the table: those are
    // tried first, and only the survivors go through the pass over every cell.
    let filter = source.samples(FILTER_CELLS);
    let (proposals, claims): (Vec<_>, Vec<Conjecture>) = unique
        .into_iter()
        .filter_map(|(proposal, by)| {
            let claim = Conjecture::parse(proposal.kind, &proposal.expression, &names).ok()?;
            let agrees = filter.iter().all(|&f| {
                let value = source.value.or(source.labels).map(|g| g(f)).filter(|&g| g >= 0);
                claim.agrees_at(&source.coords(f), value, (source.is_p)(f))
            });
            agrees.then_some(((proposal, by), claim))
        })
        .unzip();
    let holds = match agreeing(source.described, &claims, budget) {
        Ok(holds) => holds,
        Err(spent) => {
            search.stopped = Some(format!("the laws' checks and proofs stopped: {spent}"));
            return Vec::new();
        }
    };
    let mut laws: Vec<Law> = Vec::new();
    let mut answered: Vec<(ClaimKind, &'static str)> = Vec::new();
    let agreeing = proposals.into_iter().zip(claims).zip(holds).filter(|(_, holds)| *holds);
    for (((proposal, by), claim), _) in agreeing {
        let Proposal { kind, expression, statement, found_by } = proposal;
        // One law per kind from each search: the first (the shortest) that holds. A heap
        // game's lookup stands beside the synthesis' formula: it may be shorter (`n % 6`, a
        // constant the synthesis builds only as `1 + min(n, 5)`) and is proved by the period.
        let covered = |search: &&'static str| answered.contains(&(kind, *search));
        if by.iter().any(covered) {
            continue;
        }
        answered.extend(by.iter().map(|search| (kind, *search)));
        if let Some(spent) = budget.spent() {
            search
                .stopped
                .get_or_insert_with(|| format!("the laws' checks and proofs stopped: {spent}"));
            break;
        }
        // Its proof within what is left of the search's time (issue 59: a spec of 7320 step
        // offsets proved its laws for 66-149 s under a bound of 1 s).
        let certificate = proof_of_agreeing(source.described, &claim, &proofs());
        laws.push(Law {
            kind,
            expression,
            statement,
            scope: source.scope(),
            verdict: Verdict::Agrees,
            proof: certificate.proof,
            found_by,
            nodes: claim.size(),
            reads_edges: claim.reads_edges(),
        });
    }
    laws
}

/// The P-positions as one equation `s == t` between two formulas of at most three nodes (Nim:
/// `a == b`), found on sample cells that hold P-positions and others.
fn p_equations(source: &Source<'_>, deadline: Instant, search: &mut LawSearch) -> Vec<Proposal> {
    let cells = source.cells();
    let mut samples: Vec<usize> = (0..cells).filter(|&f| (source.is_p)(f)).take(24).collect();
    if samples.is_empty() {
        return Vec::new();
    }
    samples.extend(source.samples(40));
    samples.sort_unstable();
    samples.dedup();
    let points: Vec<Vec<i64>> = samples.iter().map(|&f| source.coords(f)).collect();
    let truth: Vec<bool> = samples.iter().map(|&f| (source.is_p)(f)).collect();
    let mut synthesis = Synthesis::new(&source.names, &points);
    let bank = synthesis.bank(3, deadline);
    search.formulas_tried += bank.len() as u64 * bank.len() as u64 / 2;
    let mut found = Vec::new();
    for (k, (left, left_values)) in bank.iter().enumerate() {
        for (right, right_values) in &bank[k + 1..] {
            let agrees =
                left_values.iter().zip(right_values).zip(&truth).all(|((l, r), &t)| (l == r) == t);
            if agrees {
                found.push(format!("{left} == {right}"));
            }
        }
    }
    found.sort_by_key(|f| (f.len(), f.clone()));
    found
        .into_iter()
        .take(4)
        .map(|expression| Proposal {
            kind: ClaimKind::PSet,
            statement: format!("the P-positions are exactly the cells where {expression}"),
            expression,
            found_by: "synthesis",
        })
        .collect()
}

#[cfg(test)]
mod tests;
