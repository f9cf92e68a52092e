//! A game's rules read as the engine's moves: takes that leave nothing or one heap, and breaks
//! that leave two (built once per fill, before any heap).

use super::*;

impl HeapMoves {
    /// The moves of `game` on heaps up to `shape`'s largest, or why the method does not apply.
    pub(crate) fn new(game: &Game, shape: &TableShape) -> Result<HeapMoves, NotSparse> {
        let axes = game.axes();
        if axes.len() != 1 {
            return Err(NotSparse::Axes { dims: axes.len() });
        }
        if axes[0].min != 0 {
            return Err(NotSparse::AxisStart { min: axes[0].min });
        }
        // The removals are the same at every heap: no heap may be terminal.
        if game.terminal().is_some() {
            return Err(NotSparse::Terminal);
        }
        // Games without a break (or a three-heap move, refused below) are refused before their
        // removals are listed.
        let breaks_somewhere = game.rules().iter().any(|rule| match rule.form() {
            MoveForm::Cut { .. } => true,
            MoveForm::Code(code) => code.digits().iter().any(|d| d & 12 != 0),
            MoveForm::Translate { .. } => false,
        });
        if !breaks_somewhere {
            return Err(NotSparse::NoBreaks);
        }
        let longest = shape.lens()[0] as u64;
        let mut takes: Vec<Take> = Vec::new();
        let mut breaks: Vec<Break> = Vec::new();
        // Merged by k below: a jump set can list hundreds of thousands of amounts.
        let mut take =
            |k: usize, to_nothing: bool, to_heap: bool| takes.push(Take { k, to_nothing, to_heap });
        for (index, rule) in game.rules().iter().enumerate() {
            let refuse = || NotSparse::Rule { rule: (index + 1, rule.kind()) };
            // A 1-D direction must lower the heap: [-d] with d ≥ 1.
            let unit = |direction: &[Coord]| match direction {
                [d] if *d < 0 => Ok((-d) as u64),
                _ => Err(refuse()),
            };
            match rule.form() {
                // A bounded translation is a list of removals; an unbounded slide reads every
                // smaller heap, which nothing sparse can shorten.
                MoveForm::Translate { amounts: Amounts::Run { max: None }, .. } => {
                    return Err(refuse())
                }
                MoveForm::Translate { directions, amounts } => {
                    for direction in directions {
                        let d = unit(direction)?;
                        for amount in amounts.up_to(longest / d) {
                            take((amount * d) as usize, true, true);
                        }
                    }
                }
                MoveForm::Cut { axis: 0, min_piece, unequal } if min_piece >= 1 => {
                    breaks.push(Break { k: 0, min_piece: min_piece as usize, unequal })
                }
                MoveForm::Cut { .. } => return Err(refuse()),
                MoveForm::Code(code) => {
                    for (k, &digit) in code.digits().iter().enumerate() {
                        if digit & 8 != 0 {
                            return Err(NotSparse::ThreeHeaps);
                        }
                        // As the plain engine reads a code: 1 leaves nothing (k = n), 2 leaves
                        // one heap (k ≥ 1), 4 leaves two non-empty heaps.
                        if digit & 3 != 0 {
                            take(k, digit & 1 != 0, digit & 2 != 0 && k >= 1);
                        }
                        if digit & 4 != 0 {
                            breaks.push(Break { k, min_piece: 1, unequal: false });
                        }
                    }
                }
            }
        }
        if breaks.is_empty() {
            return Err(NotSparse::NoBreaks);
        }
        takes.sort_by_key(|t| t.k);
        takes.dedup_by(|later, kept| {
            let same = later.k == kept.k;
            if same {
                kept.to_nothing |= later.to_nothing;
                kept.to_heap |= later.to_heap;
            }
            same
        });
        breaks.sort_by_key(|b| (b.k, b.min_piece, b.unequal));
        breaks.dedup();
        Ok(HeapMoves { takes, breaks, nothing: game.play().option_value([]).value() })
    }
}
