"""The ``{[%dd …]}`` comment: the double-dummy annotation of one card, written and read.

``jojotte analyze --out`` writes it after each analysed card; the archive (``plays.dd_*``), the report and the
analyzer itself read it back. Only the codec lives here, so a reader of the annotation need not import the
analyzer:

    [%dd eval=25 cost=15 best=KS,QS+jo mark=mistake vs=A-C alts=KS:40,QS+jo:40,7H:25]

``eval`` the forced value after the card, ``cost`` what the card gave away against best play, ``best`` the best
cards (``+word`` an announcement), ``mark`` inaccuracy/mistake/blunder, ``vs`` whose value ``eval`` is (absent:
A minus B), ``alts`` (optional) the forced value, on the same scale as ``eval``, after each legal card the
player had (the analysis board of the hand page).
"""

from __future__ import annotations

from collections.abc import Iterable

DD_TAG = "[%dd"  # the comment command the analyzer writes and replaces


def format_dd_comment(eval: int, cost: int, best: Iterable[str], mark: str = "", vs: str = "",
                      alts: Iterable[tuple[str, int]] = ()) -> str:
    """The comment's text.

    >>> format_dd_comment(-10, 15, ["KS", "QS+jo"], "mistake")
    '[%dd eval=-10 cost=15 best=KS,QS+jo mark=mistake]'
    >>> format_dd_comment(25, 0, ["KS"], alts=[("KS", 25), ("7H", 10)])
    '[%dd eval=25 cost=0 best=KS alts=KS:25,7H:10]'
    """
    text = f"{DD_TAG} eval={eval} cost={cost} best={','.join(best)}"
    if mark:
        text += f" mark={mark}"
    if vs:
        text += f" vs={vs}"
    alts = list(alts)
    if alts:
        text += " alts=" + ",".join(f"{card}:{value}" for card, value in alts)
    return text + "]"


def dd_alternatives(comments: Iterable[str]) -> list[tuple[str, int]]:
    """The ``alts`` of the first ``[%dd …]`` comment among a card's comments: (card, value) for every legal
    card the player had, in the order written; empty when the analysis did not give them.

    >>> dd_alternatives(["[%dd eval=25 cost=0 best=KS alts=KS:25,7H:10]"])
    [('KS', 25), ('7H', 10)]
    >>> dd_alternatives(["[%dd eval=25 cost=0 best=KS alts=KS:x]"])
    []
    """
    for c in comments:
        f = parse_dd_comment(c)
        if f is None:
            continue
        out = []
        for item in (f.get("alts") or "").split(","):
            card, sep, value = item.rpartition(":")
            try:
                out.append((card, int(value)))
            except ValueError:
                return []
            if not sep or not card:
                return []
        return out
    return []


def is_dd_comment(text: str) -> bool:
    """Whether a comment is the analyzer's (the one ``jojotte analyze`` replaces)."""
    return text.lstrip().startswith(DD_TAG)


def without_dd(comments: Iterable[str]) -> tuple[str, ...]:
    """The comments other than the analyzer's, in order."""
    return tuple(c for c in comments if not is_dd_comment(c))


def parse_dd_comment(text: str) -> dict[str, str] | None:
    """The fields of a ``[%dd …]`` comment, or None.

    >>> parse_dd_comment("[%dd eval=-10 cost=15 best=KS,QS mark=mistake]")["best"]
    'KS,QS'
    """
    t = text.strip()
    if not t.startswith(DD_TAG) or not t.endswith("]"):
        return None
    out = {}
    for item in t[len(DD_TAG):-1].split():
        k, _, v = item.partition("=")
        out[k] = v
    return out


def dd_fields(comments: Iterable[str]) -> tuple[int | None, int | None, str | None, str | None, str | None] | None:
    """(eval, cost, best, mark, vs) of the first ``[%dd …]`` comment among a card's ``comments``, or None.

    The archive's ``plays.dd_*`` columns; a field that is missing or unreadable is None (``vs``: whose
    value ``eval`` is in three- and four-player forms, ``A-C``, ``N+S-E+W``; None for A minus B).

    >>> dd_fields(("void", "[%dd eval=-10 cost=15 best=KS,QS mark=mistake]"))
    (-10, 15, 'KS,QS', 'mistake', None)
    """
    for c in comments:
        f = parse_dd_comment(c)
        if f is not None:
            def num(key):
                try:
                    return int(f[key])
                except (KeyError, ValueError):
                    return None
            return num("eval"), num("cost"), f.get("best") or None, f.get("mark") or None, f.get("vs") or None
    return None
