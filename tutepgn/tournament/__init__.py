"""A club's events and what is reckoned over them: tournaments, leagues, standings and ratings (no database)."""
