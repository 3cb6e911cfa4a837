from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))  # tests/strategies.py

settings.register_profile(
    "default", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# By hand, before a release: pytest --hypothesis-profile=stress tests/grammar/test_properties.py ...
settings.register_profile("stress", max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile("ci" if os.environ.get("CI") else "default")
