"""A club's data, out: every match as ndjson (the document verbatim with its verdict,
totals and settlement), and one match's document byte for byte (docs/apps.md)."""
