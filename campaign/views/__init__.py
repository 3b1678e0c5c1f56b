"""The campaign pages, split by sub-domain: listing, the campaign page, settings, players, the dashboard, the map."""
