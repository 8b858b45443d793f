"""A record's fields, whatever a list calls them: title, abstract, authors, year...

Records come as flat mappings (CSV rows, BibTeX entries, arXiv's JSON) or nested ones
(OpenReview's `content.title.value`). Keys are matched case-insensitively, the first
present name of each field wins, and values are coerced to text: a list becomes its
items, a `{"value": ...}` wrapper its value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timezone
from dataclasses import dataclass

from tui.core.lists.papers import one_line

TITLE_KEYS = ("title",)
ABSTRACT_KEYS = ("abstract", "summary", "description")
AUTHOR_KEYS = ("authors", "author")
YEAR_KEYS = ("year",)
DATE_KEYS = ("date", "update_date", "published", "publication_date", "pdate", "cdate")
VENUE_KEYS = ("booktitle", "venue", "journal", "conference")
LINK_KEYS = ("url", "site", "link", "forum", "pdf")
ID_KEYS = ("id", "doi", "arxiv_id", "arxiv")
KEYWORD_KEYS = ("keywords", "categories")
KNOWN_COLUMNS = frozenset(TITLE_KEYS + ABSTRACT_KEYS + AUTHOR_KEYS + YEAR_KEYS + DATE_KEYS
                          + VENUE_KEYS + LINK_KEYS + ID_KEYS + KEYWORD_KEYS)
"""Every column name the mapping knows (a CSV header is recognised by them)."""

MAX_FIELD_CHARS = 200_000
"""A longer value is not a paper's field (a whole book pasted into a cell): the record is
skipped and counted, so that rendering and naming stay bounded."""

_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d|2100)(?!\d)")
_ARXIV_ID = re.compile(r"^(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$")
_AUTHOR_SPLIT = re.compile(r"\s*;\s*|\s+and\s+|\s*&\s*|\n+")


class FieldTooLarge(ValueError):
    """A field's value is longer than MAX_FIELD_CHARS."""


@dataclass(frozen=True, slots=True)
class Fields:
    """What a record says about a paper, as plain strings (LaTeX not yet decoded)."""

    title: str = ""
    abstract: str = ""
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str = ""
    link: str = ""
    doi: str = ""
    source_id: str = ""
    keywords: tuple[str, ...] = ()


def flatten(record: Mapping[str, object]) -> dict[str, object]:
    """Lower-cased keys, with a nested `content` mapping (OpenReview) merged in and
    `{"value": x}` wrappers unwrapped. The record's own keys win over `content`'s."""
    out: dict[str, object] = {}
    for key, value in record.items():
        if key != "content":
            out[str(key).lower()] = value
    content = record.get("content")
    if isinstance(content, Mapping):
        for key, value in content.items():
            if out.get(str(key).lower()) in (None, ""):
                out[str(key).lower()] = value
    return {key: _unwrap(value) for key, value in out.items()}


def _unwrap(value: object) -> object:
    if isinstance(value, Mapping) and "value" in value:
        return value["value"]
    return value


def text(value: object) -> str:
    """A value as one string: lists joined by "; ", numbers written out, None as ""."""
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, str):
        found = value
    elif isinstance(value, (int, float)):
        found = str(value)
    elif isinstance(value, (list, tuple)):
        found = "; ".join(t for t in (text(v) for v in value) if t)
    else:
        return ""
    if len(found) > MAX_FIELD_CHARS:
        raise FieldTooLarge(f"a field of {len(found):,} characters")
    return found


def first(record: Mapping[str, object], keys: tuple[str, ...]) -> object:
    """The value of the first of `keys` that the record has and that is not empty."""
    for key in keys:
        value = record.get(key)
        if value not in (None, "", [], {}):
            return value
    return None


def parse_authors(value: object) -> tuple[str, ...]:
    """Authors from a list (of names, of `{"name"}` or `{"given", "family"}` objects,
    of arXiv's `[last, first, suffix]`) or from a string split on `;`, ` and ` or `&`.

    "Last, First" becomes "First Last". A string of full names separated by commas
    ("Ann Lee, Bo Chen") is split on the commas.
    """
    if value is None:
        return ()
    if isinstance(value, (list, tuple)):
        names = [_name_of(item) for item in value]
    elif isinstance(value, str):
        names = []
        for part in _AUTHOR_SPLIT.split(text(value)):
            names += _comma_names(part)
    else:
        return ()
    return tuple(n for n in (one_line(name) for name in names) if n and n.lower() != "others")


def _name_of(item: object) -> str:
    if isinstance(item, str):
        return _turn(text(item))
    if isinstance(item, Mapping):
        if item.get("name"):
            return _turn(text(item["name"]))
        given = text(item.get("given") or item.get("first") or "")
        family = text(item.get("family") or item.get("last") or "")
        return f"{given} {family}".strip()
    if isinstance(item, (list, tuple)) and item and all(isinstance(p, str) for p in item):
        last, given = item[0], item[1] if len(item) > 1 else ""
        suffix = item[2] if len(item) > 2 else ""
        return " ".join(p for p in (given, last, suffix) if p)
    return ""


def _comma_names(part: str) -> list[str]:
    """One `;`/`and`-separated part: a "Last, First" name or several full names."""
    pieces = [p.strip() for p in part.split(",") if p.strip()]
    if len(pieces) <= 1:
        return pieces
    if len(pieces) == 2 and len(pieces[0].split()) <= 3 and len(pieces[1].split()) <= 3 \
            and not all(len(p.split()) >= 2 for p in pieces):
        return [_turn(part)]
    if len(pieces) == 3 and pieces[1].rstrip(".").lower() in ("jr", "sr", "ii", "iii", "iv"):
        return [f"{pieces[2]} {pieces[0]} {pieces[1]}"]  # "Last, Jr., First"
    return pieces


def _turn(name: str) -> str:
    """"Last, First" as "First Last"; other names as they are."""
    if name.count(",") == 1:
        last, given = (p.strip() for p in name.split(","))
        if last and given:
            return f"{given} {last}"
    return name.strip()


def parse_year(record: Mapping[str, object]) -> int | None:
    """The `year` field, or the year of a date field (`2019-04-16`, `Tue, 2 Apr 2019`)."""
    for keys in (YEAR_KEYS, DATE_KEYS):
        value = first(record, keys)
        if value is None:
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if 1800 <= value <= 2100:
                return int(value)
            if keys is DATE_KEYS and 0 < value < 10**14:  # a timestamp (OpenReview: in ms)
                seconds = value / 1000 if value > 10**11 else value
                return datetime.fromtimestamp(seconds, timezone.utc).year
            continue
        found = _YEAR.search(text(value)[:200])
        if found:
            return int(found.group())
    return None


def keywords(value: object) -> tuple[str, ...]:
    """Keywords from a list or from a string split on `;`, `,` or spaces (arXiv's
    categories are space-separated)."""
    if isinstance(value, (list, tuple)):
        items = [text(v) for v in value]
    else:
        raw = text(value)
        sep = ";" if ";" in raw else "," if "," in raw else None
        items = raw.split(sep)
    return tuple(dict.fromkeys(one_line(i) for i in items if one_line(i)))


def link_of(record: Mapping[str, object], source_id: str, doi: str) -> str:
    """The paper's page: a link field, else one made from an OpenReview forum id, an
    arXiv id or a DOI."""
    for key in LINK_KEYS:
        value = text(record.get(key)).strip()
        if not value:
            continue
        if value.startswith(("http://", "https://")):
            return value
        if key == "forum":
            return f"https://openreview.net/forum?id={value}"
    if source_id and _ARXIV_ID.match(source_id):
        return f"https://arxiv.org/abs/{source_id}"
    if doi:
        return f"https://doi.org/{doi}"
    return ""


def map_record(record: Mapping[str, object], default_venue: str = "",
               default_year: int | None = None) -> Fields:
    """The fields of one record (keys already lower-cased, see `flatten`).

    Raises FieldTooLarge for a value too long to be a paper's field.
    """
    doi = one_line(text(record.get("doi")))
    source_id = one_line(text(first(record, ID_KEYS)))
    return Fields(
        title=one_line(text(first(record, TITLE_KEYS))),
        abstract=text(first(record, ABSTRACT_KEYS)),
        authors=parse_authors(record.get("authors_parsed") or first(record, AUTHOR_KEYS)),
        year=parse_year(record) or default_year,
        venue=one_line(text(first(record, VENUE_KEYS))) or default_venue,
        link=link_of(record, source_id, doi),
        doi=doi,
        source_id=source_id,
        keywords=keywords(first(record, KEYWORD_KEYS)),
    )
