from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from urlsift import _select

sys.path.insert(0, str(Path(__file__).parent))  # tests/strategies.py

settings.register_profile(
    "default", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# By hand, before a release: pytest --hypothesis-profile=stress tests/grammar/test_properties.py ...
settings.register_profile("stress", max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture(params=_select.CORES)
def core(request: pytest.FixtureRequest) -> Iterator[_select.Core]:
    """Each core in turn (issue 31): a test of a ported stage takes this fixture and runs on the
    pure-Python oracle and on the native core, which is skipped, visibly, where it is not built."""
    name: _select.Core = request.param
    if name == "rust" and _select.NATIVE is None:
        pytest.skip("the native core is not built (pip install -e .) or URLSIFT_CORE=python")
    with _select.using(name):
        yield name
