"""Clients for outside services the tools call: TMDB and the `enrich_link` page fetcher."""
