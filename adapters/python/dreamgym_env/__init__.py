"""DreamGym environment server client (standard library only)."""

from .client import DreamGymEnv, DreamGymError, DreamGymHttpEnv, DreamGymRuns

__all__ = ["DreamGymEnv", "DreamGymError", "DreamGymHttpEnv", "DreamGymRuns"]
