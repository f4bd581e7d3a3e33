"""What every test starts from: the library speaking English (the messages tests read are the source ones),
whatever the machine's locale; a test of Spanish asks for it (``tutepgn.i18n.speaking``, ``--lang es``)."""

import os

os.environ["TUTEPGN_LANG"] = "en"  # subprocesses (the CLI's tests) inherit it
