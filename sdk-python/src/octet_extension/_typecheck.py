"""``TYPE_CHECKING`` without importing ``typing``.

``typing`` costs about 3 ms of every extension's start, and the SDK uses it only for
annotations. mypy treats any name ``TYPE_CHECKING`` as true, so ``if TYPE_CHECKING:`` blocks
that import from ``typing`` are seen by the type checker and skipped at run time.
"""

TYPE_CHECKING = False
