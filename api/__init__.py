"""The HTTP service over the archive (installed as ``tutepgn.api``); it grows in the service issue."""
