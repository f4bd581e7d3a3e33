"""The ``tute`` command line (installed as ``tutepgn.cli``): thin commands over the library."""
