"""A provider that stalls: the silence is said as it lasts, and a stream idle too long is retried or cut off."""

import json
import re
import time

import pytest

from narnat_agent.provider.silence import Silence
from tests.conftest import assert_failed
from tests.fake_llm import SSE, Unanswered, chunk, text_reply, usage
from tests.run.test_cli import narnat
from tests.run.test_headless import settings


class Clock:
    """The time the watcher reads, moved by the test; the watcher itself still wakes on its own."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reads = 0  # each of the watcher's rounds reads it once, first

    def __call__(self) -> float:
        self.reads += 1
        return self.now


def _until(done, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the watcher did not notice in time"
        time.sleep(0.01)


def test_silence_is_said_every_period_and_counted_afresh_after_a_byte():
    said: list[str] = []
    clock = Clock()
    with Silence(said.append, every=0.5, clock=clock) as silence:
        for now, count in ((0.5, 1), (1.0, 2)):
            clock.now = now
            _until(lambda count=count: len(said) == count)
        silence.heard()
        clock.now = 1.5
        _until(lambda: len(said) == 3)
    seconds = [float(re.fullmatch(r"waiting for the provider \(([\d.]+) s\)…", text)[1]) for text in said]
    assert seconds == [0.5, 1.0, 0.5]


def test_silence_is_said_in_whole_periods_and_only_once_one_has_passed():
    said: list[str] = []
    clock = Clock()
    with Silence(said.append, every=0.5, clock=clock):
        clock.now = 0.3  # more than half a period: not a period yet
        rounds = clock.reads
        _until(lambda: clock.reads >= rounds + 2)
        assert said == []
        clock.now = 0.7
        _until(lambda: bool(said))
    assert said == ["waiting for the provider (0.5 s)…"]


def test_a_stretch_of_silence_after_progress_is_said_once_per_period_too():
    said: list[str] = []
    clock = Clock()
    with Silence(said.append, every=0.5, clock=clock) as silence:
        clock.now = 0.25
        silence.heard()
        clock.now = 0.75
        _until(lambda: said == ["waiting for the provider (0.5 s)…"])
        rounds = clock.reads
        _until(lambda: clock.reads >= rounds + 3)  # more rounds at the same moment: nothing new to say
        assert said == ["waiting for the provider (0.5 s)…"]


def test_a_limit_is_seen_within_a_quarter_second_whatever_the_notices_period():
    clock, aborted = Clock(), []
    with Silence(lambda said: None, idle=1.0, clock=clock) as silence:  # a notice every 15 s
        silence.abort = lambda: aborted.append(True)
        clock.now = 2.0
        _until(lambda: bool(aborted), seconds=2.0)  # not the 3.75 s of a quarter of the notices' period
    assert silence.expired == "idle"


def test_the_idle_limit_counts_from_the_last_progress_and_the_overall_one_from_the_start():
    said: list[str] = []
    clock, aborted = Clock(), []
    with Silence(said.append, every=0.5, idle=3, overall=10, clock=clock) as silence:
        silence.abort = lambda: aborted.append(clock.now)
        for now in (2.0, 4.0, 6.0, 8.0):  # progress every 2 s: the idle limit never passes
            clock.now = now
            _until(lambda: said[-1:] == ["waiting for the provider (2 s)…"])
            silence.heard()
            said.clear()
        clock.now = 10.5  # 2.5 s since the last progress, 10.5 since the start
        _until(lambda: bool(aborted))
    assert aborted == [10.5] and silence.expired == "overall"
    with Silence(said.append, every=0.5, idle=3, overall=10, clock=clock) as silence:
        silence.abort = lambda: aborted.append(clock.now)
        clock.now = 13.0  # 2.5 s since it started
        _until(lambda: said[-1:] == ["waiting for the provider (2.5 s)…"])
        clock.now = 13.6
        _until(lambda: len(aborted) == 2)
    assert aborted[1] == 13.6 and silence.expired == "idle"


@pytest.mark.parametrize("limit", ["idle", "overall"])
def test_a_limit_passes_only_once_the_time_is_past_it_and_each_notice_is_said_once(limit):
    said: list[str] = []
    clock, aborted = Clock(), []
    with Silence(said.append, every=0.5, clock=clock, **{limit: 1.0}) as silence:
        silence.abort = lambda: aborted.append(len(said))
        clock.now = 1.0  # exactly the limit: not past it
        _until(lambda: said == ["waiting for the provider (1 s)…"])
        rounds = clock.reads
        _until(lambda: clock.reads >= rounds + 2)  # a whole round more at the same moment: nothing new to say
        assert said == ["waiting for the provider (1 s)…"]
        clock.now = 1.5
        _until(lambda: bool(aborted))
    assert said == ["waiting for the provider (1 s)…", "waiting for the provider (1.5 s)…"] and aborted == [2]
    assert silence.expired == limit and silence._thread is not None and not silence._thread.is_alive()


def test_when_both_limits_pass_at_once_the_overall_one_is_named():
    clock, aborted = Clock(), []
    with Silence(lambda said: None, every=0.5, idle=1.0, overall=1.0, clock=clock) as silence:
        silence.abort = lambda: aborted.append(True)
        clock.now = 2.0
        _until(lambda: bool(aborted))
    assert silence.expired == "overall"


def test_a_limit_passed_before_there_is_a_stream_ends_nothing_and_the_notices_go_on():
    said: list[str] = []
    clock = Clock()
    with Silence(said.append, every=0.5, idle=1.0, clock=clock) as silence:
        clock.now = 2.0
        _until(lambda: said == ["waiting for the provider (2 s)…"])
        clock.now = 2.5
        _until(lambda: len(said) == 2)
    assert silence.expired == "" and said[1] == "waiting for the provider (2.5 s)…"
    assert silence._thread is not None and not silence._thread.is_alive()  # the watch ends with the request


@pytest.mark.slow
def test_a_provider_silent_before_answering_is_left_and_asked_again(project, fake_llm):
    settings(project, stream_idle_timeout_s=1)
    silent = SSE(
        [chunk({"role": "assistant", "content": ""}), chunk({"content": "late"}), chunk(finish="stop")], delay=5
    )
    fake_llm.add(silent, text_reply("Here it is."))
    done = narnat(project, "-p", "hi", base_url=fake_llm.base_url)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Here it is.\n" and len(fake_llm.requests) == 2
    assert "The provider sent nothing for 1 s (stream_idle_timeout_s); retrying in" in done.stderr


@pytest.mark.slow
def test_a_provider_silent_mid_answer_cuts_the_answer_off(harness, fake_llm):
    h = harness(stream_idle_timeout_s=1)
    fake_llm.add(SSE([chunk({"role": "assistant", "content": "The first half"}), chunk({"content": " and more"}),
                      chunk(finish="stop"), usage()], delay=5))  # fmt: skip
    outcome = h.agent.ask("hi")
    assert_failed(outcome, "cut off")
    assert "sent nothing for 1 s (stream_idle_timeout_s); the answer stops there." in h.err.getvalue()
    assert len(fake_llm.requests) == 1 and h.conversation.messages[-1]["content"] == "The first half"


@pytest.mark.slow
def test_keep_alives_alone_do_not_keep_a_request_open(harness, fake_llm):
    """A proxy's keep-alive comments are bytes, not progress: the request is dropped and asked again."""
    h = harness(stream_idle_timeout_s=1)
    fake_llm.add(SSE([chunk({"role": "assistant", "content": ""})], trickle=": keep-alive\n\n", delay=0.2),
                 text_reply("Here it is."))  # fmt: skip
    outcome = h.agent.ask("hi")
    assert outcome.answer == "Here it is." and len(fake_llm.requests) == 2
    assert "The provider sent only keep-alives for 1 s (stream_idle_timeout_s); retrying in" in h.err.getvalue()


@pytest.mark.slow
def test_a_data_line_that_trickles_in_and_never_ends_is_no_progress_either(harness, fake_llm):
    h = harness(stream_idle_timeout_s=1)
    fake_llm.add(SSE([chunk({"role": "assistant", "content": "The first half"})], trickle='data: {"id', delay=0.2))
    outcome = h.agent.ask("hi")
    assert_failed(outcome, "cut off")
    assert "sent only keep-alives for 1 s (stream_idle_timeout_s); the answer stops there." in h.err.getvalue()
    assert h.conversation.messages[-1]["content"] == "The first half"


@pytest.mark.slow
def test_a_request_that_keeps_streaming_past_the_overall_limit_is_ended(harness, fake_llm):
    h = harness(stream_idle_timeout_s=5, request_timeout_s=1)
    more = f"data: {json.dumps(chunk({'content': 'more '}))}\n\n"
    fake_llm.add(SSE([chunk({"role": "assistant", "content": "word "})], trickle=more, delay=0.1))
    outcome = h.agent.ask("hi")
    assert_failed(outcome, "cut off")
    assert "The request ran longer than 1 s (request_timeout_s); the answer stops there." in h.err.getvalue()
    assert h.conversation.messages[-1]["content"].startswith("word more more")


@pytest.mark.slow
def test_a_provider_that_accepts_and_never_answers_is_said_so(harness, fake_llm):
    h = harness(stream_idle_timeout_s=1)
    fake_llm.add(Unanswered(), Unanswered(), Unanswered(), Unanswered())
    outcome = h.agent.ask("hi")
    assert_failed(outcome, r"accepted the connection and sent nothing for 1 s \(stream_idle_timeout_s\)")
    assert "Request timed out" not in outcome.message
