"""Allow ``python -m tutepgn.cli``."""

from tutepgn.cli.main import main

main()
