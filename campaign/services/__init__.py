"""Writes for campaigns: each use case one function, checked, logged and done in one transaction."""
