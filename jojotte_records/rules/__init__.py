"""The rules core: one module per game (`base.GAMES`), which registers its `Rules` classes in `base.VARIANTS` when
imported. `find_variant` imports the games' modules only as far as the name asked for, so that a command reading one
game loads only that game's rules (start-up, issue 14); `VARIANTS` read from this package holds every game."""

from .base import find_variant  # noqa: F401


def __getattr__(name: str):
    if name == "VARIANTS":
        from .base import VARIANTS, import_games

        import_games()
        return VARIANTS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
