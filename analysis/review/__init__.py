"""The match review report (docs/review.md): each seat's summary over the match and per
round, the match's worst decisions first, and a player's matches sorted by 进张 lost."""
