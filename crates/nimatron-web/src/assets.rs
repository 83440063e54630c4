//! The browser UI: plain HTML, CSS and JavaScript, embedded in the binary so
//! that no front-end build or asset directory is needed at run time.

/// The one page; the script routes `/`, `/play/ID`, `/history`, `/explore`.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The application script.
pub const APP_JS: &str = include_str!("../assets/app.js");
/// The style sheet.
pub const APP_CSS: &str = include_str!("../assets/app.css");
/// The tab icon.
pub const FAVICON_SVG: &str = include_str!("../assets/favicon.svg");
