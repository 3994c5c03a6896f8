"""Images for Read: what a picture is (type, pixel size), and the picture itself, scaled to fit what is sent."""

import base64
import io
from pathlib import Path

from narnat_agent.i18n import _
from narnat_agent.tools.base import Picture, Result, ToolError
from narnat_agent.tools.files.textfile import size_text

SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp"}
MAX_SIDE = 1568  # pixels on the longer side: what vision models look at; larger ones are scaled down to it
KEPT = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp"}
# decoded at up to 4 bytes a pixel: 160 MB at most; a larger image is described, not decoded (a JPEG is decoded
# at a fraction of its size first, which its format allows)
MAX_PIXELS = 40_000_000


def read_image(path: Path, data: bytes, name: str, sees: bool) -> Result:
    """One line saying what the image is; for a model that sees, the picture goes with it."""
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = None  # MAX_PIXELS bounds what is decoded; Pillow's bound would hide a large one's size
    try:
        image = Image.open(io.BytesIO(data))  # the header only: nothing is decoded yet
    except UnidentifiedImageError:
        raise ToolError(f"{name} is not a readable image (its content is not PNG, JPEG, GIF or WebP).") from None
    except OSError as e:
        raise ToolError(f"{name} is not a readable image ({e}).") from None
    kind, size = image.format or path.suffix[1:].upper(), image.size
    what = f"{name}: {kind} image, {size[0]}x{size[1]} pixels, {size_text(len(data))}"
    unseen = _("{kind} image {width}x{height} (not shown to the model)").format(
        kind=kind, width=size[0], height=size[1]
    )
    if not sees:
        return Result(f"{what}. This model cannot see images (sees_images is false in the configuration).", unseen)
    image.draft("RGB", (MAX_SIDE, MAX_SIDE))  # a JPEG decodes at 1/2, 1/4 or 1/8 of its size; others as they are
    if (pixels := image.size[0] * image.size[1]) > MAX_PIXELS:
        large = f"{pixels / 1e6:.0f} megapixels; pictures are made from images of up to {MAX_PIXELS // 10**6}"
        return Result(f"{what}; too large to decode ({large}), so it is not shown.", unseen)
    try:
        picture, scaled = _picture(image, data, name, size)
    except OSError as e:
        raise ToolError(f"{name} is not a readable image ({e}).") from None
    note = f"; scaled to {scaled[0]}x{scaled[1]} to fit the {MAX_SIDE}-pixel cap" if scaled != size else ""
    summary = _("{kind} image {width}x{height}").format(kind=kind, width=size[0], height=size[1])
    return Result(f"{what}{note}. The image follows in the next message.", summary, picture=picture)


def _picture(image, data: bytes, name: str, size: tuple[int, int]) -> tuple[Picture, tuple[int, int]]:
    """The image as sent: as it is when it fits the cap, else scaled down (PNG, or JPEG for photos)."""
    image.load()
    if max(size) <= MAX_SIDE and image.format in KEPT:
        return Picture(name, KEPT[image.format], base64.b64encode(data).decode("ascii")), size
    jpeg = image.format == "JPEG" or image.mode not in ("RGBA", "LA", "P")  # a photo, or nothing transparent
    image.thumbnail((MAX_SIDE, MAX_SIDE))  # in place: the decoded image is not needed after
    out = io.BytesIO()
    image.convert("RGB" if jpeg else "RGBA").save(out, "JPEG" if jpeg else "PNG", quality=85)
    encoded = base64.b64encode(out.getvalue()).decode("ascii")
    return Picture(name, "image/jpeg" if jpeg else "image/png", encoded), image.size
