from __future__ import annotations

import pytest

from exceeds_pipeline_tests.quality.story import build_story


@pytest.fixture(scope="session")
def story(tmp_path_factory):
    return build_story(tmp_path_factory.mktemp("quality") / "lib")
