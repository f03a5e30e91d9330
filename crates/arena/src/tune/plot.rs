//! The tuning curve as an SVG picture: each generation's champion's score
//! against the start weights, with its 95% interval, and the final
//! verification beside it. Plain SVG text, readable by any browser.

use crate::stats::Tally;
use std::fmt::Write as _;

/// One point of the curve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurvePoint {
    pub generation: u32,
    pub tally: Tally,
}

const WIDTH: f64 = 820.0;
const HEIGHT: f64 = 460.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;

/// Escapes text for SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The picture. `verification` is the final, longer match of the champion
/// (drawn after the last generation, in another colour).
pub fn curve_svg(title: &str, points: &[CurvePoint], verification: Option<Tally>) -> String {
    let last = points
        .iter()
        .map(|p| p.generation)
        .max()
        .unwrap_or(1)
        .max(1);
    let x_max = last as f64 + if verification.is_some() { 1.5 } else { 0.5 };
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |g: f64| LEFT + (g / x_max) * plot_w;
    let y = |score: f64| TOP + (1.0 - score) * plot_h;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="24" text-anchor="middle" font-size="15">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
    // Horizontal grid and the score axis.
    for percent in (0..=100).step_by(10) {
        let s = percent as f64 / 100.0;
        let (stroke, dash) = if percent == 50 {
            ("#888", r#" stroke-dasharray="6 4""#)
        } else {
            ("#e4e4e4", "")
        };
        let _ = writeln!(
            svg,
            r#"<line x1="{LEFT}" y1="{yy:.1}" x2="{x2:.1}" y2="{yy:.1}" stroke="{stroke}"{dash}/>"#,
            yy = y(s),
            x2 = WIDTH - RIGHT
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{:.1}" text-anchor="end">{percent}%</text>"#,
            LEFT - 8.0,
            y(s) + 4.0
        );
    }
    // Generation ticks: about ten of them.
    let step = ((last as f64 / 10.0).ceil() as u32).max(1);
    let mut g = 0;
    while g <= last {
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{g}</text>"#,
            x(g as f64),
            HEIGHT - BOTTOM + 18.0
        );
        g += step;
    }
    let _ = writeln!(
        svg,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#444"/>"##
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">generation</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 18.0
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle">score against the start weights</text>"#,
        TOP + plot_h / 2.0
    );
    // The curve, then error bars and points on top.
    let path: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", x(p.generation as f64), y(p.tally.score())))
        .collect();
    if path.len() > 1 {
        let _ = writeln!(
            svg,
            r##"<polyline points="{}" fill="none" stroke="#3a6fb0" stroke-width="1.5"/>"##,
            path.join(" ")
        );
    }
    for p in points {
        error_bar(&mut svg, x(p.generation as f64), &p.tally, &y, "#3a6fb0");
    }
    if let Some(tally) = verification {
        let vx = x(last as f64 + 1.0);
        error_bar(&mut svg, vx, &tally, &y, "#c0392b");
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#c0392b">final check of the last champion: {:.1}% over {} games</text>"##,
            WIDTH - RIGHT,
            TOP - 8.0,
            100.0 * tally.score(),
            tally.games()
        );
    }
    let per_generation = points.first().map_or(0, |p| p.tally.games());
    let _ = writeln!(
        svg,
        r##"<text x="{LEFT}" y="{:.1}" fill="#555">each point: the champion over {per_generation} games; bars: 95% (Wilson)</text>"##,
        TOP - 8.0
    );
    svg.push_str("</svg>\n");
    svg
}

fn error_bar(svg: &mut String, cx: f64, tally: &Tally, y: &impl Fn(f64) -> f64, colour: &str) {
    let (low, high) = tally.score_interval();
    let _ = writeln!(
        svg,
        r#"<line x1="{cx:.1}" y1="{:.1}" x2="{cx:.1}" y2="{:.1}" stroke="{colour}"/>"#,
        y(low),
        y(high)
    );
    for end in [low, high] {
        let _ = writeln!(
            svg,
            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}"/>"#,
            cx - 4.0,
            y(end),
            cx + 4.0,
            y(end)
        );
    }
    let _ = writeln!(
        svg,
        r#"<circle cx="{cx:.1}" cy="{:.1}" r="3.5" fill="{colour}"><title>{}: +{} ={} -{}</title></circle>"#,
        y(tally.score()),
        format_args!("{:.1}%", 100.0 * tally.score()),
        tally.wins,
        tally.draws,
        tally.losses
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_has_a_point_per_generation() {
        let points: Vec<CurvePoint> = (1..=5)
            .map(|g| CurvePoint {
                generation: g,
                tally: Tally {
                    wins: g,
                    draws: 2,
                    losses: 8 - g.min(6),
                },
            })
            .collect();
        let verification = Tally {
            wins: 90,
            draws: 40,
            losses: 70,
        };
        let svg = curve_svg("draughts <tuning>", &points, Some(verification));
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<circle").count(), 6);
        assert!(svg.contains("draughts &lt;tuning&gt;"));
        assert!(svg.contains("final check of the last champion: 55.0% over 200 games"));
    }
}
