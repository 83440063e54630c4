//! Every game of the catalogue, played through the API against the
//! computer under the first convention it offers: the first legal move each
//! turn, until the game ends or 30 plies pass. Every reply must succeed and the stored game must tell one
//! consistent story, each move checked again by the library.

mod common;

use common::{TestServer, concrete, fresh_db};
use nimatron::TextGame;
use nimatron::{Game, GameSpec};
use serde_json::{Value, json};

const MAX_PLIES: u64 = 30;

/// The stored game tells one story: moves chain from the start to the
/// position, seats alternate, each move is legal by the library and leads
/// where the record says, and the status and winner follow from the rules.
fn check_consistent(game: &dyn Game, g: &Value) {
    let spec = g["game"].as_str().unwrap();
    let moves = g["moves"].as_array().unwrap();
    assert_eq!(
        g["ply"].as_u64().unwrap(),
        moves.len() as u64,
        "{spec}: {g}"
    );
    let mut position = g["start"].as_str().unwrap().to_string();
    let mut seat = g["first_seat"].as_u64().unwrap();
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["ply"], i as u64 + 1, "{spec}: {m}");
        assert_eq!(m["seat"], seat, "{spec}: seats alternate: {m}");
        assert_eq!(m["before"], position.as_str(), "{spec}: {m}");
        let info = game
            .parse_move_text(&position, m["notation"].as_str().unwrap())
            .unwrap_or_else(|e| panic!("{spec}: stored move {m} is not legal: {e}"));
        assert_eq!(m["after"], info.to_text.as_str(), "{spec}: {m}");
        position = info.to_text;
        seat = 1 - seat;
    }
    assert_eq!(g["position"], position.as_str(), "{spec}");
    assert_eq!(g["to_move"], seat, "{spec}");
    let legal = game.legal_moves_text(&position).unwrap();
    let over = legal.is_empty();
    assert_eq!(g["status"] == "over", over, "{spec}: {g}");
    if over {
        // Normal play: whoever moved last (the seat not to move) wins;
        // misère play: that seat loses.
        let winner = if g["convention"] == "misere" {
            seat
        } else {
            1 - seat
        };
        assert_eq!(g["winner"], winner, "{spec}: {g}");
        assert!(g["legal_moves"].as_array().unwrap().is_empty());
    } else {
        assert!(g["winner"].is_null(), "{spec}: {g}");
        let listed: Vec<&str> = g["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["notation"].as_str().unwrap())
            .collect();
        let expected: Vec<&str> = legal.iter().map(|m| m.notation.as_str()).collect();
        assert_eq!(listed, expected, "{spec}");
    }
}

#[test]
fn every_catalogue_game_plays_through_the_api() {
    let server = TestServer::start(fresh_db("catalogue"));
    let mut played = Vec::new();
    for entry in GameSpec::CATALOGUE {
        let spec_text = concrete(entry.syntax);
        let spec: GameSpec = spec_text.parse().unwrap();
        let game = spec.build().unwrap_or_else(|e| panic!("{spec_text}: {e}"));
        let start = game
            .start_position()
            .unwrap_or_else(|| game.description().example.to_string());
        // A game that fixes its own ending is played the one way it offers.
        let convention = game.conventions()[0].name();
        let body = json!({
            "game": spec_text, "position": start, "first": "you",
            "opponent": "computer", "level": "perfect", "convention": convention,
        })
        .to_string();
        let (id, token, reply) = server.create(&body);
        let mut g = reply["game"].clone();
        assert_eq!(g["game"], spec.to_string().as_str());
        check_consistent(game.as_ref(), &g);
        while g["status"] == "playing" && g["ply"].as_u64().unwrap() < MAX_PLIES {
            let before = g["position"].as_str().unwrap().to_string();
            let mv = g["legal_moves"][0]["notation"]
                .as_str()
                .unwrap()
                .to_string();
            let (status, reply) = server.play(&id, &token, &mv);
            assert!(
                (200..300).contains(&status),
                "{spec_text}: move '{mv}' at '{before}': {status} {reply}"
            );
            let applied = reply["applied"].as_array().unwrap();
            assert_eq!(applied[0]["notation"], mv.as_str(), "{spec_text}");
            assert_eq!(applied[0]["before"], before.as_str(), "{spec_text}");
            assert!(applied.len() <= 2, "{spec_text}: one reply at most");
            g = reply["game"].clone();
            check_consistent(game.as_ref(), &g);
        }
        // What the server stored is what it replied.
        let (status, stored) = server.get(&format!("/api/games/{id}"));
        assert_eq!(status, 200, "{spec_text}: {stored}");
        assert_eq!(stored, g, "{spec_text}");
        check_consistent(game.as_ref(), &stored);
        played.push((spec_text, g["ply"].as_u64().unwrap(), g["status"].clone()));
    }
    eprintln!("{played:?}");
    assert_eq!(played.len(), GameSpec::CATALOGUE.len());
    // Every game got going: at least one move by each side.
    for (spec, ply, _) in &played {
        assert!(*ply >= 2, "{spec}: only {ply} moves: {played:?}");
    }
}

/// The catalogue says which games the Explore page takes, and the explore
/// endpoint agrees: a value plot for each of them, `not_a_heap_game` for
/// the others.
#[test]
fn the_catalogue_lists_the_games_explore_takes() {
    let server = TestServer::start(fresh_db("catalogue-explore"));
    let (status, catalogue) = server.get("/api/catalogue");
    assert_eq!(status, 200);
    let mut explorable = Vec::new();
    for entry in catalogue["games"].as_array().unwrap() {
        let Some(spec) = entry["spec"].as_str() else {
            continue;
        };
        let path = format!("/api/explore?game={spec}&to=12&heaps=1&max=6");
        let (status, reply) = server.get(&path);
        if entry["explore"] == true {
            explorable.push(spec.to_string());
            assert_eq!(status, 200, "{spec}: {reply}");
            // Values to 12, or a reason there are none (greedy Nim has
            // no single-heap values), and P-positions either way.
            let values = reply["values"].as_array().map_or(0, Vec::len);
            assert!(
                values == 13 || reply["values_error"].is_string(),
                "{spec}: {reply}"
            );
            assert!(reply["p_positions"].is_array(), "{spec}: {reply}");
        } else {
            assert_eq!(status, 422, "{spec}: {reply}");
            assert_eq!(reply["error"]["code"], "not_a_heap_game", "{spec}");
        }
    }
    for expected in ["nim", "kayles", "dawson", "grundy-game"] {
        assert!(
            explorable.iter().any(|s| s.starts_with(expected)),
            "{expected} in {explorable:?}"
        );
    }
}
