"""The grammar's two renderings accept the same language (issue 31): ``_bnf.to_regex`` (possessive,
for Python's engines) and ``export.render`` (greedy, for the Rust crate in the native core),
production by production, both profiles, over the grammar's own strategies, mutations of what they
draw, and the hand-written oracle atoms (tests/grammar/test_oracles.py). Where both match, the parts
each captures are the same too.

Possessive and greedy repetition differ only where giving back part of a repetition could make a
match, which ``_bnf.Rep`` says the RFCs' productions never need; where they do after all, the
production is listed in ``export.POSSESSIVE_ONLY`` (its rule stays with Python's engine) and the test
below shows the difference is real.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from grammar.test_oracles import BAD_ESCAPES, CASES, NEVER, _fill
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import strategy

import urlsift
from urlsift import _select
from urlsift.grammar import PROFILES, export
from urlsift.grammar._bnf import Lit, Pattern, Rule, compile_pattern, nodes, rules, to_regex
from urlsift.rejoin import readings
from urlsift.scanner import REGISTERED_SCHEMES, scan

pytestmark = pytest.mark.skipif(_select.NATIVE is None, reason="the native core is not built")

Production = tuple[str, str, Rule]
"""(profile, key, rule): a key unique in its profile's plan of every production."""


def _productions(profile: str) -> list[Production]:
    found: dict[int, Rule] = {}
    for syntax in PROFILES[profile].syntaxes():
        for rule in rules(syntax.rule):
            found.setdefault(id(rule), rule)
    return [(profile, f"{index}:{rule.name}", rule) for index, rule in enumerate(found.values())]


PRODUCTIONS = [*_productions("strict"), *_productions("modern")]
BY_ID = {f"{profile}-{key}": (profile, key, rule) for profile, key, rule in PRODUCTIONS}


@cache
def _native(profile: str):  # type: ignore[no-untyped-def]
    assert _select.NATIVE is not None
    return _select.NATIVE.Grammar([export.entry(key, rule) for _, key, rule in _productions(profile)])


@cache
def _python(rule: Rule) -> Pattern:
    return compile_pattern(to_regex(rule))


def difference(production: Production, text: str) -> str | None:
    """How the two renderings of a production disagree on ``text`` (None: they agree)."""
    profile, key, rule = production
    expected = _python(rule).fullmatch(text)
    found = _native(profile).fullmatch_at(key, text)
    if (expected is None) != (found is None) or _native(profile).fullmatch(key, text) != (found is not None):
        return f"{key} on {text!r}: Python {expected is not None}, Rust {found is not None}"
    if expected is None or found is None:
        return None
    for part in {node.group for node in nodes(rule) if isinstance(node, Rule) and node.group}:
        if (expected.start(part), expected.end(part)) != (found.start(part), found.end(part)):
            return f"{key} on {text!r}: part {part} at {expected.span(part)} in Python, not in Rust"
    return None


def _alphabet(rule: Rule) -> str:
    """The characters a mutation puts in: the production's literals' and the usual troublemakers."""
    literals = "".join(node.text for node in nodes(rule) if isinstance(node, Lit))
    return "".join(sorted(set(literals + "aZ09%-._~:/?#[]@!$&'()*+,;= \té中\U0001f600")))


@st.composite
def mutated(draw: st.DrawFn, text: str, alphabet: str) -> str:
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "delete", "replace", "double"]))
        char = draw(st.sampled_from(alphabet))
        if how == "insert":
            text = text[:at] + char + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + 1 :]
        elif how == "replace":
            text = text[:at] + char + text[at + 1 :]
        else:
            text = text[:at] + text[at:] + text[at:]
    return text


@pytest.mark.parametrize("name", BY_ID)
@settings(max_examples=40)
@given(data=st.data())
def test_both_renderings_accept_the_same_language(name: str, data: st.DataObject) -> None:
    production = BY_ID[name]
    rule = production[2]
    text = data.draw(strategy(rule))
    assert difference(production, text) is None
    if production[1].split(":", 1)[1] in export.POSSESSIVE_ONLY:
        return
    changed = data.draw(mutated(text, _alphabet(rule)))
    assert difference(production, changed) is None


@pytest.mark.parametrize("text", ["+0;ext=0+0;ext=0", "7042;phone-context=example.c;ext=0om"])
def test_the_possessive_only_productions_do_differ(text: str) -> None:
    production = next(p for p in PRODUCTIONS if p[0] == "modern" and p[2].name == "telephone-uri")
    assert difference(production, text) is not None
    assert set(export.POSSESSIVE_ONLY) <= {rule.name for _, _, rule in PRODUCTIONS}


@pytest.mark.parametrize(
    "url", ["TEL:7042;phone-context=exaample.c;ext=0om", "tel:+0;ext=0+0;ext=0", "tel:+1-201-555-0123"]
)
def test_validate_is_the_same_on_both_cores_where_the_renderings_differ(url: str, core: str) -> None:
    with _select.using("python"):
        expected = urlsift.validate(url, "modern")
    assert urlsift.validate(url, "modern") == expected


# --- whole URLs: validate() on both cores, verdict for verdict ---------------------------------

CORPORA = Path(__file__).resolve().parents[2] / "corpora"


def _verdicts_differ(url: str, profile: str) -> str | None:
    with _select.using("python"):
        expected = urlsift.validate(url, profile)
    with _select.using("rust"):
        found = urlsift.validate(url, profile)
    return None if found == expected else f"{profile} {url!r}: {expected} vs {found}"


@cache
def corpus_candidates() -> tuple[str, ...]:
    """Every reading of every candidate the scanner finds in the corpora (bytes read as UTF-8, a
    message's headers and all: what matters is the strings a scan hands validate)."""
    found: set[str] = set()
    for path in sorted(CORPORA.rglob("*")):
        if path.is_file() and path.suffix != ".md":
            text = path.read_bytes().decode("utf-8", "replace")
            for candidate in (*scan(text), *scan(text, schemes=REGISTERED_SCHEMES)):
                found.update(reading.url for reading in readings(text, candidate))
    return tuple(sorted(found))


def test_every_corpus_candidate_gets_one_verdict_on_both_cores() -> None:
    urls = corpus_candidates()
    assert len(urls) > 500
    differ = [d for url in urls for profile in PROFILES if (d := _verdicts_differ(url, profile))]
    assert differ == []


def _oracle_urls() -> list[str]:
    urls: list[str] = []
    for oracle, template in CASES:
        atoms = [*oracle.valid, *(bad.atom for bad in oracle.invalid), *NEVER, *BAD_ESCAPES]
        urls.extend(_fill(template, atom)[0] for atom in atoms)
    return urls


def test_the_hand_written_oracle_atoms_get_one_verdict_on_both_cores() -> None:
    urls = _oracle_urls()
    differ = [d for url in urls for profile in PROFILES if (d := _verdicts_differ(url, profile))]
    assert differ == []


@pytest.mark.parametrize("url", ["http://a/\ud800", "mailto:a\udfff@b", "ftp://h/é\ud800x"])
def test_a_lone_surrogate_is_judged_as_the_python_core_does(url: str, core: str) -> None:
    with _select.using("python"):
        expected = urlsift.validate(url, "modern"), urlsift.validate(url)
    assert (urlsift.validate(url, "modern"), urlsift.validate(url)) == expected


class _Forgetful(dict[int, tuple[Rule, str]]):
    def __setitem__(self, key: int, value: tuple[Rule, str]) -> None:
        pass


def test_a_rule_written_from_memory_is_written_as_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    # A rule that opens no group is rendered once (start-up): it must read as rendered afresh,
    # group numbers of what follows it included.
    every = [rule for profile in PROFILES.values() for s in profile.syntaxes() for rule in rules(s.rule)]
    remembered = [export.entry(rule.name, rule) for rule in every]
    assert export._WITHOUT_GROUPS
    monkeypatch.setattr(export, "_WITHOUT_GROUPS", _Forgetful())
    assert [export.entry(rule.name, rule) for rule in every] == remembered
