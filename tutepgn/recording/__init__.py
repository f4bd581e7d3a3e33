"""Records made as a deal is played: at a real table, on the service, or by bots.

* :mod:`.sighted` (the engine's rules on what the table saw), :mod:`.recorder` (one deal entered line by line),
  :mod:`.session` (the file: a deal or a match), :mod:`.live` (recordings on the service, journalled);
* :mod:`.simulate`: deals and matches played by bots, written as records.
"""
