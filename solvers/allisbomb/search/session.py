"""Following a game turn by turn (the `play` session): every legal move of the position with
its verdict under perfect play, the moves grouped by the card played, undo and redo.

A verdict is the solver's (`solver.solve_first`: the reference search first, the kernel when
its budget runs out), so it is WIN, LOSS or UNDECIDED within the limits, never a guess
(DESIGN.md, "Truth of results"). WIN comes with a line that wins and its number of turns:
the fewest only when the session searches for the shortest win (`shortest`), otherwise the
length of the line the search found. Verdicts are cached per position (`State.key`, the
search's own key) for the whole session, so going back costs nothing; a winning line found
also gives its verdict to every position along it.

Nothing here prints or reads the terminal: the command line's loop does (cli/allisbomb_play.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bombsolve.solvers.allisbomb.rules.positions import check_position, check_solution
from bombsolve.solvers.allisbomb.rules.rules import (
    OUT,
    Ending,
    Outcome,
    State,
    TooManyMoves,
    state_from_json,
)
from bombsolve.solvers.allisbomb.search.replay import replay_line, replayed
from bombsolve.solvers.allisbomb.search.solver import DEFAULT_NODE_LIMIT, solve_first
from bombsolve.solvers.common.errors import BadInput

Move = tuple[int, ...]


@dataclass(frozen=True)
class Verdict:
    """A position's value under perfect play: 'win' with a winning `line` (its moves),
    'loss', or 'undecided' within the limits; `shortest` when no win is shorter (proven)."""

    outcome: str
    line: tuple[Move, ...] = ()
    shortest: bool = False

    @property
    def turns(self) -> int:
        """The turns of the winning line."""
        return len(self.line)

    def words(self) -> str:
        """'WIN in 5 turns', 'LOSS' or 'UNDECIDED within the limits'."""
        if self.outcome == "win":
            n = self.turns
            return f"WIN in {n} turn{'s' * (n != 1)}"
        if self.outcome == "loss":
            return "LOSS"
        return "UNDECIDED within the limits"


@dataclass(frozen=True)
class MoveVerdict:
    """One legal move: the card it plays, what the turn does (`State.describe_move`), the
    position after it, and that position's verdict (None while not searched)."""

    move: Move
    card: int
    steps: tuple[str, ...]
    child: State
    verdict: Verdict | None

    def turn_verdict(self) -> Verdict | None:
        """The verdict of playing this move: the child's, with this turn added to a win."""
        v = self.verdict
        if v is None or v.outcome != "win":
            return v
        return Verdict("win", (self.move, *v.line), v.shortest)


@dataclass(frozen=True)
class Group:
    """The moves that play one card (rulebook D.2, "Play A Card"): its heading (the card,
    its side and its action, as the turn's first line says it) and the choices its action
    leaves, each told by the lines in which it differs from the others."""

    card: int
    heading: str
    moves: tuple[MoveVerdict, ...]
    choices: tuple[str, ...]

    def best(self) -> MoveVerdict | None:
        """The move of the group with the shortest win (None if none is known to win)."""
        return best_move(self.moves)

    def summary(self) -> str:
        """The group's verdicts in words, e.g. 'WIN in 6 turns' or '3 ways: 1 WIN (in 6
        turns), 2 LOSS'."""
        verdicts = [m.turn_verdict() for m in self.moves]
        if len(verdicts) == 1:
            return "not searched" if verdicts[0] is None else verdicts[0].words()
        wins = [v for v in verdicts if v is not None and v.outcome == "win"]
        parts = []
        if wins:
            fewest = min(v.turns for v in wins)
            parts.append(f"{len(wins)} WIN (the best in {fewest} turns)")
        for outcome, word in (("loss", "LOSS"), ("undecided", "UNDECIDED")):
            k = sum(1 for v in verdicts if v is not None and v.outcome == outcome)
            if k:
                parts.append(f"{k} {word}")
        k = sum(1 for v in verdicts if v is None)
        if k:
            parts.append(f"{k} not searched")
        return f"{len(verdicts)} ways: " + ", ".join(parts)


def best_move(moves) -> MoveVerdict | None:
    """The move whose verdict is the shortest win, the first such in move order."""
    wins = [m for m in moves if m.verdict is not None and m.verdict.outcome == "win"]
    return min(wins, key=lambda m: m.verdict.turns) if wins else None


def position_lines(state: State) -> list[str]:
    """The position in the transcript's notation (`replay.render_turns`): whose turn (or
    the game's result once it is over),
    the DECK top first, each player's EQUIPPED CARDS, the DISCARD PILE top first, the cards
    out of play and the DESIRED DISH once known."""
    players = state.config.players
    who = f", player {state.active + 1} to play" if players > 1 else ""
    if state.is_over():
        lines = [f"the game is over: {state.result().upper()}"]
    else:
        lines = [f"turn {state.turn + 1}{who}"]
    lines.append(
        "DECK (top first): " + (", ".join(state.label(c) for c in state.deck) or "(empty)")
    )
    for p in range(players):
        mine = ", ".join(state.label(c) for c in state.equipped(p)) or "(none)"
        lines.append(("" if players == 1 else f"player {p + 1} ") + "EQUIPPED CARDS: " + mine)
    discard = ", ".join(state.label(c) for c in reversed(state.discard)) or "(empty)"
    lines.append("DISCARD PILE (top first): " + discard)
    out = [state.label(c) for c, z in enumerate(state.zone) if z == OUT]
    if out:
        lines.append("out of play: " + ", ".join(out))
    if state.desired >= 0:
        lines.append("DESIRED DISH: " + state.cards.labels[state.desired])
    return lines


def _choices(steps: list[tuple[str, ...]]) -> list[str]:
    """For each move of a group, the lines of its turn that not every move of the group
    has (which cards, which order), or its whole turn after the first line if none."""
    common = set(steps[0][1:]).intersection(*(set(s[1:]) for s in steps[1:]))
    out = []
    for s in steps:
        own = [line.strip() for line in s[1:] if line not in common]
        out.append("; ".join(own or [line.strip() for line in s[1:]]) or s[0])
    return out


class Session:
    """A game followed turn by turn from `start`: the current position, its moves with
    verdicts, and the history for undo and redo.

    `node_limit`, `time_limit` and `shortest` are the limits and the question of each
    search (as the solve command's); `before_kernel` is called before the kernel first
    searches (the command line announces a compile there).
    """

    def __init__(
        self,
        start: State,
        node_limit: int = DEFAULT_NODE_LIMIT,
        time_limit: float | None = None,
        shortest: bool = False,
        before_kernel: Callable[[], None] | None = None,
    ) -> None:
        self.node_limit, self.time_limit, self.shortest = node_limit, time_limit, shortest
        self.before_kernel = before_kernel
        self.past: list[State] = []
        self.future: list[State] = []
        self.state = start.copy()
        self.cache: dict[tuple, Verdict] = {}
        self._moves: dict[tuple, list[tuple[Move, tuple[str, ...], State]]] = {}
        #: Positions searched and searches run (the kernel's or the reference's).
        self.searches = 0
        self.nodes = 0
        #: Searches by the engine that answered ("reference" or "kernel").
        self.engines: dict[str, int] = {}

    # --- verdicts ------------------------------------------------------------------------

    def verdict_of(self, state: State) -> Verdict:
        """The verdict of a position (from the cache, or searched and cached)."""
        if state.outcome is Outcome.WIN:
            return Verdict("win", (), True)
        if state.outcome is Outcome.LOSS:
            return Verdict("loss")
        key = state.key()
        known = self.cache.get(key)
        if known is not None:
            return known
        res = solve_first(
            state,
            self.node_limit,
            self.time_limit,
            check=True,
            before_kernel=self.before_kernel,
            shortest=self.shortest,
        )
        self.searches += 1
        self.nodes += res.nodes
        self.engines[res.engine] = self.engines.get(res.engine, 0) + 1
        proven = self.shortest and not res.loss_reason & int(Ending.NOT_BEST)
        v = Verdict(res.outcome, tuple(tuple(m) for m in res.solution), proven)
        self.cache[key] = v
        if v.outcome == "win":
            self._learn_line(state, v)
        return v

    def cached(self, state: State) -> Verdict | None:
        """The verdict of a position if it is known without a search."""
        if state.is_over():
            return self.verdict_of(state)
        return self.cache.get(state.key())

    def _learn_line(self, state: State, v: Verdict) -> None:
        """Give every position along a winning line the rest of the line as its win (the
        rest of a shortest win is a shortest win from there), unless a shorter is known."""
        s = state.copy()
        for i, move in enumerate(v.line[:-1]):
            s.apply(move)
            rest = Verdict("win", v.line[i + 1 :], v.shortest)
            known = self.cache.get(s.key())
            if known is None or (known.outcome == "win" and known.turns > rest.turns):
                self.cache[s.key()] = rest

    def legal(self, state: State | None = None) -> list[tuple[Move, tuple[str, ...], State]]:
        """(move, the turn in words, the position after) for every legal move (cached).
        Raises BadInput past the cap on moves per position (CARDS.md, "Limits")."""
        state = self.state if state is None else state
        key = state.key()
        if key not in self._moves:
            try:
                kids = state.children()
            except TooManyMoves as exc:
                raise BadInput(f"this position has {exc}; the session lists at most that") from None
            self._moves[key] = [(m, tuple(state.describe_move(m)), c) for m, c in kids]
        return self._moves[key]

    def move_verdicts(
        self, search: bool = True, progress: Callable[[int, int], None] | None = None
    ) -> list[MoveVerdict]:
        """Every legal move of the current position with its verdict, in move order; with
        `search`, unknown verdicts are searched (`progress(done, total)` before each),
        else left None."""
        state = self.state
        moves = self.legal()
        out = []
        for i, (move, steps, child) in enumerate(moves):
            v = self.cached(child)
            if v is None and search:
                if progress is not None:
                    progress(i, len(moves))
                v = self.verdict_of(child)
            out.append(MoveVerdict(move, state.card_of(move), steps, child, v))
        return out

    def groups(self, verdicts: list[MoveVerdict]) -> list[Group]:
        """The moves grouped by the card they play, in the order the cards are first met."""
        by_card: dict[int, list[MoveVerdict]] = {}
        for m in verdicts:
            by_card.setdefault(m.card, []).append(m)
        out = []
        for card, ms in by_card.items():
            choices = _choices([m.steps for m in ms]) if len(ms) > 1 else [""]
            out.append(Group(card, ms[0].steps[0], tuple(ms), tuple(choices)))
        return out

    def position_verdict(self, verdicts: list[MoveVerdict]) -> Verdict | None:
        """The current position's verdict from its moves' (None while one is unknown and
        none wins): a WIN through the best move, a LOSS when every move loses."""
        if self.state.is_over():
            return self.verdict_of(self.state)
        best = best_move(verdicts)
        if best is not None:
            decided = all(
                m.verdict is not None and m.verdict.outcome != "undecided" for m in verdicts
            )
            proven = decided and all(
                m.verdict.shortest for m in verdicts if m.verdict.outcome == "win"
            )
            return Verdict("win", best.turn_verdict().line, proven)
        if any(m.verdict is None for m in verdicts):
            return None
        if all(m.verdict.outcome == "loss" for m in verdicts):
            return Verdict("loss")
        return Verdict("undecided")

    # --- moving through the game ---------------------------------------------------------

    def play(self, move: Move) -> None:
        """Play a legal move of the current position (BadInput if it is not one)."""
        for m, _, child in self.legal():
            if m == tuple(move):
                self.past.append(self.state)
                self.future.clear()
                self.state = child.copy()
                return
        raise BadInput(f"{list(move)} is not a legal move here")

    def undo(self) -> bool:
        """Go back one turn; False at the start."""
        if not self.past:
            return False
        self.future.append(self.state)
        self.state = self.past.pop()
        return True

    def redo(self) -> bool:
        """Play again the turn last undone; False if none is."""
        if not self.future:
            return False
        self.past.append(self.state)
        self.state = self.future.pop()
        return True

    def line_from_here(self) -> Verdict:
        """The current position's verdict with its whole winning line (searches the
        position itself if its moves are not all known)."""
        return self.verdict_of(self.state)

    def position_json(self) -> dict:
        """The current position as a position file (format 2) that --state reads back."""
        data = check_position(self.state.to_json())
        back = state_from_json(data)  # what --state will read: refuse to write anything else
        if back.key() != self.state.key():
            raise BadInput("the position does not read back the same; not saved")
        return data


def line_of_file(data: object, file: str) -> tuple[State, list[Move]]:
    """The start and the line of a saved solve (`--save`: its winning line, or a loss's
    longest line) or of a position and a line of one's own, checked as `replay` checks
    them (BadInput naming `file`)."""
    if isinstance(data, dict) and "outcome" not in data:
        line = replay_line(data, file)
        return line.state, [tuple(m) for m in check_solution(data["solution"], file)]
    result = replayed(data, file)
    state = state_from_json(result["position"])
    moves = result["solution"] or (result.get("longest_line") or {}).get("solution", [])
    return state, [tuple(m) for m in check_solution(moves, file)]


def position_before(state: State, line: list[Move], turn: int, file: str) -> State:
    """The position before turn `turn` (from 1) of `line` played from `state`."""
    last = len(line) + 1
    if not 1 <= turn <= last:
        raise BadInput(f"--turn {turn}: {file} has a line of {len(line)} turns; expected 1..{last}")
    s = state.copy()
    for move in line[: turn - 1]:
        s.apply(move)
    return s
