//! The shipped index of known games (`data/known-games.jsonl.gz`) against the games recomputed
//! here with the reference fill (options spelt out, one mex per position): a sample of its
//! classes, every member of them, on the values stored and, for a proved law, far past them.

use grundy_catalog::identify::{Index, Line, INDEX_FORMAT};
use grundy_catalog::survey::Equivalence;
use grundy_compute::fill_reference;
use grundy_core::{lookup, Coord, TableShape};

/// A heap game's first `len` values by the reference fill.
fn reference(game: &str, len: usize) -> Option<Vec<u32>> {
    let game = lookup(game).ok()?;
    if game.dims() != 1 {
        return None;
    }
    let min = game.axes()[0].min;
    let max = min + len as Coord - 1;
    let shape = TableShape::new(&game, &[max], &max.to_string()).ok()?;
    Some(fill_reference(&game, &shape).cells().to_u32_vec())
}

#[test]
fn the_shipped_index_holds_what_the_games_compute() {
    let index = Index::builtin();
    assert_eq!(index.header.grundy_index, INDEX_FORMAT);
    assert_eq!(index.header.classes, index.entries.len());
    assert!(index.entries.len() > 1500, "{} classes", index.entries.len());
    let members: usize = index.entries.iter().map(|e| e.members.len()).sum();
    assert_eq!(members, index.header.members);
    // Every 50th class, and the classes of the games the tests and the README name.
    let named = ["octal:0.07", "octal:0.77", "octal:0.26", "octal:0.137", "subtraction:1,2"];
    let sample =
        index.entries.iter().enumerate().filter(|(i, e)| {
            i % 50 == 0 || e.members.iter().any(|m| named.contains(&m.game.as_str()))
        });
    let mut checked = 0;
    for (_, entry) in sample {
        let seq = &entry.sequence;
        // As far as the stored values reach, and for a law twice as far again.
        let stored = seq.values.len().min(300);
        let len = if seq.law.is_some() { 2 * stored.max(150) } else { stored };
        for member in &entry.members {
            let len = match member.equivalence {
                Equivalence::AgreeUpTo(n) => len.min(n),
                _ => len,
            };
            let Some(values) = reference(&member.game, len) else { continue };
            for (i, &v) in values.iter().enumerate() {
                let n = seq.start + i as Coord;
                assert_eq!(
                    seq.get(n),
                    Some(v),
                    "{} (class {}) at n = {n}",
                    member.game,
                    entry.name
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 60, "only {checked} members checked");
}

#[test]
fn the_shipped_index_keeps_the_lines_of_boards_and_the_published_sequences() {
    let index = Index::builtin();
    let find = |game: &str| {
        index.entries.iter().find(|e| e.members.iter().any(|m| m.game == game)).unwrap()
    };
    // Wythoff's row 3 is OEIS A004484: classed together.
    let row = find("wythoff row a = 3");
    assert!(row.members.iter().any(|m| m.game == "OEIS A004484"));
    // The line itself, recomputed.
    let game = lookup("wythoff").unwrap();
    let shape = TableShape::new(&game, &[10, 200], "10x200").unwrap();
    let table = fill_reference(&game, &shape);
    let line = grundy_catalog::identify::line_of(&table, Line::Row(3)).unwrap();
    assert!((0..=200).all(|n| row.sequence.get(n) == line.get(n)));
}
