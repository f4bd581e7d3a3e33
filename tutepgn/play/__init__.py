"""Play against the machine: bots with levels that see only their seat, and a table that seats a person among them.

* :mod:`.view`: :class:`SeatView`, what one seat may see, and the stand-in deal bots think on;
* :mod:`.bots`: the :class:`Bot` protocol, the simple, heuristic and PIMC bots, the levels (``bot``,
  ``level_bot``), and :func:`next_action`, the table's next action among bots;
* :mod:`.table`: :class:`Table`, one deal with a person at a seat (``tute play``; the browser's table later);
* :mod:`.arena`: two bots over duplicate deals, the difference with its 95% interval (``tute arena``).
"""
