//! Misère quotients of heap games.
//!
//! Under misère play, whoever makes the last move loses, and Grundy values
//! no longer add. Plambeck's *misère quotient* takes their place: the
//! positions of a game (sums of heaps) are identified when no third position
//! added to both tells them apart, and the classes form a commutative
//! monoid `Q` with a marked subset `P`, the *P-portion*, of the classes of
//! misère P-positions (T. E. Plambeck, "Taming the wild in impartial
//! combinatorial games", INTEGERS 5 (2005) G5; T. E. Plambeck and
//! A. N. Siegel, "Misère quotients for impartial games", J. Combin. Theory
//! Ser. A 115 (2008), arXiv math/0609825). To play a sum, multiply its
//! heaps' images in `Q`; the sum is a P-position exactly when the product
//! lies in `P`.
//!
//! ```
//! use nimatron::misere::{quotient, QuotientLimits};
//! use nimatron::sequence::HeapGame;
//!
//! // Nim with heaps of at most 3 (the code 0.333 allows exactly Nim's
//! // moves on such heaps): the tame quotient of order 6.
//! let game: HeapGame = "octal:0.333".parse()?;
//! let q = quotient(&game, 3, &QuotientLimits::default())?;
//! assert_eq!(q.order(), 6);
//! assert!(q.tame());
//! assert_eq!(q.relations_text(), ["a^2 = 1", "b^3 = b"]);
//! let p: Vec<String> = q.p_portion().into_iter().map(|e| q.element_name(e)).collect();
//! assert_eq!(p, ["a", "b^2"]);
//! // Heaps 1 2 3: a·b·ab = b^2, in P: the player to move loses.
//! assert!(q.is_p_position(&[1, 2, 3]).unwrap());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The quotient of the heaps `1..=N` is built heap by heap and each step is
//! verified (see [`quotient`]); whether it holds for larger heaps is proven
//! only where a periodicity argument applies, and otherwise reported as
//! observed.
//!
//! The same construction serves any game whose positions are sums of
//! components drawn from a finite set, given as an options graph:
//! [`quotient_of_components`] takes each component's options (multisets of
//! components numbered below it) and returns a [`ComponentQuotient`]. A heap
//! game is the case where component `n` is the heap `n`. Both kinds of
//! quotient dereference to the [`QuotientMonoid`] they present.

mod engine;
mod flat_set;
mod gate;
pub(crate) mod moves;
mod presentation;
pub(crate) mod race;
mod recalibrate;
mod record;
mod search;
mod work;

use std::fmt;
use std::ops::Deref;
use std::time::Duration;

use crate::Outcome;
use crate::sequence::{HeapGame, Rule};
use crate::solve::Interrupt;

pub use presentation::{generator_name, word_text};
pub use record::{QuotientRecord, RecordError, RecordedStop};
use work::Work;

/// Bounds on a quotient computation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuotientLimits {
    /// The most elements the quotient may have.
    pub max_order: usize,
    /// The most positions a search or a verification may store.
    pub max_states: usize,
    /// The longest the whole computation may run, if bounded.
    pub max_time: Option<Duration>,
    /// Asked now and then whether to stop early (see [`Interrupt`]).
    pub interrupt: Option<Interrupt>,
}

impl QuotientLimits {
    /// The default largest order.
    pub const DEFAULT_MAX_ORDER: usize = 10_000;
    /// The default most stored positions.
    pub const DEFAULT_MAX_STATES: usize = 5_000_000;
}

impl Default for QuotientLimits {
    fn default() -> QuotientLimits {
        QuotientLimits {
            max_order: Self::DEFAULT_MAX_ORDER,
            max_states: Self::DEFAULT_MAX_STATES,
            max_time: None,
            interrupt: None,
        }
    }
}

/// Why a quotient was not computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuotientError {
    /// The largest heap is 0: there is nothing to compute.
    NoHeaps,
    /// The largest heap is beyond what the method handles.
    TooLarge {
        /// The largest heap asked for.
        to: u64,
        /// The largest accepted.
        max: u64,
    },
    /// The quotient grew past its limit.
    OrderLimit {
        /// The limit.
        limit: usize,
        /// The heap whose adjunction passed it.
        heap: u64,
        /// How large the quotient had grown.
        order: usize,
    },
    /// A search or verification stored its limit of positions.
    StateLimit {
        /// The limit.
        limit: usize,
        /// The heap being added.
        heap: u64,
        /// The order of the quotient of the smaller heaps.
        order: usize,
    },
    /// A component's option uses a component numbered at or above its own
    /// (see [`quotient_of_components`]).
    OptionOrder {
        /// The component whose option it is.
        component: usize,
        /// The component the option uses.
        uses: usize,
    },
    /// More components than [`MAX_COMPONENTS`].
    TooManyComponents {
        /// How many were given.
        count: usize,
    },
    /// Heap `heap` looks as if it makes the quotient infinite: recalibration
    /// (see `misere/recalibrate.rs`) kept needing longer cycles for sums of
    /// copies of the same heaps, round after round. This is an observation
    /// up to the stated index, not a proof.
    Unbounded {
        /// The heap being added.
        heap: u64,
        /// The order of the quotient of the smaller heaps.
        order: usize,
        /// The heaps whose cycles kept growing.
        heaps: Vec<u64>,
        /// The largest cycle index reached: the image of some heap of
        /// `heaps` had to satisfy no shorter relation than `x^(index + 2) =
        /// x^index`.
        index: u32,
        /// Rounds of recalibration run.
        rounds: usize,
        /// The last position a candidate got wrong, as its heaps.
        failure: Vec<u64>,
    },
    /// The [`Interrupt`] of the limits asked the computation to stop.
    Interrupted {
        /// The heap being added.
        heap: u64,
    },
    /// The computation ran out of time.
    TimeLimit {
        /// The limit, in milliseconds.
        millis: u64,
        /// The heap being added.
        heap: u64,
        /// The order of the quotient of the smaller heaps.
        order: usize,
    },
}

impl QuotientError {
    /// Whether the request itself was at fault (rather than a limit).
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            QuotientError::NoHeaps
                | QuotientError::TooLarge { .. }
                | QuotientError::OptionOrder { .. }
                | QuotientError::TooManyComponents { .. }
        )
    }
}

impl fmt::Display for QuotientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuotientError::NoHeaps => f.write_str(
                "the largest heap must be at least 1 (the quotient of no heaps is trivial)",
            ),
            QuotientError::TooLarge { to, max } => write!(
                f,
                "the largest heap {to} is too large: quotients are computed for heaps up to {max}"
            ),
            QuotientError::OrderLimit { limit, heap, order } => write!(
                f,
                "the quotient passed its limit of {limit} elements at heap {heap} (it had grown to {order} elements)"
            ),
            QuotientError::StateLimit { limit, heap, order } => write!(
                f,
                "the computation stored its limit of {limit} positions while adding heap {heap} (the quotient of the smaller heaps has {order} elements)"
            ),
            QuotientError::OptionOrder { component, uses } => write!(
                f,
                "component {component} has an option that uses component {uses}: number the components so that every option uses only components numbered below its own"
            ),
            QuotientError::TooManyComponents { count } => write!(
                f,
                "{count} components are too many: quotients are computed for at most {MAX_COMPONENTS}"
            ),
            QuotientError::Unbounded {
                heap,
                order,
                heaps,
                index,
                rounds,
                failure,
            } => {
                let names = and_list(heaps.iter().map(|h| h.to_string()).collect());
                // The failing position, heaps from the largest down, each
                // with its count.
                let mut counts: Vec<(u64, usize)> = Vec::new();
                let mut sorted = failure.clone();
                sorted.sort_unstable_by(|a, b| b.cmp(a));
                for h in sorted {
                    match counts.last_mut() {
                        Some((g, c)) if *g == h => *c += 1,
                        _ => counts.push((h, 1)),
                    }
                }
                let position = and_list(
                    counts
                        .iter()
                        .map(|&(h, c)| match c {
                            1 => format!("a heap of {h}"),
                            c => format!("{c} heaps of {h}"),
                        })
                        .collect(),
                );
                write!(
                    f,
                    "the quotient of heaps 1 to {heap} looks infinite: adding heap {heap} to the quotient of the smaller heaps ({order} elements), recalibration had to lengthen the cycles of heaps {names} round after round, to index {index} (x^{} = x^{index}) after {rounds} rounds, the last for the sum of {position}. No finite quotient was found, and if the pattern goes on none exists; this is an observation, not a proof",
                    index + 2
                )
            }
            QuotientError::TimeLimit {
                millis,
                heap,
                order,
            } => write!(
                f,
                "the computation reached its time limit of {} s while adding heap {heap} (the quotient of the smaller heaps has {order} elements)",
                *millis as f64 / 1000.0
            ),
            QuotientError::Interrupted { heap } => {
                write!(
                    f,
                    "the computation was interrupted while adding heap {heap}"
                )
            }
        }
    }
}

impl std::error::Error for QuotientError {}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: Vec<String>) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => items.concat(),
    }
}

/// A generator of the presentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    /// Its name: `a`, `b`, ...
    pub name: String,
    /// The heap (for [`quotient_of_components`], the component) it is the
    /// image of: the first the earlier generators do not produce.
    pub heap: u64,
}

/// Eventual periodicity of the heap images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImagePeriod {
    /// `p`: the image of heap `n + p` equals that of heap `n` ...
    pub period: u64,
    /// ... for every `n` from this heap on.
    pub preperiod: u64,
}

/// A misère quotient as a presented monoid: a finite commutative monoid
/// `Q` with its P-portion, generators, relations and every element as a
/// normal-form word. Elements are ids `0..order()` in presentation order;
/// id 0 is the identity.
#[derive(Clone, Debug)]
pub struct QuotientMonoid {
    work: Work,
    generators: Vec<Generator>,
    /// Normal forms, in presentation order (element ids index these).
    normal_forms: Vec<Vec<u32>>,
    /// Work element of each id, and back.
    work_of: Vec<u32>,
    id_of: Vec<usize>,
    relations: Vec<(Vec<u32>, Vec<u32>)>,
    tame: bool,
}

/// The misère quotient of the sums of heaps `1..=to` of a heap game. It
/// dereferences to its [`QuotientMonoid`].
#[derive(Clone, Debug)]
pub struct MisereQuotient {
    game: HeapGame,
    to: u64,
    computed_to: u64,
    monoid: QuotientMonoid,
    images: Vec<usize>,
    growth: Vec<(u64, usize)>,
    period: Option<ImagePeriod>,
    proven: bool,
}

impl Deref for MisereQuotient {
    type Target = QuotientMonoid;
    fn deref(&self) -> &QuotientMonoid {
        &self.monoid
    }
}

/// The largest heap a quotient is computed for.
pub const MAX_HEAP: u64 = 10_000;

/// Nim as a heap game for a quotient of heaps up to `to`: the octal code
/// `0.33…3` with `to` digits, whose moves on heaps up to `to` are exactly
/// Nim's (take any number from one heap, leaving one heap or none). Nim
/// itself is not a finite code, so a quotient of Nim is always of heaps up
/// to a bound.
///
/// ```
/// use nimatron::misere::{nim_up_to, quotient, QuotientLimits};
///
/// let q = quotient(&nim_up_to(3)?, 3, &QuotientLimits::default())?;
/// assert_eq!((q.order(), q.tame()), (6, true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn nim_up_to(to: u64) -> Result<HeapGame, QuotientError> {
    if to > MAX_HEAP {
        return Err(QuotientError::TooLarge { to, max: MAX_HEAP });
    }
    let mut digits = vec![0u8];
    digits.extend(std::iter::repeat_n(3u8, to.max(1) as usize));
    let code = crate::sequence::OctalCode::from_digits(&digits).expect("0.33…3 is a valid code");
    Ok(HeapGame::Octal(code))
}

/// Computes the misère quotient of the sums of heaps `1..=to` of `game`.
///
/// The quotient is extended one heap at a time: heap `n` is given the image
/// of an existing element when that passes verification, and otherwise the
/// quotient is rebuilt around it. Each step's result is verified: the
/// *local rule* (a position is in the P-portion exactly when it has a move
/// and none of its options is) is checked over every combination that can
/// matter, which proves by induction that every sum of these heaps gets the
/// right outcome; and distinct elements are checked to be told apart. So the
/// quotient returned is exact for heaps `1..=to`.
///
/// The computation stops early at the first heap `n` at which the period of
/// the images is proven ([`MisereQuotient::proven`]): every larger heap then
/// has the image of the heap one period below it, so the images of heaps
/// `n + 1..=to` are filled in from the period, and
/// [`MisereQuotient::computed_to`] says where the heap-by-heap work ended.
///
/// ```
/// use nimatron::misere::{quotient, QuotientLimits};
/// use nimatron::sequence::HeapGame;
///
/// let game: HeapGame = "octal:0.75".parse()?;
/// let q = quotient(&game, 1000, &QuotientLimits::default())?;
/// assert!(q.proven() && q.computed_to() < 1000 && q.to() == 1000);
/// // Heaps beyond any computed range have images through the period.
/// assert!(q.image(1_000_000_000).is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn quotient(
    game: &HeapGame,
    to: u64,
    limits: &QuotientLimits,
) -> Result<MisereQuotient, QuotientError> {
    if to == 0 {
        return Err(QuotientError::NoHeaps);
    }
    if to > MAX_HEAP {
        return Err(QuotientError::TooLarge { to, max: MAX_HEAP });
    }
    let (work, growth, stop) = grow(game, Work::empty(), Vec::new(), to, limits, &mut |_, _| {});
    if let Some(stop) = stop {
        return Err(stop);
    }
    Ok(MisereQuotient::from_work(game, to, work, growth))
}

/// Told of each heap [`grow`] verifies: the quotient so far and where its
/// order grew.
pub(crate) type OnHeap<'a> = &'a mut dyn FnMut(&Work, &[(u64, usize)]);

/// Extends a verified quotient of `game` heap by heap towards `to`,
/// stopping early at the heap where the period of the images is proven
/// (see [`quotient`]). `growth` is where the order grew so far. Returns the
/// quotient of the most heaps reached, with their growth, and the limit
/// that stopped it short of `to`, if one did.
/// `on_heap` is told of each heap verified.
pub(crate) fn grow(
    game: &HeapGame,
    work: Work,
    mut growth: Vec<(u64, usize)>,
    to: u64,
    limits: &QuotientLimits,
    on_heap: OnHeap<'_>,
) -> (Work, Vec<(u64, usize)>, Option<QuotientError>) {
    let rule = game.rule();
    let mut last = growth.last().map_or(1, |&(_, order)| order);
    let (work, stop) = engine::build_from(
        work,
        |n| moves::options_of(&rule, n),
        to as usize,
        *limits,
        |w| {
            if w.order() != last {
                growth.push((w.heaps as u64, w.order()));
                last = w.order();
            }
            on_heap(w, &growth);
            if !period_check_due(w.heaps) {
                return true;
            }
            // The ids of the working quotient name the same elements as
            // the presented ones, so they show the same period.
            let images: Vec<usize> = w.image.iter().map(|&x| x as usize).collect();
            !find_period(&images).is_some_and(|p| provable(game, w.heaps as u64, p))
        },
    );
    (work, growth, stop)
}

impl MisereQuotient {
    /// Presents a verified working quotient of `game` and fills in the
    /// images of heaps up to `to` from its period where that is proven
    /// (`to` is at least the heaps it covers).
    pub(crate) fn from_work(
        game: &HeapGame,
        to: u64,
        work: Work,
        growth: Vec<(u64, usize)>,
    ) -> MisereQuotient {
        let computed_to = work.heaps as u64;
        let monoid = QuotientMonoid::new(work);
        let mut images = monoid.images_of_work();
        let period = find_period(&images);
        let proven = period.is_some_and(|p| provable(game, computed_to, p));
        let to = if proven {
            to.max(computed_to)
        } else {
            computed_to
        };
        if let Some(p) = period.filter(|_| proven) {
            // Each heap beyond has the image of the heap one period below.
            for n in images.len()..=to as usize {
                images.push(images[n - p.period as usize]);
            }
        }
        debug_assert_eq!(images.len() as u64, to + 1);
        MisereQuotient {
            game: game.clone(),
            to,
            computed_to,
            monoid,
            images,
            growth,
            period,
            proven,
        }
    }
}

/// Whether the images of the heaps of a verified quotient of `game` are
/// proven periodic (see [`provable`]), so that it covers every heap.
pub(crate) fn proven_period(game: &HeapGame, work: &Work) -> bool {
    let images: Vec<usize> = work.image.iter().map(|&x| x as usize).collect();
    find_period(&images).is_some_and(|p| provable(game, work.heaps as u64, p))
}

/// How often [`quotient`] looks for a proven period: after every heap up to
/// 512, then every `n / 256` heaps (the search for a period reads the
/// images from the top down and is quick, but not free).
fn period_check_due(n: usize) -> bool {
    n <= 512 || n.is_multiple_of(n / 256)
}

/// The most components [`quotient_of_components`] accepts.
pub const MAX_COMPONENTS: usize = 60_000;

/// Computes the misère quotient of every sum of components from a finite
/// set, given as an options graph.
///
/// Components are numbered `1..options.len()`; `options[k]` lists the
/// positions one move from component `k`, each a multiset of components
/// numbered below `k` (empty when the move leaves nothing; a 0 in it stands
/// for nothing too). Entry 0 is ignored. Such a numbering exists for every
/// finite game that ends: order the components by the longest play from
/// them. A component without options is the zero game and maps to the
/// identity.
///
/// The quotient is built component by component exactly as [`quotient`]
/// builds it heap by heap, and each step is verified the same way, so the
/// result is exact for every sum of the components. In the errors, `heap`
/// is the number of the component being added.
///
/// ```
/// use nimatron::misere::{quotient_of_components, QuotientLimits};
///
/// // Nim heaps of 1, 2 and 3 as components: heap k moves to any smaller heap.
/// let options = vec![
///     vec![],
///     vec![vec![]],
///     vec![vec![], vec![1]],
///     vec![vec![], vec![1], vec![2]],
/// ];
/// let q = quotient_of_components(&options, &QuotientLimits::default())?;
/// assert_eq!(q.presentation(), "⟨a, b | a^2 = 1, b^3 = b⟩");
/// // Heaps 1 2 3: a·b·ab = b^2, in P: the player to move loses.
/// assert!(q.is_p_position(&[1, 2, 3]));
/// assert_eq!(q.element_name(q.image(3)), "ab");
/// # Ok::<(), nimatron::misere::QuotientError>(())
/// ```
pub fn quotient_of_components(
    options: &[Vec<Vec<usize>>],
    limits: &QuotientLimits,
) -> Result<ComponentQuotient, QuotientError> {
    let count = options.len().saturating_sub(1);
    if count > MAX_COMPONENTS {
        return Err(QuotientError::TooManyComponents { count });
    }
    let mut lists: Vec<Vec<Vec<u16>>> = vec![Vec::new()];
    for (component, list) in options.iter().enumerate().skip(1) {
        let mut converted: Vec<Vec<u16>> = Vec::with_capacity(list.len());
        for option in list {
            let mut parts: Vec<u16> = Vec::with_capacity(option.len());
            for &uses in option {
                if uses >= component {
                    return Err(QuotientError::OptionOrder { component, uses });
                }
                if uses > 0 {
                    parts.push(uses as u16);
                }
            }
            parts.sort_unstable();
            converted.push(parts);
        }
        converted.sort_unstable();
        converted.dedup();
        lists.push(converted);
    }
    let work = engine::build(|k| lists[k].clone(), count, *limits, |_| true)?;
    let monoid = QuotientMonoid::new(work);
    let images = monoid.images_of_work();
    Ok(ComponentQuotient { monoid, images })
}

/// The misère quotient of the sums of a finite set of components (see
/// [`quotient_of_components`]). It dereferences to its [`QuotientMonoid`].
#[derive(Clone, Debug)]
pub struct ComponentQuotient {
    monoid: QuotientMonoid,
    images: Vec<usize>,
}

impl Deref for ComponentQuotient {
    type Target = QuotientMonoid;
    fn deref(&self) -> &QuotientMonoid {
        &self.monoid
    }
}

impl ComponentQuotient {
    /// How many components (numbered `1..=components()`).
    pub fn components(&self) -> usize {
        self.images.len() - 1
    }

    /// The image of component `k` (0 is the identity).
    pub fn image(&self, k: usize) -> usize {
        self.images[k]
    }

    /// The images of components `0..=components()`.
    pub fn images(&self) -> &[usize] {
        &self.images
    }

    /// The image of a sum of components: the product of their images.
    pub fn image_of_position(&self, components: &[usize]) -> usize {
        self.monoid
            .product_of(components.iter().map(|&k| self.images[k]))
    }

    /// Whether a sum of components is a misère P-position.
    pub fn is_p_position(&self, components: &[usize]) -> bool {
        self.in_p(self.image_of_position(components))
    }

    /// The misère outcome of a sum of components.
    pub fn outcome(&self, components: &[usize]) -> Outcome {
        Outcome::from_to_move_wins(!self.is_p_position(components))
    }
}

/// The least period whose repetition is seen at least twice in full.
fn find_period(images: &[usize]) -> Option<ImagePeriod> {
    let to = images.len() - 1;
    for p in 1..=to / 2 {
        // The last heap n that differs from n - p.
        let mut e = 1;
        for n in (p + 1..=to).rev() {
            if images[n] != images[n - p] {
                e = n - p + 1;
                break;
            }
        }
        if e + 2 * p - 1 <= to {
            return Some(ImagePeriod {
                period: p as u64,
                preperiod: e as u64,
            });
        }
    }
    None
}

/// Whether the computed range covers the periodicity argument.
///
/// For a take-and-break game whose moves take at most `t` and leave at most
/// `h` heaps: if the images repeat with period `p` for heaps
/// `e..e + h·e + (h-1)·p + t` (up to `h·e + h·p + t - 1`), then every larger
/// heap has the same option images as the heap `p` below it, by the
/// argument of the octal periodicity theorem (Guy and Smith) with products
/// in `Q` in place of nim-sums; a heap whose option images equal an earlier
/// heap's is indistinguishable from it, so it adds nothing to the quotient.
fn provable(game: &HeapGame, to: u64, period: ImagePeriod) -> bool {
    let Rule::TakeBreak(t) = game.rule() else {
        return false;
    };
    if t.unequal {
        return false;
    }
    let h = t.max_heaps_left();
    let (e, p) = (period.preperiod, period.period);
    let n0 = h * e + (h - 1) * p + t.reach;
    to >= n0 + p - 1
}

impl QuotientMonoid {
    /// Presents a verified working quotient.
    fn new(work: Work) -> QuotientMonoid {
        debug_assert!(engine::is_reduced(&work));
        let built = presentation::present(&work);
        let mut id_of = vec![0usize; work.order()];
        for (id, &e) in built.element_of.iter().enumerate() {
            id_of[e as usize] = id;
        }
        let generators = built
            .generators
            .iter()
            .enumerate()
            .map(|(i, &(_, heap))| Generator {
                name: generator_name(i),
                heap,
            })
            .collect();
        let mut monoid = QuotientMonoid {
            work,
            generators,
            normal_forms: built.normal_forms,
            work_of: built.element_of,
            id_of,
            relations: built.relations,
            tame: false,
        };
        monoid.tame = monoid.is_tame();
        monoid
    }

    /// The element ids of the images of heaps (components) `0..=heaps`.
    fn images_of_work(&self) -> Vec<usize> {
        self.work
            .image
            .iter()
            .map(|&e| self.id_of[e as usize])
            .collect()
    }

    /// The product of any number of elements (the identity for none).
    pub fn product_of(&self, elements: impl IntoIterator<Item = usize>) -> usize {
        elements.into_iter().fold(0, |acc, x| self.product(acc, x))
    }

    /// The number of elements.
    pub fn order(&self) -> usize {
        self.work_of.len()
    }

    /// The generators, `a`, `b`, ...
    pub fn generators(&self) -> &[Generator] {
        &self.generators
    }

    /// The relations as `(left, right)` words.
    pub fn relations(&self) -> Vec<(String, String)> {
        self.relations
            .iter()
            .map(|(l, r)| (word_text(l), word_text(r)))
            .collect()
    }

    /// The relations as `left = right`.
    pub fn relations_text(&self) -> Vec<String> {
        self.relations()
            .into_iter()
            .map(|(l, r)| format!("{l} = {r}"))
            .collect()
    }

    /// The presentation in the usual form, `⟨a, b | a^2 = 1, b^3 = b⟩`.
    pub fn presentation(&self) -> String {
        let gens: Vec<&str> = self.generators.iter().map(|g| g.name.as_str()).collect();
        let rels = self.relations_text();
        if gens.is_empty() {
            return "⟨ | ⟩ (the trivial monoid)".into();
        }
        format!("⟨{} | {}⟩", gens.join(", "), rels.join(", "))
    }

    /// The normal-form word of element `id` (`0..order()`).
    pub fn element_name(&self, id: usize) -> String {
        word_text(&self.normal_forms[id])
    }

    /// Whether element `id` is in the P-portion.
    pub fn in_p(&self, id: usize) -> bool {
        self.work.p[self.work_of[id] as usize]
    }

    /// The P-portion, as element ids in presentation order.
    pub fn p_portion(&self) -> Vec<usize> {
        (0..self.order()).filter(|&id| self.in_p(id)).collect()
    }

    /// The product of two elements.
    pub fn product(&self, x: usize, y: usize) -> usize {
        self.id_of[self.work.mul(self.work_of[x], self.work_of[y]) as usize]
    }

    /// Whether the quotient is tame: isomorphic to the quotient of a set of
    /// Nim positions (Plambeck 2005, §5): the trivial monoid, `⟨a | a^2 = 1⟩`
    /// with P-portion `{a}`, or for `k >= 2` the monoid of order `2^k + 2`
    /// made of `1`, `a` (with `a^2 = 1`) and a group `(Z/2)^k` whose
    /// identity `e` and `a` form the P-portion.
    pub fn tame(&self) -> bool {
        self.tame
    }

    fn is_tame(&self) -> bool {
        let n = self.order();
        let mul = |x: usize, y: usize| self.product(x, y);
        let p = self.p_portion();
        match n {
            1 => return p.is_empty(),
            2 => return mul(1, 1) == 0 && p == [1],
            _ => {}
        }
        let k = (n - 2).trailing_zeros();
        if n > 4098 || (n - 2) != 1 << k || k < 2 {
            return false;
        }
        let squares_to_one: Vec<usize> = (1..n).filter(|&x| mul(x, x) == 0).collect();
        let [a] = squares_to_one[..] else {
            return false;
        };
        let group: Vec<usize> = (1..n).filter(|&x| x != a).collect();
        let Some(&e) = group
            .iter()
            .find(|&&e| group.iter().all(|&g| mul(e, g) == g))
        else {
            return false;
        };
        let closed = group.iter().all(|&g| {
            mul(g, g) == e
                && mul(a, g) != 0
                && mul(a, g) != a
                && group.iter().all(|&h| {
                    let gh = mul(g, h);
                    gh != 0 && gh != a
                })
        });
        closed && mul(a, e) != e && {
            let mut want = vec![a, e];
            want.sort_unstable();
            p == want
        }
    }
}

impl MisereQuotient {
    /// The game.
    pub fn game(&self) -> &HeapGame {
        &self.game
    }

    /// The largest heap asked for: [`images`](Self::images) covers heaps
    /// up to it.
    pub fn to(&self) -> u64 {
        self.to
    }

    /// The largest heap computed heap by heap (each step verified). It is
    /// below [`to`](Self::to) when the period was proven there: the images
    /// of the heaps above it follow from the period.
    pub fn computed_to(&self) -> u64 {
        self.computed_to
    }

    /// The image of heap `n`: known for `n <= to()`, and beyond when the
    /// periodicity is proven.
    pub fn image(&self, n: u64) -> Option<usize> {
        if n <= self.to {
            return Some(self.images[n as usize]);
        }
        let p = self.period.filter(|_| self.proven)?;
        let back = (n - self.to).div_ceil(p.period) * p.period;
        Some(self.images[(n - back) as usize])
    }

    /// The images of heaps `0..=to()` (heap 0 is the identity).
    pub fn images(&self) -> &[usize] {
        &self.images
    }

    /// The image of a sum of heaps, when every heap's image is known.
    pub fn image_of_position(&self, heaps: &[u64]) -> Option<usize> {
        heaps
            .iter()
            .try_fold(0usize, |acc, &h| Some(self.product(acc, self.image(h)?)))
    }

    /// Whether a sum of heaps is a misère P-position, when every heap's
    /// image is known.
    pub fn is_p_position(&self, heaps: &[u64]) -> Option<bool> {
        self.image_of_position(heaps).map(|id| self.in_p(id))
    }

    /// The misère outcome of a sum of heaps, when every heap's image is known.
    pub fn outcome(&self, heaps: &[u64]) -> Option<Outcome> {
        self.is_p_position(heaps)
            .map(|p| if p { Outcome::P } else { Outcome::N })
    }

    /// The heaps at which the quotient grew, with its order after each.
    pub fn growth(&self) -> &[(u64, usize)] {
        &self.growth
    }

    /// The heap from which on the quotient no longer changed (up to `to()`).
    pub fn stable_from(&self) -> u64 {
        self.growth.last().map_or(1, |&(h, _)| h)
    }

    /// The period of the heap images, if one is seen at least twice.
    pub fn period(&self) -> Option<ImagePeriod> {
        self.period
    }

    /// Whether the period is proven, so that this is the quotient of the
    /// whole game (every heap size), not only of heaps up to `to()`.
    pub fn proven(&self) -> bool {
        self.proven
    }
}

#[cfg(test)]
mod tests;
