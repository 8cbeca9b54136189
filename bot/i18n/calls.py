"""Which calls in the code are messages: a Babel extraction method that reads Python's own syntax
tree, used by ``bot.i18n.extract``.

Babel's ``python`` method reads the token stream and takes a keyword followed by ``(`` for a
call, and since Babel 2.19 a keyword followed by ``[`` as well: ``t["mime"]``, a dict named ``t``
in bot/games/masks/simulate.py, became a message to translate. A token stream cannot tell a call
from a subscript or an attribute without redoing Python's grammar; ``ast`` is that grammar. So
this method yields exactly the ``ast.Call`` nodes whose function is a keyword's bare name
(``t(...)``, ``tn(...)``, ``N_(...)``, inside f-strings too), with each positional argument as a
string where it is a literal (implicit concatenation included) and None where it is not. A dict,
list or loop variable named ``t`` is never called, so it is never a message; a function of
another module named ``t`` would be, and the code has none (it would show as an untranslated
message in the catalogue tests). Everything else stays Babel's: ``babel.messages.extract`` picks
the message arguments by the keywords' specs and skips a call whose message is not a literal, and
the catalogues are Babel's.

Filtering what Babel's own method yields was the other way: it would have to find the call node
of each result anyway, matched by line (a line may hold both ``t(...)`` and ``t[...]``), and
would still follow whatever a Babel release takes for a call.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def extract_calls(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, tuple[str | None, ...], list[str]]]:
    """Babel's extraction-method protocol: (line, keyword, positional arguments, comments) for
    every call of a keyword by its bare name. Translator comments are not read (the project
    has none, and ``extract`` asks for no comment tags)."""
    tree = ast.parse(fileobj.read(), filename=getattr(fileobj, "name", "<unknown>"))
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in keywords
    ]
    for call in sorted(calls, key=lambda node: (node.lineno, node.col_offset)):
        assert isinstance(call.func, ast.Name)
        yield call.lineno, call.func.id, tuple(_literal(arg) for arg in call.args), []
