"""Bulk upload: a night's matches in one request, one document per line (docs/apps.md)."""
