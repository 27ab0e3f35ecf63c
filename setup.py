"""The compiled extensions; the metadata is in pyproject.toml.

- lald.core._kernel: the play-out kernel (loaded by lald.core.compiled);
- lald.rl.vector._vector: the vectorized environment's tables (lald.rl.vector);

both built on the rules' one C source, src/lald/core/_rules.h.

Both are optional: where no C compiler (or no Python headers) is found the package still
installs, and the pure-Python paths play."""

from setuptools import Extension, setup

FLAGS = ["-O2", "-std=c99", "-ffp-contract=off"]
# The rules both play, written once (turns, claims' order, the end, the settlement, the
# shuffle): a header each includes, so a change to it rebuilds both.
RULES = ["src/lald/core/_rules.h"]

setup(ext_modules=[
    Extension("lald.core._kernel", ["src/lald/core/_kernel.c"], depends=RULES, optional=True,
              extra_compile_args=FLAGS),
    Extension("lald.rl.vector._vector", ["src/lald/rl/vector/_vector.c"], depends=RULES, optional=True,
              extra_compile_args=FLAGS),
])
