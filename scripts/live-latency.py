#!/usr/bin/env python3
"""How soon a watcher on one app server hears of a move made on another.

    scripts/live-latency.py HOST:PORT_A HOST:PORT_B [MOVES]

Two `nimatron serve` on one PostgreSQL database. A game at one screen is
made on A; an event stream of it is opened on B, and one on A itself (the
baseline: a watcher of the server that made the move); then MOVES (default
250, at most 300) moves are made on A, one at a time, 20 ms apart. For each,
the time from sending the move, and from A's reply, until each watcher has
the state of that ply. Prints the median, p99 and maximum of each, and how
many moves B heard of more than 100 ms after they were sent. Exits 1 if a
move is never heard of (2 s). Python's standard library only; run by
scripts/bench-web.sh (postgres).
"""
import http.client
import json
import sys
import threading
import time


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    a, b = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) == 4 else 250
    if not 1 <= n <= 300:
        sys.exit("MOVES: give 1 to 300 (the game has 300 objects)")

    def request(addr, method, path, body=None, token=None):
        host, port = addr.rsplit(":", 1)
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        headers = {"Host": addr}
        if body is not None:
            body = json.dumps(body)
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = "Bearer " + token
        conn.request(method, path, body=body, headers=headers)
        reply = conn.getresponse()
        data = json.loads(reply.read() or b"null")
        conn.close()
        return reply.status, data

    status, made = request(a, "POST", "/api/games", {"opponent": "local", "position": "75 75 75 75"})
    if status != 201:
        sys.exit(f"creating a game on {a}: {status} {made}")
    game, token = made["game"]["id"], made["token"]

    heard = {a: {}, b: {}}
    changed = threading.Condition()

    def watch(server):
        host, port = server.rsplit(":", 1)
        conn = http.client.HTTPConnection(host, int(port))
        conn.request("GET", f"/api/games/{game}/events", headers={"Host": server, "Accept": "text/event-stream"})
        stream = conn.getresponse()
        event = ""
        while True:
            line = stream.readline()
            if not line:
                return
            line = line.decode().rstrip("\r\n")
            if line.startswith("event: "):
                event = line[len("event: "):]
            elif line.startswith("data: ") and event == "state":
                ply = json.loads(line[len("data: "):])["ply"]
                with changed:
                    heard[server].setdefault(ply, time.perf_counter())
                    changed.notify_all()

    for server in (a, b):
        threading.Thread(target=watch, args=(server,), daemon=True).start()
    with changed:
        if not changed.wait_for(lambda: 0 in heard[a] and 0 in heard[b], timeout=5):
            sys.exit("the event streams sent no first state")

    from_send, from_reply, baseline = [], [], []
    for ply in range(1, n + 1):
        sent = time.perf_counter()
        status, reply = request(a, "POST", f"/api/games/{game}/moves", {"move": "ABCD"[ply % 4] + " 1", "ply": ply - 1}, token)
        replied = time.perf_counter()
        if status != 200:
            sys.exit(f"move {ply} on {a}: {status} {reply}")
        with changed:
            if not changed.wait_for(lambda: ply in heard[a] and ply in heard[b], timeout=2):
                sys.exit(f"ply {ply} was not heard of within 2 s (on B: {ply in heard[b]}, on A: {ply in heard[a]})")
        from_send.append((heard[b][ply] - sent) * 1000)
        from_reply.append(max(0.0, heard[b][ply] - replied) * 1000)
        baseline.append((heard[a][ply] - sent) * 1000)
        time.sleep(0.02)

    def summary(xs):
        xs = sorted(xs)
        return f"median {xs[len(xs) // 2]:.1f}, p99 {xs[round((len(xs) - 1) * 0.99)]:.1f}, max {xs[-1]:.1f} ms"

    print(f"{n} moves on A; heard on B after sending: {summary(from_send)}; after A's reply: {summary(from_reply)}; "
          f"later than 100 ms after sending: {sum(x > 100 for x in from_send)}")
    print(f"baseline, a watcher on A itself, after sending: {summary(baseline)}")


main()
