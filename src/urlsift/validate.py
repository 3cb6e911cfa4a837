"""str -> Verdict: split off the fragment, read the scheme, let the profile's production judge.

No I/O, and nothing here names a scheme or a character: the profile knows those.
"""

from __future__ import annotations

from types import MappingProxyType

from . import _select
from ._model import Caveat, Problem, Verdict, www_url
from .grammar import STRICT, Profile, SchemeSyntax, get_profile
from .grammar._bnf import furthest_failure
from .grammar._profile import RegexMatch

_NO_PARTS: MappingProxyType[str, None] = MappingProxyType({})


def validate(url: str, profile: Profile | str = STRICT) -> Verdict:
    """Judge ``url`` exactly as given (D28: no wrapper or whitespace is stripped)."""
    judge = profile if profile is STRICT else get_profile(profile)  # skip the ABC check per call
    # D4: the fragment is everything after the first "#"; it is judged on its own.
    try:
        hash_at = url.find("#")
    except (AttributeError, TypeError):  # no str: said here (a try costs nothing on the hot path)
        raise TypeError(f"validate() takes str, not {type(url).__name__}") from None
    endpos = len(url) if hash_at < 0 else hash_at
    colon = judge.scheme_end(url, endpos)
    if isinstance(colon, Problem):
        return Verdict(url, False, None, _NO_PARTS, colon, (), judge.name)
    scheme = url[:colon].lower()
    syntax = judge.syntax(scheme)
    native = judge.native if _select.CORE == "rust" else None
    match: RegexMatch | None
    name = syntax.rule.name
    if native is None or name not in judge.native_rules:  # export.POSSESSIVE_ONLY
        match = syntax.pattern.fullmatch(url, colon + 1, endpos)
    else:  # issue 31: the native core's fullmatch; what reads the match stays Python
        try:
            match = native.fullmatch_at(name, url, colon + 1, endpos)
        except UnicodeEncodeError:  # a lone surrogate has no UTF-8: the Python pattern judges it
            match = syntax.pattern.fullmatch(url, colon + 1, endpos)
    if match is None:
        failure = furthest_failure(syntax.rule, url, colon + 1, endpos)
        if failure is None:
            raise RuntimeError(f"the pattern and the walk disagree on {url!r}")
        problem = judge.explain(url, endpos, failure, syntax)
        return Verdict(url, False, scheme, _NO_PARTS, problem, (), judge.name)
    fragment: str | None = None
    if hash_at >= 0:
        fragment_match: RegexMatch | None
        if native is None:
            fragment_match = judge.fragment.pattern.fullmatch(url, hash_at + 1)
        else:
            fragment_match = _native_fullmatch(judge, judge.fragment, url, hash_at + 1, len(url))
        if fragment_match is None:
            failure = furthest_failure(judge.fragment.rule, url, hash_at + 1, len(url))
            if failure is None:
                raise RuntimeError(f"the pattern and the walk disagree on {url!r}")
            problem = judge.explain(url, len(url), failure, judge.fragment)
            return Verdict(url, False, scheme, _NO_PARTS, problem, (), judge.name)
        fragment = url[hash_at + 1 :]
    found = syntax.decompose(match, scheme)
    found.parts["fragment"] = fragment
    caveats = judge.caveats(url, scheme, syntax, found)
    return Verdict(url, True, scheme, MappingProxyType(found.parts), None, caveats, judge.name)


def _native_fullmatch(
    judge: Profile, syntax: SchemeSyntax, url: str, pos: int, endpos: int
) -> RegexMatch | None:
    """The native core's fullmatch of ``syntax`` (issue 31); the failure's explanation, the parts'
    reading and the caveats stay Python's, on the match it returns."""
    name = syntax.rule.name
    if judge.native is None or name not in judge.native_rules:  # export.POSSESSIVE_ONLY
        return syntax.pattern.fullmatch(url, pos, endpos)
    try:
        return judge.native.fullmatch_at(name, url, pos, endpos)
    except UnicodeEncodeError:  # a lone surrogate has no UTF-8: the Python pattern judges it
        return syntax.pattern.fullmatch(url, pos, endpos)


def validate_www(reference: str, profile: Profile | str = STRICT) -> Verdict:
    """Judge a host name with no scheme (``www.example.com/x``, as the modern scanner finds them)
    as the http URL it stands for. The verdict is about ``reference``: its scheme is None and its
    positions are in ``reference``."""
    url = www_url(reference)
    verdict = validate(url, profile)
    shift = len(url) - len(reference)
    error = verdict.error
    if error is not None:
        error = Problem(max(0, error.position - shift), error.production, error.message)
    warnings = tuple(Caveat(w.kind, w.position - shift, w.message) for w in verdict.warnings)
    return Verdict(reference, verdict.valid, None, verdict.parts, error, warnings, verdict.profile)
