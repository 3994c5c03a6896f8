"""Whether the prompt fits the context the server gives the model; said once, with the fix, when it does not.

Servers that people run themselves cut a prompt that is too long without an error (Ollama keeps what fits), and the
model then forgets its instructions and tools. Two signs: the prompt is larger than the context the server said it
gives, or the server counted far fewer prompt tokens than were sent.
"""

from collections.abc import Callable

from narnat_agent.i18n import _
from narnat_agent.logger import get_logger
from narnat_agent.provider.endpoint import Server
from narnat_agent.provider.reply import Usage

COUNTED_SHARE = 0.75  # fewer counted tokens than this share of those sent: the prompt was cut
MIN_MISSING = 1000  # tokens; smaller gaps are the estimate's own error
log = get_logger("core.fit")


class Fit:
    def __init__(self, notify: Callable[[str], None], model: str, server: Server | None = None):
        self.notify, self.model, self.server = notify, model, server
        self.said = False

    def before(self, sent: int) -> None:
        """Say so when the request (`sent`: its tokens, roughly) is larger than the context the server gives the
        model."""
        server = self.server
        if self.said or server is None or server.context is None:
            return
        if sent > server.context:
            problem = _(
                "This request is about {sent:,} tokens, but {server} runs {model} with a {context:,}-token "
                "context and cuts the rest without an error"
            )
            self._say(server, problem.format(sent=sent, server=server.name, model=self.model, context=server.context))

    def after(self, sent: int, usage: Usage | None) -> None:
        """Say so when a server people run themselves counted far fewer prompt tokens than were sent (cloud
        providers refuse a prompt that is too long, with an error)."""
        server = self.server
        if self.said or server is None or usage is None or usage.estimated:
            return
        counted = usage.prompt + usage.cached
        if counted < COUNTED_SHARE * sent and sent - counted >= MIN_MISSING:
            problem = _(
                "{server} counted {counted:,} prompt tokens but about {sent:,} were sent: it cut the prompt to "
                "fit a smaller context"
            )
            self._say(server, problem.format(server=server.name, counted=counted, sent=sent))

    def _say(self, server: Server, problem: str) -> None:
        self.said = True
        log.warning("prompt does not fit: %s", problem)
        advice = _(
            "{problem}; the model loses part of its instructions, tools or conversation. To fix: {fix}, then "
            "set context_window in .narnat/narnat.json to match."
        )
        self.notify(advice.format(problem=problem, fix=server.fix))
