"""Replaying a line through the reference engine: every `win` comes with a move list that
replays, step by step, through the rules room (DESIGN.md, "Truth of results").

`transcript` plays a line and records each turn (what it did, then the DECK, EQUIPPED
CARDS, DISCARD PILE top first and the cards out of play); `render_turns` gives those records
as the lines the solve and `replay` print; `replayed` checks a saved solve result and makes
its transcripts anew; `replay_line` does the same for a position and a line of one's own;
`where_it_stops` says where a line that does not win stops (rulebook E, "Losing the Game").
Nothing here prints: the command line prints what these return.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from bombsolve.solvers.allisbomb.rules.commands import rerun_command
from bombsolve.solvers.allisbomb.rules.deals import unrank
from bombsolve.solvers.allisbomb.rules.positions import cards_version_note, check_solution
from bombsolve.solvers.allisbomb.rules.rules import OUT, Outcome, State, state_from_json
from bombsolve.solvers.allisbomb.search.explain import ending_words
from bombsolve.solvers.common.errors import BadInput


class Line(NamedTuple):
    """A position and a line of one's own, replayed: the start, its turns (`transcript`
    records), the final position, and the note on the card set it was read with (None
    when the position names its set)."""

    state: State
    turns: list[dict]
    end: State
    cards_version_note: str | None


def transcript(state: State, solution: list) -> tuple[list[dict], State]:
    """Play `solution` from `state` through the reference engine; return one record per
    turn (what the turn did, then the DECK, EQUIPPED CARDS, DISCARD PILE top first and
    the cards out of play) and the final position. `replay` prints the same records."""
    config = state.config
    turns = []
    s = state.copy()
    for i, move in enumerate(solution):
        if s.is_over():
            raise BadInput(f"the game is over before turn {i + 1}")
        lines = s.describe_move(move)
        card = s.card_of(move)
        player = s.active + 1
        s.apply(move)
        turns.append(
            {
                "turn": len(turns) + 1,
                "card": s.cards.labels[card],
                "player": player,
                "choices": list(move),
                "steps": lines,
                "deck_after": [s.label(c) for c in s.deck],
                "equipped_after": [
                    [s.label(c) for c in s.equipped(p)] for p in range(config.players)
                ],
                "discard_after": [s.label(c) for c in reversed(s.discard)],
                "out_of_play_after": [s.label(c) for c, z in enumerate(s.zone) if z == OUT],
            }
        )
    return turns, s


def render_turns(turns: list[dict]) -> list[str]:
    """The transcript lines of `transcript` records (the solve and `replay` print these)."""
    lines = []
    for t in turns:
        two = len(t["equipped_after"]) > 1
        who = f" (player {t['player']})" if two else ""
        lines.append(f"turn {t['turn']}{who}: " + t["steps"][0])
        for step in t["steps"][1:]:
            lines.append("    " + step.strip())
        lines.append("    DECK (top first): " + (", ".join(t["deck_after"]) or "(empty)"))
        for p, eq in enumerate(t["equipped_after"]):
            who = f"player {p + 1} " if two else ""
            lines.append(f"    {who}EQUIPPED CARDS: " + (", ".join(eq) or "(none)"))
        lines.append(
            "    DISCARD PILE (top first): " + (", ".join(t["discard_after"]) or "(empty)")
        )
        if t["out_of_play_after"]:
            lines.append("    out of play: " + ", ".join(t["out_of_play_after"]))
    return lines


def where_it_stops(turns: list[dict], end: State) -> str:
    """Where a line that does not win stops (its `transcript` records and final state): the
    turn that loses the game and how (rulebook E, "Losing the Game"), or the game still
    going on after its last turn."""
    if end.outcome is Outcome.LOSS and turns:
        t = turns[-1]
        who = f" by player {t['player']}" if len(t["equipped_after"]) > 1 else ""
        how = ", ".join(ending_words(int(end.ending))) or "lost"
        return f"turn {t['turn']} ({t['card']} played{who}) loses the game: {how}"
    if not turns:
        return "it has no turns, and the game has not been won"
    return f"the game goes on after its last turn, {len(turns)}, with no win"


#: The fields of a solve result that `render_text` reads whatever the verdict.
_REPORT_FIELDS = (
    "outcome",
    "engine",
    "nodes",
    "seconds",
    "compile_seconds",
    "config",
    "stand_in",
    "seed",
    "rank",
    "deck",
    "deck_string",
    "position",
    "solution",
)
#: ... and those it reads for one verdict (a win's `turns` are made anew, not read).
_VERDICT_FIELDS = {
    "win": (),
    "loss": ("losing_ends", "longest_line"),
    "undecided": ("stopped_by",),
}


def replayed(data: Any, file: str) -> dict:
    """Check a saved solve result and return it with its transcripts made anew.

    The winning line (and a loss's longest line) is played from the saved position through
    the reference engine and the records of `transcript` replace the saved ones, so what
    `replay` prints is what the engine does, not what the file says. Raises BadInput, its
    message starting with `file`, if the file is not a solve result, a line cannot be
    played, a win's line does not win, or a loss's longest line wins.
    """
    if not isinstance(data, dict) or "position" not in data or "solution" not in data:
        raise BadInput(f"{file}: not a solution file (needs 'position' and 'solution')")
    outcome = data.get("outcome")
    if outcome not in _VERDICT_FIELDS:
        raise BadInput(
            f"{file}: outcome is {outcome!r}; expected 'win', 'loss' or 'undecided' "
            "(a solve result as --save writes it)"
        )
    missing = [k for k in (*_REPORT_FIELDS, *_VERDICT_FIELDS[outcome]) if k not in data]
    if missing:
        raise BadInput(f"{file}: not a solve result as --save writes it (no {', '.join(missing)})")
    for key in ("nodes", "seconds", "compile_seconds"):
        value = data[key]
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise BadInput(f"{file}: {key} is {value!r}; expected a number")
    moves = check_solution(data["solution"], file)
    state = state_from_json(data["position"])
    try:
        turns, end = transcript(state, moves)
    except BadInput as exc:
        raise BadInput(f"{file}: {exc}") from None
    out = dict(data)
    out["rerun"] = rerun_of(data, state, file)
    if outcome == "win":
        if end.outcome is not Outcome.WIN:
            raise BadInput(f"{file}: the saved solution does not win: {where_it_stops(turns, end)}")
        out["turns"] = turns
    elif moves:
        raise BadInput(
            f"{file}: a {outcome} has no winning line, yet the solution has {len(moves)} turns"
        )
    if outcome == "loss":
        ll = data["longest_line"]
        if not isinstance(ll, dict) or "solution" not in ll:
            raise BadInput(f"{file}: longest_line needs its 'solution'")
        line = check_solution(ll["solution"], f"{file}: longest_line")
        try:
            steps, end = transcript(state, line)
        except BadInput as exc:
            raise BadInput(f"{file}: longest_line: {exc}") from None
        if end.outcome is Outcome.WIN:
            raise BadInput(f"{file}: the longest line of a loss wins")
        out["longest_line"] = {**ll, "turns": len(line), "steps": steps}
    return out


def rerun_of(data: dict, state: State, file: str) -> str | None:
    """The re-run command of a saved solve, made anew from its position's configuration and
    its rank (None for a solve from --state); BadInput if the rank is not its deck's deal."""
    if data["rank"] is None:
        return None
    try:
        deal = unrank(int(data["rank"]), state.cards.n)
    except (TypeError, ValueError, BadInput):
        deal = None
    if deal is None or [state.cards.labels[c] for c in deal] != data["deck"]:
        raise BadInput(
            f"{file}: rank {data['rank']!r} is not the deal of its deck; expected the rank "
            "the solve printed"
        )
    return rerun_command(state.config, data["rank"])


def replay_line(data: dict, file: str) -> Line:
    """Replay a file holding only a `position` and a `solution` (a line written by hand,
    not a solve result). Raises BadInput, its message starting with `file`, if a field is
    missing, a move cannot be played, or the line does not win (`where_it_stops`)."""
    if "position" not in data or "solution" not in data:
        raise BadInput(f"{file}: not a solution file (needs 'position' and 'solution')")
    moves = check_solution(data["solution"], file)
    state = state_from_json(data["position"])
    try:
        turns, end = transcript(state, moves)
    except BadInput as exc:
        raise BadInput(f"{file}: {exc}") from None
    if end.outcome is not Outcome.WIN:
        raise BadInput(f"{file}: the saved solution does not win: {where_it_stops(turns, end)}")
    return Line(state, turns, end, cards_version_note(data["position"]))
