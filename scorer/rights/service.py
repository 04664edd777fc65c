"""Table rights as the app uses them: codes on disk plus the brakes on guessing
and on starting games."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from scorer.rights.codes import NotAllowed, TableCodes
from scorer.rights.limiter import Backoff, RateWindow, TooManyTries, WrongCode
from scorer.rights.phones import PhoneNames
from scorer.rights.ports import RightsPort
from scorer.store.errors import StoreError
from scorer.text.codes import code_digits

if TYPE_CHECKING:  # the PostgreSQL classes are a server's: the phone-alone app has none
    from scorer.rights.pg_codes import PgTableCodes
    from scorer.rights.pg_limiter import PgBackoff, PgRateWindow
    from scorer.rights.pg_phones import PgPhoneNames
    from scorer.store.database import Database

#: Wrong codes for one game, from anywhere, before waits start; the count is
#: never reset by a right code and forgotten only after 6 quiet hours, so a
#: guesser on many addresses gets about 62 tries in a 12-hour night (10 free,
#: then waits of 30 s doubling to 15 min): 1 chance in 16,000 of a 6-digit code.
GAME_FREE_TRIES = 10
#: Wrong codes for one game from one address before waits start.
ADDRESS_FREE_TRIES = 3
WAIT_CAP_S = 15 * 60.0
#: New games one address may start per hour (a table plays one or two).
GAMES_PER_HOUR = 20
#: The host code is longer than a table code: it opens every game. With the same
#: brakes (3 tries an address, 10 in all, then waits doubling to 15 min) a guesser
#: gets about 62 tries a night: 1 chance in 160 million.
HOST_CODE_DIGITS = 10
#: Addresses of games that do not exist (`/game/<id>`), opened from one connection
#: address before waits start (30 s doubling to 15 min; forgotten after a quiet hour).
#: Where games are private (a community) a game's id is what lets a phone see it: a
#: guesser gets about 60 tries a night from one address.
GAME_ADDRESS_FREE_TRIES = 10


class TooManyGames(StoreError):
    """This address started too many games lately: wait `seconds`."""

    def __init__(self, seconds: float) -> None:
        minutes = max(1, round(seconds / 60))
        super().__init__(f"This phone has started {GAMES_PER_HOUR} games in the last hour: "
                         f"wait {minutes} min before starting another one.")


class TableRights(RightsPort):
    """Edit rights of every game in one data folder, or of a community's database
    (`on_database`): the rights port's adapter for both."""

    community = False
    """True on a community's database: the host code is the operator's admin code."""

    def __init__(self, codes: TableCodes | PgTableCodes,
                 backoff: Backoff | PgBackoff | None = None,
                 game_backoff: Backoff | PgBackoff | None = None,
                 new_games: RateWindow | PgRateWindow | None = None,
                 host_backoff: Backoff | PgBackoff | None = None,
                 host_game_backoff: Backoff | PgBackoff | None = None,
                 phones: PhoneNames | PgPhoneNames | None = None,
                 host_code: Callable[[str], bool] | None = None,
                 game_misses: Backoff | PgBackoff | None = None) -> None:
        self.codes = codes
        self.backoff = backoff or Backoff(free=ADDRESS_FREE_TRIES, cap=WAIT_CAP_S,
                                          forget_after=3600.0)
        """Wrong codes per game and connection address."""
        self.game_backoff = game_backoff or Backoff(free=GAME_FREE_TRIES, cap=WAIT_CAP_S,
                                                    forget_after=6 * 3600.0)
        """Wrong codes per game, whoever typed them."""
        self.new_games = new_games or RateWindow(GAMES_PER_HOUR, 3600.0)
        """Games started per connection address."""
        self.host_backoff = host_backoff or Backoff(free=ADDRESS_FREE_TRIES, cap=WAIT_CAP_S,
                                                    forget_after=3600.0)
        """Wrong host codes per connection address."""
        self.host_game_backoff = host_game_backoff or Backoff(
            free=GAME_FREE_TRIES, cap=WAIT_CAP_S, forget_after=6 * 3600.0)
        """Wrong host codes from anywhere."""
        self.game_misses = game_misses or Backoff(free=GAME_ADDRESS_FREE_TRIES,
                                                  cap=WAIT_CAP_S, forget_after=3600.0)
        """Addresses of games that do not exist, opened per connection address."""
        self._host_code: str | None = None
        self._host_matches = host_code or self._this_runs_host_code
        """Whether the digits typed are the host code: this run's (a laptop), or the
        community's admin code (`on_database`)."""
        self._phones = phones
        self._also: list[Callable[[str, str | None], bool]] = []
        self._also_move: list[Callable[[str, str], int]] = []

    @classmethod
    def on_database(cls, db: Database) -> TableRights:
        """The rights of a community: codes, holders, hosts, phone names and every brake
        in its database, shared by all its processes; the host code is the operator's
        admin code (`tarabish admin-code`)."""
        from scorer.rights.pg_admin import AdminCode
        from scorer.rights.pg_codes import PgTableCodes
        from scorer.rights.pg_limiter import PgBackoff, PgRateWindow
        from scorer.rights.pg_phones import PgPhoneNames

        def brake(kind: str, free: int, forget_after: float) -> PgBackoff:
            return PgBackoff(db, kind, free=free, cap=WAIT_CAP_S, forget_after=forget_after)

        rights = cls(PgTableCodes(db),
                     backoff=brake("code-address", ADDRESS_FREE_TRIES, 3600.0),
                     game_backoff=brake("code-game", GAME_FREE_TRIES, 6 * 3600.0),
                     new_games=PgRateWindow(db, "new-games", GAMES_PER_HOUR, 3600.0),
                     host_backoff=brake("host-address", ADDRESS_FREE_TRIES, 3600.0),
                     host_game_backoff=brake("host-all", GAME_FREE_TRIES, 6 * 3600.0),
                     phones=PgPhoneNames(db),
                     host_code=AdminCode(db).matches,
                     game_misses=brake("game-address", GAME_ADDRESS_FREE_TRIES, 3600.0))
        rights.community = True
        return rights

    def may_edit(self, game_id: str, device: str | None) -> bool:
        """The phone entered the game's table code, started it, or is the host."""
        return (self.codes.may_edit(game_id, device) or self.codes.is_host(device)
                or any(check(game_id, device) for check in self._also))

    def also_allow(self, check: Callable[[str, str | None], bool]) -> None:
        """Let `check(game_id, device)` open games too: a club night's organiser edits
        every game of the event (`scorer.events`), which these rights know nothing of."""
        self._also.append(check)

    def also_move(self, move: Callable[[str, str], int]) -> None:
        """Let `move(old, new)` carry rights kept elsewhere (a club night's organisers)
        along in `move_device`."""
        self._also_move.append(move)

    def move_device(self, old: str, new: str) -> int:
        """Every right `old` holds (games, host, club nights) goes to `new`; how many.

        Only for `old` a token the server made for one session (never one a client
        named): a phone whose stored token came late keeps what it gained meanwhile."""
        return self.codes.move(old, new) + sum(move(old, new) for move in self._also_move)

    def is_host(self, device: str | None) -> bool:
        return self.codes.is_host(device)

    # -- what a phone may see where games are private (`scorer.app.game_sight`) ---------

    def held_by(self, device: str | None) -> set[str]:
        """The games this phone started or entered the code of."""
        return self.codes.held_by(device)

    def opened_by(self, device: str | None) -> set[str]:
        """The games this phone opened by their own address (`opened`)."""
        return self.codes.opened_by(device)

    def opened(self, game_id: str, device: str) -> None:
        """This phone opened the game's address (`/game/<id>`): it may see the game."""
        self.codes.opened(game_id, device)

    def game_address_wait(self, address: str) -> float:
        """Seconds this connection address must wait before opening a game it does not
        see yet (too many addresses of games that do not exist); 0: now."""
        return self.game_misses.wait_left(address)

    def missed_game_address(self, address: str) -> float:
        """A game address opened from `address` named no game: count it (a guess);
        the wait it earned (0: none yet)."""
        return self.game_misses.failed(address)

    def code(self, game_id: str) -> str | None:
        return self.codes.code(game_id)

    def start(self, game_id: str, device: str) -> str:
        """A new game: its code, held by the device that started it."""
        return self.codes.start(game_id, device)

    def start_next(self, game_id: str, device: str, follows: str) -> str:
        """Play again: the next game's code, held by the phones that held the game it
        follows (the same table). Only for a device that held that game: the server
        knows it started the next game from there; a watcher gets no rights by it."""
        if not self.may_edit(follows, device):
            raise NotAllowed()
        return self.codes.start(game_id, device, follows=follows)

    def give_codes(self, game_ids: list[str]) -> list[str]:
        """Codes for games that came without one (imported, or their code lost): no
        phone holds them until the code is entered; the host can show it."""
        return self.codes.give_codes(game_ids)

    def forget(self, game_id: str) -> None:
        """A deleted game: its code and the phones that held it go too."""
        self.codes.forget(game_id)

    def new_game_wait(self, address: str) -> float:
        """Seconds before `address` may start another game (0: at once)."""
        return self.new_games.wait_left(address)

    def check_new_game(self, address: str) -> None:
        """Refuse (TooManyGames) if `address` started GAMES_PER_HOUR games this hour."""
        wait = self.new_game_wait(address)
        if wait > 0:
            raise TooManyGames(wait)

    def game_started(self, address: str) -> None:
        self.new_games.record(address)

    def enter_code(self, game_id: str, device: str, address: str, code: str) -> None:
        """Grant `device` edit rights if `code` is right; raises WrongCode or
        TooManyTries (with the wait) otherwise.

        `address` is the connection's address as the server's socket sees it;
        the device token is the client's word and counts for nothing here, so a
        new token (or a new session) never buys new tries.
        """
        with self.game_backoff.turn(game_id):  # across processes: one guess at a time
            self._enter_code(game_id, device, address, code)

    def _enter_code(self, game_id: str, device: str, address: str, code: str) -> None:
        here = f"{game_id}|addr|{address}"
        wait = max(self.backoff.wait_left(here), self.game_backoff.wait_left(game_id))
        if wait > 0:
            raise TooManyTries(wait)
        if not self.codes.matches(game_id, code):
            wait = max(self.backoff.failed(here), self.game_backoff.failed(game_id))
            if wait > 0:
                raise TooManyTries(wait)
            left = min(self.backoff.tries_left(here), self.game_backoff.tries_left(game_id))
            raise WrongCode(f"That is not this game's table code ({left} more "
                            f"{'try' if left == 1 else 'tries'} before a wait).")
        self.backoff.succeeded(here)  # the game's own count stays: it is the guessers' budget
        self.codes.grant(game_id, device)

    # -- the host ------------------------------------------------------------------------

    def new_host_code(self) -> str:
        """A fresh host code for this run of the server (printed in its terminal: whoever
        started the server is the host). Phones that entered an earlier one stay hosts."""
        self._host_code = "".join(secrets.choice("0123456789") for _ in range(HOST_CODE_DIGITS))
        return self._host_code

    def enter_host_code(self, device: str, address: str, code: str) -> None:
        """Make `device` a host if `code` is this run's host code; raises WrongCode or
        TooManyTries like a table code (braked per address and overall). A connection
        from this machine counts for nothing: behind a proxy every guest is 127.0.0.1."""
        with self.host_game_backoff.turn("host"):  # across processes: one at a time
            self._enter_host_code(device, address, code)

    def _enter_host_code(self, device: str, address: str, code: str) -> None:
        here = f"host|addr|{address}"
        wait = max(self.host_backoff.wait_left(here), self.host_game_backoff.wait_left("host"))
        if wait > 0:
            raise TooManyTries(wait)
        typed = code_digits(code)
        if not self._host_matches(typed):
            wait = max(self.host_backoff.failed(here), self.host_game_backoff.failed("host"))
            if wait > 0:
                raise TooManyTries(wait)
            left = min(self.host_backoff.tries_left(here),
                       self.host_game_backoff.tries_left("host"))
            raise WrongCode(f"That is not the host code ({left} more "
                            f"{'try' if left == 1 else 'tries'} before a wait).")
        self.host_backoff.succeeded(here)
        self.codes.add_host(device)

    def _this_runs_host_code(self, typed: str) -> bool:
        expected = self._host_code
        return expected is not None and hmac.compare_digest(typed.encode(), expected.encode())

    # -- what the sheet calls a phone ----------------------------------------------------

    @property
    def phones(self) -> PhoneNames | PgPhoneNames:
        if self._phones is None:
            data_dir = self.codes.data_dir
            assert data_dir is not None  # a community's rights are given their phones
            self._phones = PhoneNames(data_dir)
        return self._phones

    def phone_label(self, device: str) -> str | None:
        """The name beside this phone's changes in a game's trail ("Mary", "phone 2")."""
        return self.phones.label(device)

    def phone_name(self, device: str) -> str | None:
        """The name this phone chose, if any."""
        return self.phones.name(device)

    def name_phone(self, device: str, name: str) -> str:
        return self.phones.set_name(device, name)

