"""The grammar's second rendering: the rule trees as patterns of the Rust ``regex`` crate's
dialect, handed to the native core (``urlsift._core``, rust/), which compiles each once.

``_bnf.to_regex`` writes the same trees for Python's engines with possessive repetition, which is
what keeps a backtracking engine linear. The crate's engines never backtrack, and its dialect has
no possessive quantifier (``a*+`` parses there as a repetition of a repetition, with no error), no
atomic group and no look-around; so this rendering repeats greedily and drops the one look-ahead
(a pruning guard that does not change the language). That the two readings accept the same
language, production by production, is what tests/grammar/test_export.py proves by difference.

The crate refuses two groups of one name, which a production used twice brings (waisurl's
database); so every group is named ``g0``, ``g1``, ... in order and the plan maps each back to its
part. Nothing here or in the core restates a rule: both read the trees.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from ._bnf import Alt, Chars, Label, Lit, Node, Opt, Rep, Rule, Seq
from ._chars import ALPHADIGIT, HEX

PlanEntry = tuple[str, str, list[str]]
"""(production or scheme key, pattern, part of each group g0, g1, ...): what ``_core.Grammar`` takes."""


def _char(code: int) -> str:
    char = chr(code)
    return char if char.isascii() and char.isalnum() else f"\\x{{{code:X}}}"


@cache  # (a few dozen classes, each written hundreds of times over a profile's productions)
def _class(members: str, wide: tuple[tuple[int, int], ...] = ()) -> str:
    """A bracketed class of exactly ``members`` and the ``wide`` ranges: every character that is
    not an ASCII letter or digit written as ``\\x{...}``, so no character means anything else
    in a class (``-``, ``^``, ``[``, ``&&``, ``~~`` do in the crate's)."""
    codes = sorted({ord(char) for char in members})
    ranges: list[list[int]] = []
    for code in codes:
        if ranges and code == ranges[-1][1] + 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    ranges.extend([first, last] for first, last in wide)
    text = "".join(
        _char(first) if first == last else f"{_char(first)}-{_char(last)}" for first, last in ranges
    )
    return f"[{text}]"


def _quantifier(low: int, high: int | None) -> str:
    """Greedy: the crate's engines find a match without giving back, so nothing is possessive."""
    if (low, high) == (1, 1):
        return ""
    if high is None:
        return {0: "*", 1: "+"}.get(low, f"{{{low},}}")
    return f"{{{low},{high}}}"


_ESCAPE = "%" + _class(HEX) + "{2}"


def _chars(node: Chars) -> str:
    members = _class(node.members, node.wide)
    if not node.escapes:
        return members + _quantifier(node.min, node.max)
    unit = f"(?:{members}|{_ESCAPE})"
    if node.max is not None:
        return f"{unit}{_quantifier(node.min, node.max)}"
    # As _bnf's unrolled run (a character or an escape, any number); the Python rendering's
    # look-ahead for min=1 only prunes, so min units and the run say the same here.
    return unit * node.min + f"{members}*(?:{_ESCAPE}{members}*)*"


def _literal(text: str) -> str:
    return "".join(_char(ord(char)) for char in text)


def render(node: Node, groups: list[str]) -> str:
    """The crate-dialect text of ``node``, unanchored; each part group is appended to ``groups``
    and named after its index there."""
    if isinstance(node, Lit):
        return _literal(node.text)
    if isinstance(node, Chars):
        return _chars(node)
    if isinstance(node, Label):
        return f"{_class(node.first)}(?:-*{_class(ALPHADIGIT)})*"
    if isinstance(node, Seq):
        return "".join(render(item, groups) for item in node.items)
    if isinstance(node, Alt):
        return "(?:" + "|".join(render(option, groups) for option in node.options) + ")"
    if isinstance(node, Opt):
        return f"(?:{render(node.item, groups)})?"
    if isinstance(node, Rep):
        return f"(?:{render(node.item, groups)})*"
    if isinstance(node, Rule):
        if node.group is None:
            held = _WITHOUT_GROUPS.get(id(node))
            if held is not None and held[0] is node:
                return held[1]
            opened = len(groups)
            text = f"(?:{render(node.body, groups)})"
            if len(groups) == opened:
                _WITHOUT_GROUPS[id(node)] = (node, text)
            return text
        name = f"g{len(groups)}"  # before the body: groups are numbered in the order they open
        groups.append(node.group)
        return f"(?P<{name}>{render(node.body, groups)})"
    raise TypeError(f"not a grammar node: {node!r}")


_WITHOUT_GROUPS: dict[int, tuple[Rule, str]] = {}
"""The text of each rule that opens no group, which is the same wherever it stands: a profile's
shared productions (``pchar``, ``hostname`` ...) are written once, not at each use. Keyed by the
rule's identity (the rule kept with it), not by its value: hashing a frozen tree walks it whole."""


def entry(key: str, rule: Rule) -> PlanEntry:
    """One production's entry of a plan: its pattern and the part each group captures."""
    groups: list[str] = []
    pattern = render(rule, groups)
    return key, pattern, groups


def plan(rules: Iterable[Rule]) -> list[PlanEntry]:
    """The entries of ``rules``, each keyed by its RFC name (one rule object per name: two rules
    of one name would make a key ambiguous, and that is a mistake in the profile); those in
    ``POSSESSIVE_ONLY`` are left out."""
    seen: dict[str, Rule] = {}
    for rule in rules:
        if rule.name in POSSESSIVE_ONLY:
            continue
        if seen.setdefault(rule.name, rule) is not rule:
            raise ValueError(f"two productions named {rule.name!r} in one plan")
    return [entry(name, rule) for name, rule in seen.items()]


_TEL = (
    "RFC 3966's par repeats ';ext=' phonedigits or ';' pname '=' pvalue: read possessively, "
    "';ext=0om' is an extension that stops at 'o' and no parameter; greedily, a parameter 'ext'"
)
POSSESSIVE_ONLY: dict[str, str] = {
    # Found by tests/grammar/test_export.py: "+0;ext=0+0;ext=0" is a global-number only greedily.
    "telephone-uri": _TEL,
    "telephone-subscriber": _TEL,
    "global-number": _TEL,
    "local-number": _TEL,
}
"""Productions whose possessive reading accepts less than the greedy one: where giving back part
of a repetition makes a match. Their rules stay with Python's engine (``Profile.native`` holds
no pattern for them), and tests/grammar/test_export.py shows each difference."""


# --- the rendering shipped with the package ---------------------------------------------------------
#
# What the native core is handed at each start is rendered once, into ``_rendered.py`` (``python -m
# urlsift.grammar.export > src/urlsift/grammar/_rendered.py``): a start reads strings rather than
# walking the trees (D35's shapes alone are tens of kilobytes of pattern). The trees stay the one
# statement of the grammar; tests/grammar/test_export.py holds the file to a fresh rendering.


def shapes() -> list[PlanEntry]:
    """D35's shapes (``opaque.IN_TEXT``), keyed by scheme, less those of ``POSSESSIVE_ONLY``."""
    from .opaque import IN_TEXT

    kept = sorted(scheme for scheme, rule in IN_TEXT.items() if rule.name not in POSSESSIVE_ONLY)
    return [entry(scheme, IN_TEXT[scheme]) for scheme in kept]


def _string(text: str, indent: str) -> str:
    """``text`` as string literals of at most 90 characters, one a line (implicitly joined)."""
    pieces = [text[at : at + 90] for at in range(0, len(text), 90)] or [""]
    return f"\n{indent}".join('"' + piece.replace("\\", "\\\\") + '"' for piece in pieces)


def _entry(found: PlanEntry, indent: str) -> str:
    key, pattern, groups = found
    inner = indent + "    "
    names = "".join(f'{inner}    "{group}",\n' for group in groups)
    return (
        f"{indent}(\n{inner}{_string(key, inner)},\n{inner}{_string(pattern, inner)},\n"
        + (f"{inner}[\n{names}{inner}],\n" if groups else f"{inner}[],\n")
        + f"{indent}),\n"
    )


def render_python() -> str:
    """The Python source of ``_rendered.py``: each profile's plan and scheme pattern, and the
    shapes, as ``Profile._compile_native`` and ``extract._judge_plan`` hand them to the core."""
    from . import PROFILES

    plans = scheme_patterns = ""
    for name, profile in PROFILES.items():
        entries = "".join(_entry(found, "        ") for found in plan(s.rule for s in profile.syntaxes()))
        plans += f'    "{name}": [\n{entries}    ],\n'
        scheme_patterns += f'    "{name}": {_string(entry("scheme", profile.scheme_rule)[1], "    ")},\n'
    shaped = "".join(_entry(found, "    ") for found in shapes())
    return (
        '"""Generated by `python -m urlsift.grammar.export` from the grammar\'s rules; do not edit."""\n\n'
        "PlanEntry = tuple[str, str, list[str]]\n"
        '"""(production or scheme key, pattern, part of each group), as ``export.PlanEntry``."""\n\n'
        f"PLANS: dict[str, list[PlanEntry]] = {{\n{plans}}}\n"
        '"""Each profile\'s ``export.plan`` of its productions."""\n'
        f"SCHEMES: dict[str, str] = {{\n{scheme_patterns}}}\n"
        '"""Each profile\'s scheme name (``Profile.scheme_rule``), as ``export.entry`` renders it."""\n'
        f"SHAPES: list[PlanEntry] = [\n{shaped}]\n"
        '"""``export.shapes()``: D35\'s shapes."""\n'
    )


if __name__ == "__main__":
    print(render_python(), end="")
