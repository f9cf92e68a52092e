//! The work of a claim's proof, counted before the proof runs (issue 59: a claim light to check
//! on a small table made the view prove it over a 49 M-cell box, outside its cost guard).

use grundy_compute::{FillRequest, NoProgress};
use grundy_core::{lookup, Table, TableShape};
use grundy_laws::conjecture::{proof_work, ClaimKind, Conjecture, AUTOMATA_WORK};

fn kiki(size: i64) -> Table {
    let game = lookup("kiki").unwrap();
    let shape = TableShape::from_axes(game.axes().to_vec(), vec![size, size]);
    let table = FillRequest::new(&game, &shape)
        .table(&grundy_compute::memory::Besides::NOTHING)
        .unwrap()
        .fill(&NoProgress)
        .unwrap();
    Table::of_game(game, table)
}

fn work(table: &Table, kind: ClaimKind, claim: &str) -> u128 {
    proof_work(table, &Conjecture::parse(kind, claim, &["n", "m"]).unwrap())
}

#[test]
fn a_light_check_may_ask_for_a_heavy_proof() {
    let table = kiki(100);
    let claim = "n % 2 == 1 && m % 2 == 1 || (n + m) % 7000 == 9999";
    let size = Conjecture::parse(ClaimKind::PSet, claim, &["n", "m"]).unwrap().size() as u128;
    let check = table.data().len() as u128 * size;
    // Light to check: what the view answers without a heavy turn (2^25).
    assert!(check < 1 << 25, "the check is light: {check}");
    // The box of the form's period: 7001 × 7001 cells, each with kiki's three options and itself.
    assert_eq!(work(&table, ClaimKind::PSet, claim), 7001 * 7001 * 4 * size);
    // Kiki's own rule: a box of 3 × 3.
    let rule = "n % 2 == 1 && m % 2 == 1";
    let size = Conjecture::parse(ClaimKind::PSet, rule, &["n", "m"]).unwrap().size() as u128;
    assert_eq!(work(&table, ClaimKind::PSet, rule), 9 * 4 * size);
}

#[test]
fn no_work_where_no_proof_runs() {
    let table = kiki(20);
    // A claim about the values themselves, a table without its game.
    assert_eq!(work(&table, ClaimKind::Holds, "g == 0 || g > 0"), 0);
    let bare = Table::without_game(table.data().clone(), table.kind(), "a file");
    assert_eq!(work(&bare, ClaimKind::PSet, "n % 2 == 1 && m % 2 == 1"), 0);
    // Boxes past the most a proof checks are not checked: no work.
    assert_eq!(work(&table, ClaimKind::PSet, "(n + m) % 100000 == 1"), 0);
}

/// A claim that no box covers goes to the automata (issue 61): counted per operation of the
/// claim, so a short claim is a light turn in the view and a long one a heavy turn.
#[test]
fn a_claim_beyond_the_box_counts_the_automata() {
    let table = kiki(20);
    let short = "n < 1000 && n % 2 == 1 && m % 2 == 1";
    let size = Conjecture::parse(ClaimKind::PSet, short, &["n", "m"]).unwrap().size() as u128;
    assert_eq!(work(&table, ClaimKind::PSet, short), AUTOMATA_WORK * size);
    assert!(AUTOMATA_WORK * size < 1 << 25, "a light turn in the view");
    let long = format!("{short}{}", " && n + m < 1000".repeat(4));
    assert!(work(&table, ClaimKind::PSet, &long) > 1 << 25, "a heavy turn in the view");
}
