"""Keep the interface's catalogs in step with the code (see docs/i18n.md).

Usage: python tools/i18n.py extract | update | check

- ``extract``: collect every marked text (Python ``_``/``ngettext``/``N_``,
  JavaScript ``t``/``tn``, the HTML templates) into ``locale/messages.pot``.
- ``update``: ``extract``, then merge the template into ``fr`` and ``de``: new
  texts arrive untranslated, texts gone from the code are dropped, translations
  are kept (no fuzzy guesses: a changed English text must be translated again).
- ``check``: list what is missing (untranslated or fuzzy texts, placeholders that
  differ from the English); exits 1 if anything is.
"""

from __future__ import annotations

import sys

from babel.messages.pofile import write_po

from kingisdead.web.i18n import LANGUAGES, LOCALE, catalog_path, extract, problems, read_catalog

POT = LOCALE / "messages.pot"


def write(path, catalog) -> None:  # type: ignore[no-untyped-def]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        write_po(out, catalog, width=100, omit_header=False, sort_output=False, include_previous=False,
                 ignore_obsolete=True)


def update() -> None:
    template = extract()
    write(POT, template)
    for lang in LANGUAGES[1:]:
        if catalog_path(lang).exists():
            catalog = read_catalog(lang)
        else:
            from babel.messages.catalog import Catalog
            catalog = Catalog(locale=lang, project="kingisdead")
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        write(catalog_path(lang), catalog)
    print(f"{len(template)} texts; catalogs updated: {', '.join(LANGUAGES[1:])}")


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "extract":
        write(POT, extract())
        print(f"wrote {POT}")
    elif command == "update":
        update()
    elif command == "check":
        found = problems()
        for line in found:
            print(line)
        print(f"{len(found)} problems")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
