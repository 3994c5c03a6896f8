"""Rough token counts where the provider has not counted: about four characters a token, an image a fixed amount
(its base64 text says nothing of what a provider bills for it)."""

import json

CHARS_PER_TOKEN = 4  # a low count for code and CJK text, so no warning or stop is caused by the estimate alone
IMAGE_TOKENS = 1_600  # the most a provider bills for one picture of Read's largest size (1568 pixels)


def estimate(item: object) -> int:
    """Tokens of a text, or of messages and schemas (JSON-like), each image counted at IMAGE_TOKENS."""
    if isinstance(item, str):
        return len(item) // CHARS_PER_TOKEN
    images: list[None] = []
    text = json.dumps(_without_images(item, images), ensure_ascii=False)
    return len(text) // CHARS_PER_TOKEN + len(images) * IMAGE_TOKENS


def _without_images(value: object, images: list[None]) -> object:
    if isinstance(value, dict):
        if value.get("type") == "image_url":
            images.append(None)
            return None
        return {key: _without_images(item, images) for key, item in value.items()}
    if isinstance(value, list):
        return [_without_images(item, images) for item in value]
    return value
