"""The HTTP service over the archive (installed as ``tutepgn.api``)."""
