"""The compiled validator and the reference validator agree on valid and broken profiles."""

import copy

import jsonschema
import pytest

from exceeds_pipeline.profiles.export import _fast_validator, _validator, validate_profile
from exceeds_pipeline_tests.profiles.test_export import base_profile  # noqa: F401 (fixture)


def test_both_validators_accept_a_built_profile_and_reject_broken_ones(base_profile):
    profile = copy.deepcopy(base_profile)
    assert _validator().is_valid(profile)
    _fast_validator()(profile)
    validate_profile(profile)
    breakages = [
        lambda p: p["stats"].__setitem__("commits", "many"),
        lambda p: p.__setitem__("schema_version", "0.0.1"),
        lambda p: p.__setitem__("unexpected", 1),
        lambda p: p["activity"].__setitem__("2025-13", 1),
        lambda p: p.pop("summary"),
    ]
    for breakage in breakages:
        broken = copy.deepcopy(profile)
        breakage(broken)
        assert not _validator().is_valid(broken)
        with pytest.raises(jsonschema.ValidationError):
            validate_profile(broken)
