"""The campaign's REST API, split by sub-domain: campaigns, players, the map and the log.

URLs in ``campaign.api_urls``; shapes in ``campaign.api.serializers`` (the map's
in ``campaign.api.map``); the order of the permission checks in ``campaign.api.common``.
"""
