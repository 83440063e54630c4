//! The storage suite: one set of tests, run against each backend of the
//! `Store` trait. `sqlite::*` always runs; `postgres::*` runs against the
//! server that `NIMATRON_TEST_POSTGRES` names (scripts/postgres-tests.sh
//! starts one), and says it was skipped otherwise.
//!
//! What is checked is what the engine relies on: a record reads back as it
//! was written, field for field; a write computed from an old revision of a
//! game is refused and stores nothing; of several writers racing from the
//! same revision exactly one succeeds; a new game's id is never stored
//! twice; and `copy_games` copies a site whole.

mod common;

use std::sync::{Arc, Barrier};

use nimatron_web::store::{self, GameRecord, Mode, MoveRecord, Status, Store, WriteError};

fn game(id: &str, created_at: i64) -> GameRecord {
    GameRecord {
        id: id.to_string(),
        spec: "nim".into(),
        convention: "normal".into(),
        mode: Mode::Computer,
        level: Some("perfect".into()),
        computer_seat: Some(1),
        start: "3 4 5".into(),
        first_seat: 0,
        position: "3 4 5".into(),
        to_move: 0,
        ply: 0,
        status: Status::Playing,
        winner: None,
        token0: format!("token0-{id}"),
        token1: None,
        invite: None,
        // The top bit set: stored as a signed 64-bit number, read back whole.
        rng: 0xF123_4567_89AB_CDEF,
        resigned: None,
        analysis_votes: 0,
        rematch_offers: 0,
        rematch: None,
        created_at,
        updated_at: created_at,
        rev: 0,
    }
}

fn mv(ply: u32, seat: u8, before: &str, after: &str, by_computer: bool) -> MoveRecord {
    MoveRecord {
        ply,
        seat,
        notation: format!("A {ply}"),
        text: format!("take {ply} from heap A — «ünïcode» 'quotes'"),
        before: before.into(),
        after: after.into(),
        by_computer,
        random: ply.is_multiple_of(2),
        created_at: 1_700_000_000_000 + i64::from(ply),
    }
}

/// A record's move onto `record` (as the engine plays it), returned.
fn play(record: &mut GameRecord, after: &str, by_computer: bool) -> MoveRecord {
    record.ply += 1;
    let m = mv(
        record.ply,
        record.to_move,
        &record.position,
        after,
        by_computer,
    );
    record.position = after.into();
    record.to_move = 1 - record.to_move;
    record.updated_at += 1;
    m
}

fn round_trip(s: &dyn Store) {
    let mut g = game("0000000000000001", 1000);
    g.mode = Mode::Online;
    g.level = None;
    g.computer_seat = None;
    g.token1 = Some("second-seat".into());
    g.invite = Some("invite-code".into());
    g.status = Status::Waiting;
    g.analysis_votes = 2;
    g.rematch_offers = 1;
    g.resigned = Some(1);
    g.winner = Some(0);
    g.rematch = Some("00000000000000ff".into());
    let moves = vec![
        mv(1, 0, "3 4 5", "1 4 5", false),
        mv(2, 1, "1 4 5", "1 4 0", true),
    ];
    s.insert_game(&g, &moves).unwrap();
    let other = game("0000000000000002", 2000);
    s.insert_game(&other, &[]).unwrap();

    assert_eq!(s.game(&g.id).unwrap().as_ref(), Some(&g));
    assert_eq!(s.moves(&g.id).unwrap(), moves);
    assert_eq!(s.game_with_moves(&g.id).unwrap(), Some((g.clone(), moves)));
    assert_eq!(
        s.game_with_moves(&other.id).unwrap(),
        Some((other.clone(), vec![]))
    );
    assert_eq!(s.game("00000000000000aa").unwrap(), None);
    assert_eq!(s.game_with_moves("00000000000000aa").unwrap(), None);
    assert_eq!(s.moves("00000000000000aa").unwrap(), vec![]);
    assert_eq!(s.count().unwrap(), 2);
}

fn a_taken_id_is_refused_and_the_first_game_kept(s: &dyn Store) {
    let g = game("0000000000000003", 1000);
    s.insert_game(&g, &[mv(1, 0, "3 4 5", "2 4 5", false)])
        .unwrap();
    let mut impostor = game("0000000000000003", 5000);
    impostor.token0 = "impostor".into();
    let refused = s.insert_game(&impostor, &[mv(1, 0, "3 4 5", "0 4 5", false)]);
    assert!(matches!(refused, Err(WriteError::Conflict)), "{refused:?}");
    assert_eq!(s.game(&g.id).unwrap(), Some(g.clone()));
    assert_eq!(s.moves(&g.id).unwrap()[0].after, "2 4 5");
    assert_eq!(s.count().unwrap(), 1);
}

fn a_write_from_an_old_revision_stores_nothing(s: &dyn Store) {
    let mut g = game("0000000000000004", 1000);
    s.insert_game(&g, &[]).unwrap();
    let stale = g.clone();
    let m1 = play(&mut g, "2 4 5", false);
    let m2 = play(&mut g, "2 4 1", true);
    s.advance(&mut g, &[m1.clone(), m2.clone()]).unwrap();
    assert_eq!(g.rev, 1);
    assert_eq!(s.game(&g.id).unwrap(), Some(g.clone()));

    // Computed from revision 0: refused, and its move is not stored.
    let mut late = stale.clone();
    let m = play(&mut late, "0 4 5", false);
    let refused = s.advance(&mut late, &[m]);
    assert!(matches!(refused, Err(WriteError::Conflict)), "{refused:?}");
    assert_eq!(late.rev, 0, "a refused write leaves the revision");
    assert_eq!(s.moves(&g.id).unwrap(), vec![m1.clone(), m2.clone()]);

    // A change with no move (a vote) moves the revision on too: a second
    // vote from the same old revision is refused.
    let mut vote = g.clone();
    vote.analysis_votes = 1;
    s.advance(&mut vote, &[]).unwrap();
    assert_eq!(vote.rev, 2);
    let mut other_vote = g.clone();
    other_vote.analysis_votes = 2;
    assert!(matches!(
        s.advance(&mut other_vote, &[]),
        Err(WriteError::Conflict)
    ));
    assert_eq!(s.game(&g.id).unwrap().unwrap().analysis_votes, 1);

    // A move whose ply is stored already is refused whole (the row's
    // update with it).
    let mut again = vote.clone();
    let dup = mv(2, 0, "2 4 1", "0 4 1", false);
    again.position = "0 4 1".into();
    assert!(s.advance(&mut again, &[dup]).is_err());
    let stored = s.game(&g.id).unwrap().unwrap();
    assert_eq!(stored.position, "2 4 1");
    assert_eq!(stored.rev, 2);
}

fn a_rewind_takes_back_the_moves_after_its_ply(s: &dyn Store) {
    let mut g = game("0000000000000005", 1000);
    s.insert_game(&g, &[]).unwrap();
    let m1 = play(&mut g, "2 4 5", false);
    let m2 = play(&mut g, "2 4 1", true);
    let m3 = play(&mut g, "2 3 1", false);
    s.advance(&mut g, &[m1.clone(), m2, m3]).unwrap();
    let stale = g.clone();
    g.ply = 1;
    g.position = "2 4 5".into();
    g.to_move = 1;
    s.rewind(&mut g).unwrap();
    assert_eq!(g.rev, 2);
    assert_eq!(
        s.game_with_moves(&g.id).unwrap(),
        Some((g.clone(), vec![m1.clone()]))
    );
    let mut late = stale;
    late.ply = 0;
    late.position = "3 4 5".into();
    assert!(matches!(s.rewind(&mut late), Err(WriteError::Conflict)));
    assert_eq!(s.moves(&g.id).unwrap(), vec![m1]);
}

fn a_rematch_is_stored_with_its_game_or_not_at_all(s: &dyn Store) {
    let mut old = game("0000000000000006", 1000);
    old.status = Status::Over;
    old.winner = Some(0);
    s.insert_game(&old, &[]).unwrap();
    let stale = old.clone();
    let new = game("0000000000000007", 2000);
    let first = mv(1, 1, "3 4 5", "1 4 5", true);
    old.rematch = Some(new.id.clone());
    s.insert_rematch(&mut old, &new, std::slice::from_ref(&first))
        .unwrap();
    assert_eq!(old.rev, 1);
    assert_eq!(s.game(&old.id).unwrap(), Some(old.clone()));
    assert_eq!(
        s.game_with_moves(&new.id).unwrap(),
        Some((new, vec![first]))
    );
    // From the old revision: neither the old row nor a second rematch.
    let mut late = stale;
    let other = game("0000000000000008", 3000);
    late.rematch = Some(other.id.clone());
    assert!(matches!(
        s.insert_rematch(&mut late, &other, &[]),
        Err(WriteError::Conflict)
    ));
    assert_eq!(s.game(&other.id).unwrap(), None);
    assert_eq!(s.game(&old.id).unwrap(), Some(old));
}

fn the_newest_games_come_first_in_pages(s: &dyn Store) {
    for i in 0..25u64 {
        // Created in an order that is not the ids' order.
        let created = 1000 + ((i * 7) % 25) as i64;
        s.insert_game(&game(&format!("{:016x}", 0x100 + i), created), &[])
            .unwrap();
    }
    assert_eq!(s.count().unwrap(), 25);
    let all = s.recent(100, 0).unwrap();
    assert_eq!(all.len(), 25);
    assert!(all.windows(2).all(|w| w[0].created_at >= w[1].created_at));
    let mut paged = s.recent(10, 0).unwrap();
    paged.extend(s.recent(10, 10).unwrap());
    paged.extend(s.recent(10, 20).unwrap());
    assert_eq!(paged, all);
    assert_eq!(s.recent(10, 30).unwrap(), vec![]);
}

/// Of many writers racing to store a move on the same revision, exactly
/// one succeeds, and the record holds its move alone.
fn of_racing_writers_exactly_one_wins(s: Arc<dyn Store>) {
    let g = game("0000000000000009", 1000);
    s.insert_game(&g, &[]).unwrap();
    for round in 0..5 {
        let base = s.game(&g.id).unwrap().unwrap();
        let racers = 8;
        let barrier = Arc::new(Barrier::new(racers));
        let threads: Vec<_> = (0..racers)
            .map(|r| {
                let (s, barrier, mut mine) = (s.clone(), barrier.clone(), base.clone());
                std::thread::spawn(move || {
                    let after = format!("{round} {r}");
                    let m = play(&mut mine, &after, false);
                    barrier.wait();
                    match s.advance(&mut mine, &[m]) {
                        Ok(()) => Some(after),
                        Err(WriteError::Conflict) => None,
                        Err(e) => panic!("racer {r}: {e:?}"),
                    }
                })
            })
            .collect();
        let winners: Vec<String> = threads
            .into_iter()
            .filter_map(|t| t.join().unwrap())
            .collect();
        assert_eq!(winners.len(), 1, "round {round}: {winners:?}");
        let (stored, moves) = s.game_with_moves(&g.id).unwrap().unwrap();
        assert_eq!(stored.position, winners[0]);
        assert_eq!(stored.rev, base.rev + 1);
        assert_eq!(moves.len(), round + 1);
        assert_eq!(moves.last().unwrap().after, winners[0]);
    }
}

/// `copy_games` (what `nimatron db migrate` runs) brings every game and
/// move over as they were; run again, it copies nothing twice.
fn a_site_is_copied_whole(s: &dyn Store) {
    let source = store::open(
        &common::fresh_db("copy-source").into(),
        store::Durability::default(),
        2,
    )
    .unwrap();
    let mut expected = Vec::new();
    for i in 0..450u64 {
        let mut g = game(&format!("{:016x}", 0x9000 + i), 10_000 + i as i64);
        source.insert_game(&g, &[]).unwrap();
        let mut moves = Vec::new();
        for k in 0..(i % 4) {
            moves.push(play(&mut g, &format!("{k} 1"), k % 2 == 1));
        }
        if i % 5 == 0 {
            g.status = Status::Over;
            g.winner = Some(1);
        }
        source.advance(&mut g, &moves).unwrap();
        expected.push((g, moves));
    }
    let mut calls = 0;
    let report = store::copy_games(source.as_ref(), s, |_| calls += 1).unwrap();
    assert_eq!(report.games, 450);
    assert_eq!(report.skipped, 0);
    assert_eq!(
        report.moves,
        expected.iter().map(|(_, m)| m.len() as u64).sum::<u64>()
    );
    assert_eq!(calls, 450);
    assert_eq!(s.count().unwrap(), 450);
    for (g, moves) in &expected {
        assert_eq!(
            s.game_with_moves(&g.id).unwrap().as_ref(),
            Some(&(g.clone(), moves.clone()))
        );
    }
    let again = store::copy_games(source.as_ref(), s, |_| {}).unwrap();
    assert_eq!((again.games, again.skipped), (0, 450));
    assert_eq!(s.count().unwrap(), 450);
}

/// The same tests, once per backend.
macro_rules! suite {
    ($($name:ident $(as $kind:ident)?),* $(,)?) => {
        mod sqlite {
            $(
                #[test]
                fn $name() {
                    let db = super::common::fresh_db(concat!("store-", stringify!($name)));
                    let store = nimatron_web::store::open(
                        &db.into(),
                        nimatron_web::store::Durability::default(),
                        4,
                    )
                    .unwrap();
                    suite!(@call $name store $($kind)?);
                }
            )*
        }
        mod postgres {
            $(
                #[test]
                fn $name() {
                    let Some(db) = super::common::fresh_postgres(stringify!($name)) else {
                        eprintln!("SKIPPED: NIMATRON_TEST_POSTGRES is not set (scripts/postgres-tests.sh sets it)");
                        return;
                    };
                    let store = nimatron_web::store::open(
                        &db,
                        nimatron_web::store::Durability::default(),
                        12,
                    )
                    .unwrap();
                    suite!(@call $name store $($kind)?);
                }
            )*
        }
    };
    (@call $name:ident $store:ident shared) => { super::$name($store) };
    (@call $name:ident $store:ident) => { super::$name($store.as_ref()) };
}

suite!(
    round_trip,
    a_taken_id_is_refused_and_the_first_game_kept,
    a_write_from_an_old_revision_stores_nothing,
    a_rewind_takes_back_the_moves_after_its_ply,
    a_rematch_is_stored_with_its_game_or_not_at_all,
    the_newest_games_come_first_in_pages,
    of_racing_writers_exactly_one_wins as shared,
    a_site_is_copied_whole,
);
