"""Club nights: one evening's sitting with its matches, seating, standings and settle-up,
and the club's home that shows them (docs/league.md, "Nights")."""
