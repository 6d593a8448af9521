"""Preloaded by the multiprocess executor's fork server (and only there, see
`definitions.ingest_executor`): the fork server ends with the process that started it, and so
do the steps forked from it (`processes.die_with_parent` in the settings resource).

The fork server, and so every step forked from it, leaves the terminal's process group: a
Ctrl-C reaches the run's own process alone, which stops the steps the executor's way (it sets
each step's termination event, the step interrupts itself). A step that also took the
terminal's SIGINT could end while its termination thread held that event's lock (a
multiprocessing lock dies with its holder held), and the run, setting the event, hung for
good: seen under load in the Ctrl-C test."""

import os

from exceeds_pipeline.processes import die_with_parent

die_with_parent(always=True)
os.setpgrp()
