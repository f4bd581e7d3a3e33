"""The C core (the solver, the validator's replay fast path, the header scan's hot loop), built as an optional
extension: with no compiler the package installs without it.

Everything else about the package is in pyproject.toml.  ``optional=True``
turns a failed compile into a warning, and ``tutepgn.native.ccore`` is then None:
the solver uses its pure-Python search (the same algorithm), the validator the
engine alone, the reader its Python loops.  On x86-64 the popcnt instruction
(every x86-64 processor since 2008) replaces a library call the search makes
at every trick start.  The play model's scores in C (``playout.c``) must be Python's to the last bit: no
multiply-add is fused (``-ffp-contract=off``), and exp() and log() come from the C library Python's math uses.
"""

import platform

from setuptools import Extension, setup

FLAGS = ["-O3", "-ffp-contract=off"] + (["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else [])

setup(ext_modules=[Extension("tutepgn.native.ccore", ["tutepgn/native/ccore.c", "tutepgn/native/creplay.c",
                                                        "tutepgn/native/cscan.c", "tutepgn/native/playout.c"],
                             depends=["tutepgn/native/tute.h", "tutepgn/native/layout.h", "tutepgn/native/creplay.h"],
                             libraries=[] if platform.system() == "Windows" else ["m"],
                             extra_compile_args=FLAGS, optional=True)])
