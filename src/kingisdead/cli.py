"""The ``kingisdead`` command: play in the terminal, simulate, replay, and work with positions.

One Typer app, one function per command. Rendering lives in
:mod:`kingisdead.render`; the rules, records and bots come from the engine, so
this module only reads options, asks people for moves and reports results.
Commands that need an optional extra import it inside their own function, so
``kingisdead --help`` works on the core install alone.
"""

from __future__ import annotations

import json
import secrets
import sys
import time
from enum import StrEnum
from pathlib import Path
from random import Random
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.text import Text

from . import engine, position, render
from .board import NUM_REGIONS
from .bots import BOTS, Bot, make_bot
from .building import PASS_CHOICE, Choice, MoveBuilder
from .edition import Edition, get_edition
from .moves import PASS, IllegalMoveError, Move, NotationError
from .record import GameRecord, RecordError
from .rng import SplitMix64
from .scoring import ENDINGS, Result
from .state import GameState

app = typer.Typer(
    name="kingisdead",
    help="The King Is Dead: play in the terminal, run bots, replay records, inspect positions.",
    no_args_is_help=True,
    add_completion=False,
)

HUMAN = "human"


class Variant(StrEnum):
    standard = "standard"
    mordred = "mordred"


class EditionName(StrEnum):
    first = "first"
    second = "second"


EDITION_HELP = "Edition of the game: first (2015, Saxons) or second (2020, instability discs; no Mordred variant)."


class Mode(StrEnum):
    standard = "standard"
    advanced = "advanced"


MODE_HELP = ("standard, or advanced: the second edition's advanced game, each player's Support cards swapped for "
             "3 secret Cunning cards (needs --edition second).")


def checked_edition(players: int, variant: Variant, edition: EditionName, mode: Mode = Mode.standard) -> Edition:
    """The edition chosen in ``mode``; a variant or mode it does not have (Mordred or the advanced game in the
    wrong edition) is a usage error (exit code 2)."""
    try:
        chosen = get_edition(edition.value, mode.value)
        engine.check_setup(players, variant.value, 0, chosen)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    return chosen


# -- shared helpers ---------------------------------------------------------------------

@app.callback()
def main() -> None:
    """The King Is Dead: play in the terminal, run bots, replay records, inspect positions."""
    try:
        engine.check_environment()
    except ValueError as exc:
        fail(str(exc), 2)


def fail(message: str, code: int = 1) -> NoReturn:
    """Report a problem on stderr, without a traceback, and stop with a non-zero status."""
    Console(stderr=True, highlight=False, soft_wrap=True).print(Text("Error: ", style="bold red") + Text(message))
    raise typer.Exit(code)


def derive_seed(*parts: int) -> int:
    """A seed for a bot or a sampler, mixed from the game's seed and its place (game, seat).

    SplitMix64 makes it the same on every machine, so a game's seed decides every draw.
    """
    value = 0
    for part in parts:
        value = SplitMix64(value ^ (part & ((1 << 64) - 1))).next()
    return value


def bot_names() -> str:
    return ", ".join(sorted(BOTS))


def split_names(values: list[str] | None) -> list[str]:
    """Names given as repeated options and/or comma-separated lists, in order."""
    return [name.strip().lower() for value in values or [] for name in value.split(",") if name.strip()]


def check_bot(name: str, hint: str = "", edition: str | Edition = "first") -> None:
    """Raise a clear usage error for a bot name (or budget) that make_bot does not accept in ``edition``."""
    try:
        make_bot(name, 0, edition=edition)
    except ValueError as exc:
        raise typer.BadParameter(f"{exc}{hint}") from None


def unreadable(exc: OSError | UnicodeDecodeError) -> str:
    """Why a file could not be read, in a few words."""
    if isinstance(exc, UnicodeDecodeError):
        return "not a text file (it is not UTF-8)"
    return str(exc.strerror or exc)


def read_position(path: str) -> GameState:
    """A position from a JSON file ('-' for standard input); any problem stops with a message."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read {path}: {unreadable(exc)}")
    try:
        return position.loads(text)
    except position.PositionError as exc:
        fail(f"{path} is not a valid position: {exc}")


# -- play ------------------------------------------------------------------------------------

def enable_line_editing() -> None:
    """Arrow keys and history at the move prompt (input() uses readline once it is imported)."""
    try:
        import readline  # noqa: F401
    except ImportError:  # not every platform has it; plain input still works
        pass


class QuitGame(Exception):
    """The person at the keyboard asked to stop (the record is saved)."""


def resolve_seats(seats: list[str] | None, players: int | None) -> list[str]:
    """The seat list from --seats and --players (default: seat 1 human, the others greedy)."""
    names = split_names(seats)
    if not names:
        count = players if players is not None else 2
        names = [HUMAN] + ["greedy"] * (count - 1)
    elif players is not None and players != len(names):
        raise typer.BadParameter(f"--players {players} but {len(names)} seats given ({', '.join(names)})")
    if len(names) not in (2, 3, 4):
        raise typer.BadParameter(f"The King Is Dead is for 2, 3 or 4 players, not {len(names)}")
    for name in names:
        if name != HUMAN:
            check_bot(name, hint="; a seat is 'human' or a bot")
    return names


def forced_pass(state: GameState) -> str | None:
    """Why the player to move can only pass (so nobody has to type it), or None."""
    if not state.cards_left(state.current_player):
        return "has no cards left and passes"
    if engine.last_card_applies(state) and state.builder().options() == [PASS_CHOICE]:
        return ("must pass: with 3 players the last card of the game may only be played by a move "
                "that wins the game, and none does")
    return None


NO_FOLLOWER = Choice("none")


def take_back(builder: MoveBuilder) -> None:
    """Undo the last choice the person made, with the skipped 'none' steps around it."""
    while builder.steps and builder.steps[-1] == NO_FOLLOWER:
        builder.back()
    builder.back()


def ask_move(console: Console, state: GameState, seats: list[str]) -> tuple[Move, bool]:
    """Ask the person to move for a legal move: typed in notation or built from numbered steps.

    Returns the move and whether it was built (and so already shown in words).
    """
    builder = state.builder()
    console.print(render.TableView(state, seats, hand_of=state.current_player))
    console.print("[dim]Type a move in notation, or the number of a choice ('help' explains).[/dim]")
    while True:
        while builder.options() == [NO_FOLLOWER]:  # a faction with no stock is skipped, not chosen
            builder.choose(NO_FOLLOWER)
        options = builder.options()
        if builder.complete:
            move = builder.move()
            console.print(f"Your move: [bold]{state.notation(move)}[/bold] "
                          f"({render.describe_move(move, state.edition)})")
            prompt = "[bold]Enter[/bold] plays it, [bold]back[/bold] changes it: "
        else:
            if builder.steps:
                console.print(f"[bold]{render.steps_so_far(builder)}[/bold] › choose the "
                              f"{render.step_prompt(builder)}:")
            else:
                console.print(f"Choose the {render.step_prompt(builder)}:")
            console.print(render.choices_view(builder))
            prompt = f"{render.player_label(state.current_player, seats)}> "
        text = console.input(prompt).strip()
        command = text.lower()
        if builder.complete and command in ("", "y", "yes"):
            return builder.move(), True
        if not text:
            continue
        if command in ("help", "?", "h"):
            console.print(render.help_view(state.edition))
        elif command in ("back", "b", "n", "no"):
            if builder.steps:
                take_back(builder)
            else:
                console.print("[yellow]Nothing to take back yet.[/yellow]")
        elif command in ("board", "table"):
            console.print(render.TableView(state, seats, hand_of=state.current_player))
        elif command == "borders":
            console.print(render.borders_view(state.edition))
        elif command in ("quit", "exit"):
            raise QuitGame
        elif text.isdigit():
            number = int(text)
            if 1 <= number <= len(options):
                builder.choose(options[number - 1])
            elif options:
                console.print(f"[yellow]Choose a number from 1 to {len(options)}.[/yellow]")
            else:
                console.print("[yellow]The move is complete: Enter plays it, 'back' changes it.[/yellow]")
        else:
            try:
                move = state.parse(text)
                state.check(move)
            except (NotationError, IllegalMoveError) as exc:
                console.print(Text("Not played: ", style="bold red") + Text(str(exc)))
                continue
            return move, False


def announce(console: Console, state: GameState, seats: list[str], move: Move, in_words: bool = True) -> None:
    """Say who plays what, in notation and (unless just shown) in words, before the move is applied."""
    words = f"  [dim]({render.describe_move(move, state.edition)})[/dim]" if in_words else ""
    console.print(f"{render.player_label(state.current_player, seats)}: [bold]{state.notation(move)}[/bold]{words}")


def save_record(console: Console, game: GameRecord, path: Path) -> None:
    """Write the record; if the file cannot be written, print it so that the game is not lost."""
    try:
        game.save(path)
    except OSError as exc:
        console.print(Text(f"Cannot write the record to {path} ({exc.strerror or exc}); here it is:", style="red"))
        console.print(Text(game.dumps()))


def report_resolutions(console: Console, state: GameState, resolved_before: int) -> None:
    """Say how each struggle the last move ended came out."""
    for index in range(resolved_before, state.resolved):
        console.print(f"[bold cyan]{render.describe_resolution(state, index)}[/bold cyan]")


@app.command()
def play(
    seats: Annotated[list[str] | None, typer.Option(
        "--seats", "--seat", "-s",
        help="Who sits where, seat 1 first: 'human' or a bot name, comma-separated or repeated "
             f"(e.g. --seats human,greedy or -s human -s mcts:2s). Bots: {bot_names()}. "
             "Default: seat 1 human, the others greedy.",
    )] = None,
    players: Annotated[int | None, typer.Option(help="Number of players (2-4); default 2, or the number of seats.")]
    = None,
    variant: Annotated[Variant, typer.Option(help="Rules variant.")] = Variant.standard,
    seed: Annotated[int | None, typer.Option(help="Seed of the setup and the bots; random if not given.")] = None,
    first: Annotated[int, typer.Option("--first", "--first-player", help="Player who moves first (1-based).")] = 1,
    record: Annotated[Path | None, typer.Option(
        help="Where to save the game record (default: kingisdead-game-<seed>.json).")] = None,
    edition: Annotated[EditionName, typer.Option(help=EDITION_HELP)] = EditionName.first,
    mode: Annotated[Mode, typer.Option(help=MODE_HELP)] = Mode.standard,
) -> None:
    """Play a game in the terminal, against bots or people at the same keyboard."""
    names = resolve_seats(seats, players)
    if not 1 <= first <= len(names):
        raise typer.BadParameter(f"--first must be a player from 1 to {len(names)}")
    if seed is None:
        seed = secrets.randbelow(1 << 31)
    console = Console(highlight=False)
    if sys.stdin.isatty():
        enable_line_editing()
    state = GameState.new(len(names), variant.value, seed, first - 1, checked_edition(len(names), variant, edition, mode))
    game = GameRecord(players=names, variant=variant.value, seed=seed, first_player=first - 1, edition=state.edition)
    try:
        bots: dict[int, Bot] = {seat: make_bot(name, derive_seed(seed, 0, seat), edition=state.edition)
                                for seat, name in enumerate(names) if name != HUMAN}
    except ValueError as exc:  # a bot that cannot play this edition (master's network)
        raise typer.BadParameter(str(exc)) from None
    humans = [seat for seat, name in enumerate(names) if name == HUMAN]
    path = record if record is not None else Path(f"kingisdead-game-{seed}.json")
    try:
        game.save(path)  # saved from the start and after every move: a closed terminal loses nothing
    except OSError as exc:
        fail(f"cannot write the game record to {path}: {exc.strerror or exc}")
    advanced = ", advanced game" if state.edition.advanced else ""
    console.print(f"[bold]The King Is Dead[/bold], {edition.value} edition{advanced}: {len(names)} players, "
                  f"{variant.value} rules, seed {seed}. "
                  f"Players: {', '.join(render.player_label(p, names) for p in range(len(names)))}.")
    try:
        if not humans:
            console.print(render.TableView(state, names))
        while not state.is_over():
            seat = state.current_player
            if seat in bots:
                with console.status(f"{render.player_label(seat, names)} is thinking..."):
                    move, shown = bots[seat].choose(state), False
            elif (reason := forced_pass(state)) is not None:
                console.print(f"[yellow]{render.player_label(seat, names)} {reason}.[/yellow]")
                move, shown = PASS, True
            else:
                if len(humans) > 1:
                    console.input(f"[bold]{render.player_label(seat, names)}[/bold], your turn: "
                                  "press Enter when the others look away. ")
                move, shown = ask_move(console, state, names)
            resolved_before = state.resolved
            announce(console, state, names, move, in_words=not shown)
            state.apply(move)
            game.add(move)
            save_record(console, game, path)
            report_resolutions(console, state, resolved_before)
            if not humans and state.resolved > resolved_before and not state.is_over():
                console.print(render.TableView(state, names))
    except (EOFError, KeyboardInterrupt, QuitGame) as stop:
        save_record(console, game, path)
        moves_played = f"{len(game.moves)} move" + ("" if len(game.moves) == 1 else "s")
        saved = escape(str(path))
        console.print(f"\nGame stopped after {moves_played}; its record is saved in [bold]{saved}[/bold] "
                      f"(check it with: kingisdead replay {saved}).")
        raise typer.Exit(130 if isinstance(stop, KeyboardInterrupt) else 0) from None
    assert state.result is not None
    game.result = state.result.to_dict()
    save_record(console, game, path)
    console.print(render.TableView(state, names))
    console.print(render.result_view(state.result, names))
    saved = escape(str(path))
    console.print(f"The game record is saved in [bold]{saved}[/bold] (replay it with: kingisdead replay {saved}).")


# -- simulate -----------------------------------------------------------------------------------

def play_out(state: GameState, bots: list[Bot] | None, rng: Random) -> tuple[list[Move], GameState]:
    """Play a game to its end: with ``bots``, or the fast random sampler; the moves and the final state.

    The sampler plays the whole game in the engine in use (one call in the
    compiled core) and leaves ``state`` unchanged; bots play on ``state`` itself.
    """
    if bots is None:
        return engine.playout(state, rng)
    moves: list[Move] = []
    while not state.is_over():
        move = bots[state.current_player].choose(state)
        engine.play(state, move)
        moves.append(move)
    return moves, state


BATCH = 10_000
"""Random games the core plays in one call for simulate (the progress display moves once a batch)."""


class Tally:
    """What simulate counts over its games: endings, wins and rulers per seat, moves."""

    def __init__(self, players: int) -> None:
        self.endings = dict.fromkeys(ENDINGS, 0)
        self.wins = [0] * players
        self.rulers = [0] * players
        self.no_ruler = 0
        self.moves = 0

    def add(self, result: Result, moves: int) -> None:
        """One game: its result and the number of moves it took."""
        self.endings[result.ending] += 1
        for seat in result.winners:
            self.wins[seat] += 1
        if result.ruler is None:
            self.no_ruler += 1
        else:
            self.rulers[result.ruler] += 1
        self.moves += moves

    def add_batch(self, batch: engine.RandomOutcomes) -> None:
        """A batch of games played in the core, counted with ``bytes.count`` (no Python loop per game)."""
        for code, name in enumerate(ENDINGS):
            self.endings[name] += batch.endings.count(code)
        for mask in range(1, 1 << len(self.wins)):
            won = batch.winners.count(mask)
            for seat in range(len(self.wins)):
                if mask >> seat & 1:
                    self.wins[seat] += won
        for seat in range(len(self.rulers)):
            self.rulers[seat] += batch.rulers.count(seat)
        self.no_ruler += batch.rulers.count(engine.NO_RULER)
        self.moves += sum(batch.moves)


@app.command()
def simulate(
    players: Annotated[int, typer.Option(min=2, max=4, help="Number of players.")] = 2,
    variant: Annotated[Variant, typer.Option(help="Rules variant.")] = Variant.standard,
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option(help="Game i (from 0) is set up with seed+i; bots are seeded from both.")] = 0,
    bots: Annotated[str, typer.Option(
        help=f"One bot for every seat, or one per seat, comma-separated. Bots: {bot_names()}.")] = "random",
    records: Annotated[Path | None, typer.Option(help="Directory to write each game's record to.")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of the summary.")]
    = False,
    edition: Annotated[EditionName, typer.Option(help=EDITION_HELP)] = EditionName.first,
    mode: Annotated[Mode, typer.Option(help=MODE_HELP)] = Mode.standard,
) -> None:
    """Play many bot games quickly and summarise them (endings, wins per seat, speed)."""
    names = split_names([bots])
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise typer.BadParameter(f"give one bot for every seat or one per seat ({players}), not {len(names)}",
                                 param_hint="--bots")
    chosen = checked_edition(players, variant, edition, mode)
    for name in set(names):
        check_bot(name, edition=chosen)
    fast = all(name == "random" for name in names)
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(f"cannot create the records directory {records}: {exc.strerror or exc}")
    tally = Tally(players)
    stderr = Console(stderr=True)
    start = time.perf_counter()
    with Progress(*Progress.get_default_columns(), console=stderr, transient=True,
                  disable=json_output or not stderr.is_terminal) as progress:
        shown = progress.add_task("games", total=games)
        if fast and records is None and engine.compiled():
            first_game = GameState.new(players, variant.value, seed, edition=chosen)  # its setup carries the rules of all
            for first in range(0, games, BATCH):
                count = min(BATCH, games - first)
                tally.add_batch(engine.random_outcomes(first_game, seed, first, count))
                progress.advance(shown, count)
        else:
            for index in range(games):
                state = GameState.new(players, variant.value, seed + index, edition=chosen)
                seated = None if fast else [make_bot(name, derive_seed(seed, index, seat), edition=chosen)
                                            for seat, name in enumerate(names)]
                moves, state = play_out(state, seated, Random(derive_seed(seed, index)))
                result = state.result
                assert result is not None
                tally.add(result, len(moves))
                progress.advance(shown)
                if records is not None:
                    game = GameRecord(names, variant.value, seed + index, 0, [state.notation(m) for m in moves],
                                      result.to_dict(), chosen)
                    game.save(records / f"game-{index + 1:05d}-seed-{seed + index}.json")
    seconds = time.perf_counter() - start
    summary = {
        "games": games, "players": players, "edition": edition.value, "mode": mode.value, "variant": variant.value,
        "seed": seed,
        "bots": names,
        "seconds": round(seconds, 3), "games_per_second": round(games / seconds, 1) if seconds else None,
        "moves": tally.moves, "moves_per_game": round(tally.moves / games, 2),
        "endings": tally.endings, "wins": tally.wins, "rulers": tally.rulers, "no_ruler": tally.no_ruler,
    }
    if json_output:
        typer.echo(json.dumps(summary))
        return
    console = Console(highlight=False, soft_wrap=True)
    console.print(f"[bold]{games} games[/bold], {players} players, {edition.value} edition"
                  f"{', advanced game' if chosen.advanced else ''}, {variant.value} rules, "
                  f"seeds {seed} to "
                  f"{seed + games - 1}, bots: {', '.join(names)}" + (" (fast random sampler)" if fast else ""))
    console.print(f"Time: {seconds:.2f} s, {summary['games_per_second']} games/s, "
                  f"{summary['moves_per_game']} moves/game")
    console.print("Endings: " + ", ".join(f"{name} {count}" for name, count in tally.endings.items()))
    for seat in range(players):
        console.print(f"  {render.player_label(seat, names)}: {tally.wins[seat]} wins, "
                      f"ruler in {tally.rulers[seat]}")
    if tally.no_ruler:
        console.print(f"  Games without a single ruler (team or shared wins): {tally.no_ruler}")
    if records is not None:
        console.print(Text(f"Records written to {records}/"))


# -- replay ---------------------------------------------------------------------------------------

@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON), as saved by play or simulate.")],
    json_output: Annotated[bool, typer.Option("--json", help="Print the outcome as one JSON object.")] = False,
    board: Annotated[bool, typer.Option(help="Also show the final table.")] = False,
) -> None:
    """Check a game record by replaying every move, and print the result."""
    try:
        game = GameRecord.load(file)
        state = game.replay()
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read {file}: {unreadable(exc)}")
    except RecordError as exc:
        if json_output:
            typer.echo(json.dumps({"valid": False, "error": str(exc)}))
        fail(f"{file} does not replay: {exc}")
    result = state.result
    if json_output:
        typer.echo(json.dumps({
            "valid": True, "players": game.players, "edition": game.edition.name, "variant": game.variant,
            "seed": game.seed,
            "moves": len(game.moves), "finished": result is not None,
            "result": result.to_dict() if result is not None else None,
            "to_move": None if result is not None else state.current_player,
        }))
        return
    console = Console(highlight=False, soft_wrap=True)
    console.print(f"[green]Valid record[/green]: {len(game.players)} players ({', '.join(game.players)}), "
                  f"{game.edition.name} edition, {game.variant} rules, seed {game.seed}, {len(game.moves)} moves.")
    if board:
        console.print(render.TableView(state, game.players))
    if result is None:
        regions_left = NUM_REGIONS - state.resolved
        console.print(f"Unfinished: {render.player_label(state.current_player, game.players)} to move, "
                      f"{regions_left} region(s) still to resolve.")
    else:
        console.print(render.result_view(result, game.players))


# -- positions ------------------------------------------------------------------------------------

@app.command()
def new(
    players: Annotated[int, typer.Option(min=2, max=4, help="Number of players.")] = 2,
    variant: Annotated[Variant, typer.Option(help="Rules variant.")] = Variant.standard,
    seed: Annotated[int, typer.Option(help="Seed of the setup.")] = 0,
    first: Annotated[int, typer.Option(help="Player who moves first (1-based).")] = 1,
    edition: Annotated[EditionName, typer.Option(help=EDITION_HELP)] = EditionName.first,
    mode: Annotated[Mode, typer.Option(help=MODE_HELP)] = Mode.standard,
) -> None:
    """Print the starting position of a game as JSON (to use with moves and apply)."""
    if not 1 <= first <= players:
        raise typer.BadParameter(f"--first must be a player from 1 to {players}")
    chosen = checked_edition(players, variant, edition, mode)
    typer.echo(position.dumps(GameState.new(players, variant.value, seed, first - 1, chosen)))


@app.command()
def moves(
    file: Annotated[str, typer.Argument(metavar="POSITION.json", help="A position as JSON ('-' reads stdin).")],
    count: Annotated[bool, typer.Option("--count", help="Print only the number of legal moves.")] = False,
) -> None:
    """List the legal moves of a position in notation, one per line (pass first)."""
    state = read_position(file)
    legal = state.legal_moves()
    if count:
        typer.echo(len(legal))
    else:
        typer.echo("\n".join(state.notation(m) for m in legal))


@app.command()
def apply(
    file: Annotated[str, typer.Argument(metavar="POSITION.json", help="A position as JSON ('-' reads stdin).")],
    move: Annotated[str, typer.Argument(help="The move in notation, e.g. 'Scots Din Din +Cal:S' or 'pass'.")],
) -> None:
    """Play one move on a position and print the next position as JSON."""
    state = read_position(file)
    try:
        state.apply(move)
    except NotationError as exc:
        fail(str(exc))
    except IllegalMoveError as exc:
        fail(f"illegal move {move!r}: {exc}")
    typer.echo(position.dumps(state))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 for every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: Annotated[str | None, typer.Option(
        help="SQLAlchemy URL of the game store (default: $DATABASE_URL, else ./kingisdead.sqlite3).")] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before moving, so people can follow.")] = 0.6,
    public_url: Annotated[str | None, typer.Option(
        help="Address people reach the server at, for invite links (default: $KINGISDEAD_PUBLIC_URL, "
             "else http://HOST:PORT).")] = None,
    lan: Annotated[bool, typer.Option(
        "--lan", help="Plain-http LAN mode: sign-in works without https (the session cookie is not marked "
                      "Secure) and the lobby says that passwords and links cross the network unencrypted.")]
    = False,
    trusted_proxies: Annotated[str | None, typer.Option(
        help="Comma-separated addresses (or networks) of reverse proxies whose X-Forwarded-For and "
             "X-Forwarded-Proto are believed (default: $KINGISDEAD_TRUSTED_PROXIES, else none).")] = None,
    request_timeout: Annotated[float, typer.Option(
        min=0.1, help="Seconds a client has to send a whole request (head and body); then 408 and closed.")] = 10.0,
    max_connections_per_address: Annotated[int, typer.Option(
        min=1, help="Open connections one client address may hold (trusted proxies exempt).")] = 100,
    smtp_host: Annotated[str | None, typer.Option(
        help="SMTP server for e-mail to players (default: $KINGISDEAD_SMTP_HOST; none: no e-mail). The password "
             "is read from $KINGISDEAD_SMTP_PASSWORD only, never from the command line.")] = None,
    smtp_port: Annotated[int | None, typer.Option(help="SMTP port (default: $KINGISDEAD_SMTP_PORT, else 25, "
                                                       "587 with starttls, 465 with ssl).")] = None,
    smtp_tls: Annotated[str | None, typer.Option(help="none, starttls or ssl (default: $KINGISDEAD_SMTP_TLS, "
                                                      "else none).")] = None,
    smtp_user: Annotated[str | None, typer.Option(help="SMTP login (default: $KINGISDEAD_SMTP_USER).")] = None,
    mail_from: Annotated[str | None, typer.Option(help="The From address (default: $KINGISDEAD_MAIL_FROM).")] = None,
    vapid_key: Annotated[str | None, typer.Option(
        help="The VAPID private key file for Web Push, made by `kingisdead vapid` (default: $KINGISDEAD_VAPID_KEY; "
             "none: no push).")] = None,
    vapid_subject: Annotated[str | None, typer.Option(
        help="mailto: or https: contact given to push services (default: $KINGISDEAD_VAPID_SUBJECT).")] = None,
) -> None:
    """Play in the browser: start the web server (lobby, tables, API at /docs). docs/hosting.md: on the internet."""
    import os

    try:
        import uvicorn

        from .web import create_app
        from .web.notify import NotifySettings
        from .web.server import ServerLimits, trusted_networks, uvicorn_config
    except ImportError:
        fail("the web server needs the web extra: pip install 'kingisdead[web]'")
    # The same address the message below prints, so a seat claimed through an invite stays in one origin.
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host  # every interface: say --public-url
    public = public_url or os.environ.get("KINGISDEAD_PUBLIC_URL") or f"http://{shown}:{port}"
    try:
        limits = ServerLimits(request_timeout=request_timeout, per_address=max_connections_per_address)
        proxies = os.environ.get("KINGISDEAD_TRUSTED_PROXIES", "") if trusted_proxies is None else trusted_proxies
        trusted_networks(proxies)  # before the database is touched
        notify = NotifySettings.from_env({"host": smtp_host, "port": smtp_port, "tls": smtp_tls, "user": smtp_user,
                                          "sender": mail_from}, vapid_key, vapid_subject)
        web_app = create_app(database, bot_delay=bot_delay, public_url=public, lan=lan, notify=notify)
        config = uvicorn_config(web_app, host, port, limits, proxies)
    except ValueError as exc:  # a bad setting (compute pool, rate limits, proxies, e-mail, push)
        fail(str(exc))
    typer.echo(f"The King Is Dead: open http://{shown}:{port}/")
    if lan:
        typer.echo("LAN mode: plain http, so passwords, sessions and invite links cross the network unencrypted.")
    uvicorn.Server(config).run()


@app.command()
def vapid(
    out: Annotated[Path, typer.Option(help="Where to write the new private key (PEM); it must not exist.")],
) -> None:
    """Make the site's VAPID key pair for Web Push; prints the public key. Serve with --vapid-key OUT."""
    try:
        from .web.push import generate_keys
    except ImportError:
        fail("Web Push needs the web extra: pip install 'kingisdead[web]'")
    try:
        public = generate_keys(out)
    except FileExistsError:
        fail(f"{out} exists: a new key would end every browser's subscription; choose another path")
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror}")
    typer.echo(f"VAPID private key written to {out} (keep it secret; readable by you only).")
    typer.echo(f"Public key (applicationServerKey): {public}")
    typer.echo(f"Serve with: kingisdead serve --vapid-key {out} --vapid-subject mailto:you@example.org")


# -- arena (tournaments between bots) ------------------------------------------------------------

@app.command()
def arena(
    bots: Annotated[str, typer.Option(help=f"Comma-separated bots, at least two, each 'name' or 'name:budget' "
                                           f"(e.g. strong,greedy or mcts:0.5s,mcts:200). Bots: {bot_names()}.")],
    players: Annotated[int, typer.Option(min=2, max=4, help="Players at the table.")] = 2,
    games: Annotated[int, typer.Option(min=1, help="Games at least (rounded up to whole rounds of seatings).")] = 20,
    jobs: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: every local core).")] = None,
    seed: Annotated[int, typer.Option(help="Tournament seed: decides every setup and every bot's draws.")] = 0,
    variant: Annotated[Variant, typer.Option(help="Rules variant.")] = Variant.standard,
    budget: Annotated[str | None, typer.Option(
        help="Thinking budget for bots without their own: '1s', '250ms' or iterations ('400').")] = None,
    out: Annotated[Path | None, typer.Option(help="Directory for results.json, summary.csv and games.csv.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Write a PNG chart of the win rates (needs the dist extra).")]
    = None,
    records: Annotated[Path | None, typer.Option(help="Directory to keep every game's record in.")] = None,
    ray: Annotated[bool, typer.Option(
        "--ray", help="Run the games on Ray: a local cluster of --jobs CPUs it starts (needs the dist extra).")]
    = False,
    ray_address: Annotated[str | None, typer.Option(
        help="Address of a running Ray cluster to use instead (implies --ray).")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print the results as JSON instead of a table.")]
    = False,
    edition: Annotated[EditionName, typer.Option(help=EDITION_HELP)] = EditionName.first,
    mode: Annotated[Mode, typer.Option(help=MODE_HELP)] = Mode.standard,
) -> None:
    """Play a fair tournament: rotated seats, replayed setups, win rates with 95% intervals, Elo for 3+ bots."""
    import os

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    from rich.table import Table

    from . import arena as tournament
    from .bots.budget import Budget

    try:
        chosen = get_edition(edition.value, mode.value)
        names = tournament.names_from(bots)
        for name in names:
            make_bot(name, 0, edition=chosen)
        thinking = Budget.parse(budget) if budget else None
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    workers = jobs or os.cpu_count() or 1
    console = Console(stderr=True, highlight=False)
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True, disable=json_output) as progress:
        bar = progress.add_task("games", total=None)

        def tick(outcome: object, total: int) -> None:
            progress.update(bar, total=total, advance=1)

        try:
            result = tournament.run_arena(
                players, names, games, seed, workers, variant.value, thinking,
                keep_moves=records is not None, ray_address=ray_address, use_ray=ray, on_game=tick,
                edition=chosen)
        except ValueError as exc:  # a variant the edition does not have
            raise typer.BadParameter(str(exc)) from None
        except RuntimeError as exc:
            fail(str(exc))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        tournament.write_json(result, out / "results.json")
        tournament.write_csv(result, out / "summary.csv", out / "games.csv")
    if records is not None:
        tournament.write_records(result, records)
    if plot is not None:
        try:
            tournament.write_plot(result, plot)
        except RuntimeError as exc:
            fail(str(exc))
    if json_output:
        typer.echo(json.dumps(result.to_dict()))
        return
    advanced = ", advanced game" if chosen.advanced else ""
    table = Table(title=f"{len(result.outcomes)} games, {players} players, {edition.value} edition{advanced}, seed {seed}"
                        + (f", budget {result.budget}" if result.budget else ""))
    for column in ("bot", "games", "win rate", "95% CI", "Elo", "s/move"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in tournament.format_table(result):
        table.add_row(*row)
    out_console = Console(highlight=False)
    out_console.print(table)
    out_console.print("Win rate by seat: " + ", ".join(f"player {p + 1} {w:.1%}" for p, w in enumerate(result.seat_wins)))
    for path in (out, records, plot):
        if path is not None:
            out_console.print(f"Written: {path}")


# -- analyse (hints and game review) --------------------------------------------------------------

@app.command()
def analyse(
    file: Annotated[str, typer.Argument(help="A game record or a position (JSON file; '-' for standard input).")],
    budget: Annotated[str, typer.Option(help="Search per position: '1s', '250ms' or iterations ('2000').")] = "2000",
    top: Annotated[int, typer.Option(min=1, help="Moves to list for a position.")] = 10,
    seed: Annotated[int, typer.Option(help="Search seed (with an iteration budget the analysis repeats exactly).")]
    = 0,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Rank a position's moves with a win chance, or mark each move of a record with the best alternative."""
    from dataclasses import asdict

    from rich.table import Table

    from . import analysis
    from .bots.budget import Budget

    try:
        thinking = Budget.parse(budget)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--budget") from None
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text()
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}")
    try:
        subject = analysis.load(text)
    except (ValueError, RecordError, position.PositionError) as exc:
        fail(f"{file} is neither a game record nor a position: {exc}")
    console = Console(highlight=False)
    if isinstance(subject, GameRecord):
        try:
            subject.replay()
            notes = analysis.analyse_record(subject, thinking, seed)
        except RecordError as exc:
            fail(f"{file}: {exc}")
        if json_output:
            typer.echo(json.dumps([asdict(n) for n in notes]))
            return
        table = Table(title=f"{file}: {len(notes)} moves, search {thinking} per position")
        for column in ("#", "player", "played", "win %", "best found", "win %", "lost"):
            table.add_column(column, justify="right" if column in ("#", "win %", "lost") else "left")
        for n in notes:
            if n.forced:
                table.add_row(str(n.number), f"player {n.player + 1}", n.played, "", "(forced)", "", "")
                continue
            lost = f"{n.loss:.1%}" if n.loss >= 0.005 else ""
            table.add_row(str(n.number), f"player {n.player + 1}", n.played, f"{n.played_chance:.0%}",
                          "" if n.best == n.played else n.best, f"{n.best_chance:.0%}", lost)
        console.print(table)
        return
    if subject.is_over():
        fail("the game in this position is over: there is no move to analyse")
    result = analysis.analyse_position(subject, thinking, seed, top)
    if json_output:
        typer.echo(json.dumps(result.to_dict()))
        return
    table = Table(title=f"Player {result.player + 1} to move: {result.iterations} iterations, {result.seconds:.1f} s")
    for column in ("rank", "move", "win chance", "visits"):
        table.add_column(column, justify="left" if column == "move" else "right")
    for rank, e in enumerate(result.moves, start=1):
        table.add_row(str(rank), e.move, f"{e.win_chance:.0%}", str(e.visits))
    console.print(table)
    if result.exact is not None:
        verdict = {1: "wins", 0: "shares the win", -1: "loses"}[result.exact]
        console.print(f"Exact: with best play the player to move {verdict} ({result.exact_move}).")


chat = typer.Typer(help="Moderate the web server's chats: the operator is whoever runs the site.",
                   no_args_is_help=True)
app.add_typer(chat, name="chat")
DATABASE_HELP = "SQLAlchemy URL of the site's database (default: $DATABASE_URL, else ./kingisdead.sqlite3)."


def site_sessions(database: str | None) -> Any:
    """The ORM sessions of the web server's database (upgraded to the latest schema first)."""
    import os

    try:
        from .web.db import DEFAULT_URL, make_engine, make_sessions
    except ImportError:
        fail("the chat commands need the web extra: pip install 'kingisdead[web]'")
    return make_sessions(make_engine(database or os.environ.get("DATABASE_URL") or DEFAULT_URL))


@chat.command("reports")
def chat_reports(
    database: Annotated[str | None, typer.Option(help=DATABASE_HELP)] = None,
    limit: Annotated[int, typer.Option(min=1, max=10_000, help="How many reports, newest first.")] = 50,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object per line.")] = False,
) -> None:
    """List the reported chat lines: when, the game and move number, the room, who said what, who reported it."""
    from .web.chat import reports

    with site_sessions(database)() as session:
        found = reports(session, limit)
    for report in found:
        if json_output:
            typer.echo(json.dumps(report))
            continue
        reason = f" ({report['reason']})" if report["reason"] else ""
        typer.echo(f"{report['reported_at']}  game {report['game_id']} move {report['move_number']} "
                   f"[{report['room']}] {report['author']}: {report['text']!r}  reported by {report['reporter']}"
                   f"{reason}; {report['reports']} report(s) of this line")
    if not found and not json_output:
        typer.echo("No reports.")


@chat.command("timeout")
def chat_timeout(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    minutes: Annotated[int, typer.Option(help="How long the account may not write in any chat (0 lifts it).")],
    database: Annotated[str | None, typer.Option(help=DATABASE_HELP)] = None,
) -> None:
    """Time a person out of every chat of the site for some minutes (0: end a time-out now)."""
    from .web.chat import time_out

    with site_sessions(database)() as session:
        try:
            until = time_out(session, name, minutes)
        except ValueError as exc:
            fail(str(exc))
    typer.echo(f"{name} is timed out of the chat until {until.isoformat(timespec='minutes')} (UTC)." if until
               else f"{name} may write in the chat again.")
