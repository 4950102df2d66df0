"""Score sheets at the table: the form on a phone, its checks in the page language, saving
it as a match (into a night), and a written-down round's own page (docs/league.md)."""
