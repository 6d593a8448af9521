"""Step processes end with the process that started them (Linux), so that a killed `exceeds`
command leaves no worker behind."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent(always: bool = False) -> bool:
    """Ask the kernel to SIGKILL this process when its parent ends; True if it was set.

    Only for processes that a parent started for one job (the multiprocess executor's steps and
    its fork server); a long-lived process (a Dask worker started by hand) is left alone.
    """
    if not sys.platform.startswith("linux") or (multiprocessing.parent_process() is None and not always):
        return False
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    # The parent may have died before the call took effect: then we are already orphaned.
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)
    return True
