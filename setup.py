"""The C core of the solver, built as an optional extension: with no compiler the package installs without it.

Everything else about the package is in pyproject.toml.  ``optional=True``
turns a failed compile into a warning, and ``tutepgn.solver`` then uses its
pure-Python search (the same algorithm).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("tutepgn.solver.ccore", ["tutepgn/solver/ccore.c"],
                             extra_compile_args=["-O3"], optional=True)])
