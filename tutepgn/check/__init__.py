"""Checking a record: the replay of its events, the validator and its report, the repairs.

* :mod:`.replay` (the one loop that applies a record's events; the frames a viewer shows), :mod:`.boards`
  (pasted records put on the table), :mod:`.moment` (the position string of one moment);
* :mod:`.validate` (:func:`~.validate.validate`: a record to a :class:`~.validate.Report`), :mod:`.fastreplay` (its
  replay in C), :mod:`.report` (the :class:`~.report.Report` and its findings, plain data) and :mod:`.report_model`
  (:class:`~.report_model.ReportModel`, the report's one JSON form, with pydantic), :mod:`.reconstruct`
  (a two-player deal's unknown stock rebuilt), :mod:`.fixes` (wrong Score and Result tags rewritten).
"""
