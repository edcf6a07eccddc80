"""The games play.py plays: one of every ruleset, each with settings its queue accepts
(docs/matchmaking.md, Queues) and chosen to keep the game short.

Every seat is one of the example's own players, so no bot fills a seat and every match is rated.
"""

import dataclasses

from kahve_example.api import (engine_pb2, liars_dice_pb2, mexican_train_pb2, okey101_pb2,
                               okey51_pb2, okey_classic_pb2)


@dataclasses.dataclass(frozen=True)
class Game:
    ruleset: str  # the ruleset id, as the rating service names it
    players: int  # the seats: the players that queue for it
    settings: engine_pb2.GameSettings


GAMES = (
    # Two players with five dice each.
    Game("liars_dice", 2,
         engine_pb2.GameSettings(liars_dice=liars_dice_pb2.LiarsDiceSettings(players=2))),
    # Classic okey for two, ended after one deal.
    Game("okey", 2,
         engine_pb2.GameSettings(okey=okey_classic_pb2.OkeySettings(players=2, max_deals=1))),
    # Always four seats; the defaults play one deal.
    Game("okey51", 4, engine_pb2.GameSettings(okey51=okey51_pb2.Okey51Settings())),
    # Always four seats; three deals, the fewest okey101 plays.
    Game("okey101", 4, engine_pb2.GameSettings(okey101=okey101_pb2.Okey101Settings(deals=3))),
    # Two players; the game is always 13 rounds (engine 12-12 down to 0-0).
    Game("mexican_train", 2,
         engine_pb2.GameSettings(mexican_train=mexican_train_pb2.MexicanTrainSettings(players=2))),
)


def find(ruleset):
    """The game of a ruleset id; ValueError for one not in GAMES."""
    for game in GAMES:
        if game.ruleset == ruleset:
            return game
    known = ", ".join(g.ruleset for g in GAMES)
    raise ValueError(f"no game for ruleset {ruleset!r}; known: {known}")
