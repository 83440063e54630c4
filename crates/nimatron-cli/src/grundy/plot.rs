//! The `--plot` file: an SVG scatter plot of `G(n)` against `n`.

use nimatron::sequence::GrundySequence;

/// A scatter plot of G(n) against n. For large N each pixel column shows
/// every value that occurs in its range of n, so rare values stay visible.
pub(super) fn plot_svg(seq: &GrundySequence) -> String {
    const W: f64 = 900.0;
    const H: f64 = 420.0;
    const LEFT: f64 = 60.0;
    const TOP: f64 = 40.0;
    let count = seq.values.len();
    let max_v = seq.summary.max_value.max(1) as usize;
    let columns = count.min(W as usize);
    let rows = (max_v + 1).min(H as usize);
    // occupied[c] = bit set of rows used in column c.
    let words = rows.div_ceil(64);
    let mut occupied = vec![0u64; columns * words];
    for (n, v) in seq.values.iter().enumerate() {
        let c = n * columns / count;
        let r = v as usize * rows / (max_v + 1);
        occupied[c * words + r / 64] |= 1 << (r % 64);
    }
    let x_of = |c: f64| LEFT + (c + 0.5) * W / columns as f64;
    let y_of = |r: f64| TOP + H - (r + 0.5) * H / rows as f64;
    let radius = (W / columns as f64).min(H / rows as f64).clamp(0.6, 2.5) * 0.6;
    let mut svg = String::new();
    svg.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n",
        W + LEFT + 20.0,
        H + TOP + 50.0
    ));
    svg.push_str("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    let title = format!(
        "Grundy values of {} for n = 0..{}",
        xml_escape(&seq.game.to_string()),
        count - 1
    );
    svg.push_str(&format!(
        "<text x=\"{LEFT}\" y=\"24\" font-size=\"15\">{title}</text>\n"
    ));
    svg.push_str(&format!(
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{W}\" height=\"{H}\" fill=\"none\" stroke=\"#444\"/>\n"
    ));
    // Axis ticks.
    for i in 0..=5 {
        let n = (count - 1) as f64 * i as f64 / 5.0;
        let x = LEFT + W * i as f64 / 5.0;
        svg.push_str(&format!(
            "<line x1=\"{x:.1}\" y1=\"{}\" x2=\"{x:.1}\" y2=\"{}\" stroke=\"#444\"/><text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            TOP + H,
            TOP + H + 5.0,
            TOP + H + 18.0,
            n.round()
        ));
        let v = max_v as f64 * i as f64 / 5.0;
        let y = TOP + H - H * i as f64 / 5.0;
        svg.push_str(&format!(
            "<line x1=\"{}\" y1=\"{y:.1}\" x2=\"{LEFT}\" y2=\"{y:.1}\" stroke=\"#444\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            LEFT - 5.0,
            LEFT - 8.0,
            y + 4.0,
            v.round()
        ));
    }
    svg.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">heap size n</text>\n",
        LEFT + W / 2.0,
        TOP + H + 38.0
    ));
    svg.push_str(&format!(
        "<text x=\"16\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {})\">G(n)</text>\n",
        TOP + H / 2.0,
        TOP + H / 2.0
    ));
    svg.push_str("<g fill=\"#1f4e9c\">\n");
    for c in 0..columns {
        for wi in 0..words {
            let mut w = occupied[c * words + wi];
            while w != 0 {
                let r = wi * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                svg.push_str(&format!(
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{radius:.2}\"/>",
                    x_of(c as f64),
                    y_of(r as f64)
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
