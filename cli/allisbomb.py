"""`bombsolve allisbomb`: All Is Bomb: solve a shuffle under perfect play, list cards, replay.

`bombsolve allisbomb --seed 42` solves one deal; `cards` prints the card table; `replay`
plays a saved solution back through the reference engine. The lead's study commands
(`sweep`, `report`, `campaign`) are attached to this group from `cli/allisbomb_study.py`.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

import click

from bombsolve.cli.common import SEED, count_range, finite_float, rule_option
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.files import check_output_file, write_text_atomic
from bombsolve.solvers.common.jsonfile import read_json_file

STAND_IN_NOTE = (
    "cards: STAND-IN texts written by the bombsolve project (the printed card texts are not "
    "available); pass --cards FILE with a transcription of your own cards"
)
#: The banner's note when a card file gave some cards and the stand-in texts the others.
STAND_IN_REST = (
    "cards: STAND-IN texts written by the bombsolve project for the cards your card file "
    "does not give"
)


def warn_nonstandard(config, idle: bool = True, seen: set[str] | None = None):
    """One warning line on stderr per line the built game keeps for the user (CARDS.md, "Game
    checks", "Slips"): under --allow-nonstandard each breach of what the rulebook fixes and
    each step that cannot act as written; with a card file, each step idle in this game or
    on its side and each patch note (`idle`: print those too). `seen` holds the lines already
    printed for other configurations of the same command, so that each is printed once.

    Returns the configuration to play: without `allow_nonstandard` when the cards break
    nothing, so that a standard game is not labelled `/nonstandard`.
    """
    if not config.allow_nonstandard and config.cards_file is None:
        return config
    from dataclasses import replace

    from bombsolve.solvers.allisbomb import load_cards

    cs = load_cards(config)
    for line in (*cs.nonstandard, *(cs.warnings if idle else ())):
        if seen is None or line not in seen:
            click.echo(f"warning: {line}", err=True)
        if seen is not None:
            seen.add(line)
    if config.allow_nonstandard and not cs.nonstandard:
        return replace(config, allow_nonstandard=False)
    return config


def banner(stand_in: bool, provenance: dict | None, version: str | None = None) -> str:
    """The first line of every report: whose card texts these are, per set, and which
    stand-in set version the stand-in ones come from."""
    from bombsolve.solvers.allisbomb import provenance_words

    per_set = provenance_words(provenance or {})
    if stand_in:
        which = f"; stand-in set {version}" if version else ""
        mine = any(p != "stand-in" for counts in (provenance or {}).values() for p in counts)
        # a card file of the user's was passed: the stand-in texts are the cards it left out
        note = STAND_IN_REST if mine else STAND_IN_NOTE
        return f"[{note}; {per_set}{which}]"
    return f"[cards: {per_set}]"


@dataclass(frozen=True)
class GameArgs:
    """The game options as typed (`game_options`): which cards and rules to play with."""

    expansions: str | None = None
    hands: bool = False
    players: int = 1
    blitz: bool = False
    cards_file: str | None = None
    allow_nonstandard: bool = False
    #: The --rule NAME=VALUE texts as typed.
    rule_pairs: tuple[str, ...] = ()

    def rules_given(self) -> bool:
        """True if a card set, variant or rule option differs from its default (--cards aside)."""
        return (
            bool(self.expansions or self.hands or self.blitz or self.rule_pairs)
            or self.players != 1
        )

    def rule_values(self) -> dict[str, object]:
        """The --rule options as {Options field: value} (raises BadInput on a bad one)."""
        from bombsolve.solvers.allisbomb import RULE_OPTIONS
        from bombsolve.solvers.common.options import parse_rule_pairs

        return parse_rule_pairs(self.rule_pairs, {name: bool for name in RULE_OPTIONS})

    def given(self) -> bool:
        """True if any game option differs from its default."""
        return self.rules_given() or bool(self.cards_file) or self.allow_nonstandard

    def config_keys(self) -> dict[str, object]:
        """The options given, as the keys of a position's ``config`` that say the same
        (results/allisbomb/README.md, "Positions"): what to write instead of them with
        --state. Raises BadInput on a bad value, as `config` does."""
        from bombsolve.solvers.allisbomb import cards_option, parse_expansions

        keys: dict[str, object] = {}
        names = parse_expansions(self.expansions)
        if [e for e in names if e != "hands"]:
            keys["expansions"] = [e for e in names if e != "hands"]
        if self.hands or "hands" in names:
            keys["hands"] = True
        if self.blitz:
            keys["blitz"] = True
        if self.players != 1:
            keys["players"] = self.players
        if self.cards_file:
            option = cards_option(self.cards_file)
            if option["cards_file"] is None:
                keys["cards_version"] = option["cards_version"]
            else:
                keys["cards_file"] = str(option["cards_file"])
        if self.allow_nonstandard:
            keys["allow_nonstandard"] = True
        keys.update(self.rule_values())
        return keys

    def config(self):
        """The validated `Options` (raises BadInput naming a bad value)."""
        from bombsolve.solvers.allisbomb import Options, cards_option, parse_expansions

        names = parse_expansions(self.expansions)
        config = Options(
            expansions=tuple(e for e in names if e != "hands"),
            hands=self.hands or "hands" in names,
            blitz=self.blitz,
            players=self.players,
            **cards_option(self.cards_file),
            allow_nonstandard=self.allow_nonstandard,
            **self.rule_values(),
        ).validate()
        return warn_nonstandard(config)


_GAME_PARAMS = (
    "expansions",
    "hands",
    "players",
    "blitz",
    "cards_file",
    "allow_nonstandard",
    "rule_pairs",
)


def game_options(hands_flag: str = "--hands"):
    """Add the game options (--expansions, --hands, --players, --blitz, --cards, --rule) to a
    command.

    The command receives them as one keyword argument, ``game`` (a `GameArgs`).
    `hands_flag` is the HANDS option's declaration (e.g. "--hands/--no-hands").
    """

    def decorate(fn):
        @click.option(
            "--expansions",
            default=None,
            metavar="LIST",
            help="Comma-separated: mosquitos, dream_guide, gifts, the_juice, "
            "waking_up, all (the ALL expansion), hands; 'every' for all six expansions.",
        )
        @click.option(
            hands_flag, "hands", is_flag=True, default=False, help="Add the HANDS helper pack."
        )
        @click.option(
            "--players",
            type=click.IntRange(1, 2),
            default=1,
            show_default=True,
            help="1 (solo) or 2 (co-op, solved as one team).",
        )
        @click.option("--blitz", is_flag=True, help="Blitz variant: 13 base cards.")
        @click.option(
            "--cards",
            "cards_file",
            type=click.Path(dir_okay=False),
            default=None,
            help="A stand-in set version by name (standin-v2, the default, or standin-v1), "
            "or a card file (TOML, see solvers/allisbomb/data/CARDS.md) replacing the "
            "stand-in cards of the sets it defines.",
        )
        @click.option(
            "--allow-nonstandard",
            is_flag=True,
            help="Play cards that break what the rulebook fixes (copies, names, the "
            "PRINCESS's win...), or whose steps cannot act as written (CARDS.md, 'Slips'), on "
            "purpose: one warning line per breach instead of an error.",
        )
        @rule_option
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            game = GameArgs(**{k: kwargs.pop(k) for k in _GAME_PARAMS})
            return fn(*args, game=game, **kwargs)

        return wrapper

    return decorate


#: `--split-limit`, the same on a single solve and on a sweep (`allisbomb_study.sweep`).
split_limit_option = click.option(
    "--split-limit",
    type=count_range(1),
    default=None,
    help="With --split-depth: positions each child's search may enter (default 25,000,000; "
    "its table takes about 70 bytes a position).",
)


def check_split_limit(split_depth: int | None, split_limit: int | None) -> None:
    """Refuse a --split-limit given without the --split-depth it is for."""
    if split_limit is not None and split_depth is None:
        raise BadInput("--split-limit is the split's; add --split-depth")


@click.group(name="allisbomb", invoke_without_command=True)
@click.option("--seed", type=SEED, default=None, help="Shuffle with np.random.default_rng(SEED).")
@click.option(
    "--rank",
    "rank_",
    type=str,
    default=None,
    help="The deal with this permutation rank, with the game options it was dealt with "
    "(every solve prints the whole command).",
)
@click.option(
    "--deck",
    default=None,
    metavar="'NAME,NAME,...'",
    help="A physical shuffle, top card first (card names as in `cards`).",
)
@click.option(
    "--state",
    "state_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Solve from a mid-game position (JSON: the 'position' of a --json or --save "
    "result, or written by hand, piles top first; every field: "
    "results/allisbomb/README.md#positions).",
)
@game_options()
@click.option(
    "--node-limit",
    type=count_range(1),
    default=3_000_000,
    show_default=True,
    help="Positions to search before answering 'undecided'.",
)
@click.option(
    "--shortest",
    is_flag=True,
    help="Find a win with the fewest turns (iterative deepening: the reference search "
    "first, the Numba kernel when its budget runs out). If "
    "--node-limit or --time-limit stops it first, the win found is printed, marked "
    "'shortest not proven'.",
)
@click.option(
    "--time-limit",
    type=finite_float(0, min_open=True),
    default=None,
    help="Seconds to search before answering 'undecided' (checked every 100,000 positions); "
    "with --split-depth, the split's searches share what the first search leaves.",
)
@click.option(
    "--keep-most",
    is_flag=True,
    help="Campaign Mode: of all wins, find one ending with the fewest star cards in the "
    "discard pile (searches every position, like proving a loss).",
)
@click.option(
    "--split-depth",
    type=count_range(1),
    default=None,
    help="If the search leaves the deal undecided, split it: decide its turn's children one "
    "by one, each with a search and a table of its own, up to this many turns deep (a win "
    "behind a first move that leads into a loss too large for the table).",
)
@split_limit_option
@click.option(
    "--study",
    "study_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="With --case K: re-solve case K of this sweep folder (its configuration, deal "
    "and node limit; a --node-limit given replaces the study's), and show the study's row "
    "beside it.",
)
@click.option("--case", type=click.IntRange(min=0), default=None, help="A case of --study.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--exit-code",
    "verdict_code",
    is_flag=True,
    help="Exit with the verdict: 0 win, 10 loss, 11 undecided (2 stays bad input).",
)
@click.option(
    "--save",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the JSON result to FILE (for `replay`).",
)
@click.pass_context
def allisbomb(
    ctx,
    seed,
    rank_,
    deck,
    state_file,
    game,
    node_limit,
    shortest,
    time_limit,
    keep_most,
    split_depth,
    split_limit,
    study_dir,
    case,
    as_json,
    verdict_code,
    save,
) -> None:
    """All Is Bomb: is this shuffle winnable under perfect play, and how?

    \b
    Examples:
      bombsolve allisbomb --seed 42
      bombsolve allisbomb --seed 7 --expansions mosquitos --players 2 --json
      bombsolve allisbomb --blitz --deck "KING,CROISSANT,PROPHET OF CROISSANT,PROPHET OF PANCAKES,PANCAKES,RASCAL,LIBRARIAN,PROPHET OF EGGS,PRINCESS,JOKER,EGGS,GUARDIAN,MENDER"
      bombsolve allisbomb cards --expansions all
      bombsolve allisbomb --study runs/base --case 3
      bombsolve allisbomb --seed 43 --exit-code  # exits 10: every line loses

    \b
    Exit codes: 0 the command did its job (with --exit-code: a win), 2 bad input;
    with --exit-code, 10 a loss and 11 undecided.
    """
    if ctx.invoked_subcommand is not None:
        # an option of the solve typed before a subcommand would be read by nothing
        from click.core import ParameterSource

        for param in ctx.command.params:
            if ctx.get_parameter_source(param.name) is ParameterSource.COMMANDLINE:
                name = max(param.opts, key=len)
                raise BadInput(
                    f"{name} goes after the subcommand or without one, "
                    f"not before '{ctx.invoked_subcommand}'"
                )
        return
    study_row = None
    if study_dir is not None or case is not None:
        if study_dir is None or case is None:
            raise BadInput("--study and --case go together")
        if seed is not None or rank_ is not None or deck is not None or state_file is not None:
            raise BadInput("--study --case names the deal; drop --seed, --rank, --deck, --state")
        if game.given():
            raise BadInput("--study --case takes the game options from the study")
        from click.core import ParameterSource

        rank_, game, study_limit, study_row = _study_case(study_dir, case)
        # an explicit --node-limit is what re-solving an undecided case asks for; without
        # one the case is solved as the study solved it
        if ctx.get_parameter_source("node_limit") is ParameterSource.DEFAULT:
            node_limit = study_limit
        study_row["node_limit_used"] = node_limit
        if study_row.get("split") and split_depth is None and split_limit is None:
            split_depth, split_limit = study_row["split"]["depth"], study_row["split"]["limit"]
    check_split_limit(split_depth, split_limit)
    if split_depth is not None and (shortest or keep_most):
        raise BadInput(
            "--split-depth decides a deal the verdict search leaves undecided; it does not "
            "go with --shortest or --keep-most"
        )
    sources = [x for x in (seed, rank_, deck, state_file) if x is not None]
    if not sources:
        if game.given():
            # a typo such as `--expansions al` is refused even with no deal to solve: the
            # help alone would hide that the value was never read
            game.config()
        click.echo(ctx.get_help())
        return
    if len(sources) > 1:
        raise BadInput("give one of --seed, --rank, --deck, --state")
    if save:
        check_output_file(save, "--save")
    result = solve_command(
        seed,
        rank_,
        deck,
        state_file,
        game,
        node_limit,
        shortest,
        keep_most,
        time_limit,
        split_depth,
        split_limit,
    )
    if study_row is not None:
        result["study_case"] = study_row
    if save:
        write_text_atomic(save, json.dumps(result, indent=1) + "\n", "--save", follow=True)
    if as_json:
        click.echo(json.dumps(result, indent=1, default=str))
    else:
        click.echo(render_text(result))
        if study_row is not None:
            click.echo(_study_row_text(study_row))
    if verdict_code and result["outcome"] != "win":
        from bombsolve.cli.common import EXIT_LOSS, EXIT_UNDECIDED

        ctx.exit(EXIT_LOSS if result["outcome"] == "loss" else EXIT_UNDECIDED)


def _study_case(study_dir: str, case: int):
    """(rank, game options, node limit, summary) of a sweep's case, for ``--study --case``."""
    from bombsolve.solvers.allisbomb import DEFAULT_CARDS, RULE_OPTIONS, sweep_case

    c = sweep_case(study_dir, case)
    config = c["config"]
    default = type(config)()
    game = GameArgs(
        expansions=",".join(config.expansions) or None,
        hands=config.hands,
        players=config.players,
        blitz=config.blitz,
        cards_file=(
            str(config.cards_file)
            if config.cards_file is not None
            else None
            if config.cards_version == DEFAULT_CARDS
            else config.cards_version
        ),
        # a study made with --allow-nonstandard plays its cards again the same way
        allow_nonstandard=config.allow_nonstandard,
        rule_pairs=tuple(
            f"{name}={str(getattr(config, name)).lower()}"
            for name in RULE_OPTIONS
            if getattr(config, name) != getattr(default, name)
        ),
    )
    if game.config().label() != config.label():
        raise BadInput(
            f"case {case} is a {config.label()} deal, whose options this command "
            "cannot set; expected a configuration of cards, players and --rule options"
        )
    row = c["row"]
    summary = {
        "study": str(study_dir),
        "case": case,
        "config": config.label(),
        "deal": c["deal"],
        "seed": str(c["seed"]),
        "rank": str(c["rank"]),
        "node_limit": c["node_limit"],
        "split": c["split"],
        "study_outcome": None if row is None else row["outcome"],
        "study_nodes": None if row is None else int(row["nodes"]),
    }
    return str(c["rank"]), game, c["node_limit"], summary


def _study_row_text(s: dict) -> str:
    head = f"study {s['study']}, case {s['case']}: {s['config']} deal {s['deal']}, seed {s['seed']}"
    used = s.get("node_limit_used", s["node_limit"])
    if used != s["node_limit"]:
        head += f"; re-solved with --node-limit {used:,} (the study's: {s['node_limit']:,})"
    if s["study_outcome"] is None:
        return head + " (its chunk is not done yet)"
    head += f"; the study's row: {s['study_outcome']}, {s['study_nodes']:,} positions"
    # The sweep decides a deal with the kernel's batch search; a single solve tries the
    # reference search first. They try moves in other orders, so they search other numbers
    # of positions and may find other winning lines; a decided verdict is the same.
    return head + (
        " (the study's batch search tries moves in another order than this solve: the"
        " positions searched and the winning line found may differ, a decided verdict does not)"
    )


def start_position(seed, rank_, deck, state_file, game: GameArgs):
    """The position a solve or a play session starts from, given by one of --seed, --rank,
    --deck or --state: (state, the deal or None for --state, the position file's note on
    its card set or None). Raises BadInput naming a bad value."""
    from bombsolve.solvers.allisbomb import (
        cards_version_note,
        compiled,
        deals,
        prepare,
        state_from_json,
    )

    note = None
    if state_file is not None:
        if game.given():
            keys = ", ".join(
                f"{json.dumps(k)}: {json.dumps(v)}" for k, v in game.config_keys().items()
            )
            raise BadInput(
                "--state takes the game options from the position file; write them in its "
                f'"config" instead: {keys} (results/allisbomb/README.md, "Positions")'
            )
        data = read_json_file(state_file, "position file")
        if isinstance(data, dict) and "position" in data:
            data = data["position"]
        state = state_from_json(data)
        note = cards_version_note(data)
        config = state.config
        warn_nonstandard(config)
        cs = compiled(config).cards
        deal = None
    else:
        config = game.config()
        cs = compiled(config).cards
        if seed is not None:
            deal = deals.deal_from_seed(config, seed)
        elif rank_ is not None:
            try:
                r = int(rank_)
            except ValueError:
                raise BadInput(f"--rank must be an integer, not {rank_!r}") from None
            deal = deals.unrank(r, cs.n)
        else:
            deal = deals.parse_deck(deck, cs)
        state = prepare(cs, deal)
    return state, deal, note


def solve_command(
    seed,
    rank_,
    deck,
    state_file,
    game: GameArgs,
    node_limit,
    shortest,
    keep_most=False,
    time_limit=None,
    split_depth=None,
    split_limit=None,
) -> dict:
    """Solve one deal or position and return the JSON-ready result (replay-checked); with
    `split_depth`, a deal the search leaves undecided is split (`split.solve_split`)."""
    # (`compiled` imports the kernel module; nothing compiles until a kernel function is
    # first called)
    from bombsolve.solvers.allisbomb import (
        compiled,
        deals,
        is_proof,
        rerun_command,
        stars_lost,
        transcript,
    )

    state, deal, note = start_position(seed, rank_, deck, state_file, game)
    config = state.config
    cs = compiled(config).cards
    if shortest and keep_most:
        raise BadInput("--shortest and --keep-most ask for different wins; choose one")
    warm = {"seconds": 0.0}

    def load_kernel(search: str | None = None) -> None:
        # announced on stderr when Numba must compile (the first run of a fresh install)
        from bombsolve.cli.warmup import ensure_compiled

        extended = compiled(config).prog.extended
        warm["seconds"] = 0.0
        for part in kernel_parts(extended, search):
            # the solver's forms also allocate the table the search will use
            sized = {"node_limit": node_limit} if part in ("solve", "keep-most") else {}
            warm["seconds"] += ensure_compiled("allisbomb", part, **sized)

    from bombsolve.solvers.allisbomb import solve_first

    # the reference search first in every mode; the kernel (and its compile) only when
    # the reference's budget runs out
    search = "shortest" if shortest else "keep-most" if keep_most else None
    res = solve_first(
        state,
        node_limit,
        time_limit,
        check=True,
        before_kernel=lambda: load_kernel(search=search),
        shortest=shortest,
        keep_most=keep_most,
    )
    split = None
    if split_depth is not None and res.outcome == "undecided":
        res, split = _split(state, res, split_depth, split_limit, load_kernel, time_limit)
    from bombsolve.solvers.allisbomb import ending_words

    turns, s = transcript(state, res.solution)
    out = {
        "outcome": res.outcome,
        "engine": res.engine,
        "nodes": res.nodes,
        "seconds": round(res.seconds, 4),
        "compile_seconds": round(warm["seconds"], 3),
        "config": config.to_dict(),
        "stand_in": cs.is_stand_in(),
        "card_files": [str(f) for f in cs.files],
        "provenance": cs.provenance_by_set(),
        "seed": seed,
        "rank": None if deal is None else str(deals.rank(deal)),
        "deck_rank": None if deal is None else str(deals.deck_rank(deal, cs.labels)),
        "copies_by_id": None if deal is None else _copies_by_id(deal, cs.labels),
        "deck": None if deal is None else [cs.labels[c] for c in deal],
        "deck_string": None if deal is None else deals.deck_string(deal, cs),
        "rerun": None if deal is None else rerun_command(config, deals.rank(deal)),
        "position": state.to_json(),
        "node_limit": node_limit,
        "time_limit": time_limit,
        "shortest": shortest,
        "keep_most": keep_most,
        "solution": [list(m) for m in res.solution],
        "turns": turns,
        "replay_checked": res.outcome == "win",
    }
    if split is not None:
        out["split"] = split
    if note is not None:
        # the position names no stand-in set: the banner says which it was read with
        out["cards_version_note"] = note
    from bombsolve.cli.common import json_record

    rules = {k: getattr(config, k) for k in ("gifts_distinct", "give_optional", "all_any_player")}
    rules["waking_up_rules"] = config.waking_up
    provenance = "stand-in" if cs.is_stand_in() else "card files: " + ", ".join(out["card_files"])
    out.update({k: v for k, v in json_record(seed, rules, provenance).items() if k != "seed"})
    not_proven = bool(res.loss_reason & 16)  # Ending.NOT_BEST: a win, not proven the best
    if res.outcome == "win":
        if keep_most:
            out["stars_lost"] = stars_lost(s)
            out["best_proven"] = not not_proven
        if shortest:
            out["shortest_proven"] = not not_proven
    elif res.outcome == "loss":
        from bombsolve.solvers.allisbomb import explain_loss

        why = explain_loss(state)
        ranked = sorted(why.ends, key=lambda w: -why.ends[w]) or ending_words(res.loss_reason)
        # the pruning cuts a line where it proves no win reachable: a proof that the line
        # is lost, not one of the rulebook's ways to lose (E, "Losing the Game"), so it is
        # kept apart from the losing ends, under `proved`
        out["loss_reasons"] = [
            name for name in res.reasons() if name not in ("NO_WIN_REACHABLE", "NOT_BEST")
        ]
        out["losing_ends"] = [w for w in ranked if not is_proof(w)]
        out["losing_end_lines"] = {w: k for w, k in why.ends.items() if not is_proof(w)}
        out["proved"] = [w for w in ranked if is_proof(w)]
        out["proved_lines"] = {w: k for w, k in why.ends.items() if is_proof(w)}
        longest, _ = transcript(state, why.longest)
        out["longest_line"] = {
            "turns": len(why.longest),
            "solution": [list(m) for m in why.longest],
            "steps": longest,
            "ending": why.longest_end,
            "complete": why.complete,
        }
    else:
        out["stopped_by"] = _stopped_by(res, node_limit, time_limit, split)
    return out


def kernel_parts(extended: bool, search: str | None) -> list[str]:
    """The warm-up parts (bombsolve.cli.warmup) a solve's kernel needs, in order: the solver, then
    the shortest search, which deepens after the solver's verdict; the keep-most search
    runs a form of its own instead (the bound, kernel._bound_at_root). A program with
    extended rows runs the same forms and, through their addresses, the extended steps
    (kernel.extended_entries), compiled last; its plain solve also needs the shortest
    search, which deepens a deal widening leaves open (solver.deepen_search)."""
    parts = ["keep-most"] if search == "keep-most" else ["solve"]
    if search == "shortest" or (extended and search is None):
        parts.append("shortest")
    if extended:
        parts.append("extended")
    return parts


def _split(
    state, res, depth: int, limit: int | None, load_kernel, time_limit: float | None
) -> tuple[object, dict]:
    """Split a deal the search left undecided (`split.solve_split`) with what is left of
    `time_limit` after the first search: the combined result (positions of both) and the
    split's record for the output."""
    from bombsolve.solvers.allisbomb import SPLIT_LIMIT, SolveResult, solve_split

    limit = limit or SPLIT_LIMIT
    left = None if time_limit is None else time_limit - res.seconds
    if res.engine == "reference" and (left is None or left > 0):
        load_kernel()
    sp = solve_split(state, depth=depth, node_limit=limit, time_limit=left)
    out = SolveResult(
        sp.outcome,
        res.nodes + sp.nodes,
        res.seconds + sp.seconds,
        sp.solution,
        sp.loss_reason,
        engine="split",
    )
    record = {
        "depth": depth,
        "limit": limit,
        "searches": sp.searches,
        "depth_reached": sp.depth,
        "first_search_nodes": res.nodes,
        "stopped": sp.stopped or None,
    }
    return out, record


def _stopped_by(res, node_limit: int, time_limit: float | None, split: dict | None = None) -> str:
    """What stopped an undecided search, in words, and what it cut before (CARDS.md,
    "Limits": a line at the depth limit, a position's moves past the move cap)."""
    from bombsolve.solvers.allisbomb import MAX_DEPTH, MAX_MOVES, Ending

    if split is not None and split.get("stopped") == "time":
        where = ", during the split" if split["searches"] else ", before the split"
        return f"the time limit of {time_limit:g} s (--time-limit){where}"
    if getattr(res, "engine", None) == "split":
        return (
            "the split's depth and limit (--split-depth, --split-limit): a child its search "
            "left undecided at the deepest level"
        )
    cuts = []
    if res.loss_reason & Ending.DEPTH_CUT:
        cuts.append(f"a line was cut at the deepest the search follows ({MAX_DEPTH:,} turns)")
    if res.loss_reason & Ending.TOO_MANY_MOVES:
        cuts.append(
            f"a position's moves were cut at the move cap (more than {MAX_MOVES:,} moves, "
            "or a turn of more than 64 choices)"
        )
    cut = " and ".join(cuts)
    if res.nodes >= node_limit:
        stop = f"the node limit of {node_limit:,} positions (--node-limit)"
    elif time_limit is not None and res.seconds >= time_limit:
        stop = f"the time limit of {time_limit:g} s (--time-limit)"
    elif cuts:
        return (
            f"the end of the search: no win found, and {cut}, so what was cut is unsearched "
            "(CARDS.md 'Limits')"
        )
    else:
        return "the search's own limits (CARDS.md 'Limits')"
    return f"{stop}; before it, {cut} (CARDS.md 'Limits')" if cuts else stop


def _moves(k: int) -> str:
    """A count of the moves that end a line one way. Several moves can lead into the same
    lost position, and a lost position is not searched further, so these counts are not
    positions and can exceed the positions searched."""
    return f"{k:,} move" + ("" if k == 1 else "s")


def _copies_by_id(deal, labels) -> list[str]:
    """The repeated cards whose copies `deal` holds in another order than `--deck` would."""
    from bombsolve.solvers.allisbomb import deals

    phys = deals.physical(deal, labels)
    return sorted({labels[int(a)] for a, b in zip(deal, phys, strict=True) if int(a) != b})


def render_text(r: dict) -> str:
    """The human-readable solve report of a result of `solve_command` (`replay` prints a
    saved one through this too, so both print the same text)."""
    from bombsolve.solvers.allisbomb import is_proof, render_turns

    lines = []
    version = r["config"].get("cards_version", "standin-v1")
    if r.get("cards_version_note"):
        version += f" ({r['cards_version_note']})"
    lines.append(banner(r["stand_in"], r.get("provenance"), version))
    lines.append(f"game: {r['config']['label']}")
    if r["deck"] is not None:
        src = f"seed {r['seed']}, " if r["seed"] is not None else ""
        again = f" (re-run: {r['rerun']})" if r.get("rerun") else ""
        lines.append(f"deal: {src}rank {r['rank']}{again}")
        if r.get("deck_rank") and r["deck_rank"] != r["rank"]:
            # the rank tells copies apart by id (studies record it; --rank replays it),
            # while --deck numbers a card's copies from the top
            lines.append(
                f"deck rank {r['deck_rank']}: the rank --deck gives these cards; the rank "
                f"above tells apart the copies of {', '.join(r['copies_by_id'])} (this deal "
                "holds them in the other order), and --rank replays exactly it"
            )
        lines.append(f"deck (top first): {r['deck_string']}")
    else:
        lines.append("position: from --state file")
    for p, eq in enumerate(r["position"]["equipped"]):
        lines.append(f"player {p + 1} equips: {', '.join(eq) or '(nothing)'}")
    verdict = r["outcome"].upper()
    if r.get("engine") == "reference":
        how = "by the reference search, no kernel needed"
    elif r.get("split"):
        sp = r["split"]
        how = (
            f"by the Numba kernel: {sp['first_search_nodes']:,} in one search, then the deal "
            f"split {sp['depth_reached']} turn{'s' * (sp['depth_reached'] != 1)} deep, "
            f"{sp['searches']:,} children searched "
            f"with up to {sp['limit']:,} positions each; kernel load/compile "
            f"{r['compile_seconds']:.2f} s"
        )
    else:
        how = f"by the Numba kernel; kernel load/compile {r['compile_seconds']:.2f} s"
    lines.append(
        f"verdict: {verdict} ({r['nodes']:,} positions searched in {r['seconds']:.3f} s {how})"
    )
    if r["outcome"] == "loss":
        # a file saved before `proved` existed lists the proofs among the losing ends
        ends = [w for w in r["losing_ends"] if not is_proof(w)]
        proved = r.get("proved", []) + [w for w in r["losing_ends"] if is_proof(w)]
        counts = {**r.get("losing_end_lines", {}), **r.get("proved_lines", {})}

        def items(words: list[str]) -> list[str]:
            return [
                f"  - {w}" + (f" ({_moves(counts[w])})" if counts.get(w) else "") for w in words
            ]

        if ends:
            lines.append(
                "every line of play loses; the lines end (counted by the moves that end them):"
            )
            lines += items(ends)
        if proved:
            lines.append(
                "the search cut the other lines short, each with a proof:"
                if ends
                else "every line of play loses; the search cut every line short with a proof:"
            )
            lines += items(proved)
        if not ends and not proved:
            lines.append("every line of play loses")
        ll = r["longest_line"]
        if ll["turns"]:
            how = "is cut short" if is_proof(ll["ending"]) else "ends"
            lines.append(
                f"the longest line, {ll['turns']} turns, {how}: {ll['ending']}"
                + ("" if ll["complete"] else " (longest met within the explanation budget)")
            )
            lines += render_turns(ll["steps"])
    elif r["outcome"] == "undecided":
        more = "; raise it to search further" if "(--" in r["stopped_by"] else ""
        if "--node-limit" in r["stopped_by"] and not r.get("split"):
            more += ", or split the deal (--split-depth 4)"
        lines.append(f"stopped by {r['stopped_by']} before a verdict{more}")
        further = search_further(r)
        if further:
            lines.append(f"to search further: {further}")
    else:
        if r.get("keep_most"):
            lines.append(
                f"campaign: this win discards {r['stars_lost']} star card(s); "
                + (
                    "no win discards fewer"
                    if r["best_proven"]
                    else "fewer not excluded within the limits"
                )
            )
        if r.get("shortest"):
            lines.append(
                f"WIN in {len(r['turns'])} turns; "
                + (
                    "no win is shorter"
                    if r["shortest_proven"]
                    else "shortest not proven within the limits"
                )
            )
        lines.append(
            f"winning line, {len(r['turns'])} turns (replayed through the reference "
            "engine: it wins):"
        )
        lines += render_turns(r["turns"])
    return "\n".join(lines)


def search_further(r: dict) -> str | None:
    """The command that solves the undecided deal of the result `r` again with ten times the
    limit that stopped it, and the same question (--shortest, --keep-most, the split); None
    if no limit of the command stopped it or the deal has no re-run command."""
    stopped = r["stopped_by"]
    nodes, seconds, split = (r.get(k) for k in ("node_limit", "time_limit", "split"))
    more_nodes, more_time = "(--node-limit)" in stopped, "(--time-limit)" in stopped
    more_split = "--split-limit)" in stopped
    if not r.get("rerun") or not (more_nodes or more_time or more_split):
        return None
    extra: list[str] = []
    if nodes:
        extra += ["--node-limit", str(nodes * (10 if more_nodes else 1))]
    if seconds:
        extra += ["--time-limit", f"{seconds * (10 if more_time else 1):g}"]
    if split:
        limit = split["limit"] * (10 if more_split else 1)
        extra += ["--split-depth", str(split["depth"]), "--split-limit", str(limit)]
    extra += ["--shortest"] * bool(r.get("shortest")) + ["--keep-most"] * bool(r.get("keep_most"))
    return " ".join([r["rerun"], *extra])


@allisbomb.command(name="replay")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--turn",
    type=click.IntRange(min=1),
    default=None,
    help="Show the position before this turn of the file's line (1 is its start).",
)
@click.option(
    "--save-position",
    type=click.Path(dir_okay=False),
    default=None,
    help="With --turn: write that position as a position file (for --state).",
)
@click.option("--play", "then_play", is_flag=True, help="With --turn: open `play` there.")
def replay_cmd(file, turn, save_position, then_play) -> None:
    """Print a saved solve (`--save FILE` or `--json`) again, exactly as the solve printed
    it, with its lines played anew through the reference engine (a win's line must win).
    A file of a position and a line of your own (no verdict) prints its transcript.

    \b
    Examples:
      bombsolve allisbomb --seed 42 --save deal42.json && bombsolve allisbomb replay deal42.json
      bombsolve allisbomb --seed 0 --save deal.json && bombsolve allisbomb replay deal.json --turn 5 --save-position turn5.json

    \b
    Exit codes: 0 printed (a saved loss or undecided verdict too); 2 bad input: a file that
    is no solve result, or a saved win or a line of your own whose line does not win (one
    line says the turn that loses the game, or that it goes on after the last turn).
    """
    from bombsolve.solvers.allisbomb import replayed

    data = read_json_file(file, "solution file")
    if turn is not None:
        from bombsolve.cli.allisbomb_play import replay_turn

        replay_turn(data, file, turn, save_position, then_play)
        return
    if save_position is not None or then_play:
        raise BadInput("--save-position and --play need --turn K (the position before turn K)")
    if isinstance(data, dict) and "outcome" not in data:
        click.echo(_replay_bare_line(data, file))
        return
    result = replayed(data, file)  # before any output: a faulty file prints one error line
    try:
        text = render_text(result)
        if result.get("study_case") is not None:
            text += "\n" + _study_row_text(result["study_case"])
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        # a field of the wrong kind (edited by hand, or from another program): the report
        # cannot be printed, and a traceback would not say which file is at fault
        raise BadInput(
            f"{file}: not a solve result as --save writes it (a field of the wrong kind: "
            f"{type(exc).__name__}: {exc})"
        ) from None
    click.echo(text)


def _replay_bare_line(data: dict, file: str) -> str:
    """The transcript of a file holding only a `position` and a `solution` (a line written
    by hand, not a solve result): the banner, the game, each turn and the result."""
    from bombsolve.solvers.allisbomb import render_turns, replay_line

    line = replay_line(data, file)
    cs = line.state.cards
    note = line.cards_version_note
    version = cs.config.cards_version + ("" if note is None else f" ({note})")
    lines = [banner(cs.is_stand_in(), cs.provenance_by_set(), version)]
    lines.append(f"game: {line.state.config.label()}")
    lines += render_turns(line.turns)
    lines.append(f"result: {line.end.outcome.value.upper()}")
    return "\n".join(lines)


@allisbomb.command(name="rules")
@game_options()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def rules_cmd(game, as_json) -> None:
    """List the rule options (the rulebook's open points): each sentence, what each value
    reads it as, and the value in effect with the options given.

    \b
    Examples:
      bombsolve allisbomb rules
      bombsolve allisbomb rules --expansions gifts --rule gifts_distinct=false
    """
    from dataclasses import asdict

    from bombsolve.solvers.allisbomb import RULE_OPTIONS

    config = game.config()
    rows = [
        {**asdict(o), "value": getattr(config, o.name), "effective": _effective(config, o.name)}
        for o in RULE_OPTIONS.values()
    ]
    if as_json:
        click.echo(json.dumps({"config": config.to_dict(), "rules": rows}, indent=1))
        return
    click.echo(f"rule options of {config.label()} (set one with --rule NAME=VALUE):")
    for r in rows:
        click.echo(f"{r['name']} = {str(r['effective']).lower()}")
        click.echo(f"    {r['sentence']}")
        click.echo(f"    true:  {r['if_true']}")
        click.echo(f"    false: {r['if_false']}")


def _effective(config, name: str) -> bool:
    """The value a rule option has in `config` (waking_up_rules unset follows WAKING UP)."""
    return config.waking_up if name == "waking_up_rules" else bool(getattr(config, name))
