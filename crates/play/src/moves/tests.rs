use super::*;
use grundy_compute::{FillRequest, NoProgress};
use grundy_core::lookup;

fn fill(game: &Game, shape: &TableShape) -> Result<Table, String> {
    let fill = FillRequest::new(game, shape)
        .whole(&grundy_compute::memory::Besides::NOTHING)
        .map_err(|e| e.to_string())?;
    fill.fill(&NoProgress).map_err(|e| e.to_string())
}

fn moves(game: &Game, positions: &[&[Coord]]) -> Moves {
    let positions = positions.iter().map(|p| ("p", p.to_vec())).collect();
    moves_of(&[Term { game, positions }], &mut fill).unwrap()
}

/// Each group's options, counted by value, as a brute force over `Game::options`.
fn brute_classes(game: &Game, pos: &[Coord]) -> BTreeMap<u32, u128> {
    let shape = TableShape::from_axes(game.axes().to_vec(), pos.to_vec());
    let table = fill(game, &shape).unwrap().into_data();
    let mut classes = BTreeMap::new();
    for option in game.options(pos) {
        let value = option.iter().fold(0, |x, p| x ^ table.get(p).unwrap().value());
        *classes.entry(value).or_insert(0) += 1;
    }
    classes
}

fn counted(moves: &ComponentMoves) -> BTreeMap<u32, u128> {
    let mut classes = BTreeMap::new();
    for group in &moves.groups {
        for option in &group.options {
            *classes.entry(option.value).or_insert(0) += 1;
        }
        for class in &group.classes {
            *classes.entry(class.value).or_insert(0) += class.count;
        }
    }
    classes
}

/// Every game of the catalog: the options' values, counted, agree with a brute force, and
/// their mex is the position's value.
#[test]
fn moves_agree_with_a_brute_force() {
    let names = grundy_core::game::catalog().into_iter().map(|e| e.name);
    let parameterised =
        ["subtraction:1,3,4", "octal:0.137", "octal:4.07", "octal:0.6", "hex:0.8", "hex:4.c"];
    for name in names.filter(|n| !n.contains(':')).chain(parameterised.map(String::from)) {
        let game = lookup(&name).unwrap();
        if game.is_loopy() {
            continue; // `moves` answers games that end (a loopy game is refused)
        }
        let positions: Vec<Vec<Coord>> = match game.dims() {
            1 => vec![vec![0], vec![10], vec![150], vec![301]],
            2 => vec![vec![3, 5], vec![12, 9]],
            _ => vec![vec![3, 2, 4]],
        };
        for pos in positions {
            let pos: Vec<Coord> = pos.iter().zip(game.axes()).map(|(&c, a)| c.max(a.min)).collect();
            let answered = moves(&game, &[&pos]);
            let component = &answered.components[0];
            assert_eq!(counted(component), brute_classes(&game, &pos), "{} {pos:?}", game.name());
            assert_eq!(component.mex(), component.value, "{} {pos:?}", game.name());
        }
    }
}

/// Kayles' heap of 10^18: told by classes from the period, their counts add up to the
/// number of splits, and the mex is the law's value.
#[test]
fn a_heap_of_ten_to_the_eighteen_is_told_by_classes() {
    let kayles = lookup("kayles").unwrap();
    let n = 10i64.pow(18);
    let answered = moves(&kayles, &[&[n]]);
    let component = &answered.components[0];
    assert_eq!(component.mex(), component.value);
    let take_one_split = component
        .groups
        .iter()
        .find(|g| g.kind == "take 1, leave 2 heaps")
        .expect("a split after taking one");
    assert_eq!(take_one_split.count, ((n - 1) / 2) as u128);
    let total: u128 = take_one_split.classes.iter().map(|c| c.count).sum();
    assert_eq!(total, take_one_split.count);
    // The same classes as a heap of 10^18 mod 12 + 12·k in a table (period 12 from 71).
    let near = 5008 + ((n - 5008) % 12);
    let small = moves(&kayles, &[&[near]]);
    let values = |m: &ComponentMoves| m.option_values();
    assert_eq!(values(component), values(&small.components[0]));
}

/// A sum: the winning moves are those whose option leaves a sum of value 0.
#[test]
fn winning_moves_of_a_sum_leave_zero() {
    let kayles = lookup("kayles").unwrap();
    let nim = lookup("nim").unwrap();
    let terms = [
        Term { game: &kayles, positions: vec![("10", vec![10])] },
        Term { game: &nim, positions: vec![("3x5", vec![3, 5])] },
    ];
    let answered = moves_of(&terms, &mut fill).unwrap();
    assert_eq!(answered.value, answered.components[0].value ^ 6);
    let mut winning = Vec::new();
    for (i, component) in answered.components.iter().enumerate() {
        for group in &component.groups {
            for option in &group.options {
                if option.sum == 0 {
                    winning.push((i, option.to.clone()));
                }
            }
        }
    }
    assert!(!winning.is_empty(), "kayles 10 + nim 3x5 is an N-position");
    for (i, to) in winning {
        // Brute force: the sum's value after the move, from tables.
        let rest = if i == 0 { 6 } else { answered.components[0].value };
        let value = to
            .iter()
            .map(|p| {
                let game = if i == 0 { &kayles } else { &nim };
                let shape = TableShape::from_axes(game.axes().to_vec(), p.clone());
                fill(game, &shape).unwrap().data().get(p).unwrap().value()
            })
            .fold(0, |x, v| x ^ v);
        assert_eq!(value ^ rest, 0, "{to:?}");
    }
}
