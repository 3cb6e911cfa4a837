"""Hypothesis strategies generated from the grammar itself: one per production.

Each node kind of ``urlsift.grammar._bnf`` maps to a strategy, so every ``Rule`` of a profile gets
one (``production_strategies``), and each scheme a strategy of whole URLs (``urls``), in the strict
profile (RFC 1738) and in the modern one (RFC 3986/3987 and the scheme RFCs after 1738).

Built from the rules under test, they check that the compiled pattern, the diagnostic walk and the
parts agree with each other, not that a rule says what its RFC says: that is ``test_oracles`` (RFC
1738 atoms written by hand) and ``test_rfc3986_oracle`` (the modern profile against ``rfc3987``).
"""

from __future__ import annotations

from functools import cache

from hypothesis import strategies as st

from urlsift.grammar import opaque, rfc3986, schemes
from urlsift.grammar import rfc1738 as g
from urlsift.grammar._bnf import Alt, Chars, Label, Lit, Node, Opt, Rep, Rule, Seq, rules
from urlsift.grammar._chars import ALPHADIGIT, HEX, SCHEME

escapes = st.builds(lambda a, b: f"%{a}{b}", st.sampled_from(HEX), st.sampled_from(HEX))


# Non-ASCII letters for the classes RFC 3987 widens (``Chars.wide``): letters of several scripts, no
# spaces and no punctuation, which end a URL in text (D19, D23) though an IRI may hold them.
IRI_LETTERS = "éüßøñжлдλπ中文日本語한국ひらカタ"


def _units(node: Chars) -> st.SearchStrategy[str]:
    chars = st.sampled_from(node.members)
    if node.wide:
        chars = st.one_of(chars, st.sampled_from(IRI_LETTERS))
    return st.one_of(chars, escapes) if node.escapes else chars


@cache
def strategy(node: Node) -> st.SearchStrategy[str]:
    if isinstance(node, Lit):
        return st.just(node.text)
    if isinstance(node, Chars):
        high = node.max if node.max is not None else node.min + 6
        return st.lists(_units(node), min_size=node.min, max_size=high).map("".join)
    if isinstance(node, Label):
        inner = st.tuples(st.text("-", max_size=2), st.sampled_from(ALPHADIGIT)).map("".join)
        tail = st.lists(inner, max_size=4).map("".join)
        return st.tuples(st.sampled_from(node.first), tail).map("".join)
    if isinstance(node, Seq):
        return st.tuples(*(strategy(item) for item in node.items)).map("".join)
    if isinstance(node, Alt):
        return st.one_of(*(strategy(option) for option in node.options))
    if isinstance(node, Opt):
        return st.one_of(st.just(""), strategy(node.item))
    if isinstance(node, Rep):
        return st.lists(strategy(node.item), max_size=3).map("".join)
    if isinstance(node, Rule):
        return strategy(node.body)
    raise TypeError(node)


def production_strategies(root: Rule) -> dict[str, tuple[Rule, st.SearchStrategy[str]]]:
    """Every production under ``root`` by (RFC) name, with its strategy."""
    return {
        rule.name + (f"/{rule.group}" if rule.group else ""): (rule, strategy(rule)) for rule in rules(root)
    }


def any_case(word: str) -> st.SearchStrategy[str]:
    """D2: a scheme in any mixture of cases."""
    return st.tuples(*(st.sampled_from(sorted({c.lower(), c.upper()})) for c in word)).map("".join)


fragments = st.one_of(st.just(""), strategy(g.fragment).map(lambda text: "#" + text))
modern_fragments = st.one_of(st.just(""), strategy(rfc3986.fragment).map(lambda text: "#" + text))

other_schemes = st.text(SCHEME, min_size=1, max_size=8).filter(lambda s: s.lower() not in g.SCHEME_RULES)
MODERN_SCHEME_RULES = {**schemes.SCHEME_RULES, **opaque.SCHEME_RULES}
modern_other_schemes = strategy(rfc3986.scheme).filter(lambda s: s.lower() not in MODERN_SCHEME_RULES)


def urls(scheme: str, profile: str = "strict") -> st.SearchStrategy[str]:
    """Valid URLs of one scheme with a production of its own, or of the generic syntax when
    ``scheme`` is "other" (genericurl in strict, RFC 3986's URI in modern)."""
    if profile == "modern":
        if scheme == "other":
            head, body = modern_other_schemes, strategy(rfc3986.URI)
        else:
            head, body = any_case(scheme), strategy(MODERN_SCHEME_RULES[scheme])
        return st.tuples(head, st.just(":"), body, modern_fragments).map("".join)
    if scheme == "other":
        head = other_schemes
        body = strategy(g.genericurl)
    else:
        head = any_case(scheme)
        body = strategy(g.SCHEME_RULES[scheme])
    return st.tuples(head, st.just(":"), body, fragments).map("".join)


SCHEMES = (*g.SCHEME_RULES, "other")
MODERN_SCHEMES = (*MODERN_SCHEME_RULES, "other")
PROFILE_SCHEMES = [("strict", scheme) for scheme in SCHEMES] + [
    ("modern", scheme) for scheme in MODERN_SCHEMES
]
"""(profile, scheme) for every scheme with a production of its own in either profile, and "other"."""


def profile_urls(pair: tuple[str, str]) -> st.SearchStrategy[tuple[str, str]]:
    """(profile, URL) for a (profile, scheme) pair."""
    profile, scheme = pair
    return urls(scheme, profile).map(lambda url: (profile, url))


any_profile_url = st.sampled_from(PROFILE_SCHEMES).flatmap(profile_urls)
