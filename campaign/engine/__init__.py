"""The campaign's pure engines: plain Python, no Django."""
