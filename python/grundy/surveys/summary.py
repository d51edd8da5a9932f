"""The summary of a survey table: classes of equal games, and the games still open."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..exceptions import ArgumentError, ArgumentTypeError

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class SurveySummary:
    """What a survey found, in the shape of the published tables of equivalent games.

    Returned by :func:`survey_summary`; the parameters are also its attributes, and ``str()`` of a
    summary is a short report.

    Parameters
    ----------
    games : int
        How many distinct games the table holds.
    proven : int
        How many have a proven period.
    unproven : int
        How many were examined without a proof (status observed, max_n or timeout).
    errors : int
        How many could not be computed.
    classes : pandas.DataFrame
        One row per class of equal games: ``code`` (the first game of the class), ``members`` (the
        codes of the class, in table order), ``size``, and that first game's ``status``,
        ``preperiod``, ``period``, ``saltus``, ``checked_to``.
    unproven_games : pandas.DataFrame
        The games without a proven period: code, status, period observed (if any), checked_to
        (the values they were examined to), same_as.

    Examples
    --------
    >>> import grundy as gr
    >>> s = gr.survey_summary(gr.survey("0.?7", max_n=2**10, progress=False))
    >>> s.games, s.proven + s.unproven + s.errors, int(s.classes["size"].sum())
    (8, 8, 8)
    """

    games: int
    proven: int
    unproven: int
    errors: int
    classes: pd.DataFrame
    unproven_games: pd.DataFrame

    def __str__(self) -> str:
        lines = [
            f"{self.games} games: {self.proven} proven, {self.unproven} unproven, {self.errors} errors; "
            f"{len(self.classes)} classes of equal games"
        ]
        for _, c in self.classes.iterrows():
            if c["size"] > 1:
                lines.append(f"  {' = '.join(c['members'])}")
        if self.unproven:
            lines.append("unproven (examined to):")
            for _, r in self.unproven_games.iterrows():
                lines.append(f"  {r['code']} ({r['status']}, {r['checked_to']})")
        return "\n".join(lines)


def survey_summary(df: pd.DataFrame) -> SurveySummary:
    """Group a survey's equal games and count its proven and unproven games.

    Each game joins the class of the game its ``same_as`` names (or heads its own). Equality over
    the range both examined is not transitive in general, so a class is "the games equal to its
    first game", as ``same_as`` decided; for proven games examined past their proofs it is equality
    for every heap size. Repeated codes (``0.1`` and ``0.10`` are one game) count once.

    Parameters
    ----------
    df : pandas.DataFrame
        A table from :func:`survey` or :func:`load_survey`.

    Returns
    -------
    SurveySummary
        The counts, the classes of equal games and the unproven games.

    Raises
    ------
    ArgumentTypeError
        When ``df`` is not a pandas DataFrame (a TypeError).
    ArgumentError
        When ``df`` lacks a column of a survey table (code, status, same_as, checked_to) (a
        ValueError).

    Examples
    --------
    >>> import grundy as gr
    >>> s = gr.survey_summary(gr.survey(["0.22", "0.23", "0.77", "0.7x"], max_n=2**10, progress=False))
    >>> s.classes[["code", "members", "size"]].values.tolist()
    [['0.22', ['0.22', '0.23'], 2], ['0.77', ['0.77'], 1]]
    >>> s.errors
    1
    """
    import pandas as pd

    if not isinstance(df, pd.DataFrame):
        raise ArgumentTypeError(
            f"survey_summary takes the table of gr.survey or gr.load_survey, not {type(df).__name__}"
        )
    missing = [c for c in ("code", "status", "same_as", "checked_to") if c not in df.columns]
    if missing:
        raise ArgumentError(f"not a survey table: the columns {missing} are missing")
    df = df.drop_duplicates("code")
    ok = df[df["status"] != "error"]
    head = ok["same_as"].where(ok["same_as"].notna(), ok["code"])
    members: dict[str, list[str]] = {}
    for code, h in zip(ok["code"], head, strict=True):
        members.setdefault(h, []).append(code)
    by_code = df.set_index("code")
    classes = pd.DataFrame(
        [
            {
                "code": h,
                "members": m,
                "size": len(m),
                **{k: by_code.at[h, k] for k in ("status", "preperiod", "period", "saltus", "checked_to")},
            }
            for h, m in members.items()
        ],
        columns=["code", "members", "size", "status", "preperiod", "period", "saltus", "checked_to"],
    )
    unproven = ok[ok["status"] != "proven"][["code", "status", "period", "checked_to", "same_as"]]
    n_proven = int((ok["status"] == "proven").sum())
    return SurveySummary(
        games=len(df),
        proven=n_proven,
        unproven=len(ok) - n_proven,
        errors=len(df) - len(ok),
        classes=classes,
        unproven_games=unproven.reset_index(drop=True),
    )
