"""What /context and /model print, in process: the headline's figures, each part's share and the largest items; the
models listed (the REPL's own runs of both are in test_conversation.py)."""

from narnat_agent.commands import conversation
from narnat_agent.commands.dispatch import dispatch
from narnat_agent.conversation.window import Window
from tests.fake_llm import text_reply


def test_the_headline_says_what_was_sent_the_size_and_what_is_left():
    assert conversation._headline(Window(128_000, sent=6100)) == "ctx 6.1k/128k · 121.9k left"
    assert conversation._headline(Window(8000, sent=9000)) == "ctx 9k/8k · 0 left"


def test_an_estimate_is_marked_and_what_was_added_since_the_request_counts_against_what_is_left():
    assert conversation._headline(Window(128_000, sent=6100, estimated=True)) == "ctx ~6.1k/128k · ~121.9k left"
    assert conversation._headline(Window(128_000, sent=6100, since=1500)) == (
        "ctx 6.1k/128k · ~1.5k added since · 120.4k left"
    )


def test_each_part_has_its_share_the_tool_results_last_and_largest_first():
    parts = {"system prompt": 2000, "tool results: Bash": 1000, "questions": 500, "tool results: Read": 1500}
    assert conversation._parts(Window(128_000, parts=parts)) == [
        "  system prompt                     2k   40%",
        "  questions                        500   10%",
        "  tool results: Read              1.5k   30%",
        "  tool results: Bash                1k   20%",
    ]


def test_parts_of_nothing_are_none_of_it_and_one_token_is_all_of_one():
    nothing = Window(100, parts={"system prompt": 0})
    assert conversation._parts(nothing) == ["  system prompt                      0    0%"]
    one = Window(100, parts={"system prompt": 1})
    assert conversation._parts(one) == ["  system prompt                      1  100%"]


def test_the_five_largest_items_are_named_largest_first():
    items = [(10, "a"), (3000, "question 1: hi"), (40, "b"), (1200, "result of Read(x)"), (7, "c"), (40, "d")]
    assert conversation._largest(Window(100, items=items)) == [
        "       3k  question 1: hi",
        "     1.2k  result of Read(x)",
        "       40  d",
        "       40  b",
        "       10  a",
    ]


def test_context_in_a_conversation_prints_them_together(harness, fake_llm):
    h = harness()
    fake_llm.add(text_reply("hello"))
    h.agent.ask("hi there")
    h.out.truncate(0)
    h.out.seek(0)
    assert dispatch(h.agent, "/context") is True
    lines = h.out.getvalue().splitlines()
    assert lines[0].startswith("ctx ") and lines[0].endswith(" left")
    assert [line.split()[0] for line in lines[1:5]] == ["system", "tool", "questions", "answers"]
    assert lines[5] == "Largest items" and len(lines) == 8
    assert lines[6].endswith("  answer: hello") and lines[7].endswith("  question 1: hi there")


def test_model_lists_the_servers_models_and_a_current_one_it_does_not_list_below_them(harness, fake_llm):
    h = harness()
    fake_llm.models = ["glm-4.6", "kimi-k2"]
    dispatch(h.agent, "/model")
    assert h.out.getvalue() == "  glm-4.6\n  kimi-k2\n● fake-model (not in the list)\n"
    h.out.truncate(0)
    h.out.seek(0)
    fake_llm.models = ["fake-model", "glm-4.6"]
    dispatch(h.agent, "/model")
    assert h.out.getvalue() == "● fake-model\n  glm-4.6\n"
