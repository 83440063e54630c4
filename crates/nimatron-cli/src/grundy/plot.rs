//! The `--plot` file: an SVG scatter plot of `G(n)` against `n`.
//!
//! Both axes are linear scales that the dots and the ticks share: a dot for
//! `G(n) = k` sits at exactly the height of the tick labelled `k`, and the
//! ticks are whole numbers at a round step (1, 2, 5, 10, 20, 50, …).

use nimatron::sequence::GrundySequence;

const W: f64 = 900.0;
const H: f64 = 420.0;
const LEFT: f64 = 60.0;
const TOP: f64 = 40.0;

/// A linear scale from `count` whole numbers `0..count` onto `length`
/// pixels starting at `start`: number `i` sits at the middle of its
/// `length / count` slot, so `0` and `count - 1` are half a slot inside the
/// frame. `flip` runs it upwards (for the y axis).
#[derive(Clone, Copy)]
struct Scale {
    count: f64,
    start: f64,
    length: f64,
    flip: bool,
}

impl Scale {
    fn at(&self, value: f64) -> f64 {
        let offset = (value + 0.5) * self.length / self.count;
        if self.flip {
            self.start + self.length - offset
        } else {
            self.start + offset
        }
    }
}

/// Buckets of whole numbers `0..count` when there are more of them than
/// pixels: `bucket(i)` and, for each bucket, the middle of the numbers it
/// holds, where its dot is drawn (within half a bucket, under a pixel, of
/// every number in it).
struct Buckets {
    count: usize,
    buckets: usize,
}

impl Buckets {
    fn new(count: usize, pixels: usize) -> Self {
        Buckets {
            count,
            buckets: count.min(pixels).max(1),
        }
    }

    fn of(&self, i: usize) -> usize {
        (i as u128 * self.buckets as u128 / self.count as u128) as usize
    }

    /// The middle of the numbers `i` with `of(i) == b`.
    fn middle(&self, b: usize) -> f64 {
        let first = (b as u128 * self.count as u128).div_ceil(self.buckets as u128);
        let next = ((b as u128 + 1) * self.count as u128).div_ceil(self.buckets as u128);
        (first + next - 1) as f64 / 2.0
    }
}

/// Whole-number ticks from 0 to `max` at a round step (1, 2 or 5 times a
/// power of ten), at most about `most` of them.
fn ticks(max: u64, most: u64) -> Vec<u64> {
    let mut step = 1u64;
    'find: loop {
        for m in [1, 2, 5] {
            let s = step.saturating_mul(m);
            if max / s < most {
                step = s;
                break 'find;
            }
        }
        step = step.saturating_mul(10);
    }
    (0..=max / step).map(|i| i * step).collect()
}

/// A scatter plot of G(n) against n, with a caption naming the game and N.
/// For large N each pixel column shows every value that occurs in its range
/// of n, so rare values stay visible.
pub(super) fn plot_svg(seq: &GrundySequence) -> String {
    let count = seq.values.len();
    let top_value = seq.summary.max_value as usize;
    // The y scale runs over 0..=max (at least 0..=1, so a constant sequence
    // still has an axis).
    let levels = top_value.max(1) + 1;
    let xs = Buckets::new(count, W as usize);
    let ys = Buckets::new(levels, H as usize);
    let x_scale = Scale {
        count: count as f64,
        start: LEFT,
        length: W,
        flip: false,
    };
    let y_scale = Scale {
        count: levels as f64,
        start: TOP,
        length: H,
        flip: true,
    };
    // occupied[c] = bit set of the y buckets used in x bucket c.
    let words = ys.buckets.div_ceil(64);
    let mut occupied = vec![0u64; xs.buckets * words];
    for (n, v) in seq.values.iter().enumerate() {
        let c = xs.of(n);
        let r = ys.of(v as usize);
        occupied[c * words + r / 64] |= 1 << (r % 64);
    }
    let radius = ((W / xs.buckets as f64).min(H / ys.buckets as f64) * 0.4).clamp(0.9, 3.0);
    let last = count - 1;
    let game = xml_escape(&seq.game.to_string());
    let code = seq
        .game
        .octal_code()
        .map(|c| format!(" (octal {c})"))
        .unwrap_or_default();
    let mut svg = String::new();
    svg.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n",
        W + LEFT + 20.0,
        H + TOP + 86.0
    ));
    svg.push_str(&format!(
        "<title>Grundy values of {game}, N = {last}</title>\n"
    ));
    svg.push_str("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    svg.push_str(&format!(
        "<text x=\"{LEFT}\" y=\"24\" font-size=\"15\">Grundy values G(n) of {game}{code}, n = 0 to N = {last}</text>\n"
    ));
    svg.push_str(&format!(
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{W}\" height=\"{H}\" fill=\"none\" stroke=\"#444\"/>\n"
    ));
    // x ticks: heap sizes.
    for n in ticks(last as u64, 10) {
        let x = x_scale.at(n as f64);
        svg.push_str(&format!(
            "<line class=\"x-tick\" x1=\"{x:.2}\" y1=\"{}\" x2=\"{x:.2}\" y2=\"{}\" stroke=\"#444\"/><text class=\"x-label\" x=\"{x:.2}\" y=\"{}\" text-anchor=\"middle\">{n}</text>\n",
            TOP + H,
            TOP + H + 5.0,
            TOP + H + 18.0,
        ));
    }
    // y ticks: values, with faint grid lines across the frame.
    for v in ticks(top_value.max(1) as u64, 10) {
        let y = y_scale.at(v as f64);
        svg.push_str(&format!(
            "<line x1=\"{LEFT}\" y1=\"{y:.2}\" x2=\"{}\" y2=\"{y:.2}\" stroke=\"#ddd\"/><line class=\"y-tick\" x1=\"{}\" y1=\"{y:.2}\" x2=\"{LEFT}\" y2=\"{y:.2}\" stroke=\"#444\"/><text class=\"y-label\" x=\"{}\" y=\"{y:.2}\" dy=\"4\" text-anchor=\"end\">{v}</text>\n",
            LEFT + W,
            LEFT - 5.0,
            LEFT - 8.0,
        ));
    }
    svg.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">heap size n</text>\n",
        LEFT + W / 2.0,
        TOP + H + 36.0
    ));
    svg.push_str(&format!(
        "<text x=\"16\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {})\">G(n)</text>\n",
        TOP + H / 2.0,
        TOP + H / 2.0
    ));
    let period = match seq.period {
        Some(p) if p.proven => format!("; period {}, preperiod {} (proven)", p.period, p.preperiod),
        Some(p) => format!(
            "; apparent period {}, preperiod {} (not proven)",
            p.period, p.preperiod
        ),
        None => String::new(),
    };
    let per_dot = if xs.buckets < count {
        let width = count as f64 / xs.buckets as f64;
        let width = if width < 10.0 {
            format!("{width:.1}")
        } else {
            format!("{width:.0}")
        };
        format!(
            "Each column of dots covers about {width} heap sizes and shows every value among them."
        )
    } else {
        "One dot per heap size.".to_string()
    };
    svg.push_str(&format!(
        "<text class=\"caption\" x=\"{LEFT}\" y=\"{}\">{game}{code}, N = {last}: largest value {top_value}{period}.</text>\n<text x=\"{LEFT}\" y=\"{}\">{per_dot}</text>\n",
        TOP + H + 58.0,
        TOP + H + 74.0
    ));
    svg.push_str("<g fill=\"#1f4e9c\">\n");
    for c in 0..xs.buckets {
        let cx = x_scale.at(xs.middle(c));
        for wi in 0..words {
            let mut w = occupied[c * words + wi];
            while w != 0 {
                let r = wi * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                svg.push_str(&format!(
                    "<circle cx=\"{cx:.2}\" cy=\"{:.2}\" r=\"{radius:.2}\"/>",
                    y_scale.at(ys.middle(r))
                ));
            }
        }
        svg.push('\n');
    }
    svg.push_str("</g>\n</svg>\n");
    svg
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_whole_numbers_covering_the_range() {
        assert_eq!(ticks(1, 10), vec![0, 1]);
        assert_eq!(ticks(8, 10), (0..=8).collect::<Vec<_>>());
        assert_eq!(ticks(9, 10), (0..=9).collect::<Vec<_>>());
        assert_eq!(ticks(10, 10), vec![0, 2, 4, 6, 8, 10]);
        assert_eq!(ticks(1000, 10), vec![0, 200, 400, 600, 800, 1000]);
        assert_eq!(ticks(37, 10), vec![0, 5, 10, 15, 20, 25, 30, 35]);
        assert_eq!(ticks(u64::MAX, 10).len(), 10); // a step of 2·10^18, no overflow
    }

    #[test]
    fn buckets_hold_every_number_once_and_draw_it_within_half_a_bucket() {
        for (count, pixels) in [(10, 900), (901, 900), (1001, 900), (10_000_001, 900)] {
            let b = Buckets::new(count, pixels);
            let width = count as f64 / b.buckets as f64;
            for i in (0..count).step_by((count / 5000).max(1)).chain([count - 1]) {
                let bucket = b.of(i);
                assert!(bucket < b.buckets);
                assert!(
                    (b.middle(bucket) - i as f64).abs() <= width / 2.0,
                    "{count} {i}"
                );
            }
        }
    }
}
