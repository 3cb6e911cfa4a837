"""str -> Verdict: split off the fragment, read the scheme, let the profile's production judge.

No I/O, and nothing here names a scheme or a character: the profile knows those.
"""

from __future__ import annotations

from types import MappingProxyType

from ._model import Caveat, Problem, Verdict, www_url
from .grammar import STRICT, Profile, get_profile
from .grammar._bnf import furthest_failure

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
    # Issue 31: the Python pattern under either core. For one URL, the native fullmatch and its
    # match object (each group read back from Python) cost more than `re`'s fullmatch saves
    # (bench/validate_speed.py); the native extractor judges in the core, and
    # tests/grammar/test_export.py holds the core's productions to the patterns' language.
    match = syntax.pattern.fullmatch(url, colon + 1, endpos)
    if match is None:
        failure = furthest_failure(syntax.rule, url, colon + 1, endpos)
        if failure is None:
            raise RuntimeError(f"the pattern and the walk disagree on {url!r}")
        problem = judge.explain(url, endpos, failure, syntax)
        return Verdict(url, False, scheme, _NO_PARTS, problem, (), judge.name)
    fragment: str | None = None
    if hash_at >= 0:
        if judge.fragment.pattern.fullmatch(url, hash_at + 1) is None:
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
