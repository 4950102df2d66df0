"""Club books: seasons and standings, the ledger and settle-ups, ratings, corrections and
score sheets, with their API and pages (docs/league.md)."""
