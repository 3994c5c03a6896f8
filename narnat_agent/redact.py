"""The API key's value is replaced by a marker wherever it would reach the model, the screen or the log."""

MIN_KEY = 8  # shorter strings are words ("local" is in "localhost", "ollama" is a placeholder): left alone
MARK = "[API key]"


def can_be_key(secret: str) -> bool:
    return len(secret) >= MIN_KEY


def redact(text: str, secret: str, mark: str = MARK) -> str:
    """text with every occurrence of secret replaced by mark."""
    return text.replace(secret, mark) if can_be_key(secret) and secret in text else text
