"""The price of a request from the provider's usage and the configured pricing (per million tokens)."""

from collections.abc import Mapping

from narnat_agent.provider.reply import Usage


def cost(usage: Usage | None, pricing: Mapping[str, float]) -> float | None:
    """The price of one request in the pricing's currency, or None without pricing."""
    if not pricing or usage is None:
        return None
    fresh = max(usage.prompt - usage.cached, 0)  # checked counts never differ so, but a price is never negative
    cached_price = pricing.get("cached_input", pricing.get("input", 0))
    total = fresh * pricing.get("input", 0) + usage.cached * cached_price + usage.completion * pricing.get("output", 0)
    return total / 1_000_000
