"""The web tools, WebSearch and WebFetch, with the HTTP they share."""
