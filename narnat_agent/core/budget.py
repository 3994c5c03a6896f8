"""A run's spending limit: max_cost (priced by `pricing`) or max_tokens_sent, checked before every request."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from narnat_agent.core.turn import Stop, TurnStopped
from narnat_agent.i18n import N_, _, sentences
from narnat_agent.provider.pricing import cost
from narnat_agent.provider.reply import Usage

GO_ON = N_("A new message allows as much again (headless: narnat -c -p MESSAGE, with a larger --max-cost if need be).")


@dataclass
class Budget:
    """What this run has spent since it started, or since the user went on past the limit."""

    max_cost: float | None
    max_tokens_sent: int | None
    pricing: Mapping[str, float]
    spent: float = 0.0
    sent: int = 0
    reached: bool = False

    @property
    def limited(self) -> bool:
        return self.max_cost is not None or self.max_tokens_sent is not None

    def check(self, prompt: int) -> None:
        """Stop the turn when a request carrying about `prompt` tokens would go over; its input priced in full."""
        if self.max_cost is not None:
            price = cost(Usage(prompt), self.pricing) or 0.0
            if self.spent + price > self.max_cost:
                self._stop(lambda: _("Stopped before the next request: about {price:.4f} would take this run's cost "
                                     "over max_cost {limit:g} (spent {spent:.4f}).")
                           .format(price=price, limit=self.max_cost, spent=self.spent))  # fmt: skip
        if self.max_tokens_sent is not None and self.sent + prompt > self.max_tokens_sent:
            self._stop(lambda: _("Stopped before the next request: about {prompt:,} tokens would take this run over "
                                 "max_tokens_sent {limit:,} (sent {sent:,}).")
                       .format(prompt=prompt, limit=self.max_tokens_sent, sent=self.sent))  # fmt: skip

    def _stop(self, why: Callable[[], str]) -> None:
        self.reached = True
        raise TurnStopped(Stop.BUDGET, lambda: sentences(why(), _(GO_ON)))

    def spend(self, usage: Usage | None, price: float | None) -> None:
        if usage is not None:
            self.sent += usage.prompt
        self.spent += price or 0.0

    def renew(self) -> None:
        """The user goes on after the limit stopped a turn: the budget counts again from here."""
        if self.reached:
            self.spent, self.sent, self.reached = 0.0, 0, False
