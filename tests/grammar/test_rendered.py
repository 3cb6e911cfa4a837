"""The grammar's rendering for the native core is shipped in ``grammar/_rendered.py`` (issue 31: a
start reads it rather than walking the rule trees); the trees stay the grammar's one statement, so
the file must be what they render now, and it is what each profile hands the core."""

from __future__ import annotations

from pathlib import Path

from urlsift import _select
from urlsift.grammar import PROFILES, _rendered, export
from urlsift.grammar.opaque import IN_TEXT
from urlsift.shapes import OPAQUE_SHAPED_SCHEMES

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_rendering_is_the_grammars() -> None:
    written = (ROOT / "src/urlsift/grammar/_rendered.py").read_text(encoding="utf-8")
    # If not: python -m urlsift.grammar.export > src/urlsift/grammar/_rendered.py
    assert written == export.render_python()


def test_each_profile_hands_the_core_its_own_rendering() -> None:
    for name, profile in PROFILES.items():
        plan = export.plan(syntax.rule for syntax in profile.syntaxes())
        assert _rendered.PLANS[name] == plan
        assert _rendered.SCHEMES[name] == export.entry("scheme", profile.scheme_rule)[1]
        if _select.NATIVE is not None:
            assert profile.native_rules == {key for key, _, _ in plan}
    # The shapes the extractor took before they were shipped rendered: D35's schemes, less tel's.
    possessive = export.POSSESSIVE_ONLY
    shaped = sorted(scheme for scheme in OPAQUE_SHAPED_SCHEMES if IN_TEXT[scheme].name not in possessive)
    assert [key for key, _, _ in _rendered.SHAPES] == shaped
