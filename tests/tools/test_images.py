"""Read on images: a text-only model gets one line; a model that sees gets the picture after the tool results,
and a provider that refuses it gets the words instead, in the same turn."""

import base64
import io
import os

from PIL import Image

from narnat_agent.tools.registry import execute
from tests.fake_llm import Status, text_reply, tool_reply


def test_a_text_only_model_gets_what_the_image_is_in_one_line(project, workspace):
    Image.new("RGB", (640, 480), "red").save(project / "shot.png")
    result = execute("Read", {"file_path": "shot.png"}, workspace)
    assert not result.is_error and result.picture is None
    assert result.text.startswith("shot.png: PNG image, 640x480 pixels, ") and "cannot see images" in result.text
    assert "\n" not in result.text


def test_a_seeing_model_gets_the_picture_scaled_to_the_cap_after_the_tool_results(harness, project, fake_llm):
    Image.new("RGBA", (3136, 1000), (0, 128, 255, 255)).save(project / "wide.png")
    Image.new("RGB", (40, 30), "green").save(project / "small.jpg")
    h = harness(sees_images=True)
    fake_llm.add(tool_reply(("Read", {"file_path": "wide.png"}), ("Read", {"file_path": "small.jpg"})),
                 text_reply("A blue band and a green square."))  # fmt: skip
    outcome = h.agent.ask("what are these?")
    assert outcome.completed and h.conversation.turns == 1
    sent = fake_llm.requests[1]["messages"]
    assert [m["role"] for m in sent[-3:]] == ["tool", "tool", "user"]
    assert "scaled to 1568x500 to fit the 1568-pixel cap" in sent[-3]["content"]
    parts = sent[-1]["content"]
    assert [p["type"] for p in parts] == ["text", "text", "image_url", "text", "image_url"]
    assert parts[1]["text"] == "wide.png:" and parts[3]["text"] == "small.jpg:"
    urls = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
    assert urls[1].startswith("data:image/jpeg;base64,")
    wide = Image.open(io.BytesIO(base64.b64decode(urls[0].split(",", 1)[1])))
    assert wide.size == (1568, 500) and wide.format == "PNG"


def test_a_provider_that_refuses_images_gets_the_words_and_the_turn_goes_on(harness, project, fake_llm):
    Image.new("RGB", (64, 64), "white").save(project / "icon.png")
    h = harness(sees_images=True)
    refusal = Status(400, {"error": {"message": "image_url is only supported by multimodal models"}})
    fake_llm.add(tool_reply(("Read", {"file_path": "icon.png"})), refusal, text_reply("A white square, 64x64."))
    outcome = h.agent.ask("what is icon.png?")
    assert outcome.completed and outcome.answer == "A white square, 64x64."
    retried = fake_llm.requests[2]["messages"][-1]
    assert isinstance(retried["content"], str) and "icon.png:" in retried["content"]
    assert "refused" in retried["content"] and "image_url" not in str(fake_llm.requests[2]["messages"])
    assert "refused an image" in h.err.getvalue()


def test_pictures_in_the_conversation_count_at_a_fixed_price_not_as_their_base64_text(harness, project, fake_llm):
    from narnat_agent.provider.tokens import IMAGE_TOKENS

    Image.frombytes("RGB", (400, 400), os.urandom(400 * 400 * 3)).save(project / "noise.png")  # PNG cannot shrink it
    h = harness(sees_images=True)
    fake_llm.add(tool_reply(("Read", {"file_path": "noise.png"})), text_reply("Noise."))
    assert h.agent.ask("what is this?").completed
    pictures = [m for m in h.conversation.messages if m["role"] == "user" and not isinstance(m["content"], str)]
    assert len(str(pictures[0]["content"])) > 40 * IMAGE_TOKENS  # far more text than the picture is billed as
    window = h.agent.window()
    assert "images" in window.parts and window.parts["images"] < 2 * IMAGE_TOKENS
    assert not any(label.startswith("question 2") for _, label in window.items)


def test_an_image_that_cannot_be_read_is_named_in_words_not_in_a_python_repr(project, workspace):
    (project / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)
    (project / "notes.gif").write_bytes(b"GIF89a" + b"\x01" * 3)
    Image.new("RGB", (64, 64), "blue").save(project / "cut.jpg")
    (project / "cut.jpg").write_bytes((project / "cut.jpg").read_bytes()[:200])
    for name in ("broken.png", "notes.gif", "cut.jpg"):
        result = execute("Read", {"file_path": name}, workspace)
        assert result.is_error and result.text.startswith(f"Error: {name} is not a readable image ("), result.text
        assert " object at 0x" not in result.text + result.summary and "<" not in result.text, result.text
