//! The quotient heap by heap: each heap added with its reduced sums, the presentation refined when
//! a sum's outcome disagrees, and the questions a quotient answers (P-positions, its outcome table).

use super::*;

impl MisereQuotient {
    /// The quotient of none of `game`'s heaps yet, within `limits` (counted from now).
    ///
    /// # Errors
    /// A game that is not a heap game.
    pub fn new(game: &Game, limits: &SearchLimits) -> Result<MisereQuotient, QuotientError> {
        let closure = Closure::new(game)?;
        // A candidate element costs its class, order and the Moore steps (about 32 bytes); the
        // pairs of the check have the same budget.
        let most = (limits.bytes / 64).max(1024);
        Ok(MisereQuotient {
            closure,
            candidate: Candidate::default(),
            reduced: Reduced::trivial(),
            pairs: Pairs::new(&Reduced::trivial()),
            limits: limits.clone(),
            most,
            deadline: std::time::Instant::now()
                + std::time::Duration::from_secs(limits.seconds.min(1 << 40)),
            changes: Vec::new(),
        })
    }

    /// The game's name.
    pub fn game(&self) -> &str {
        self.closure.game.name()
    }

    /// The last heap of the game the quotient covers (`None` before the first).
    pub fn last(&self) -> Option<Coord> {
        self.closure.last()
    }

    /// The heaps at which the candidate took a new generator (the presentation changed).
    pub fn changes(&self) -> &[Coord] {
        &self.changes
    }

    /// Adds the game's heaps up to `last`; `progress` hears of each and may cancel.
    ///
    /// # Errors
    /// [`QuotientError`].
    pub fn extend_to(&mut self, last: Coord, progress: &dyn Progress) -> Result<(), QuotientError> {
        while self.last().is_none_or(|l| l < last) {
            if progress.cancelled() {
                return Err(QuotientError::Cancelled);
            }
            let heap = self.closure.push_game();
            self.add(heap)?;
            progress.advance(1);
        }
        Ok(())
    }

    pub(super) fn label(&self, heap: usize) -> Coord {
        self.closure.first + heap as Coord
    }

    /// Makes heap `heap` part of the quotient: a class it has when the check passes, otherwise
    /// a new generator (and whatever the check asks for then).
    pub(super) fn add(&mut self, heap: usize) -> Result<(), QuotientError> {
        let gens = self.candidate.generators.len();
        if self.closure.heaps[heap].options.is_empty() {
            self.candidate.words.push(vec![0; gens]);
            self.reduced.image.push(0);
            self.reduced.moves.push(vec![]);
            return Ok(());
        }
        let moves = self.moves_in(&self.reduced, heap);
        let own = self.reduced.p_by_moves(&moves);
        let classes: Vec<u32> =
            (0..self.reduced.len() as u32).filter(|&x| self.reduced.p[x as usize] == own).collect();
        for x in classes {
            self.reduced.image.push(x);
            self.reduced.moves.push(moves.clone());
            if self.grow(heap)?.is_none() {
                self.candidate.words.push(self.reduced.word[x as usize].clone());
                return Ok(());
            }
            self.reduced.image.pop();
            self.reduced.moves.pop();
        }
        // A new generator.
        self.changes.push(self.label(heap));
        self.candidate.generators.push(Generator { heap, index: 2, period: 2 });
        for word in &mut self.candidate.words {
            word.push(0);
        }
        let mut unit = vec![0; gens + 1];
        unit[gens] = 1;
        self.candidate.words.push(unit);
        'candidates: loop {
            self.reduced = self.reduce(heap)?;
            self.pairs = Pairs::new(&self.reduced);
            for h in 0..=heap {
                if let Some(failure) = self.grow(h)? {
                    self.refine(&failure, heap)?;
                    continue 'candidates;
                }
            }
            return Ok(());
        }
    }

    pub(super) fn grow(&mut self, h: usize) -> Result<Option<Vec<usize>>, QuotientError> {
        let deadline = self.deadline;
        let late = move || std::time::Instant::now() > deadline;
        self.pairs.grow(&self.reduced, h, self.limits.bytes / 2, &late).map_err(|stop| match stop {
            Stop::TooMany => self.too_large(h),
            Stop::Late => self.too_long(h),
        })
    }

    /// The classes of `heap`'s options under `reduced` (its earlier heaps' images).
    pub(super) fn moves_in(&self, reduced: &Reduced, heap: usize) -> Vec<u32> {
        let mut moves: Vec<u32> = self.closure.heaps[heap]
            .options
            .iter()
            .map(|option| option.iter().fold(0, |x, &h| reduced.mul(x, reduced.image[h])))
            .collect();
        moves.sort_unstable();
        moves.dedup();
        moves
    }

    pub(super) fn too_large(&self, heap: usize) -> QuotientError {
        QuotientError::TooLarge {
            game: self.game().to_string(),
            heap: self.label(heap),
            most: self.most,
            why: self.limits.why.clone(),
        }
    }

    pub(super) fn too_long(&self, heap: usize) -> QuotientError {
        QuotientError::TooLong {
            game: self.game().to_string(),
            heap: self.label(heap),
            seconds: self.limits.seconds,
        }
    }

    pub(super) fn on_time(&self, heap: usize) -> Result<(), QuotientError> {
        if std::time::Instant::now() > self.deadline {
            return Err(self.too_long(heap));
        }
        Ok(())
    }

    /// The candidate's P-portion, reduced to its coarsest congruence that keeps it, with the
    /// images of the heaps up to `heap`.
    pub(super) fn reduce(&self, heap: usize) -> Result<Reduced, QuotientError> {
        let heaps = heap + 1;
        let generators = &self.candidate.generators;
        let free = Free::of(generators, self.most).ok_or_else(|| self.too_large(heap))?;
        let words = &self.candidate.words;
        let (p, order) = self.p_portion(heap, &free)?;
        let (class, count) = self.classes(heap, &free, &p)?;
        let classes = count;
        if (classes as u64).pow(2) * 4 > self.limits.bytes / 2 {
            return Err(self.too_large(heap));
        }
        let mut rep = vec![u64::MAX; classes];
        for &x in &order {
            let c = class[x as usize] as usize;
            if rep[c] == u64::MAX {
                rep[c] = x;
            }
        }
        let mut product = vec![0u32; classes * classes];
        for a in 0..classes {
            for b in a..classes {
                let c = class[free.mul(rep[a], rep[b]) as usize];
                product[a * classes + b] = c;
                product[b * classes + a] = c;
            }
        }
        let mut reduced = Reduced {
            p: rep.iter().map(|&x| p[x as usize]).collect(),
            product,
            word: rep
                .iter()
                .map(|&x| (0..generators.len()).map(|j| free.exponent(x, j) as u32).collect())
                .collect(),
            image: Vec::with_capacity(heaps),
            moves: Vec::with_capacity(heaps),
        };
        for word in words.iter().take(heaps) {
            reduced.image.push(class[free.of_word(word) as usize]);
        }
        for h in 0..heaps {
            let moves = self.moves_in(&reduced, h);
            reduced.moves.push(moves);
        }
        Ok(reduced)
    }

    /// Which elements of the free monoid `free` are P-positions, and the order they were
    /// decided in: by weight, each generator heavier than every option's word, so that an
    /// element's options along its shortest word come before it.
    fn p_portion(&self, heap: usize, free: &Free) -> Result<(Vec<bool>, Vec<u64>), QuotientError> {
        let heaps = heap + 1;
        let generators = &self.candidate.generators;
        let size = free.size as usize;
        let words = &self.candidate.words;
        let mut weight = vec![0u64; heaps];
        for h in 0..heaps {
            weight[h] = if generators.iter().any(|g| g.heap == h) {
                let heaviest = self.closure.heaps[h]
                    .options
                    .iter()
                    .map(|o| o.iter().map(|&p| weight[p]).sum::<u64>())
                    .max()
                    .unwrap_or(0);
                heaviest + 1
            } else {
                words[h].iter().zip(generators).map(|(&e, g)| u64::from(e) * weight[g.heap]).sum()
            };
        }
        let element_of = |option: &[usize]| -> u64 {
            let mut word = vec![0u32; generators.len()];
            for &p in option {
                for (w, e) in word.iter_mut().zip(&words[p]) {
                    *w += e;
                }
            }
            free.of_word(&word)
        };
        let options: Vec<Vec<u64>> = generators
            .iter()
            .map(|g| self.closure.heaps[g.heap].options.iter().map(|o| element_of(o)).collect())
            .collect();
        let element_weight = |x: u64| -> u64 {
            (0..generators.len()).map(|j| free.exponent(x, j) * weight[generators[j].heap]).sum()
        };
        let mut order: Vec<u64> = (0..free.size).collect();
        order.sort_by_key(|&x| element_weight(x));
        // The empty sum (element 0) is no P-position: it has no move.
        let mut p = vec![false; size];
        for (at, &x) in order.iter().enumerate().skip(1) {
            if at % 4096 == 0 {
                self.on_time(heap)?;
            }
            let any_p = (0..generators.len()).filter(|&j| free.exponent(x, j) > 0).any(|j| {
                let base = x - free.stride[j];
                options[j].iter().any(|&o| p[free.mul(base, o) as usize])
            });
            p[x as usize] = !any_p;
        }
        Ok((p, order))
    }

    /// Moore's refinement of `p`: the coarsest classes by outcome that each generator keeps
    /// apart, class 0 the empty sum's; and their number.
    fn classes(
        &self,
        heap: usize,
        free: &Free,
        p: &[bool],
    ) -> Result<(Vec<u32>, usize), QuotientError> {
        let generators = &self.candidate.generators;
        let size = free.size as usize;
        // Moore's refinement: classes by outcome, split by where each generator sends them.
        let step: Vec<Vec<u32>> = free
            .stride
            .iter()
            .map(|&u| (0..free.size).map(|x| free.mul(x, u) as u32).collect())
            .collect();
        let mut class: Vec<u32> = p.iter().map(|&b| u32::from(b)).collect();
        let mut count = class.iter().collect::<std::collections::HashSet<_>>().len();
        loop {
            self.on_time(heap)?;
            let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
            let mut next = vec![0u32; size];
            for x in 0..size {
                let mut key = Vec::with_capacity(generators.len() + 1);
                key.push(class[x]);
                key.extend(step.iter().map(|s| class[s[x] as usize]));
                let fresh = ids.len() as u32;
                next[x] = *ids.entry(key).or_insert(fresh);
            }
            let grown = ids.len();
            class = next;
            if grown == count {
                break;
            }
            count = grown;
        }
        // Class 0 is the empty sum's.
        let zero = class[0];
        for c in &mut class {
            if *c == zero {
                *c = 0;
            } else if *c == 0 {
                *c = zero;
            }
        }
        Ok((class, count))
    }

    /// Makes the candidate finer where `failure` shows it wrong: its heaps become generators,
    /// and a generator whose exponent reaches its relation's index gets a larger index; when
    /// that changes nothing, the heaps of its heaps' options become generators, and then the
    /// periods double.
    pub(super) fn refine(&mut self, failure: &[usize], heap: usize) -> Result<(), QuotientError> {
        let mut counts: Vec<(usize, u32)> = Vec::new();
        for &h in failure {
            match counts.last_mut() {
                Some((last, e)) if *last == h => *e += 1,
                _ => counts.push((h, 1)),
            }
        }
        let mut changed = false;
        for &(h, e) in &counts {
            match self.candidate.generators.iter_mut().find(|g| g.heap == h) {
                Some(g) => {
                    if e + 1 > g.index {
                        g.index = e + 1;
                        changed = true;
                    }
                }
                None => {
                    self.promote(h);
                    changed = true;
                }
            }
        }
        if !changed {
            for &(h, _) in &counts {
                for option in self.closure.heaps[h].options.clone() {
                    for p in option {
                        if !self.candidate.generators.iter().any(|g| g.heap == p) {
                            self.promote(p);
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            for &(h, _) in &counts {
                if let Some(g) = self.candidate.generators.iter_mut().find(|g| g.heap == h) {
                    g.period *= 2;
                    changed = true;
                }
            }
        }
        if !changed {
            return Err(self.too_large(heap));
        }
        Ok(())
    }

    /// Makes heap `h` a generator of its own.
    pub(super) fn promote(&mut self, h: usize) {
        let at = self.candidate.generators.partition_point(|g| g.heap < h);
        self.candidate.generators.insert(at, Generator { heap: h, index: 2, period: 2 });
        for (k, word) in self.candidate.words.iter_mut().enumerate() {
            if k == h {
                word.iter_mut().for_each(|e| *e = 0);
                word.insert(at, 1);
            } else {
                word.insert(at, 0);
            }
        }
    }

    pub(super) fn class_of(&self, heaps: &[usize]) -> u32 {
        heaps.iter().fold(0, |x, &h| self.reduced.mul(x, self.reduced.image[h]))
    }

    pub(super) fn game_heap(&self, n: Coord) -> Result<usize, QuotientError> {
        match self.last() {
            Some(last) if n >= self.closure.first && n <= last => {
                Ok((n - self.closure.first) as usize)
            }
            _ => Err(QuotientError::OutOfRange {
                game: self.game().to_string(),
                heap: n,
                last: self.last().unwrap_or(self.closure.first - 1),
            }),
        }
    }

    /// Whether the sum of the game's `heaps` is a misère P-position.
    ///
    /// # Errors
    /// A heap outside the quotient's range.
    pub fn is_p(&self, heaps: &[Coord]) -> Result<bool, QuotientError> {
        let heaps: Vec<usize> =
            heaps.iter().map(|&n| self.game_heap(n)).collect::<Result<_, _>>()?;
        Ok(self.reduced.p[self.class_of(&heaps) as usize])
    }

    /// The quotient by outcome of the game's own heaps, with its presentation.
    pub fn outcome(&self) -> OutcomeQuotient {
        let heaps: Vec<usize> = (0..self.closure.heaps.len()).collect();
        outcome_quotient(&self.reduced, &heaps, self.closure.first)
    }
}
