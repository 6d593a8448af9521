"""Keep the `repositories` dynamic partitions equal to the config's repository list."""


from dagster import (
    AddDynamicPartitionsRequest,
    DagsterInstance,
    DeleteDynamicPartitionsRequest,
    DefaultSensorStatus,
    SensorEvaluationContext,
    SensorResult,
    SkipReason,
    sensor,
)

from exceeds_pipeline.config import ConfigError
from exceeds_pipeline.resources import ExceedsSettings

PARTITIONS_NAME = "repositories"


def partition_changes(configured: list[str], existing: list[str]) -> tuple[list[str], list[str]]:
    """(to add, to remove) so that the partitions equal the configured repositories."""
    return (
        [r for r in configured if r not in existing],
        [r for r in existing if r not in configured],
    )


def sync_partitions(instance: DagsterInstance, configured: list[str]) -> tuple[list[str], list[str]]:
    existing = list(instance.get_dynamic_partitions(PARTITIONS_NAME))
    add, remove = partition_changes(configured, existing)
    if add:
        instance.add_dynamic_partitions(PARTITIONS_NAME, add)
    for key in remove:
        instance.delete_dynamic_partition(PARTITIONS_NAME, key)
    return add, remove


@sensor(
    minimum_interval_seconds=30,
    default_status=DefaultSensorStatus.RUNNING,
    description="Adds a partition for each repository in the config and removes partitions of "
    "repositories taken out of it, so the UI always shows the configured repositories.",
)
def sync_repository_partitions_sensor(context: SensorEvaluationContext, settings: ExceedsSettings):
    try:
        configured = [r.display_name for r in settings.load_config().repositories]
    except ConfigError as exc:
        return SkipReason(f"config is invalid, partitions left as they are: {exc}")
    existing = list(context.instance.get_dynamic_partitions(PARTITIONS_NAME))
    add, remove = partition_changes(configured, existing)
    if not add and not remove:
        return SkipReason("partitions match the config")
    requests = []
    if add:
        requests.append(AddDynamicPartitionsRequest(PARTITIONS_NAME, add))
    if remove:
        requests.append(DeleteDynamicPartitionsRequest(PARTITIONS_NAME, remove))
    return SensorResult(dynamic_partitions_requests=requests)
