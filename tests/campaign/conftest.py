"""The campaign fixtures live in tests/conftest.py, shared with the battles tests."""
