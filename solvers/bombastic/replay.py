"""One game, turn by turn, with what each player knows (for `bombsolve bombastic replay`).

The game is played by `agents.play_game` and then re-applied decision by decision from
the same seed through the reference engine, so the replay shows exactly what happened.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bombsolve.solvers.bombastic.agents import make_agent, play_game
from bombsolve.solvers.bombastic.beliefs import FastBelief
from bombsolve.solvers.bombastic.rules import (
    ACTION_CARD,
    ACTION_STOP,
    CARD_TEXT,
    CHANCE,
    Card,
    Options,
    Phase,
    SplitMix64,
    State,
    action_name,
)
from bombsolve.solvers.bombastic.tiles import LINE_NAMES, VALUE_CHARS


def _grid(values: list[str]) -> list[str]:
    return [" ".join(values[r * 3 : r * 3 + 3]) for r in range(3)]


def _knowledge(state: State, player: int) -> dict[str, Any]:
    b = FastBelief.uniform()
    for ev in state.observations[player]:
        b.update(ev)
    odds = b.tile_odds()
    known = [VALUE_CHARS[int(np.argmax(p))] if p.max() > 1 - 1e-9 else "?" for p in odds]
    lines = b.line_odds(state.symbol(player))
    k = int(np.argmax(lines[:, 0]))
    return {
        "possible": int((b.w > 0).sum()),
        "known": known,
        "best_line": LINE_NAMES[k],
        "best_line_all_mine": float(lines[k, 0]),
    }


_VERBS = {
    Phase.PEEK: "peek at tile {t}",
    Phase.PEEK_OR_STOP: "peek at tile {t}",
    Phase.SHOW: "show tile {t}",
    Phase.SHOW_PEEKED: "show peeked tile {t}",
    Phase.OUT_PEEKED: "swap peeked tile {t} ...",
    Phase.OUT_OTHER: "... with tile {t}",
    Phase.SWAP_A: "swap tile {t} ...",
    Phase.SWAP_B: "... with tile {t}",
    Phase.SWAP2_A: "swap again: tile {t} ...",
    Phase.SWAP2_B: "... with tile {t}",
    Phase.SECRET_SWAP: "secretly swap it with tile {t}",
}
_STOPS = {
    Phase.PEEK_OR_STOP: "stop peeking",
    Phase.SHOW_PEEKED: "show nothing",
    Phase.SWAP2_A: "no second swap",
    Phase.MAY_SWAP: "do not swap",
}


def describe(state: State, action: int) -> str:
    """Say what a decision does, in the card's words where it has them."""
    who = "chance" if state.to_move == CHANCE else "XO"[state.to_move]
    ph = state.phase
    if ph == Phase.TURN and action >= ACTION_CARD:
        text = f"uses card: {CARD_TEXT[Card(state.face_up[action - ACTION_CARD])]}"
    elif ph == Phase.TURN or ph == Phase.GO:
        text = f"goes for it: {action_name(action).removeprefix('line ')}"
    elif action == ACTION_STOP:
        text = _STOPS.get(ph, "stop")
    elif ph == Phase.MAY_SWAP:
        text = "swap them"
    elif ph in _VERBS:
        text = _VERBS[ph].format(t=action)
    elif ph == Phase.PEEK_LINE:
        text = f"peek at line {action_name(action).removeprefix('line ')}"
    elif ph == Phase.SHUFFLE:
        text = "shuffles the three tiles"
    elif ph == Phase.ARRANGE:
        text = f"puts them back in {action_name(action)}"
    elif ph == Phase.L_SHAPE:
        text = f"flips {action_name(action)}"
    else:
        text = action_name(action)
    return f"{who}: {text}"


def replay_record(x: str, o: str, seed: int, options: Options) -> dict[str, Any]:
    """Return the game as a list of turns, each with decisions, events and knowledge."""
    result = play_game(make_agent(x), make_agent(o), seed, options)
    return history_record(x, o, seed, options, result.state.history)


def history_record(
    x: str, o: str, seed: int, options: Options, history: list[int]
) -> dict[str, Any]:
    """Return a played game as `replay_record` does, from its decisions and chance moves.

    `history` is `rules.State.history` of a game set up from ``SplitMix64(seed)``; `x` and
    `o` only name who sat where (a seat played by a person, for one).
    """
    state = State.setup(SplitMix64(seed), options)
    turns: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for action in history:
        if state.phase == Phase.TURN:
            current = {
                "turn": state.turn_number,
                "player": "XO"[state.turn_player],
                "grid": "".join(VALUE_CHARS[v] for v in state.tiles),
                "face_up": [Card(c).name for c in state.face_up],
                "decisions": [],
            }
            turns.append(current)
        n0 = [len(state.observations[p]) for p in (0, 1)]
        line = describe(state, action)
        state.apply(action)
        seen = {
            "XO"[p]: [list(map(_jsonable, ev)) for ev in state.observations[p][n0[p] :]]
            for p in (0, 1)
        }
        current["decisions"].append({"decision": line, "seen": seen})
        if state.phase == Phase.TURN or state.is_over():
            current["knowledge"] = {"XO"[p]: _knowledge(state, p) for p in (0, 1)}
    return {
        "seed": seed,
        "x": x,
        "o": o,
        "winner": None if state.winner is None else "XO"[state.winner],
        "ending": state.ending.name,
        "turns": turns,
    }


def _jsonable(v):
    if isinstance(v, tuple):
        return list(v)
    return v


def _event(ev: list) -> str:
    kind = ev[0]
    if kind in ("peek", "show"):
        return f"{kind} {ev[1]}={VALUE_CHARS[ev[2]]}"
    if kind == "opp_peek":
        return f"opponent peeks at {ev[1]}"
    if kind == "not_bomb":
        return ""  # the replay lists the mover's events: the peeker saw the value itself
    if kind == "reveal":
        return f"reveal {Card(ev[1]).name}"
    if kind in ("card", "go"):
        return ""
    if kind == "place":
        return "placed " + " ".join(
            f"{t}={VALUE_CHARS[v]}" for t, v in zip(ev[1], ev[2], strict=True)
        )
    if kind == "shuffle":
        return "rearranged " + " ".join(map(str, ev[1])) + " (order unknown)"
    if kind == "swap":
        return f"swap {ev[1]} {ev[2]}"
    if kind == "secret_swap":
        return f"{ev[1]} secretly swapped with an unknown tile"
    return str(ev)


def replay_lines(x: str, o: str, seed: int, options: Options) -> list[str]:
    """Return the replay as text lines."""
    return record_lines(replay_record(x, o, seed, options))


def record_lines(rec: dict[str, Any]) -> list[str]:
    """Return a game record (`replay_record`, `history_record`) as the replay's text lines."""
    x, o, seed = rec["x"], rec["o"], rec["seed"]
    out = [f"Bombastic, seed {seed}: {x} (X, first) vs {o} (O)"]
    for t in rec["turns"]:
        out.append("")
        out.append(f"Turn {t['turn']}: {t['player']} to play; face up {', '.join(t['face_up'])}")
        grid = _grid(list(t["grid"]))
        know = t.get("knowledge")
        if know:
            kx, ko = _grid(know["X"]["known"]), _grid(know["O"]["known"])
            out.append(f"  {'grid':<8}{'X knows (after)':<18}{'O knows (after)':<18}")
            for r in range(3):
                out.append(f"  {grid[r]:<8}{kx[r]:<18}{ko[r]:<18}")
        for d in t["decisions"]:
            mine = [e for e in (_event(ev) for ev in d["seen"][t["player"]]) if e]
            out.append(f"  {d['decision']}" + (f"   [{'; '.join(mine)}]" if mine else ""))
        if know:
            for p in ("X", "O"):
                k = know[p]
                out.append(
                    f"  {p}: {k['possible']} arrangements possible; best line {k['best_line']}"
                    f" all {p} with chance {k['best_line_all_mine']:.3f}"
                )
    winner = rec["winner"] or "nobody"
    out.append("")
    out.append(f"Game over: {winner} wins ({rec['ending']})")
    return out
