//! Misère play of a take-and-break game: the race of its misère quotient
//! against a plain search (`misere::race`, which keeps what each learnt),
//! and the verdict by a quotient's product of heap images.

use super::*;

impl TakeBreakGame {
    /// Misère play of `heaps` (outcome, and the winning moves when `moves`
    /// is set): by the misère quotient kept, or by the race of the quotient
    /// and a search (`misere::race`).
    pub(super) fn misere_settle(
        &self,
        heaps: &[u64],
        moves: Option<&std::cell::OnceCell<Vec<SplitMove>>>,
        limits: Limits,
    ) -> Result<(Answer, MisereRace), SolveError> {
        let position = heaps.to_vec();
        let children = || -> Vec<Vec<u64>> {
            let moves = moves.expect("children only when moves are asked for");
            moves
                .get_or_init(|| self.moves(&position))
                .iter()
                .map(|m| self.apply(&position, m))
                .collect()
        };
        let children: Option<&dyn Fn() -> Vec<Vec<u64>>> = match moves {
            Some(_) => Some(&children),
            None => None,
        };
        let unsearchable = self.too_many_moves(&position);
        race::settle(
            &self.game,
            &self.misere,
            heaps,
            children,
            unsearchable,
            limits,
        )
        .map_err(|e| match e {
            // What is proven without the outcome: how long play can last.
            SolveError::Unresolved { limit, reason } => {
                let bound = self.moves_left_bound(&position).unwrap_or(u64::MAX);
                SolveError::Unresolved {
                    limit,
                    reason: format!(
                        "{reason}. Proven without the outcome: every play from here ends within {bound} moves (the longest plays of the heaps, added)"
                    ),
                }
            }
            e => e,
        })
    }

    /// Misère play of a sum of heaps, with its winning moves and words.
    pub(super) fn misere_verdict(
        &self,
        heaps: &[u64],
        limits: Limits,
    ) -> Result<Verdict<SplitMove>, SolveError> {
        let moves = std::cell::OnceCell::new();
        let (answer, race) = self.misere_settle(heaps, Some(&moves), limits)?;
        let mut verdict = match answer {
            Answer::Quotient(q) => {
                self.misere_by_quotient(&q, heaps)
                    .ok_or_else(|| SolveError::TooLarge {
                        reason: format!(
                            "the winning moves of {} cannot be listed one by one",
                            self.format_position(&heaps.to_vec())
                        ),
                    })?
            }
            Answer::Search { p, winning } => {
                let moves = moves
                    .into_inner()
                    .unwrap_or_else(|| self.moves(&heaps.to_vec()));
                let outcome = Outcome::from_to_move_wins(!p);
                let explanation = format!(
                    "Misère play: Grundy values do not add, and the misère quotient of {} is not yet known for these heaps, so Nimatron searched every line of play (racing the quotient for the answer): the player to move {}.\n",
                    self.game,
                    verdict_words(outcome)
                );
                Verdict {
                    outcome,
                    grundy: None,
                    winning_moves: winning.into_iter().map(|i| moves[i].clone()).collect(),
                    explanation,
                    theorem: "exhaustive search".into(),
                    details: Details::default(),
                }
            }
        };
        verdict.details.misere = Some(race);
        Ok(verdict)
    }

    /// Misère play by the misère quotient: multiply the heaps' images and
    /// test the product for membership in the P-portion.
    pub(super) fn misere_by_quotient(
        &self,
        q: &MisereQuotient,
        heaps: &[u64],
    ) -> Option<Verdict<SplitMove>> {
        let images: Vec<usize> = heaps.iter().map(|&h| q.image(h)).collect::<Option<_>>()?;
        // Products of the heaps before and after each one.
        let mut before = vec![0usize; heaps.len() + 1];
        for (i, &x) in images.iter().enumerate() {
            before[i + 1] = q.product(before[i], x);
        }
        let mut after = vec![0usize; heaps.len() + 1];
        for i in (0..images.len()).rev() {
            after[i] = q.product(images[i], after[i + 1]);
        }
        let total = before[heaps.len()];
        let proven = q
            .period()
            .filter(|_| q.proven())
            .map(|p| (p.preperiod, p.period));
        let large = heaps.iter().any(|&h| h > MAX_HEAP_MANY_MOVES);
        let mut winning = Vec::new();
        let mut unlisted = 0u64;
        let mut large_text = String::new();
        for (heap, &n) in heaps.iter().enumerate() {
            let others = q.product(before[heap], after[heap + 1]);
            let cap = if large {
                LISTED_BY_PERIOD.saturating_sub(winning.len())
            } else {
                usize::MAX
            };
            // Every part is at most n, whose image is known, so each
            // part's is too.
            let wins = self
                .winning_heap_moves(n, proven, cap, |parts| {
                    let image = parts.iter().fold(others, |acc, &part| {
                        q.product(acc, q.image(part).expect("parts below a known heap"))
                    });
                    q.in_p(image)
                })
                .ok()?;
            unlisted += wins.total - wins.listed.len() as u64;
            if let Some((e, p)) = proven {
                large_text.push_str(&wins.describe(&heap_name(heap), n, "Its heap images", e, p));
            }
            winning.extend(wins.listed.into_iter().map(|(take, parts)| SplitMove {
                heap,
                take,
                parts,
            }));
        }
        let outcome = if q.in_p(total) {
            Outcome::P
        } else {
            Outcome::N
        };
        let scope = if q.proven() {
            format!(
                "every heap size (its heap images are periodic, proven at heap {})",
                q.computed_to()
            )
        } else {
            format!("heaps of up to {}", q.to())
        };
        let mut text = String::new();
        let _ = writeln!(
            text,
            "Misère play: Grundy values do not add, so Nimatron uses the misère quotient of {} (Plambeck; Plambeck and Siegel), computed from the rules for {scope}. It has {} elements: {}{}.",
            self.game,
            q.order(),
            brief_presentation(q),
            if q.tame() {
                ", the quotient of misère Nim (the game is tame)"
            } else {
                ""
            }
        );
        let p_portion = q.p_portion();
        let mut p_names: Vec<String> = p_portion
            .iter()
            .take(SHOWN_P_ELEMENTS)
            .map(|&e| q.element_name(e))
            .collect();
        if p_portion.len() > SHOWN_P_ELEMENTS {
            p_names.push(format!(
                "… {} more: {} of the {} elements in all",
                p_portion.len() - SHOWN_P_ELEMENTS,
                p_portion.len(),
                q.order()
            ));
        }
        let _ = writeln!(
            text,
            "A sum of heaps is a misère P-position exactly when the product of its heaps' elements lies in the P-portion {{{}}}.",
            p_names.join(", ")
        );
        let width = column_width(heaps);
        for (i, (&h, &e)) in heaps.iter().zip(&images).enumerate().take(32) {
            let _ = writeln!(
                text,
                "  {:<3} {h:>width$}   ↦ {}",
                heap_name(i),
                q.element_name(e)
            );
        }
        if heaps.len() > 32 {
            let _ = writeln!(text, "  … {} more heaps", heaps.len() - 32);
        }
        let _ = writeln!(
            text,
            "The product is {}. {}",
            q.element_name(total),
            if outcome == Outcome::P {
                "It is in the P-portion, so the player to move loses against perfect play: every move changes one heap's element and takes the product out of P."
            } else {
                "It is not in the P-portion, so the player to move wins by changing one heap so that the product lands in P."
            }
        );
        text.push_str(&large_text);
        Some(Verdict {
            details: Details {
                unlisted_winning: unlisted as usize,
                ..Default::default()
            },
            outcome,
            grundy: None,
            winning_moves: winning,
            explanation: text,
            theorem: format!(
                "misère quotient of {} (order {}, {scope})",
                self.game,
                q.order()
            ),
        })
    }
}

/// The width of the heap-size column of an explanation: 6, or the digits
/// of the largest heap listed.
pub(super) fn column_width(heaps: &[u64]) -> usize {
    let largest = heaps.iter().take(32).copied().max().unwrap_or(0);
    largest.to_string().len().max(6)
}

/// Relations above which an explanation shows only the first
/// [`SHOWN_RELATIONS`] and counts the rest.
pub(super) const MAX_RELATIONS_IN_FULL: usize = 24;
pub(super) const SHOWN_RELATIONS: usize = 12;

/// Elements of the P-portion an explanation lists before it only counts the
/// rest.
pub(super) const SHOWN_P_ELEMENTS: usize = 32;

/// The presentation for an explanation: whole when it has at most
/// [`MAX_RELATIONS_IN_FULL`] relations; else every generator with the heap
/// it is the image of, the first relations and how many there are in all
/// (the quotient itself, from the library, the CLI and Python, has them
/// all).
pub(super) fn brief_presentation(q: &MisereQuotient) -> String {
    let relations = q.relations_text();
    if relations.len() <= MAX_RELATIONS_IN_FULL {
        return q.presentation();
    }
    let generators: Vec<String> = q
        .generators()
        .iter()
        .map(|g| format!("{} (heap {})", g.name, g.heap))
        .collect();
    format!(
        "{} generators, {}, with {} relations, the first {} of them {} and {} more",
        generators.len(),
        generators.join(", "),
        relations.len(),
        SHOWN_RELATIONS,
        relations[..SHOWN_RELATIONS].join(", "),
        relations.len() - SHOWN_RELATIONS
    )
}
