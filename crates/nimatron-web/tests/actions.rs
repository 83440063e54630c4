//! Take-backs, resignation, agreeing to the analysis, and rematches,
//! checked through the HTTP API against the game records they must leave.

mod common;

use common::{Events, TestServer, bouton_move, fresh_db, heaps, nim_move, test_db};
use serde_json::{Value, json};

fn undo(s: &TestServer, id: &str, token: &str, body: &str) -> (u16, Value) {
    s.post_as(&format!("/api/games/{id}/undo"), token, body)
}

fn resign(s: &TestServer, id: &str, token: &str) -> (u16, Value) {
    s.post_as(&format!("/api/games/{id}/resign"), token, "")
}

fn rematch(s: &TestServer, id: &str, token: &str) -> (u16, Value) {
    s.post_as(&format!("/api/games/{id}/rematch"), token, "")
}

fn consent(s: &TestServer, id: &str, token: &str, agree: bool) -> (u16, Value) {
    let body = json!({ "agree": agree }).to_string();
    s.post_as(&format!("/api/games/{id}/analysis-consent"), token, &body)
}

fn code(reply: &Value) -> &str {
    reply["error"]["code"].as_str().unwrap_or("")
}

/// Against the computer, an undo takes back the player's move and the
/// computer's reply together, and the record is as if neither was made.
#[test]
fn an_undo_against_the_computer_takes_back_the_move_and_the_reply() {
    let s = TestServer::start(test_db("undo-computer"));
    let (id, token, created) = s.create(r#"{"position":"3 4 5 6"}"#);
    assert_eq!(created["game"]["can_undo"], false, "no move yet");
    let (status, reply) = undo(&s, &id, &token, "");
    assert_eq!((status, code(&reply)), (409, "nothing_to_undo"), "{reply}");

    let (status, moved) = s.play(&id, &token, "A 1");
    assert_eq!(status, 200, "{moved}");
    let after_two = moved["game"].clone();
    assert_eq!(after_two["ply"], 2, "my move and the computer's reply");
    assert_eq!(after_two["can_undo"], true);

    // A take-back against an older view is refused.
    let (status, reply) = undo(&s, &id, &token, r#"{"ply":1}"#);
    assert_eq!((status, code(&reply)), (409, "stale_ply"), "{reply}");

    let (status, reply) = undo(&s, &id, &token, r#"{"ply":2}"#);
    assert_eq!(status, 200, "{reply}");
    let undone: Vec<_> = reply["undone"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["ply"].as_u64().unwrap(),
                m["by_computer"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(undone, [(1, false), (2, true)]);
    // The game as stored is the game at its start.
    let (_, game) = s.get(&format!("/api/games/{id}"));
    for view in [&reply["game"], &game] {
        assert_eq!(view["ply"], 0);
        assert_eq!(view["position"], "3 4 5 6");
        assert_eq!(view["to_move"], 0);
        assert_eq!(view["status"], "playing");
        assert_eq!(view["moves"], json!([]));
        assert_eq!(view["can_undo"], false);
    }
    // Play resumes from there, at ply 1 again.
    let (status, moved) = s.play(&id, &token, "B 2");
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["game"]["moves"][0]["notation"], "B 2");
    assert_eq!(moved["game"]["moves"][0]["ply"], 1);
}

/// When the computer moves first, its opening move is not the player's to
/// take back; and a lost game can be taken back to try again.
#[test]
fn an_undo_stops_at_the_computers_first_move_and_reopens_a_lost_game() {
    let s = TestServer::start(test_db("undo-first"));
    let (id, token, created) = s.create(r#"{"position":"1 2 4","first":"opponent"}"#);
    let game = &created["game"];
    assert_eq!(game["ply"], 1, "the computer opened");
    let (status, reply) = undo(&s, &id, &token, "");
    assert_eq!((status, code(&reply)), (409, "nothing_to_undo"), "{reply}");

    // The computer plays perfectly from a won position: play the game out.
    let mut game = game.clone();
    while game["status"] == "playing" {
        let mv = game["legal_moves"][0]["notation"]
            .as_str()
            .unwrap()
            .to_string();
        let (status, reply) = s.play(&id, &token, &mv);
        assert_eq!(status, 200, "{reply}");
        game = reply["game"].clone();
    }
    assert_eq!(game["winner"], 1, "{game}");
    let ply = game["ply"].as_u64().unwrap();
    let (status, reply) = undo(&s, &id, &token, "");
    assert_eq!(status, 200, "{reply}");
    let back = &reply["game"];
    assert_eq!(back["status"], "playing");
    assert_eq!(back["winner"], Value::Null);
    assert_eq!(back["to_move"], 0);
    // Back to the position before the player's last move.
    let last_human = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|m| m["by_computer"] == false)
        .unwrap();
    assert_eq!(back["position"], last_human["before"]);
    assert_eq!(
        back["ply"].as_u64().unwrap(),
        last_human["ply"].as_u64().unwrap() - 1
    );
    assert!(back["ply"].as_u64().unwrap() < ply);
}

/// At one screen an undo takes back exactly the last move, whoever made it,
/// and the seat to move resigns.
#[test]
fn at_one_screen_undo_takes_one_move_and_the_seat_to_move_resigns() {
    let s = TestServer::start(test_db("local"));
    let (id, token, _) = s.create(r#"{"opponent":"local","position":"3 4 5"}"#);
    assert_eq!(s.play(&id, &token, "A 1").0, 200);
    let (status, second) = s.play(&id, &token, "B 1");
    assert_eq!(status, 200, "{second}");
    let (status, reply) = undo(&s, &id, &token, "");
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["undone"].as_array().unwrap().len(), 1);
    assert_eq!(reply["game"]["position"], "2 4 5");
    assert_eq!(reply["game"]["to_move"], 1);

    let (status, view) = resign(&s, &id, &token);
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["status"], "over");
    assert_eq!(view["resigned"], 1, "seat 1 was to move");
    assert_eq!(view["winner"], 0);
    assert_eq!(view["legal_moves"], json!([]));
    assert_eq!(view["can_undo"], false, "a resignation stands");
    let (status, reply) = undo(&s, &id, &token, "");
    assert_eq!((status, code(&reply)), (409, "resigned"), "{reply}");
    let (status, reply) = resign(&s, &id, &token);
    assert_eq!((status, code(&reply)), (409, "game_over"), "{reply}");
    // Moves are refused once the game is over.
    let (status, reply) = s.play(&id, &token, "C 1");
    assert_eq!((status, code(&reply)), (409, "game_over"), "{reply}");
}

/// A resigned game against the computer: the rematch starts at once from
/// the same start with the computer moving first, and the old game names
/// it.
#[test]
fn a_rematch_against_the_computer_swaps_who_moves_first() {
    let s = TestServer::start(test_db("rematch-computer"));
    let (id, token, _) = s.create(r#"{"position":"3 4 5","level":"perfect"}"#);
    let (status, reply) = rematch(&s, &id, &token);
    assert_eq!((status, code(&reply)), (409, "game_not_over"), "{reply}");
    assert_eq!(s.play(&id, &token, "A 1").0, 200);
    let (status, view) = resign(&s, &id, &token);
    assert_eq!(status, 200, "{view}");
    assert_eq!(
        (view["resigned"].clone(), view["winner"].clone()),
        (json!(0), json!(1))
    );

    let (status, reply) = rematch(&s, &id, &token);
    assert_eq!(status, 201, "{reply}");
    let new = &reply["rematch"]["game"];
    let new_id = new["id"].as_str().unwrap();
    assert_ne!(new_id, id);
    assert_eq!(reply["rematch"]["token"], token.as_str(), "the same token");
    assert_eq!(reply["rematch"]["seat"], 0);
    assert_eq!(new["start"], "3 4 5");
    assert_eq!(new["first_seat"], 1, "the computer moves first this time");
    assert_eq!(new["ply"], 1, "and has moved");
    assert_eq!(new["to_move"], 0);
    // 3 4 5 is a win for the player to move: perfect play leaves a P-position.
    let h = heaps(new);
    assert_eq!(h.iter().fold(0, |a, b| a ^ b), 0, "{h:?}");
    assert!(bouton_move(&h).is_none());
    assert_eq!(reply["game"]["rematch"]["game"], new_id);
    let (_, old) = s.get(&format!("/api/games/{id}"));
    assert_eq!(old["rematch"]["game"], new_id);
    // Asked again: the same rematch, not another one.
    let (status, again) = rematch(&s, &id, &token);
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["rematch"]["game"]["id"], new_id);
    // The rematch is playable with the same token.
    let mv = nim_move(h.iter().position(|&x| x > 0).unwrap(), 1);
    let (status, reply) = s.play(new_id, &token, &mv);
    assert_eq!(status, 200, "{reply}");
}

/// Online: the analysis is shown only while both seats agree; a
/// resignation ends the game for both; the rematch is made when both have
/// asked, and each step reaches the other player's event stream.
#[test]
fn online_analysis_needs_both_seats_and_a_rematch_reaches_the_friend() {
    let s = TestServer::start(test_db("online"));
    let (id, token0, created) = s.create(r#"{"opponent":"online","position":"2 3"}"#);
    let invite = created["invite"].as_str().unwrap();
    let analysis = format!("/api/games/{id}/analysis");
    let (status, reply) = consent(&s, &id, &token0, true);
    assert_eq!(status, 200, "agreeing while waiting is noted: {reply}");
    let (status, joined) = s.post(
        &format!("/api/games/{id}/join"),
        &json!({ "invite": invite }).to_string(),
    );
    assert_eq!(status, 200, "{joined}");
    let token1 = joined["token"].as_str().unwrap().to_string();
    assert_eq!(
        joined["game"]["analysis"],
        json!({"shown": false, "agreed": [true, false]})
    );
    assert_eq!(joined["game"]["can_undo"], false);

    let (status, reply) = s.get(&analysis);
    assert_eq!(
        (status, code(&reply)),
        (403, "analysis_not_agreed"),
        "{reply}"
    );
    let mut events = Events::open(s.addr, &id);
    events.next_state();
    let (status, view) = consent(&s, &id, &token1, true);
    assert_eq!(status, 200, "{view}");
    assert_eq!(
        view["analysis"],
        json!({"shown": true, "agreed": [true, true]})
    );
    assert_eq!(events.next_state()["analysis"]["shown"], true);
    let (status, reply) = s.get(&analysis);
    assert_eq!(status, 200, "{reply}");
    assert!(reply["current"].is_object());
    // Either seat may withdraw.
    let (status, view) = consent(&s, &id, &token0, false);
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["analysis"]["agreed"], json!([false, true]));
    assert_eq!(s.get(&analysis).0, 403);
    events.next_state();

    // Neither seat can take a move back online.
    assert_eq!(s.play(&id, &token0, "A 1").0, 200);
    events.next_state();
    let (status, reply) = undo(&s, &id, &token0, "");
    assert_eq!(
        (status, code(&reply)),
        (409, "no_takebacks_online"),
        "{reply}"
    );

    // Seat 1 resigns (a seat may resign on either turn); seat 0's page
    // hears of it.
    let (status, view) = resign(&s, &id, &token1);
    assert_eq!(status, 200, "{view}");
    let heard = events.next_state();
    assert_eq!(
        (heard["status"].clone(), heard["winner"].clone()),
        (json!("over"), json!(0))
    );
    assert_eq!(heard["resigned"], 1);
    // Over: the analysis is shown to everyone.
    assert_eq!(s.get(&analysis).0, 200);

    // A rematch: offered by seat 1, heard by seat 0, made when seat 0 asks.
    let (status, reply) = rematch(&s, &id, &token1);
    assert_eq!(status, 202, "{reply}");
    assert_eq!(reply["rematch"], Value::Null);
    let heard = events.next_state();
    assert_eq!(
        heard["rematch"],
        json!({"offered": [false, true], "game": null})
    );
    let (status, reply) = rematch(&s, &id, &token0);
    assert_eq!(status, 201, "{reply}");
    let new_id = reply["rematch"]["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(reply["rematch"]["seat"], 0);
    assert_eq!(events.next_state()["rematch"]["game"], new_id.as_str());
    // The friend gets the same rematch with their own seat and token.
    let (status, theirs) = rematch(&s, &id, &token1);
    assert_eq!(status, 200, "{theirs}");
    assert_eq!(theirs["rematch"]["game"]["id"], new_id.as_str());
    assert_eq!(theirs["rematch"]["seat"], 1);
    assert_eq!(theirs["rematch"]["token"], token1.as_str());
    let new = &theirs["rematch"]["game"];
    assert_eq!(new["status"], "playing", "both seats are taken");
    assert_eq!(new["first_seat"], 1);
    assert_eq!(new["position"], "2 3");
    assert_eq!(new["analysis"]["shown"], false, "agreement starts afresh");
    // Seat 1 moves first in the rematch, with the token it already holds.
    let (status, reply) = s.play(&new_id, &token0, "A 1");
    assert_eq!((status, code(&reply)), (409, "not_your_turn"), "{reply}");
    let (status, reply) = s.play(&new_id, &token1, "A 1");
    assert_eq!(status, 200, "{reply}");
}

/// Tokens still guard every act, and consent is only for online games.
#[test]
fn every_act_needs_the_seat_token() {
    let s = TestServer::start(test_db("tokens"));
    let (id, token, _) = s.create(r#"{"position":"3 4 5"}"#);
    for (path, body) in [
        ("undo", "{}"),
        ("resign", ""),
        ("rematch", "{}"),
        ("analysis-consent", r#"{"agree":true}"#),
    ] {
        let path = format!("/api/games/{id}/{path}");
        let (status, reply) = s.post(&path, body);
        assert_eq!(
            (status, code(&reply)),
            (401, "missing_token"),
            "{path}: {reply}"
        );
        let (status, reply) = s.post_as(&path, "0123", body);
        assert_eq!(
            (status, code(&reply)),
            (403, "wrong_token"),
            "{path}: {reply}"
        );
    }
    let (status, reply) = consent(&s, &id, &token, true);
    assert_eq!((status, code(&reply)), (409, "not_online"), "{reply}");
    let (status, reply) = s.post_as(&format!("/api/games/{id}/undo"), &token, r#"{"ply":"x"}"#);
    assert_eq!((status, code(&reply)), (400, "bad_json"), "{reply}");
    // A body is an object, never an array of its fields (found by
    // schemathesis: `[]` was read as `{}`, and `[0]` as `{"ply": 0}`).
    for body in ["[]", "[0]", " [null]", "0", "\"x\"", "null"] {
        for act in ["undo", "resign", "rematch", "computer-move"] {
            let (status, reply) = s.post_as(&format!("/api/games/{id}/{act}"), &token, body);
            assert_eq!(
                (status, code(&reply)),
                (400, "bad_json"),
                "{act} {body}: {reply}"
            );
        }
    }
    // Nothing above changed the game.
    let (_, game) = s.get(&format!("/api/games/{id}"));
    assert_eq!(
        (game["ply"].clone(), game["status"].clone()),
        (json!(0), json!("playing"))
    );
}

/// A database written before these columns existed opens, gains them, and
/// its games play on.
#[test]
fn an_older_database_gains_the_new_columns() {
    let path = fresh_db("older");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE games (
                id TEXT PRIMARY KEY, spec TEXT NOT NULL, convention TEXT NOT NULL,
                mode TEXT NOT NULL, level TEXT, computer_seat INTEGER, start TEXT NOT NULL,
                first_seat INTEGER NOT NULL, position TEXT NOT NULL, to_move INTEGER NOT NULL,
                ply INTEGER NOT NULL, status TEXT NOT NULL, winner INTEGER,
                token0 TEXT NOT NULL, token1 TEXT, invite TEXT, rng INTEGER NOT NULL,
                created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
             CREATE TABLE moves (
                game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
                seat INTEGER NOT NULL, notation TEXT NOT NULL, text TEXT NOT NULL,
                before TEXT NOT NULL, after TEXT NOT NULL, by_computer INTEGER NOT NULL,
                created_at INTEGER NOT NULL, PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
             INSERT INTO games VALUES ('0123456789abcdef', 'nim', 'normal', 'computer',
                'perfect', 1, '3 4 5', 0, '3 4 5', 0, 0, 'playing', NULL,
                'tok', NULL, NULL, 7, 1, 1);",
        )
        .unwrap();
    }
    let s = TestServer::start(&path);
    let (status, game) = s.get("/api/games/0123456789abcdef");
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["resigned"], Value::Null);
    assert_eq!(
        game["rematch"],
        json!({"offered": [false, false], "game": null})
    );
    let (status, reply) = s.play("0123456789abcdef", "tok", "A 1");
    assert_eq!(status, 200, "{reply}");
    // The moves table gained `random` too: both moves are stored with it.
    let (_, game) = s.get("/api/games/0123456789abcdef");
    let moves = game["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 2, "{game}");
    assert!(moves.iter().all(|m| m["random"] == json!(false)), "{game}");
    let (status, reply) = resign(&s, "0123456789abcdef", "tok");
    assert_eq!(status, 200, "{reply}");
}

/// Remoteness of a Nim position in normal play by plain minimax: the winner
/// hurries to the end, the loser delays it.
fn nim_remoteness(heaps: &mut Vec<u64>) -> (bool, u64) {
    let mut best_win: Option<u64> = None;
    let mut longest_loss = 0;
    let mut any = false;
    for i in 0..heaps.len() {
        for take in 1..=heaps[i] {
            any = true;
            heaps[i] -= take;
            let (wins, r) = nim_remoteness(heaps);
            heaps[i] += take;
            if !wins {
                best_win = Some(best_win.map_or(r, |b| b.min(r)));
            } else {
                longest_loss = longest_loss.max(r);
            }
        }
    }
    match (any, best_win) {
        (false, _) => (false, 0),
        (true, Some(r)) => (true, r + 1),
        (true, None) => (false, longest_loss + 1),
    }
}

/// The analysis values every position of the game, from the start: who
/// wins it and in how many moves, as plain minimax says.
#[test]
fn the_value_history_is_every_position_valued_by_minimax() {
    let s = TestServer::start(test_db("values"));
    let (id, token, _) = s.create(r#"{"opponent":"local","position":"2 3 4"}"#);
    for mv in ["C 1", "B 2", "A 2", "C 1"] {
        let (status, reply) = s.play(&id, &token, mv);
        assert_eq!(status, 200, "{mv}: {reply}");
    }
    let (status, a) = s.get(&format!("/api/games/{id}/analysis"));
    assert_eq!(status, 200, "{a}");
    let (_, game) = s.get(&format!("/api/games/{id}"));
    let mut positions = vec![game["start"].as_str().unwrap().to_string()];
    for m in game["moves"].as_array().unwrap() {
        positions.push(m["after"].as_str().unwrap().to_string());
    }
    let values = a["values"].as_array().unwrap();
    assert_eq!(values.len(), positions.len());
    for (k, (v, text)) in values.iter().zip(&positions).enumerate() {
        let mut heaps: Vec<u64> = text.split(' ').map(|x| x.parse().unwrap()).collect();
        let (wins, remoteness) = nim_remoteness(&mut heaps);
        let to_move = (k % 2) as u64;
        assert_eq!(v["ply"], k as u64, "{v}");
        assert_eq!(v["to_move"], to_move, "{v}");
        assert_eq!(v["outcome"], if wins { "N" } else { "P" }, "{text}: {v}");
        let winner = if wins { to_move } else { 1 - to_move };
        assert_eq!(v["winner"], winner, "{text}: {v}");
        assert_eq!(
            v["remoteness"],
            json!({"moves": remoteness, "exact": true}),
            "{text}: {v}"
        );
        // A winning move is named exactly where one exists, and it leaves
        // a nim-sum of 0: "… heap C (4 → 1)" or "… heap A (leaving it
        // empty)".
        match v["winning_move"].as_str() {
            None => assert!(!wins, "{text}: {v}"),
            Some(words) => {
                assert!(wins, "{text}: {v}");
                let letter = words.split("heap ").nth(1).unwrap().chars().next().unwrap();
                let i = (letter as u8 - b'A') as usize;
                let to: u64 = match words.split("→ ").nth(1) {
                    Some(rest) => rest.trim_end_matches(')').parse().unwrap(),
                    None if words.contains("leaving it empty") => 0,
                    None => panic!("{words}"),
                };
                heaps[i] = to;
                assert_eq!(heaps.iter().fold(0, |x, y| x ^ y), 0, "{text}: {words}");
            }
        }
    }
    // The first move (C 1 from 2 3 4) threw the win away: the review names
    // the winning move there was.
    let first = &a["history"][0];
    assert_eq!(first["value"], "blunder", "{first}");
    assert_eq!(first["better"], values[0]["winning_move"], "{first}");
    for r in a["history"].as_array().unwrap() {
        assert_eq!(r["better"].is_null(), r["value"] != "blunder", "{r}");
    }
}
