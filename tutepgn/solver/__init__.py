"""The C core, ``ccore`` (built by ``setup.py`` from the C files here): the solver's search, the validator's replay
fast path and the reader's hot loops.  Its Python users are :mod:`tutepgn.analysis.solve`,
:mod:`tutepgn.check.fastreplay` and the readers of :mod:`tutepgn.notation`, each with a Python fallback."""
