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


def huge_png(path, width: int, height: int) -> None:
    """A PNG of width x height black-and-white pixels, written a row at a time: a few KB on disk, gigabytes decoded."""
    import struct
    import zlib

    def block(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer, row = zlib.compressobj(9), b"\0" * (1 + (width + 7) // 8)
    pixels = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)  # 1 bit a pixel, greyscale
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + block(b"IHDR", header) + block(b"IDAT", pixels) + block(b"IEND", b""))


def test_a_huge_image_is_described_in_one_line_and_not_decoded(project, workspace):
    huge_png(project / "plan.png", 12_000, 12_000)
    workspace.sees_images = True
    result = execute("Read", {"file_path": "plan.png"}, workspace)
    assert not result.is_error and result.picture is None and "\n" not in result.text
    assert result.text.startswith("plan.png: PNG image, 12000x12000 pixels, ")
    assert "too large to decode (144 megapixels; pictures are made from images of up to 40)" in result.text


def test_an_image_past_pillows_own_limit_is_still_named_with_its_size(project, workspace):
    huge_png(project / "scan.png", 20_000, 10_000)  # 200 megapixels: Pillow alone refuses to open it
    result = execute("Read", {"file_path": "scan.png"}, workspace)
    assert not result.is_error and result.text.startswith("scan.png: PNG image, 20000x10000 pixels, ")


def test_a_large_jpeg_is_decoded_at_a_fraction_of_its_size_and_shown(project, workspace):
    Image.new("L", (8000, 6000), 200).save(project / "photo.jpg", quality=50)  # 48 megapixels
    workspace.sees_images = True
    result = execute("Read", {"file_path": "photo.jpg"}, workspace)
    assert not result.is_error and result.picture is not None
    assert "8000x6000 pixels" in result.text and "scaled to 1568x1176" in result.text


def test_a_file_that_is_no_image_is_said_without_python_internals(project, workspace):
    (project / "fake.png").write_bytes(b"not a picture at all")
    result = execute("Read", {"file_path": "fake.png"}, workspace)
    assert result.is_error and "fake.png is not a readable image" in result.text and "object at 0x" not in result.text


def picture_of(result) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(result.picture.base64)))


def test_a_small_image_is_described_in_the_result_and_its_summary(project):
    from narnat_agent.tools.files.textfile import size_text
    from narnat_agent.tools.read.images import read_image

    Image.new("RGB", (40, 30), "red").save(project / "dot.png")
    data = (project / "dot.png").read_bytes()
    unseen = read_image(project / "dot.png", data, "dot.png", sees=False)
    assert unseen.summary == "PNG image 40x30 (not shown to the model)" and unseen.picture is None
    seen = read_image(project / "dot.png", data, "dot.png", sees=True)
    said = f"dot.png: PNG image, 40x30 pixels, {size_text(len(data))}. The image follows in the next message."
    assert seen.text == said
    assert seen.summary == "PNG image 40x30" and seen.picture is not None and seen.picture.mime == "image/png"
    assert base64.b64decode(seen.picture.base64) == data  # sent as it is: it fits the cap


def test_an_image_of_exactly_the_cap_is_sent_as_it_is(project):
    from narnat_agent.tools.read.images import MAX_SIDE, read_image

    Image.new("RGB", (MAX_SIDE, 10), "red").save(project / "band.png")
    data = (project / "band.png").read_bytes()
    result = read_image(project / "band.png", data, "band.png", sees=True)
    assert base64.b64decode(result.picture.base64) == data and "scaled" not in result.text


def test_a_scaled_image_is_a_jpeg_unless_it_may_be_transparent(project):
    from narnat_agent.tools.read.images import read_image

    Image.frombytes("RGB", (2000, 100), os.urandom(2000 * 100 * 3)).save(project / "photo.png")
    shapes = {"alpha.png": Image.new("RGBA", (2000, 100), (0, 0, 255, 128)),
              "grey.png": Image.new("LA", (2000, 100), (90, 128)),
              "palette.png": Image.new("P", (2000, 100), 3),
              "small.bmp": Image.new("RGB", (30, 20), "blue")}  # fmt: skip
    for name, image in shapes.items():
        image.save(project / name)
    photo = read_image(project / "photo.png", (project / "photo.png").read_bytes(), "photo.png", sees=True)
    assert photo.picture.mime == "image/jpeg" and picture_of(photo).format == "JPEG"
    expected = Image.open(project / "photo.png")
    expected.thumbnail((1568, 1568))
    out = io.BytesIO()
    expected.convert("RGB").save(out, "JPEG", quality=85)  # a photo is sent at quality 85: sharp, a fraction of a PNG
    assert base64.b64decode(photo.picture.base64) == out.getvalue()
    for name in ("alpha.png", "grey.png", "palette.png"):
        result = read_image(project / name, (project / name).read_bytes(), name, sees=True)
        assert result.picture.mime == "image/png", name
        assert picture_of(result).format == "PNG" and picture_of(result).mode == "RGBA", name
        assert "scaled to 1568x78 to fit the 1568-pixel cap" in result.text, name
    bmp = read_image(project / "small.bmp", (project / "small.bmp").read_bytes(), "small.bmp", sees=True)
    assert bmp.picture.mime == "image/jpeg" and picture_of(bmp).size == (30, 20)  # BMP is no format a model takes
    assert bmp.summary == "BMP image 30x20" and "scaled" not in bmp.text


def test_a_large_image_says_its_megapixels_rounded_and_at_the_limit_is_still_decoded(project, workspace):
    huge_png(project / "long.png", 5693, 7114)  # 40,500,002 pixels: 40.5 megapixels, said as 41
    huge_png(project / "limit.png", 8000, 5000)  # 40 megapixels exactly: at the limit, decoded
    workspace.sees_images = True
    long = execute("Read", {"file_path": "long.png"}, workspace)
    assert "too large to decode (41 megapixels; pictures are made from images of up to 40)" in long.text
    limit = execute("Read", {"file_path": "limit.png"}, workspace)
    assert limit.picture is not None and "scaled to 1568x980" in limit.text


def test_an_image_cut_after_its_header_is_an_error_that_says_why(project):
    from narnat_agent.tools.base import ToolError
    from narnat_agent.tools.read.images import read_image

    Image.frombytes("RGB", (64, 64), os.urandom(64 * 64 * 3)).save(project / "cut.png")
    data = (project / "cut.png").read_bytes()[:2000]
    try:
        read_image(project / "cut.png", data, "cut.png", sees=True)
    except ToolError as e:
        assert str(e).startswith("cut.png is not a readable image (") and str(e).endswith(").")
    else:
        raise AssertionError("a cut image was read")


def test_an_image_is_named_by_its_content_not_its_suffix(project, workspace):
    Image.new("RGB", (20, 10), "red").save(project / "shot.jpg", "PNG")
    result = execute("Read", {"file_path": "shot.jpg"}, workspace)
    assert result.text.startswith("shot.jpg: PNG image, 20x10 pixels, ") and result.summary.startswith("PNG image")
