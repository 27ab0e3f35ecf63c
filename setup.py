"""The compiled play-out kernel (lald.core._kernel); the metadata is in pyproject.toml.

The extension is optional: where no C compiler (or no Python headers) is found the package
still installs, and lald.core.rollout plays the pure-Python path."""

from setuptools import Extension, setup

setup(ext_modules=[Extension(
    "lald.core._kernel", ["src/lald/core/_kernel.c"], optional=True,
    extra_compile_args=["-O2", "-std=c99", "-ffp-contract=off"],
)])
