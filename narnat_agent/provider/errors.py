"""What a provider's refusal means: the errors a request ends in, and which of them are worth sending again."""

import json
import math
import re
from collections.abc import Callable, Mapping

from narnat_agent.i18n import _, in_english
from narnat_agent.keyguard import redact

MAX_RETRY_AFTER = 60.0
RETRYABLE = (408, 409, 429)
CONTEXT_FULL = re.compile(
    r"context.length|maximum context|context window|context size|exceed_context|token limit|"
    r"range of input length|prompt 超长|too many tokens|prompt is too long|\b1261\b",
    re.IGNORECASE,
)
IMAGES = re.compile(r"image|vision|multimodal|multi-modal|content.*(string|str\b)|unknown variant", re.IGNORECASE)
NAMES_MODEL = re.compile(r"\bmodel", re.IGNORECASE)  # "Model Not Exist", "model_not_found", "The model `x` does not…"
NO_QUOTA = re.compile(r"insufficient.quota|balance|\b1113\b|billing|credit", re.IGNORECASE)


class LLMError(Exception):
    """The provider failed in a way retrying does not fix; the text is one sentence for the user."""


class ContextTooLong(LLMError):
    """The provider says the conversation no longer fits its context window."""


class ModelRefused(LLMError):
    """The provider does not serve the request's model: it does not know it, or not for this key."""


class Retry(Exception):
    """A failure worth sending the request again for, after `wait` seconds when the provider named them: `say`
    gives it in the interface's language, and in English for the log."""

    def __init__(self, say: Callable[[], str], wait: float | None = None):
        super().__init__(say())
        self.wait = wait
        self.english = in_english(say)


def provider_words(error: Exception, key: str) -> str:
    """The provider's words about an error; a provider that echoes the key does not get it shown."""
    body = getattr(error, "body", None)
    if isinstance(body, dict):
        text = body.get("message") or body.get("error") or body
        words = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)
    else:
        words = str(getattr(error, "message", "") or error)
    return redact(words, key)


def retry_after(headers: Mapping[str, str] | None) -> float | None:
    """The wait the provider asks for, in seconds; a value that is no time to wait (NaN, negative, infinite) is
    skipped as unreadable, so the own backoff applies and nothing raises in the sleep."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name) if headers else None
        try:
            wait = float(value or "") * scale
        except ValueError:
            continue
        if math.isfinite(wait) and wait >= 0:
            return wait
    return None


def refusal(status: int, message: str, headers: Mapping[str, str] | None, model: str, base_url: str) -> Exception:
    """What a status error that no dropped request field cures means: an LLMError to stop on, or a Retry."""
    if status == 400 and CONTEXT_FULL.search(message):
        return ContextTooLong(
            _("The conversation no longer fits the model's context window ({message}).").format(message=message)
        )
    if status == 429 and NO_QUOTA.search(message):
        return LLMError(_("The provider says the account is out of quota (429): {message}").format(message=message))
    if status in RETRYABLE or status >= 500:
        wait = retry_after(headers)
        if wait is not None and wait > MAX_RETRY_AFTER:
            busy = _("The provider is busy (status {status}) and asks to wait {wait:.0f}s; try later.")
            return LLMError(busy.format(status=status, wait=wait))
        return Retry(lambda: _("The provider answered status {status} ({message})").format(
            status=status, message=message[:200]), wait)  # fmt: skip
    refused = _refused(status, message, model, base_url)
    if status == 404 or status in (400, 403, 422) and NAMES_MODEL.search(message):
        return ModelRefused(refused)
    return LLMError(refused)


def _refused(status: int, message: str, model: str, base_url: str) -> str:
    """What a refusal that retrying does not cure says; the provider's own words stay as it wrote them."""
    if status == 401:
        return _("The provider rejected the API key (401): check api_key in .narnat/narnat.json or NARNAT_API_KEY.")
    if status == 402:
        return _("The provider says the account has no balance (402): {message}").format(message=message)
    if status == 403:
        return _("The provider refused access (403): {message}").format(message=message)
    if status == 404:
        return _("Not found (404): check the model '{model}' and base_url {base_url}.").format(
            model=model, base_url=base_url
        )
    return _("The provider rejected the request ({status}): {message}").format(status=status, message=message)
