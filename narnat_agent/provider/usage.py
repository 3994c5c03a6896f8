"""The provider's token counts, checked: counts that cannot be right give way to Narnat's own estimate.

A gateway may report no usage, more cached tokens than prompt tokens, negative numbers, or a prompt far smaller
than what was sent; believed, such counts switch max_cost and max_tokens_sent off and make costs negative.
"""

from narnat_agent.i18n import _
from narnat_agent.provider.reply import Usage
from narnat_agent.provider.tokens import CHARS_PER_TOKEN

FAR_BELOW = 4  # a prompt counted below a quarter of its text's floor: no tokenizer packs 16 characters a token


def text_floor(messages: list[dict]) -> int:
    """The fewest tokens any provider counts for these messages: their text and call arguments at CHARS_PER_TOKEN
    (a low count), leaving out images and reasoning, which providers bill each their own way. Quick: no JSON."""
    chars = 0
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            chars += len(content)
        elif isinstance(content, list):
            chars += sum(len(part.get("text") or "") for part in content if isinstance(part, dict))
        chars += sum(len(call.get("function", {}).get("arguments") or "") for call in message.get("tool_calls") or [])
    return chars // CHARS_PER_TOKEN


def doubt(usage: Usage, floor: int, local: bool) -> str | None:
    """Why the provider's counts cannot be right, or None. A server people run themselves counts only the prompt
    it did not have cached, so a small prompt is no sign there."""
    if min(usage.prompt, usage.completion, usage.cached) < 0:
        return _("negative token counts")
    if usage.cached > usage.prompt:
        said = _("{cached:,} cached tokens of {prompt:,} prompt tokens")
        return said.format(cached=usage.cached, prompt=usage.prompt)
    if not local and usage.prompt * FAR_BELOW < floor:
        said = _("{prompt:,} prompt tokens for a request of at least {floor:,}")
        return said.format(prompt=usage.prompt, floor=floor)
    return None
