//! The browser UI: plain HTML, CSS and JavaScript modules, embedded in the
//! binary so that no front-end build or asset directory is needed at run
//! time.

/// The one page; its script routes `/`, `/play/ID`, `/history`, `/explore`.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The style sheet.
pub const APP_CSS: &str = include_str!("../assets/app.css");
/// The tab icon.
pub const FAVICON_SVG: &str = include_str!("../assets/favicon.svg");

/// Each module's name with its text, embedded from `assets/js/`.
macro_rules! modules {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../assets/js/", $name)))),*]
    };
}

/// The application's JavaScript modules, served under `/assets/js/NAME`:
/// `main.js` is the entry the page loads, and the others are what it
/// imports, by relative path.
pub const MODULES: &[(&str, &str)] = modules![
    "main.js",
    "router.js",
    "dom.js",
    "api.js",
    "new-game.js",
    "history.js",
    "explore.js",
    "play.js",
    "play-state.js",
    "heap-board.js",
    "ring-board.js",
    "selection.js",
    "board.js",
    "shapes.js",
    "analysis.js",
];

/// An asset's entity tag: a hash of its bytes (FNV-1a, 64 bits), weak
/// because compression may change the bytes sent.
pub fn etag(body: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in body {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("W/\"{h:016x}-{}\"", body.len())
}

/// The module called `name`, if there is one.
pub fn module(name: &str) -> Option<&'static str> {
    MODULES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module left out of [`MODULES`] would be a 404 in the browser.
    #[test]
    fn every_module_in_the_folder_is_embedded() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/js");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".js"))
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> = MODULES.iter().map(|(n, _)| n.to_string()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk);
    }
}
