"""lald: Laugh and Lie Down, the 16th-century fishing card game."""

__version__ = "0.1.0"
