"""Every production of every profile compiles, both ways the grammar is read.

A grammar's patterns are compiled when first used (importing urlsift compiles none of the modern
profile's, nor those of a scheme never met), so a production that cannot compile would otherwise
show only in the run that first meets it: here every one is compiled now."""

from __future__ import annotations

import pytest

from urlsift.grammar import PROFILES
from urlsift.grammar._bnf import Chars, Label, Rep, Rule, compile_pattern, nodes, to_regex
from urlsift.grammar.modern import MODERN_RULES
from urlsift.grammar.strict import STRICT_RULES
from urlsift.scanner import KNOWN_SCHEMES

ROOTS = {"strict": STRICT_RULES, "modern": MODERN_RULES}


@pytest.mark.parametrize("profile", sorted(ROOTS))
def test_every_production_compiles(profile: str) -> None:
    compiled = 0
    for root in ROOTS[profile]:
        for node in nodes(root):
            if isinstance(node, Rule):
                compile_pattern(to_regex(node))  # the regex reading of each named production
                compiled += 1
            if isinstance(node, (Chars, Rep, Label)):
                assert node._pattern.pattern  # the walk's reading of each leaf and repetition
                compiled += 1
            if isinstance(node, Label):
                assert node._reach.pattern
    assert compiled > 50


@pytest.mark.parametrize("profile", sorted(ROOTS))
def test_every_scheme_syntax_compiles(profile: str) -> None:
    judge = PROFILES[profile]
    for scheme in sorted(KNOWN_SCHEMES | {"x-unknown", "tel", "urn", "sip", "cid", "mid", "https"}):
        syntax = judge.syntax(scheme)
        assert syntax.pattern.pattern == to_regex(syntax.rule)
    assert judge.fragment.pattern.pattern
