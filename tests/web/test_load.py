"""Fifty games played at once through the API, each from its own thread and connection.

A correctness test under load (no timing is asserted): every request answered without error,
every guess-free game won by proven moves only, the store and the statistics in agreement.
``benchmarks/bench_web.py`` runs the same load and reports the latencies.
"""

from __future__ import annotations

import threading

from .conftest import HOST, JSON, Client, Played, Server, check_view, play

GAMES = 50


def test_fifty_games_at_once(own_server: Server) -> None:
    server = own_server
    levels = ["beginner" if k % 2 else "intermediate" for k in range(GAMES)]
    start = threading.Barrier(GAMES)
    results: dict[int, Played] = {}
    errors: dict[int, BaseException] = {}

    # The connections are opened one after the other (see test_fifty_clients_connect_at_once),
    # then the fifty games start together.
    clients: list[Client] = []
    for _ in range(GAMES):
        clients.append(server.client(keep_alive=True))
        clients[-1].get("/api/meta").ok()

    def player(k: int) -> None:
        client = clients[k]
        try:
            start.wait(timeout=60)
            view: JSON = client.post("/api/games", {"level": levels[k]}).ok(201)
            # Every round asks for the probabilities; one player in five asks for a hint every
            # round too, the others every third round.
            results[k] = play(client, view, hints=k % 5 == 0)
        except BaseException as exc:
            errors[k] = exc

    threads = [threading.Thread(target=player, args=(k,), name=f"player-{k}") for k in range(GAMES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "a player is stuck"
    assert errors == {}, {k: repr(e) for k, e in errors.items()}
    assert len(results) == GAMES

    ids = set()
    for k, done in results.items():
        view = done.view
        assert view["state"] == "won" and view["level"] == levels[k], (k, view["state"])
        assert done.guesses == 0 and view["guesses"] == 0
        assert done.hints > 0 and done.probabilities > 0
        check_view(view, server.layout(view["id"]))
        row = server.store.load(view["id"])
        assert row is not None and row.state == "won" and len(row.moves) == view["moves"]
        ids.add(view["id"])
    assert len(ids) == GAMES

    stats = server.client().get("/api/stats").ok()["stats"]
    assert [(s["level"], s["played"], s["won"], s["guesses_per_game"]) for s in stats] == [
        ("beginner", GAMES // 2, GAMES // 2, 0.0),
        ("intermediate", GAMES // 2, GAMES // 2, 0.0),
    ]


def test_fifty_clients_connect_at_once(server: Server) -> None:
    for _ in range(3):
        errors = _burst(server)
        assert errors == {}, {k: repr(e) for k, e in errors.items()}


def _burst(server: Server) -> dict[int, BaseException]:
    """Create a game from each of fifty new connections opened at once; return the errors."""
    start = threading.Barrier(GAMES)
    errors: dict[int, BaseException] = {}

    def create(k: int) -> None:
        client = Client(HOST, server.port)
        try:
            start.wait(timeout=60)
            client.post("/api/games", {"level": "beginner"}).ok(201)
        except BaseException as exc:
            errors[k] = exc
        finally:
            client.close()

    threads = [threading.Thread(target=create, args=(k,)) for k in range(GAMES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return errors
