"""Interface languages: English, French and German, from Babel gettext catalogs.

Texts are English in the code and the English text is the catalog key
(``locale/messages.pot``, ``locale/{fr,de}/LC_MESSAGES/messages.po``). See
docs/i18n.md for the workflow (add a text, extract, translate).

- Python marks a player-facing text with :func:`_` (or :func:`ngettext`). Both
  return a :class:`Text`: a ``str`` holding the English text, which remembers
  its key and parameters so that :func:`localize` can render it again in any
  language. Views are cached and broadcast to players of different languages,
  so texts are translated only when a JSON answer is written: by
  :class:`.localized.LocalizedJSON` for HTTP and by :func:`localize` for WebSocket messages.
- JavaScript marks texts with ``t("…", {name})`` from ``/static/i18n.js``, which
  loads the page's catalog from ``GET /api/i18n/{lang}``.
- The HTML pages are Jinja2 templates rendered per request (:func:`render_page`):
  ``{{ _("…") }}`` for short texts, ``{% trans %}…{% endtrans %}`` for paragraphs.

The language of a request (:class:`.localized.LanguageMiddleware`): for a WebSocket, the
``lang`` parameter of its URL (the page's own language); then the signed-in
player's saved language, else the ``lang`` cookie set by the page's language
selector, else the best match of ``Accept-Language`` (Babel's negotiation),
else English.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from functools import cache
from importlib.resources import files
from io import BytesIO
from pathlib import Path
from typing import Any, Self

from babel import Locale
from babel.core import UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LANGUAGES = ("en", "fr", "de")
"""The interface languages; English is the source language (its texts are the catalog keys)."""
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "de": "Deutsch"}
DEFAULT = "en"
COOKIE = "lang"
"""The cookie the language selector sets (a language code, one year, path /)."""
LOCALE = Path(str(files("kingisdead.web") / "locale"))
SCOPE_KEY = "kingisdead.language"

_language: ContextVar[str] = ContextVar("kingisdead_language", default=DEFAULT)
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


# -- catalogs -------------------------------------------------------------------------------

def catalog_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "messages.po"


def read_catalog(lang: str) -> Catalog:
    """The ``.po`` catalog of a language, as Babel reads it (raises OSError if it is missing)."""
    with catalog_path(lang).open("rb") as po:
        return read_po(po, locale=lang)


@cache
def translations(lang: str) -> Translations | None:
    """The compiled catalog of a language (None for English, which needs none).

    The ``.po`` file is compiled in memory with Babel when first used; fuzzy
    entries are left out, so an unreviewed translation falls back to English.
    """
    if lang == DEFAULT:
        return None
    compiled = BytesIO()
    write_mo(compiled, read_catalog(lang))
    compiled.seek(0)
    return Translations(compiled, domain="messages")


@cache
def client_catalog(lang: str) -> tuple[bytes, str]:
    """``GET /api/i18n/{lang}``'s body (JSON ``{"language", "messages": {English: translation}}``, plural
    entries as a list of forms) and its ETag."""
    messages: dict[str, str | list[str]] = {}
    if lang != DEFAULT:
        for message in read_catalog(lang):
            if not message.id or message.fuzzy:
                continue
            if message.pluralizable:
                forms = [str(form) for form in message.string or ()]
                if forms and all(forms):
                    messages[message.id[0]] = forms
            elif message.string:
                messages[str(message.id)] = str(message.string)
    body = json.dumps({"language": lang, "messages": messages}, ensure_ascii=False, sort_keys=True).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


# -- texts ----------------------------------------------------------------------------------------

def fill(text: str, params: dict[str, Any], lang: str) -> str:
    """Replace ``{name}`` placeholders from ``params`` (Texts among them rendered in ``lang``); unknown
    names and other braces are left as they are, as ``t()`` does in the browser."""
    def value(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in params:
            return match.group(0)
        param = params[key]
        return param.in_language(lang) if isinstance(param, Text) else str(param)
    return _PLACEHOLDER.sub(value, text)


class Text(str):
    """A player-facing text: a ``str`` with the English text, translatable with :meth:`in_language`.

    Made by :func:`_` and :func:`ngettext`; ``params`` fill ``{name}``
    placeholders and may be Texts themselves (a faction name inside a sentence).
    Joining a Text with ``+`` or an f-string gives a plain, English-only str:
    compose sentences with placeholders instead.
    """

    msgid: str
    plural: str | None
    number: int | None
    params: dict[str, Any]
    _rendered: dict[str, str]

    def __new__(cls, msgid: str, params: dict[str, Any] | None = None, plural: str | None = None,
                number: int | None = None) -> Self:
        params = dict(params or {})
        english = msgid if plural is None or number == 1 else plural
        self = super().__new__(cls, fill(english, params, DEFAULT))
        self.msgid, self.plural, self.number, self.params = msgid, plural, number, params
        self._rendered = {}
        return self

    def in_language(self, lang: str) -> str:
        """This text in ``lang`` (English if the catalog lacks it). Kept once made: a Text never changes, and
        the log's texts are rendered again for every socket on every move."""
        catalog = translations(lang) if lang in LANGUAGES else None
        if catalog is None:
            return str(self)
        done = self._rendered.get(lang)
        if done is None:
            if self.plural is None:
                text = catalog.gettext(self.msgid)
            else:
                text = catalog.ngettext(self.msgid, self.plural, self.number or 0)
            done = self._rendered[lang] = fill(text, self.params, lang)
        return done

    def __reduce__(self) -> tuple[Any, ...]:  # pickled into compute workers and back
        return (Text, (self.msgid, self.params, self.plural, self.number))


def _(msgid: str, **params: Any) -> Text:
    """Mark an interface text: ``_("{region} falls to the Saxons", region=name)``."""
    return Text(msgid, params)


def ngettext(singular: str, plural: str, n: int, **params: Any) -> Text:
    """A text with singular and plural forms; ``{n}`` is the count: ``ngettext("{n} region", "{n} regions", k)``."""
    return Text(singular, {"n": n, **params}, plural, n)


def N_(msgid: str) -> str:
    """Mark a text for extraction only (for tables of texts completed later with ``_(text, **params)``)."""
    return msgid


def join(items: list[Any], separator: str = ", ") -> Text:
    """``items`` joined by ``separator``, each rendered in the language the result is shown in."""
    params = {f"i{k}": item for k, item in enumerate(items)}
    return Text(separator.join(f"{{i{k}}}" for k in range(len(items))), params)


def and_list(items: list[Any]) -> Any:
    """"A", "A and B", "A, B and C" in the language the text is shown in."""
    if len(items) < 2:
        return items[0] if items else ""
    return _("{list} and {last}", list=join(items[:-1]), last=items[-1])


def clauses(items: list[Any]) -> Any:
    """Clauses joined by semicolons as the language shown writes them: "a; b" in English, "a ; b" in
    French (a space before ";")."""
    if not items:
        return ""
    joined = items[0]
    for item in items[1:]:
        joined = _("{clauses}; {clause}", clauses=joined, clause=item)
    return joined


def localize(value: Any, lang: str | None = None) -> Any:
    """``value`` (JSON-like: dicts, lists, tuples, strings...) with every :class:`Text` in ``lang``
    (default: the current request's language). Other values are returned as they are."""
    lang = lang or _language.get()
    if lang == DEFAULT:
        return value
    return _localized(value, lang)


def _localized(value: Any, lang: str) -> Any:
    # Views are mostly small ints and lists of them: only strs, dicts, lists and tuples are looked into.
    kind = type(value)
    if kind is Text:
        return value.in_language(lang)
    if kind is dict:
        return {key: item if type(item) in _SCALARS else _localized(item, lang) for key, item in value.items()}
    if kind is list or kind is tuple:
        return [item if type(item) in _SCALARS else _localized(item, lang) for item in value]
    if isinstance(value, Text):
        return value.in_language(lang)
    if isinstance(value, dict):  # subclasses of dict, list and tuple: the plain way
        return {key: _localized(item, lang) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_localized(item, lang) for item in value]
    return value


_SCALARS = frozenset({int, float, bool, str, type(None)})  # plain str: not a Text, nothing to render


def current_language() -> str:
    """The language of the request or WebSocket being served (English outside of one)."""
    return _language.get()


# -- negotiation ------------------------------------------------------------------------------

def supported(code: str | None) -> str | None:
    """``code`` if it names one of :data:`LANGUAGES` (any case, region ignored: "fr-CA" → "fr"), else None."""
    if not code or len(code) > 35:
        return None
    try:
        language = Locale.parse(code.strip().replace("-", "_")).language
    except (ValueError, TypeError, UnknownLocaleError):
        return None
    return language if language in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """The best of :data:`LANGUAGES` for an ``Accept-Language`` header (q-values honoured), or None."""
    if not header:
        return None
    wanted: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")[:30]):
        tag, _sep, rest = part.strip().partition(";")
        quality = 1.0
        for param in rest.split(";"):
            name, _eq, number = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(number)
                except ValueError:
                    quality = 0.0
        if tag and tag != "*" and quality > 0:
            wanted.append((-quality, position, tag.strip()))
    preferred = [tag for _q, _p, tag in sorted(wanted)]
    best = Locale.negotiate(preferred, list(LANGUAGES), sep="-")
    return best.language if best is not None else None


def language_of(connection: Any) -> str:
    """The language the middleware chose for a Request or WebSocket (English if none)."""
    return str(connection.scope.get(SCOPE_KEY, DEFAULT))


# -- pages -------------------------------------------------------------------------------------

@cache
def _pages(directory: str) -> Any:
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    env = Environment(loader=FileSystemLoader(directory), autoescape=select_autoescape(["html"]),
                      extensions=["jinja2.ext.i18n"])
    env.policies["ext.i18n.trimmed"] = True  # a paragraph's line breaks are not part of its key
    return env


def render_page(directory: str, name: str, lang: str, session: bool = False, lan: bool = False,
                **context: Any) -> str:
    """The HTML page ``name`` (a Jinja2 template in ``directory``) in ``lang``; ``context`` holds the page's own
    values (the table's game edition).

    ``session`` tells the page that the request carried a session cookie, so
    that a guest's lobby does not ask who is signed in (and log a 401).
    ``lan``: the server runs in plain-http LAN mode; the lobby says what that leaves unprotected.
    """
    catalog = translations(lang)
    gettext: Callable[[str], str] = catalog.gettext if catalog is not None else str
    ngettext_: Callable[[str, str, int], str] = (
        catalog.ngettext if catalog is not None else lambda s, p, n: s if n == 1 else p)
    return str(_pages(directory).get_template(name).render(
        lang=lang, session=session, lan=lan, _=gettext, gettext=gettext, ngettext=ngettext_, **context))


# -- extraction (docs/i18n.md) ---------------------------------------------------------------

KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "gettext": None, "t": None, "tn": (1, 2)}
"""Extraction keywords: Python's ``_``/``ngettext``, JavaScript's ``t``/``tn``, the templates' ``_`` and
their ``{% trans %}`` blocks (``gettext``/``ngettext``)."""
MAPPING = [("static/**.js", "javascript"), ("templates/**.html", "jinja2.ext:babel_extract"),
           ("migrations/**", "ignore"), ("**.py", "python")]
"""Babel's method map, relative to the ``kingisdead/web`` package."""
METHOD_OPTIONS = {"templates/**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}


def extract(root: Path | None = None) -> Catalog:
    """Every marked text of the web app (Python, JavaScript, templates) as a fresh template catalog."""
    from babel.messages.extract import extract_from_dir

    root = root or Path(str(files("kingisdead")))
    catalog = Catalog(project="kingisdead", locale=None, fuzzy=False)
    found: Iterator[Any] = extract_from_dir(str(root / "web"), method_map=MAPPING, options_map=METHOD_OPTIONS,
                                            keywords=KEYWORDS, comment_tags=("i18n:",), strip_comment_tags=True)
    for filename, lineno, message, comments, context in found:
        catalog.add(message, None, [(f"web/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


def placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


def problems() -> list[str]:
    """What keeps the catalogs from being complete and fresh, one line each (empty when all is well).

    Checks against a fresh extraction: the template lists exactly the texts in
    the code, and each language translates every one of them (every plural form),
    with no fuzzy entry and the same ``{placeholders}`` as the English.
    """
    found: list[str] = []
    fresh = {message.id if isinstance(message.id, str) else message.id[0]: message
             for message in extract() if message.id}
    with (LOCALE / "messages.pot").open("rb") as pot:
        template = {message.id if isinstance(message.id, str) else message.id[0] for message in read_po(pot)
                    if message.id}
    found += [f"messages.pot lacks {key!r}" for key in fresh if key not in template]
    found += [f"messages.pot has {key!r}, which the code no longer uses" for key in template if key not in fresh]
    for lang in LANGUAGES[1:]:
        catalog = read_catalog(lang)
        for key, source in fresh.items():
            message = catalog.get(source.id if isinstance(source.id, str) else source.id[0])
            if message is None:
                found.append(f"{lang}: no entry for {key!r}")
                continue
            forms = [str(form or "") for form in message.string] if isinstance(message.string, tuple | list) \
                else [message.string or ""]
            english = [source.id] if isinstance(source.id, str) else list(source.id)
            if message.fuzzy:
                found.append(f"{lang}: fuzzy {key!r}")
            if not all(forms):
                found.append(f"{lang}: untranslated {key!r}")
            elif any(placeholders(form) != placeholders(english[-1 if k else 0]) for k, form in enumerate(forms)):
                found.append(f"{lang}: placeholders differ in {key!r}")
        found += [f"{lang}: {m.id!r} is not in the code" for m in catalog
                  if m.id and (m.id if isinstance(m.id, str) else m.id[0]) not in fresh]
    return found
