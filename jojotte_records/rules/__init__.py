"""The rules core: one module per game; importing the package registers every game in `base.VARIANTS`."""

from . import baloot, jojotte, jojotte3, jojotte4, pitch  # noqa: F401  (registration)
from .base import VARIANTS, find_variant  # noqa: F401
