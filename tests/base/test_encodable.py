"""Text that always encodes as UTF-8: each lone surrogate shown as its backslash escape, nothing else changed."""

import pytest

from narnat_agent.encodable import encodable, encodable_data


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (b"caf\xe9.py".decode("utf-8", "surrogateescape"), "caf\\xe9.py"),  # a POSIX name's byte, not UTF-8
        ("\udc80 \udcff", "\\x80 \\xff"),  # the first and last bytes a surrogate escape holds
        ("\udc7f", "\\udc7f"),  # below them: no byte of a name (ASCII is never escaped)
        ("\udd00", "\\udd00"),
        ("\ud800x\udfff", "\\ud800x\\udfff"),  # a JSON "\ud800": the surrogates' first and last
        ("a\ud83dz", "a\\ud83dz"),  # half an emoji
    ],
)
def test_each_lone_surrogate_is_shown_as_its_escape(text, shown):
    assert encodable(text) == shown
    shown.encode("utf-8")


@pytest.mark.parametrize("text", ["", "plain", "café ✓ 你好 😀", "\ud7ff\ue000", "\\x80 as typed"])
def test_text_without_surrogates_is_unchanged(text):
    assert encodable(text) is text


def test_every_string_of_a_json_value_is_made_encodable_and_the_rest_kept():
    value = {
        "k\udce9": ["v\udce9", {"deep": "\ud800"}, 1, 2.5, True, None],
        "same": "text",
        "n": 0,
    }
    assert encodable_data(value) == {
        "k\\xe9": ["v\\xe9", {"deep": "\\ud800"}, 1, 2.5, True, None],
        "same": "text",
        "n": 0,
    }
    assert encodable_data("\udce9") == "\\xe9"
    assert encodable_data(None) is None
