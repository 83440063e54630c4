//! The JSON API against a real server on an ephemeral port.

mod common;

use common::{
    Events, TestServer, bouton_move, check_nim_history, fresh_db, heaps, nim_move, raw_request,
};
use serde_json::{Value, json};

#[test]
fn a_full_game_against_the_perfect_computer() {
    let server = TestServer::start(fresh_db("full-game"));
    // 3 4 5 has nim-sum 2: the first player wins by Bouton's rule.
    let (id, token, reply) = server.create(r#"{"game":"nim","position":"3 4 5","first":"you"}"#);
    assert_eq!(reply["seat"], 0);
    let mut game = reply["game"].clone();
    assert_eq!(game["mode"], "computer");
    assert_eq!(game["level"], "perfect");
    let mut turns = 0;
    while game["status"] == "playing" {
        let (heap, take) = bouton_move(&heaps(&game)).expect("we keep a winning position");
        let (status, reply) = server.play(&id, &token, &nim_move(heap, take));
        assert_eq!(status, 200, "{reply}");
        let applied = reply["applied"].as_array().unwrap();
        assert_eq!(applied[0]["by_computer"], false);
        // The computer answers in the same reply unless the game is over.
        if reply["game"]["status"] == "playing" {
            assert_eq!(applied.len(), 2, "{reply}");
            assert_eq!(applied[1]["by_computer"], true);
        }
        game = reply["game"].clone();
        turns += 1;
        assert!(turns < 20);
    }
    assert_eq!(
        game["winner"], 0,
        "the player who took the last object wins"
    );
    check_nim_history(&game);
    let (status, stored) = server.get(&format!("/api/games/{id}"));
    assert_eq!(status, 200);
    assert_eq!(stored["moves"], game["moves"]);

    // Now let the computer have a winning position: from 1 3 5 7 (nim-sum 0)
    // we move first and play carelessly; the perfect computer must win, and
    // every computer move must leave nim-sum 0.
    let (id, token, reply) =
        server.create(r#"{"position":"1 3 5 7","first":"you","level":"perfect"}"#);
    let mut game = reply["game"].clone();
    while game["status"] == "playing" {
        let h = heaps(&game);
        let heap = h.iter().position(|&x| x > 0).unwrap();
        let (status, reply) = server.play(&id, &token, &nim_move(heap, 1));
        assert_eq!(status, 200, "{reply}");
        for m in reply["applied"].as_array().unwrap() {
            if m["by_computer"] == true {
                let after: Vec<u64> = m["after"]
                    .as_str()
                    .unwrap()
                    .split_whitespace()
                    .map(|w| w.parse().unwrap())
                    .collect();
                assert_eq!(after.iter().fold(0, |a, &x| a ^ x), 0, "{m}");
            }
        }
        game = reply["game"].clone();
    }
    assert_eq!(game["winner"], 1);
    check_nim_history(&game);

    // The analysis judges every move: ours threw nothing away (we started
    // lost), the computer's all kept the win.
    let (status, analysis) = server.get(&format!("/api/games/{id}/analysis"));
    assert_eq!(status, 200, "{analysis}");
    assert!(analysis["current"].is_null());
    for m in analysis["history"].as_array().unwrap() {
        let expected = if m["seat"] == 0 { "lost" } else { "winning" };
        assert_eq!(m["value"], expected, "{m}");
    }
}

#[test]
fn the_computer_moves_first_when_asked_and_misere_ends_the_other_way() {
    let server = TestServer::start(fresh_db("misere"));
    let (id, token, reply) =
        server.create(r#"{"position":"2 2","first":"opponent","convention":"misere"}"#);
    let game = &reply["game"];
    assert_eq!(game["first_seat"], 1);
    assert_eq!(game["ply"], 1, "the computer has already moved: {game}");
    assert_eq!(game["to_move"], 0);
    // Misère 2 2 is a P-position, so the computer starts lost; we play
    // carelessly. Whoever ends it, the rule must hold: in misère play the
    // seat that took the last object loses.
    let mut game = game.clone();
    while game["status"] == "playing" {
        let h = heaps(&game);
        let heap = h.iter().position(|&x| x > 0).unwrap();
        let (status, reply) = server.play(&id, &token, &nim_move(heap, 1));
        assert_eq!(status, 200, "{reply}");
        game = reply["game"].clone();
    }
    let moves = game["moves"].as_array().unwrap();
    let last_mover = moves.last().unwrap()["seat"].as_u64().unwrap();
    assert_eq!(game["winner"].as_u64().unwrap(), 1 - last_mover);
    check_nim_history(&game);
}

#[test]
fn an_online_game_with_two_seats_and_a_watcher() {
    let server = TestServer::start(fresh_db("online"));
    let (id, host, reply) =
        server.create(r#"{"position":"1 2","opponent":"online","first":"you"}"#);
    assert_eq!(reply["game"]["status"], "waiting");
    let invite = reply["invite"].as_str().unwrap().to_string();
    assert_eq!(
        reply["invite_url"].as_str().unwrap(),
        format!("/play/{id}?invite={invite}")
    );
    assert_ne!(invite, host);

    // Nobody moves before the second seat is taken.
    let (status, err) = server.play(&id, &host, "A 1");
    assert_eq!(status, 409, "{err}");
    assert_eq!(err["error"]["code"], "waiting_for_opponent");

    // A wrong invite code is refused; the right one hands out seat 1 once.
    let (status, err) = server.post(
        &format!("/api/games/{id}/join"),
        r#"{"invite":"00000000000000000000000000000000"}"#,
    );
    assert_eq!(status, 403, "{err}");
    assert_eq!(err["error"]["code"], "wrong_invite");
    let mut watcher = Events::open(server.addr, &id);
    assert_eq!(watcher.next_state()["status"], "waiting");
    let (status, joined) = server.post(
        &format!("/api/games/{id}/join"),
        &json!({ "invite": invite }).to_string(),
    );
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seat"], 1);
    let guest = joined["token"].as_str().unwrap().to_string();
    assert_ne!(guest, host);
    assert!(joined.get("invite").is_none(), "the guest gets no invite");
    assert_eq!(watcher.next_state()["status"], "playing");
    let (status, err) = server.post(
        &format!("/api/games/{id}/join"),
        &json!({ "invite": invite }).to_string(),
    );
    assert_eq!(status, 409, "{err}");
    assert_eq!(err["error"]["code"], "seat_taken");

    // Only the seat to move can move; others get a reason.
    let (status, err) = server.play(&id, &guest, "A 1");
    assert_eq!(status, 409, "{err}");
    assert_eq!(err["error"]["code"], "not_your_turn");
    let (status, err) = server.play(&id, "ffffffffffffffffffffffffffffffff", "A 1");
    assert_eq!(status, 403, "{err}");
    assert_eq!(err["error"]["code"], "wrong_token");
    let (status, err) = server.post(&format!("/api/games/{id}/moves"), r#"{"move":"A 1"}"#);
    assert_eq!(status, 401, "{err}");
    assert_eq!(err["error"]["code"], "missing_token");

    // Host: 1 2 -> 1 1 (B 1). Guest: -> 0 1. Host takes the last: wins.
    let (status, reply) = server.play(&id, &host, "B 1");
    assert_eq!(status, 200, "{reply}");
    assert_eq!(
        reply["applied"].as_array().unwrap().len(),
        1,
        "no computer here"
    );
    let seen = watcher.next_state();
    assert_eq!(seen["position"], "1 1");
    assert_eq!(seen["to_move"], 1);
    let (status, _) = server.play(&id, &host, "A 1");
    assert_eq!(status, 409, "host cannot move twice");
    let (status, reply) = server.play(&id, &guest, "A 1");
    assert_eq!(status, 200, "{reply}");
    assert_eq!(watcher.next_state()["position"], "0 1");
    let (status, reply) = server.play(&id, &host, "B 1");
    assert_eq!(status, 200, "{reply}");
    let seen = watcher.next_state();
    assert_eq!(seen["status"], "over");
    assert_eq!(seen["winner"], 0);
    // The watcher never sees a token.
    assert!(!seen.to_string().contains(&host));
    assert!(!seen.to_string().contains(&guest));
    let (status, err) = server.play(&id, &guest, "A 1");
    assert_eq!(status, 409);
    assert_eq!(err["error"]["code"], "game_over");
    check_nim_history(&server.get(&format!("/api/games/{id}")).1);
}

#[test]
fn a_local_game_lets_one_token_move_both_sides() {
    let server = TestServer::start(fresh_db("local"));
    let (id, token, _) = server.create(r#"{"position":"3","opponent":"local"}"#);
    assert_eq!(server.play(&id, &token, "A 1").0, 200);
    assert_eq!(server.play(&id, &token, "A 1").0, 200);
    let (status, reply) = server.play(&id, &token, "A 1");
    assert_eq!(status, 200);
    assert_eq!(reply["game"]["winner"], 0);
}

#[test]
fn every_game_and_move_survives_a_restart() {
    let db = fresh_db("restart");
    let server = TestServer::start(&db);
    let mut before = Vec::new();
    for (i, start) in ["3 4 5", "1 3 5 7", "2 7", "6 6 6"].iter().enumerate() {
        let opponent = if i % 2 == 0 { "computer" } else { "local" };
        let (id, token, _) =
            server.create(&json!({ "position": start, "opponent": opponent }).to_string());
        for _ in 0..i + 1 {
            let (_, game) = server.get(&format!("/api/games/{id}"));
            if game["status"] != "playing" {
                break;
            }
            let mv = game["legal_moves"][0]["notation"]
                .as_str()
                .unwrap()
                .to_string();
            assert_eq!(server.play(&id, &token, &mv).0, 200);
        }
        before.push((id, token));
    }
    let views: Vec<Value> = before
        .iter()
        .map(|(id, _)| server.get(&format!("/api/games/{id}")).1)
        .collect();
    let (_, list) = server.get("/api/games");
    assert_eq!(list["total"], 4);
    server.stop();

    let server = TestServer::start(&db);
    for ((id, token), view) in before.iter().zip(&views) {
        let (status, after) = server.get(&format!("/api/games/{id}"));
        assert_eq!(status, 200);
        assert_eq!(&after, view, "game {id} changed across the restart");
        check_nim_history(&after);
        // Tokens still work.
        if after["status"] == "playing" {
            let mv = after["legal_moves"][0]["notation"]
                .as_str()
                .unwrap()
                .to_string();
            let (status, reply) = server.play(id, token, &mv);
            assert_eq!(status, 200, "{reply}");
        }
    }
    let (_, list) = server.get("/api/games");
    assert_eq!(list["total"], 4);
}

/// The body of a new game is optional: none, or JSON's whitespace alone,
/// is `{}` (a form feed is not JSON whitespace; see the bad requests).
#[test]
fn an_empty_body_makes_the_default_game() {
    let server = TestServer::start(fresh_db("empty-body"));
    for body in ["", " \t\r\n"] {
        let (status, grant) = server.post("/api/games", body);
        assert_eq!(status, 201, "{body:?}: {grant}");
        assert_eq!(grant["game"]["game"], "nim", "{body:?}: {grant}");
    }
}

#[test]
fn bad_requests_get_a_reason_and_change_nothing() {
    let server = TestServer::start(fresh_db("bad"));
    let (id, token, _) = server.create(r#"{"position":"3 4 5"}"#);
    let path = format!("/api/games/{id}/moves");
    let snapshot = || server.get(&format!("/api/games/{id}")).1;
    let start = snapshot();

    type Call<'a> = Box<dyn Fn() -> (u16, Value) + 'a>;
    let cases: Vec<(u16, &str, Call)> = vec![
        (
            400,
            "bad_json",
            Box::new(|| server.post_as(&path, &token, "{\"move\": ")),
        ),
        (
            400,
            "bad_json",
            Box::new(|| server.post_as(&path, &token, "[1,2]")),
        ),
        (
            400,
            "bad_json",
            Box::new(|| server.post_as(&path, &token, r#"{"mvoe":"A 1"}"#)),
        ),
        (
            413,
            "body_too_large",
            Box::new(|| {
                let big = format!("{{\"move\":\"{}\"}}", "A".repeat(40_000));
                server.post_as(&path, &token, &big)
            }),
        ),
        (
            422,
            "illegal_move",
            Box::new(|| server.play(&id, &token, "A 4")),
        ),
        (
            422,
            "illegal_move",
            Box::new(|| server.play(&id, &token, "Z 1")),
        ),
        (
            422,
            "illegal_move",
            Box::new(|| server.play(&id, &token, "take some")),
        ),
        (
            422,
            "illegal_move",
            Box::new(|| server.play(&id, &token, "A 0")),
        ),
        (
            401,
            "missing_token",
            Box::new(|| server.post(&path, r#"{"move":"A 1"}"#)),
        ),
        (
            403,
            "wrong_token",
            Box::new(|| server.play(&id, "nope", "A 1")),
        ),
        (
            409,
            "stale_ply",
            Box::new(|| server.post_as(&path, &token, r#"{"move":"A 1","ply":7}"#)),
        ),
        (
            400,
            "unknown_game",
            Box::new(|| server.post("/api/games", r#"{"game":"chess"}"#)),
        ),
        (
            400,
            "bad_spec",
            Box::new(|| server.post("/api/games", r#"{"game":"moore:0"}"#)),
        ),
        (
            400,
            "bad_spec",
            Box::new(|| server.post("/api/games", r#"{"game":"nim:3"}"#)),
        ),
        (
            422,
            "bad_position",
            Box::new(|| server.post("/api/games", r#"{"position":"3 x 5"}"#)),
        ),
        (
            422,
            "bad_position",
            Box::new(|| server.post("/api/games", r#"{"position":"-1"}"#)),
        ),
        (
            422,
            "no_moves",
            Box::new(|| server.post("/api/games", r#"{"position":"0 0"}"#)),
        ),
        (
            422,
            "position_too_large",
            Box::new(|| server.post("/api/games", r#"{"position":"18446744073709551615"}"#)),
        ),
        (
            400,
            "bad_convention",
            Box::new(|| server.post("/api/games", r#"{"convention":"reverse"}"#)),
        ),
        (
            400,
            "bad_level",
            Box::new(|| server.post("/api/games", r#"{"level":"godlike"}"#)),
        ),
        (
            400,
            "bad_opponent",
            Box::new(|| server.post("/api/games", r#"{"opponent":"robot"}"#)),
        ),
        (
            400,
            "bad_first",
            Box::new(|| server.post("/api/games", r#"{"first":"nobody"}"#)),
        ),
        (
            400,
            "bad_json",
            Box::new(|| server.post("/api/games", r#"{"game": 7}"#)),
        ),
        // A form feed is whitespace to ASCII but not to JSON: not an empty body.
        (
            400,
            "bad_json",
            Box::new(|| server.post("/api/games", "\x0c")),
        ),
        (
            404,
            "game_not_found",
            Box::new(|| server.get("/api/games/0123456789abcdef")),
        ),
        (
            404,
            "game_not_found",
            Box::new(|| server.play("..%2F..", &token, "A 1")),
        ),
        (
            404,
            "not_found",
            Box::new(|| server.get("/api/nothing-here")),
        ),
        (
            405,
            "method_not_allowed",
            Box::new(|| {
                common::request(
                    server.addr,
                    "DELETE",
                    &format!("/api/games/{id}"),
                    None,
                    None,
                )
            }),
        ),
        (
            400,
            "bad_query",
            Box::new(|| server.get("/api/explore?to=minus")),
        ),
        (
            400,
            "bad_request",
            Box::new(|| server.get("/api/explore?to=100000")),
        ),
    ];
    for (i, (status, code, call)) in cases.iter().enumerate() {
        let (got, body) = call();
        assert_eq!(got, *status, "case {i} ({code}): {body}");
        assert_eq!(body["error"]["code"], *code, "case {i}: {body}");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(
            message.len() > 10,
            "case {i}: a message names the problem: {body}"
        );
        assert_eq!(snapshot(), start, "case {i} ({code}) changed the game");
    }
    // The illegal-move reasons name the input.
    let (_, body) = server.play(&id, &token, "A 4");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("only 3"),
        "{body}"
    );
    // Nothing above created a game.
    assert_eq!(server.get("/api/games").1["total"], 1);
}

#[test]
fn analysis_explore_and_catalogue() {
    let server = TestServer::start(fresh_db("analysis"));
    // Wikipedia's worked example: 3 4 5, nim-sum 2, take 2 from heap A.
    let (status, a) = server.post("/api/analyze", r#"{"game":"nim","position":"3 4 5"}"#);
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["outcome"], "N");
    assert_eq!(a["grundy"], 2);
    let winning: Vec<&str> = a["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap())
        .collect();
    assert_eq!(winning, ["A 2"]);
    let table = &a["nim_table"];
    assert_eq!(table["nim_sum"], 2);
    assert_eq!(table["nim_sum_binary"], "010");
    assert_eq!(table["rows"][0]["binary"], "011");
    // Every legal move is valued, and exactly the winning one is "winning".
    let moves = a["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3 + 4 + 5);
    for m in moves {
        let h = m["to"].as_array().unwrap();
        let x = h.iter().fold(0, |a, v| a ^ v.as_u64().unwrap());
        assert_eq!(m["value"] == "winning", x == 0, "{m}");
    }
    // Misère endgame from Wikipedia's Nim article: 0 2 1, take all of heap B.
    let (_, a) = server.post(
        "/api/analyze",
        r#"{"position":"0 2 1","convention":"misere"}"#,
    );
    assert_eq!(a["winning_moves"][0]["notation"], "B 2", "{a}");

    let (status, e) = server.get("/api/explore?game=nim&to=40&heaps=2&max=12");
    assert_eq!(status, 200, "{e}");
    let values: Vec<u64> = e["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(values, (0..=40).collect::<Vec<u64>>(), "g(n) = n in Nim");
    assert!(e["period"].is_null());
    let p: Vec<Vec<u64>> = serde_json::from_value(e["p_positions"].clone()).unwrap();
    assert_eq!(p, (0..=12).map(|a| vec![a, a]).collect::<Vec<_>>());
    let (_, e) = server.get("/api/explore?heaps=3&max=7");
    let p: Vec<Vec<u64>> = serde_json::from_value(e["p_positions"].clone()).unwrap();
    for t in &p {
        assert_eq!(t[0] ^ t[1] ^ t[2], 0, "{t:?}");
    }
    // Non-decreasing triples up to 7 with XOR 0: counted independently.
    let mut count = 0;
    for a in 0..=7u64 {
        for b in a..=7 {
            for c in b..=7 {
                if a ^ b ^ c == 0 {
                    count += 1;
                }
            }
        }
    }
    assert_eq!(p.len(), count);

    let (status, c) = server.get("/api/catalogue");
    assert_eq!(status, 200);
    let nim = c["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["syntax"] == "nim")
        .unwrap();
    assert_eq!(nim["playable"], true);
    assert_eq!(nim["heaps"], true);
    assert_eq!(nim["start"], "3 4 5");
}

#[test]
fn the_ui_is_served_from_the_binary() {
    let server = TestServer::start(fresh_db("ui"));
    for (path, kind, needle) in [
        ("/", "text/html", "<script"),
        ("/play/0123456789abcdef", "text/html", "<script"),
        ("/explore", "text/html", "<script"),
        ("/assets/js/main.js", "text/javascript", "import"),
        ("/assets/app.css", "text/css", "{"),
    ] {
        let (status, headers, body) = raw_request(server.addr, "GET", path, None, None);
        assert_eq!(status, 200, "{path}");
        assert!(
            headers.contains(&format!("content-type: {kind}")),
            "{path}: {headers}"
        );
        assert!(String::from_utf8_lossy(&body).contains(needle), "{path}");
    }
}

#[test]
fn every_module_the_page_imports_is_served_as_javascript() {
    let server = TestServer::start(fresh_db("modules"));
    let (_, _, page) = raw_request(server.addr, "GET", "/", None, None);
    let page = String::from_utf8_lossy(&page).into_owned();
    assert!(
        page.contains(r#"<script type="module" src="/assets/js/main.js"></script>"#),
        "{page}"
    );
    // Follow the relative imports from the entry module.
    let mut todo = vec!["main.js".to_string()];
    let mut served = std::collections::BTreeSet::new();
    while let Some(name) = todo.pop() {
        if !served.insert(name.clone()) {
            continue;
        }
        let path = format!("/assets/js/{name}");
        let (status, headers, body) = raw_request(server.addr, "GET", &path, None, None);
        assert_eq!(status, 200, "{path}");
        assert!(
            headers.contains("content-type: text/javascript"),
            "{path}: {headers}"
        );
        assert!(
            headers.contains("cache-control: no-cache"),
            "{path}: {headers}"
        );
        let text = String::from_utf8_lossy(&body).into_owned();
        for rest in text.split(" from './").skip(1) {
            let end = rest.find('\'').expect("a quoted module path");
            todo.push(rest[..end].to_string());
        }
    }
    assert!(served.len() > 5, "{served:?}");
    let (status, _, _) = raw_request(server.addr, "GET", "/assets/js/nothing.js", None, None);
    assert_eq!(status, 404);
}

#[test]
fn row_splitting_games_say_so_and_place_the_parts_in_the_row() {
    let server = TestServer::start(fresh_db("rows-split"));
    for (spec, splits) in [
        ("nim", false),
        ("subtraction:1,2,3", false),
        ("kayles", true),
        ("dawson", true),
        ("octal:0.137", true),
        ("grundy-game", true),
    ] {
        let body = json!({ "game": spec, "position": "10", "opponent": "local" }).to_string();
        let (_, _, reply) = server.create(&body);
        assert_eq!(reply["game"]["rows_split"], splits, "{spec}: {reply}");
    }
    // Kayles: knocking down pins 3 and 4 of a row of 8 leaves rows of 2 and
    // 4 where the row was (parts in non-decreasing order), between the
    // other rows.
    let (id, token, _) =
        server.create(r#"{"game":"kayles","position":"1 8 1","opponent":"local"}"#);
    let (status, reply) = server.play(&id, &token, "B 2 2+4");
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["game"]["heaps"], json!([1, 2, 4, 1]));
    // The legal moves' to_heaps follow the same rule: every move on heap i
    // keeps the heaps before and after it.
    let before = [1u64, 2, 4, 1];
    for m in reply["game"]["legal_moves"].as_array().unwrap() {
        let i = m["heap"].as_u64().unwrap() as usize;
        let to: Vec<u64> = serde_json::from_value(m["to"].clone()).unwrap();
        let tail = before.len() - i - 1;
        assert_eq!(to[..i], before[..i], "{m}");
        assert_eq!(to[to.len() - tail..], before[i + 1..], "{m}");
        let parts: u64 = to[i..to.len() - tail].iter().sum();
        assert_eq!(parts + m["take"].as_u64().unwrap(), before[i], "{m}");
    }
}

/// Grundy values of a take-and-break game by a plain mex: a move takes `t`
/// (one of `takes`) from a row of n and leaves the rest as one row or, if
/// `split`, as two rows (either may be empty).
fn plain_values(takes: &[u64], split: bool, to: u64) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=to {
        let mut seen = std::collections::BTreeSet::new();
        for &t in takes.iter().filter(|&&t| t <= n) {
            if split {
                for left in 0..=n - t {
                    seen.insert(g[left as usize] ^ g[(n - t - left) as usize]);
                }
            } else {
                seen.insert(g[(n - t) as usize]);
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

#[test]
fn explore_takes_values_and_proven_periods_from_the_sequence_engine() {
    let server = TestServer::start(fresh_db("explore-sequence"));
    let values = |e: &Value| -> Vec<u64> { serde_json::from_value(e["values"].clone()).unwrap() };

    // Kayles (0.77): period 12 from preperiod 71, proven (Guy and Smith 1956;
    // Winning Ways ch. 4), although only g(0..=64) are shown.
    let (status, e) = server.get("/api/explore?game=kayles&to=64");
    assert_eq!(status, 200, "{e}");
    assert_eq!(e["source"], "sequence");
    assert_eq!(values(&e), plain_values(&[1, 2], true, 64));
    assert_eq!(
        (e["period"].as_u64(), e["preperiod"].as_u64()),
        (Some(12), Some(71))
    );
    assert_eq!(e["proven"], true, "{e}");
    assert!(e["computed_to"].as_u64().unwrap() >= 71 * 2 + 12 + 2 + 12);
    assert!(
        e["period_note"]
            .as_str()
            .unwrap()
            .contains("periodicity theorem")
    );

    // Dawson's chess (0.137): period 34 from preperiod 52, proven (Winning
    // Ways ch. 4; OEIS A002187).
    let (_, e) = server.get("/api/explore?game=octal:0.137&to=100");
    assert_eq!(
        (e["period"].as_u64(), e["preperiod"].as_u64()),
        (Some(34), Some(52))
    );
    assert_eq!(e["proven"], true, "{e}");

    // Subtraction {1,2,3}: g(n) = n mod 4, proven.
    let (_, e) = server.get("/api/explore?game=subtraction:1,2,3&to=30");
    assert_eq!(values(&e), (0..=30).map(|n| n % 4).collect::<Vec<u64>>());
    assert_eq!(
        (e["period"].as_u64(), e["preperiod"].as_u64()),
        (Some(4), Some(0))
    );
    assert_eq!(e["proven"], true);

    // Modular 3:{1,2} repeats 0 1 2, but no theorem in the engine proves it.
    let (_, e) = server.get("/api/explore?game=modular:3:1,2&to=30");
    assert_eq!(e["source"], "sequence");
    assert_eq!(values(&e), (0..=30).map(|n| n % 3).collect::<Vec<u64>>());
    assert_eq!(e["period"], 3);
    assert_eq!(e["proven"], false, "{e}");
    assert!(e["period_note"].as_str().unwrap().contains("not proven"));

    // Grundy's game: no period is known; the values are OEIS A002188's.
    let (_, e) = server.get("/api/explore?game=grundy-game&to=20");
    assert_eq!(
        values(&e),
        [
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0
        ]
    );
    assert!(e["period"].is_null());
    assert_eq!(e["proven"], false);

    // Nim is not a sequence-engine game: values from its solver, no period.
    let (_, e) = server.get("/api/explore?game=nim&to=20");
    assert_eq!(e["source"], "solver");
    assert_eq!(e["computed_to"], 20);
    assert_eq!(e["proven"], false);
}

#[test]
fn explore_computes_to_the_servers_explore_to_and_never_below_n() {
    let server = TestServer::start(fresh_db("explore-default-to"));
    let (status, e) = server.get("/api/explore?game=officers&to=30");
    assert_eq!(status, 200, "{e}");
    assert_eq!(e["computed_to"], 10_000);

    let mut config = nimatron_web::Config::new(fresh_db("explore-short"));
    config.explore_to = 300;
    let server = TestServer::start_with(config);
    let (status, e) = server.get("/api/explore?game=officers&to=30");
    assert_eq!(status, 200, "{e}");
    assert_eq!(e["computed_to"], 300);
    // Officers (0.6), OEIS A046695: 0, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0.
    let values: Vec<u64> = serde_json::from_value(e["values"].clone()).unwrap();
    assert_eq!(values[..13], [0, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0]);
    assert_eq!(values.len(), 31);
    let (status, e) = server.get("/api/explore?game=officers&to=1000");
    assert_eq!(status, 200, "{e}");
    assert_eq!(
        e["computed_to"], 1000,
        "N above explore_to is still computed"
    );
}

/// The server's time limit bounds each part of an Explore request in all,
/// not each heap it solves: with no time at all, nothing is solved and both
/// parts say why, in a 200 like any partial reply.
#[test]
fn explore_stops_at_the_servers_time_limit_for_the_whole_request() {
    let mut config = nimatron_web::Config::new(fresh_db("explore-deadline"));
    config.limits = nimatron::Limits::states(500_000).with_time(std::time::Duration::ZERO);
    let server = TestServer::start_with(config);
    let (status, e) = server.get("/api/explore?game=nim&to=1000&heaps=3&max=10");
    assert_eq!(status, 200, "{e}");
    assert_eq!(e["values"], json!([]));
    let why = e["values_error"].as_str().unwrap();
    assert!(
        why.contains("before the heap of 0") && why.contains("time limit of 0 ms"),
        "{why}"
    );
    assert_eq!(e["p_positions"], json!([]));
    let why = e["p_positions_error"].as_str().unwrap();
    assert!(
        why.contains("before position '0 0 0'") && why.contains("time limit"),
        "{why}"
    );
    // The default limits (5 s) cover Nim to 1000 and the whole table.
    let server = TestServer::start(fresh_db("explore-deadline-default"));
    let (status, e) = server.get("/api/explore?game=nim&to=1000&heaps=3&max=10");
    assert_eq!(status, 200, "{e}");
    assert_eq!(e["values"].as_array().unwrap().len(), 1001);
    assert!(e["values_error"].is_null(), "{e}");
    assert!(e["p_positions_error"].is_null(), "{e}");
}

/// Found by the `web_api` fuzz target: `/api/` (the API's root with a
/// slash, with or without a query) fell through to the pages and got a
/// plain-text 404 instead of the API's JSON refusal.
#[test]
fn the_api_root_with_a_slash_is_refused_in_json() {
    let db = common::fresh_db("api-root");
    let server = TestServer::start(&db);
    for (method, path) in [
        ("GET", "/api/"),
        ("POST", "/api/?games/x/join"),
        ("GET", "/api"),
    ] {
        let (status, body) = common::request(server.addr, method, path, None, None);
        assert_eq!(status, 404, "{method} {path}: {body}");
        assert_eq!(
            body["error"]["code"], "not_found",
            "{method} {path}: {body}"
        );
    }
    server.stop();
}

#[test]
fn replays_and_the_last_move_come_with_the_board_elements_they_touched() {
    let server = TestServer::start(fresh_db("positions"));
    let (id, token, reply) =
        server.create(r#"{"game":"kayles","position":"7","first":"you","opponent":"local"}"#);
    assert_eq!(reply["game"]["last_touches"], serde_json::json!([]));
    // Every object of the row can be taken alone: a run listed once for
    // its result names its mirror image too.
    let singles: Vec<u64> = reply["game"]["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["take"] == 1)
        .flat_map(|m| {
            let mut runs = vec![m["touches"][0].clone()];
            if let Some(also) = m["also_touches"].as_array() {
                runs.extend(also.iter().map(|t| t[0].clone()));
            }
            runs
        })
        .map(|t| t["start"].as_u64().unwrap())
        .collect();
    let mut sorted = singles.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted, (0..7).collect::<Vec<u64>>(), "{singles:?}");

    // Two pins from the middle: 7 → 2 + 3.
    let (status, reply) = server.play(&id, &token, "A 2 2+3");
    assert_eq!(status, 200, "{reply}");
    let applied = &reply["applied"][0];
    let run = serde_json::json!([{"kind": "objects", "heap": 0, "start": 2, "count": 2}]);
    let mirror = serde_json::json!([{"kind": "objects", "heap": 0, "start": 3, "count": 2}]);
    assert!(
        applied["touches"] == run || applied["touches"] == mirror,
        "{applied}"
    );
    assert_eq!(applied["geometry"]["heaps"], serde_json::json!([2, 3]));
    assert_eq!(reply["game"]["last_touches"], applied["touches"]);
    // The moves of a game carry neither.
    assert!(reply["game"]["moves"][0].get("touches").is_none());

    let (status, start) = server.get(&format!("/api/games/{id}/positions/0"));
    assert_eq!(status, 200, "{start}");
    assert_eq!(start["position"], "7");
    assert_eq!(start["geometry"]["heaps"], serde_json::json!([7]));
    assert_eq!(start["next_touches"], applied["touches"]);
    let (status, after) = server.get(&format!("/api/games/{id}/positions/1"));
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["geometry"]["heaps"], serde_json::json!([2, 3]));
    assert_eq!(after["next_touches"], serde_json::json!([]));
    let (status, e) = server.get(&format!("/api/games/{id}/positions/2"));
    assert_eq!(status, 404, "{e}");
    assert_eq!(e["error"]["code"], "no_such_ply");
    let (status, e) = server.get(&format!("/api/games/{id}/positions/x"));
    assert_eq!(status, 400, "{e}");
    assert_eq!(e["error"]["code"], "bad_ply");
    let (status, e) = server.get("/api/games/0123456789abcdef/positions/0");
    assert_eq!(status, 404, "{e}");

    // Every catalogue entry can be played, under a title for people.
    let (_, c) = server.get("/api/catalogue");
    for g in c["games"].as_array().unwrap() {
        assert_eq!(g["playable"], true, "{g}");
        assert!(g["title"].as_str().is_some_and(|t| !t.is_empty()), "{g}");
    }
}

/// A computer move that the server's limits left unjudged says so in its
/// text, which the page shows and the record keeps.
#[test]
fn a_random_computer_move_says_so() {
    let server = TestServer::start(fresh_db("random-move"));
    // Misère Dawson's Kayles from 200 30: beyond the quotient (which stops
    // near heap 30) and beyond search within the server's limits.
    let (_, _, reply) = server.create(
        r#"{"game":"dawson","convention":"misere","position":"200 30","first":"opponent"}"#,
    );
    let moves = reply["game"]["moves"].as_array().expect("moves");
    let text = moves[0]["text"].as_str().unwrap();
    assert!(
        text.contains("(a random move: the position is beyond"),
        "{text}"
    );
    assert_eq!(moves[0]["random"], true, "{reply}");
    // Stored as such: the game read back says so too.
    let id = reply["game"]["id"].as_str().unwrap();
    let (_, game) = server.get(&format!("/api/games/{id}"));
    assert_eq!(game["moves"][0]["random"], true, "{game}");
    // A position it can judge gets no such words.
    let (_, _, reply) = server.create(r#"{"position":"3 4 5","first":"opponent"}"#);
    let text = reply["game"]["moves"][0]["text"].as_str().unwrap();
    assert!(!text.contains("random"), "{text}");
    assert_eq!(reply["game"]["moves"][0]["random"], false, "{reply}");
}

/// The last move's trace names the pieces it took on the board after it:
/// Node Kayles' vertex 7 keeps its id when 8, 9 and 10 go, though its
/// index changes.
#[test]
fn the_last_move_is_traced_on_the_board_after_it() {
    let server = TestServer::start(fresh_db("trace"));
    let (id, token, reply) = server.create(
        r#"{"game":"node-kayles","position":"1-2,2-3,3-4,4-5,5-6,7-8,8-9,9-10","first":"you","opponent":"local"}"#,
    );
    assert_eq!(
        reply["game"]["last_trace"],
        json!({"removed": [], "added": []})
    );
    let nine = reply["game"]["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["notation"] == "9")
        .expect("the move 9")
        .clone();
    let (status, reply) = server.play(&id, &token, "9");
    assert_eq!(status, 200, "{reply}");
    let game = &reply["game"];
    let gone: Vec<&str> = game["last_trace"]["removed"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["kind"] == "vertex")
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(gone, ["8", "9", "10"]);
    // The legal move said the same before it was played (a preview), and
    // the applied move and the replayed position say it again.
    assert_eq!(nine["trace"], game["last_trace"]);
    assert_eq!(reply["applied"][0]["trace"], game["last_trace"]);
    let (status, after) = server.get(&format!("/api/games/{id}/positions/1"));
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["trace"], game["last_trace"]);
    let (_, start) = server.get(&format!("/api/games/{id}/positions/0"));
    assert_eq!(start["trace"], json!({"removed": [], "added": []}));
    // Vertex 7 is on the board after, by its id.
    let ids: Vec<&str> = game["geometry"]["vertices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"7"), "{ids:?}");
    assert!(!ids.contains(&"8"), "{ids:?}");
}

/// A move sent with `"reply": false` is applied alone; the computer's reply
/// is a request of its own, which a take-back made while the computer
/// thinks cancels: the take-back does not wait for it, and the reply is
/// then refused with nothing applied.
#[test]
fn the_computer_replies_in_a_request_of_its_own_that_a_take_back_cancels() {
    let server = TestServer::start(fresh_db("computer-move"));
    let (id, token, _) = server.create(r#"{"game":"nim","position":"3 4 5","first":"you"}"#);
    let (status, reply) = server.post_as(
        &format!("/api/games/{id}/moves"),
        &token,
        r#"{"move":"A 2","reply":false}"#,
    );
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["applied"].as_array().unwrap().len(), 1);
    assert_eq!(reply["game"]["to_move"], 1);
    // Not the player's move now, and no second request may make it.
    let (status, e) = server.play(&id, &token, "B 1");
    assert_eq!(status, 409, "{e}");
    let (status, reply) = server.post_as(
        &format!("/api/games/{id}/computer-move"),
        &token,
        r#"{"ply":1}"#,
    );
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["applied"][0]["by_computer"], true);
    assert_eq!(reply["game"]["to_move"], 0);
    assert_eq!(reply["game"]["ply"], 2);
    // 1 4 5 has nim-sum 0 after our move; whatever it took, we are to move.
    let (status, e) = server.post_as(&format!("/api/games/{id}/computer-move"), &token, "{}");
    assert_eq!(status, 409, "{e}");
    assert_eq!(e["error"]["code"], "not_computers_turn");
    let (local, ltoken, _) = server.create(r#"{"opponent":"local"}"#);
    let (status, e) = server.post_as(&format!("/api/games/{local}/computer-move"), &ltoken, "{}");
    assert_eq!(status, 409, "{e}");
    assert_eq!(e["error"]["code"], "not_a_computer_game");
    let (status, e) = server.post(&format!("/api/games/{id}/computer-move"), "{}");
    assert_eq!(status, 401, "{e}");

    // Misère Dawson's Kayles from 200 30 keeps the computer thinking to the
    // server's time limit (seconds): take the move back meanwhile.
    let (id, token, _) = server
        .create(r#"{"game":"dawson","convention":"misere","position":"200 30","first":"you"}"#);
    let (status, reply) = server.post_as(
        &format!("/api/games/{id}/moves"),
        &token,
        r#"{"move":"B 2","reply":false}"#,
    );
    assert_eq!(status, 200, "{reply}");
    let thinking = {
        let addr = server.addr;
        let (id, token) = (id.clone(), token.clone());
        std::thread::spawn(move || {
            common::request(
                addr,
                "POST",
                &format!("/api/games/{id}/computer-move"),
                Some(&token),
                Some(br#"{"ply":1}"#),
            )
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(500));
    let started = std::time::Instant::now();
    let (status, undone) = server.post_as(&format!("/api/games/{id}/undo"), &token, r#"{"ply":1}"#);
    assert_eq!(status, 200, "{undone}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(1),
        "the take-back waited {:?} for the computer",
        started.elapsed()
    );
    assert_eq!(undone["game"]["ply"], 0);
    assert_eq!(undone["game"]["to_move"], 0);
    let (status, e) = thinking.join().unwrap();
    assert_eq!(status, 409, "{e}");
    assert_eq!(e["error"]["code"], "stale_ply");
    let (_, game) = server.get(&format!("/api/games/{id}"));
    assert_eq!(game["ply"], 0, "nothing was applied: {game}");
}

/// `GET /api/games?ids=` lists just those games: the browser's own.
#[test]
fn the_history_lists_the_games_asked_for_by_id() {
    let server = TestServer::start(fresh_db("ids"));
    let (a, _, _) = server.create(r#"{"game":"kayles","position":"5"}"#);
    let (_, _, _) = server.create(r#"{"game":"nim"}"#);
    let (c, _, _) = server.create(r#"{"game":"chomp"}"#);
    let (status, list) = server.get(&format!("/api/games?ids={a},{c},0123456789abcdef"));
    assert_eq!(status, 200, "{list}");
    let ids: Vec<&str> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [c.as_str(), a.as_str()], "newest first");
    assert_eq!(list["total"], 2);
    let many = vec!["0123456789abcdef"; 201].join(",");
    let (status, e) = server.get(&format!("/api/games?ids={many}"));
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 200"),
        "{e}"
    );
}
