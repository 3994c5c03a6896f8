"""What a headless run reports in words and figures: how to go on, and how many requests it sent."""

import json

import pytest

from tests.fake_llm import Status, text_reply, tool_reply
from tests.run.test_cli import narnat


@pytest.mark.slow
def test_the_step_limit_says_how_to_go_on_in_headless_words(project, fake_llm):
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})), text_reply("never"))
    done = narnat(project, "-p", "go", "--max-steps", "1", "--output-format", "json", base_url=fake_llm.base_url)
    result = json.loads(done.stdout)
    assert done.returncode == 3 and result["stop"] == "step_limit"
    assert result["message"] == (
        f"Stopped after 1 tool step (max_steps). `narnat --resume {result['session']} -p continue` goes on."
    )
    assert "Say 'continue'" not in done.stderr


@pytest.mark.slow
def test_a_provider_failure_counts_every_request_sent(project, fake_llm):
    busy = Status(503, {"error": {"message": "overloaded"}}, {"retry-after-ms": "0"})
    fake_llm.add(busy, busy, busy, busy)
    done = narnat(project, "-p", "go", "--output-format", "json", base_url=fake_llm.base_url)
    result = json.loads(done.stdout)
    assert done.returncode == 1 and result["stop"] == "provider_error"
    assert result["requests"] == len(fake_llm.requests) == 4
