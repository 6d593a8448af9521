"""Preloaded by the multiprocess executor's fork server (and only there, see
`definitions.ingest_executor`): the fork server ends with the process that started it, and so
do the steps forked from it (`processes.die_with_parent` in the settings resource)."""

from exceeds_pipeline.processes import die_with_parent

die_with_parent(always=True)
