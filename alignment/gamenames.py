"""Game names: the ALE games with a Farama documentation page, and lenient name matching.

The list is the table of contents of https://ale.farama.org/environments/ (the Farama ALE docs at
commit a9a043e26eba), each page slug with the CamelCase name of its ``ALE/<Name>-v5`` id. The slugs
are also ale-py's ROM ids. :func:`resolve` accepts any common spelling: ``Frostbite``, ``frostbite``,
``ms_pacman``, ``MsPacman``, ``ALE/Pong-v5``, ``PongNoFrameskip-v4``; the spelling is reduced by
:func:`jaxtari.names.key`, the rule jaxtari's and the catalog's names use too.
"""

from __future__ import annotations

import difflib
import re

from jaxtari.names import key

# (Farama page slug, ALE environment name)
FARAMA_GAMES: tuple[tuple[str, str], ...] = (
    ("adventure", "Adventure"), ("air_raid", "AirRaid"), ("alien", "Alien"), ("amidar", "Amidar"),
    ("assault", "Assault"), ("asterix", "Asterix"), ("asteroids", "Asteroids"),
    ("atlantis", "Atlantis"), ("atlantis2", "Atlantis2"), ("backgammon", "Backgammon"),
    ("bank_heist", "BankHeist"), ("basic_math", "BasicMath"), ("battle_zone", "BattleZone"),
    ("beam_rider", "BeamRider"), ("berzerk", "Berzerk"), ("blackjack", "Blackjack"),
    ("bowling", "Bowling"), ("boxing", "Boxing"), ("breakout", "Breakout"),
    ("carnival", "Carnival"), ("casino", "Casino"), ("centipede", "Centipede"),
    ("chopper_command", "ChopperCommand"), ("crazy_climber", "CrazyClimber"),
    ("crossbow", "Crossbow"), ("darkchambers", "Darkchambers"), ("defender", "Defender"),
    ("demon_attack", "DemonAttack"), ("donkey_kong", "DonkeyKong"), ("double_dunk", "DoubleDunk"),
    ("earthworld", "Earthworld"), ("elevator_action", "ElevatorAction"), ("enduro", "Enduro"),
    ("entombed", "Entombed"), ("et", "Et"), ("fishing_derby", "FishingDerby"),
    ("flag_capture", "FlagCapture"), ("freeway", "Freeway"), ("frogger", "Frogger"),
    ("frostbite", "Frostbite"), ("galaxian", "Galaxian"), ("gopher", "Gopher"),
    ("gravitar", "Gravitar"), ("hangman", "Hangman"), ("haunted_house", "HauntedHouse"),
    ("hero", "Hero"), ("human_cannonball", "HumanCannonball"), ("ice_hockey", "IceHockey"),
    ("jamesbond", "Jamesbond"), ("journey_escape", "JourneyEscape"), ("kaboom", "Kaboom"),
    ("kangaroo", "Kangaroo"), ("keystone_kapers", "KeystoneKapers"), ("king_kong", "KingKong"),
    ("klax", "Klax"), ("koolaid", "Koolaid"), ("krull", "Krull"),
    ("kung_fu_master", "KungFuMaster"), ("laser_gates", "LaserGates"),
    ("lost_luggage", "LostLuggage"), ("mario_bros", "MarioBros"),
    ("miniature_golf", "MiniatureGolf"), ("montezuma_revenge", "MontezumaRevenge"),
    ("mr_do", "MrDo"), ("ms_pacman", "MsPacman"), ("name_this_game", "NameThisGame"),
    ("othello", "Othello"), ("pacman", "Pacman"), ("phoenix", "Phoenix"), ("pitfall", "Pitfall"),
    ("pitfall2", "Pitfall2"), ("pong", "Pong"), ("pooyan", "Pooyan"),
    ("private_eye", "PrivateEye"), ("qbert", "Qbert"), ("riverraid", "Riverraid"),
    ("road_runner", "RoadRunner"), ("robotank", "Robotank"), ("seaquest", "Seaquest"),
    ("sir_lancelot", "SirLancelot"), ("skiing", "Skiing"), ("solaris", "Solaris"),
    ("space_invaders", "SpaceInvaders"), ("space_war", "SpaceWar"), ("star_gunner", "StarGunner"),
    ("superman", "Superman"), ("surround", "Surround"), ("tennis", "Tennis"), ("tetris", "Tetris"),
    ("tic_tac_toe_3d", "TicTacToe3D"), ("time_pilot", "TimePilot"), ("trondead", "Trondead"),
    ("turmoil", "Turmoil"), ("tutankham", "Tutankham"), ("up_n_down", "UpNDown"),
    ("venture", "Venture"), ("video_checkers", "VideoCheckers"), ("video_chess", "VideoChess"),
    ("video_cube", "VideoCube"), ("video_pinball", "VideoPinball"),
    ("wizard_of_wor", "WizardOfWor"), ("word_zapper", "WordZapper"),
    ("yars_revenge", "YarsRevenge"), ("zaxxon", "Zaxxon"),
)

GAME_SLUGS: tuple[str, ...] = tuple(slug for slug, _ in FARAMA_GAMES)
ENV_NAMES: dict[str, str] = dict(FARAMA_GAMES)

# Spellings that do not reduce to a slug by dropping separators and case.
_ALIASES = {"montezumasrevenge": "montezuma_revenge"}

_KEYS: dict[str, str] = {slug.replace("_", ""): slug for slug in GAME_SLUGS}
_KEYS.update(_ALIASES)

FARAMA_PAGE_URL = "https://ale.farama.org/environments/{slug}/"


class UnknownGameError(ValueError):
    """A game name the pipeline cannot use (the one error type for names across ``alignment``)."""


def lookup(name: str) -> str | None:
    """The slug of an ALE game name in any common spelling, or None."""
    return _KEYS.get(key(name)) if isinstance(name, str) else None


def did_you_mean(name: str, among=None) -> str:
    """`` Did you mean: a, b?`` for names close to ``name`` (ALE slugs, or ``among``), else ``""``."""
    keys = _KEYS if among is None else {key(n): n for n in among}
    close = difflib.get_close_matches(key(name), list(keys), n=3, cutoff=0.75)
    return f" Did you mean: {', '.join(keys[c] for c in close)}?" if close else ""


def resolve(name: str) -> str:
    """The canonical slug of a game name, or :class:`UnknownGameError` listing the known games."""
    slug = lookup(name)
    if slug is not None:
        return slug
    raise UnknownGameError(
        f"unknown game {name!r}.{did_you_mean(name)} Known games (ALE games with a Farama page): "
        + ", ".join(GAME_SLUGS)
    )


def env_id(slug: str) -> str:
    """The ALE v5 id of a game, e.g. ``ALE/Frostbite-v5``."""
    return f"ALE/{ENV_NAMES[slug]}-v5"


def farama_url(slug: str) -> str:
    return FARAMA_PAGE_URL.format(slug=slug)


def file_key(stem: str) -> str:
    """The key used to match a corpus file name (``river_raid``) to a slug (``riverraid``)."""
    return re.sub(r"[^a-z0-9]", "", stem.lower())


def name_keys(slug: str) -> set[str]:
    """Every separator-free lower-case spelling of a game's name (``montezumasrevenge``, ...)."""
    keys = {file_key(slug), file_key(ENV_NAMES.get(slug, slug))}
    keys.update(k for k, v in _ALIASES.items() if v == slug)
    return keys
