"""The compiled extensions; the metadata is in pyproject.toml.

- lald.core._kernel: the play-out kernel (lald.core.rollout);
- lald.rl._vector: the vectorized environment's tables (lald.rl.vector).

Both are optional: where no C compiler (or no Python headers) is found the package still
installs, and the pure-Python paths play."""

from setuptools import Extension, setup

FLAGS = ["-O2", "-std=c99", "-ffp-contract=off"]

setup(ext_modules=[
    Extension("lald.core._kernel", ["src/lald/core/_kernel.c"], optional=True, extra_compile_args=FLAGS),
    Extension("lald.rl._vector", ["src/lald/rl/_vector.c"], optional=True, extra_compile_args=FLAGS),
])
