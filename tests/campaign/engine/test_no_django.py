"""The map engine is plain Python: importing it loads nothing from Django."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CHECK = """
import sys
import campaign.engine
import campaign.engine.geometry, campaign.engine.map, campaign.engine.mapformat, campaign.engine.svg
campaign.engine.render_map_svg(
    campaign.engine.default_map(), campaign.engine.default_map().initial_state(), sector_href=str
)
print(",".join(sorted(name for name in sys.modules if name.split(".")[0] in {"django", "rest_framework"})))
print("campaign.engine.svg" in sys.modules)
"""


def test_it_imports_and_draws_without_loading_django() -> None:
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}

    result = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )

    loaded, engine_loaded = result.stdout.splitlines()
    assert engine_loaded == "True"
    assert loaded == ""
