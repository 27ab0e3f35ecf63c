"""The compiled twin of the fast path: the C kernel's loader and its self-checks.

``lald.core._kernel`` (``src/lald/core/_kernel.c``, built by ``pip install``) plays what the
fast path plays, draw for draw; :data:`~.loader.KERNEL` loads it once and lets it play only
when its self-checks pass (:mod:`.selfcheck`).  This sub-package imports nothing else of
``lald``: the fast path connects its tables to it (docs/architecture.md#the-compiled-twins).
"""

from .loader import KERNEL, Kernel, kernel_name, kernel_status, pure_path

__all__ = ["KERNEL", "Kernel", "kernel_name", "kernel_status", "pure_path"]
