//! Many clients at once: several racing on each game with the same seat,
//! and both seats of online games racing each other. No move may be lost or
//! applied twice, and every game must end in a state the rules allow.

mod common;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use common::{TestServer, check_nim_history, test_db};
use nimatron::SplitMix64;
use serde_json::{Value, json};

/// Successful replies' moves, per game: ply -> (seat, notation, after).
type Seen = Arc<Mutex<BTreeMap<String, BTreeMap<u64, (u64, String, String)>>>>;

static REFUSED: AtomicUsize = AtomicUsize::new(0);

fn racer(server_addr: std::net::SocketAddr, id: String, token: String, seed: u64, seen: Seen) {
    let mut rng = SplitMix64::new(seed);
    for _ in 0..400 {
        let (status, game) =
            common::request(server_addr, "GET", &format!("/api/games/{id}"), None, None);
        assert_eq!(status, 200, "{game}");
        if game["status"] == "over" {
            return;
        }
        let legal = game["legal_moves"].as_array().unwrap();
        let mv = &legal[rng.below(legal.len() as u64) as usize]["notation"];
        let body = json!({ "move": mv, "ply": game["ply"] }).to_string();
        let (status, reply) = common::request(
            server_addr,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&token),
            Some(body.as_bytes()),
        );
        match status {
            200 => {
                let mut seen = seen.lock().unwrap();
                let game_moves = seen.entry(id.clone()).or_default();
                for m in reply["applied"].as_array().unwrap() {
                    let ply = m["ply"].as_u64().unwrap();
                    let entry = (
                        m["seat"].as_u64().unwrap(),
                        m["notation"].as_str().unwrap().to_string(),
                        m["after"].as_str().unwrap().to_string(),
                    );
                    let old = game_moves.insert(ply, entry);
                    assert!(
                        old.is_none(),
                        "game {id}: ply {ply} was reported applied twice"
                    );
                }
            }
            409 => {
                REFUSED.fetch_add(1, Ordering::Relaxed);
                let code = reply["error"]["code"].as_str().unwrap();
                assert!(
                    ["stale_ply", "not_your_turn", "game_over"].contains(&code),
                    "{reply}"
                );
            }
            _ => panic!("game {id}: unexpected reply {status}: {reply}"),
        }
    }
    panic!("game {id} did not finish");
}

#[test]
fn many_clients_at_once_lose_no_move_and_apply_none_twice() {
    let server = TestServer::start(test_db("concurrency"));
    let seen: Seen = Arc::default();
    let mut threads = Vec::new();
    let mut ids = Vec::new();
    for g in 0..16u64 {
        let (id, token, _) = server.create(r#"{"position":"5 6 7 3","level":"easy"}"#);
        for r in 0..3 {
            let (addr, id, token, seen) = (server.addr, id.clone(), token.clone(), seen.clone());
            threads.push(std::thread::spawn(move || {
                racer(addr, id, token, g * 10 + r, seen)
            }));
        }
        ids.push(id);
    }
    for g in 0..8u64 {
        let (id, host, reply) = server.create(r#"{"position":"4 5 6","opponent":"online"}"#);
        let invite = reply["invite"].as_str().unwrap();
        let (status, joined) = server.post(
            &format!("/api/games/{id}/join"),
            &json!({ "invite": invite }).to_string(),
        );
        assert_eq!(status, 200);
        let guest = joined["token"].as_str().unwrap().to_string();
        for (r, token) in [&host, &host, &guest, &guest].into_iter().enumerate() {
            let (addr, id, token, seen) = (server.addr, id.clone(), token.clone(), seen.clone());
            threads.push(std::thread::spawn(move || {
                racer(addr, id, token, 1000 + g * 10 + r as u64, seen)
            }));
        }
        ids.push(id);
    }
    for t in threads {
        t.join().expect("a client failed");
    }
    let seen = seen.lock().unwrap();
    let refused = REFUSED.load(Ordering::Relaxed);
    eprintln!("moves refused because another client moved first: {refused}");
    for id in &ids {
        let (status, game): (u16, Value) = server.get(&format!("/api/games/{id}"));
        assert_eq!(status, 200);
        assert_eq!(game["status"], "over", "{game}");
        check_nim_history(&game);
        // The stored moves are exactly the ones replies reported applied.
        let stored: BTreeMap<u64, (u64, String, String)> = game["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["ply"].as_u64().unwrap(),
                    (
                        m["seat"].as_u64().unwrap(),
                        m["notation"].as_str().unwrap().to_string(),
                        m["after"].as_str().unwrap().to_string(),
                    ),
                )
            })
            .collect();
        assert_eq!(&stored, &seen[id], "game {id}");
        // Normal play: the seat that made the last move won.
        let last = game["moves"].as_array().unwrap().last().unwrap();
        assert_eq!(game["winner"], last["seat"], "{game}");
    }
}
