"""The version of an analysis's JSON form, in a module of its own: the archive keys its stored analyses by it,
and reading this does not load the solver (``tutepgn.analysis`` does, about 40 ms)."""

ANALYSIS_VERSION = 2
"""The version of :meth:`tutepgn.analysis.DealAnalysis.to_dict`'s keys (raised when a key changes meaning or goes)."""
DEFAULT_WORLDS = 20
"""The worlds PIMC deals for each decision made with hidden cards, by default (``--pimc``; here so that the archive
and the service read the library's default without loading the solver)."""
