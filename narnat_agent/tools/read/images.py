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


def read_image(path: Path, data: bytes, name: str, sees: bool) -> Result:
    """One line saying what the image is; for a model that sees, the picture goes with it."""
    from PIL import Image, UnidentifiedImageError

    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except UnidentifiedImageError:  # Pillow's own words name the buffer it read by its Python repr
        raise ToolError(f"{name} is not a readable image (its content is no image format Pillow knows).") from None
    except (OSError, Image.DecompressionBombError) as e:
        raise ToolError(f"{name} is not a readable image ({e}).") from None
    kind, (width, height) = image.format or path.suffix[1:].upper(), image.size
    what = f"{name}: {kind} image, {width}x{height} pixels, {size_text(len(data))}"
    if not sees:
        text = f"{what}. This model cannot see images (sees_images is false in the configuration)."
        return Result(
            text,
            _("{kind} image {width}x{height} (not shown to the model)").format(kind=kind, width=width, height=height),
        )
    picture, scaled = _picture(image, data, name)
    note = f"; scaled to {scaled[0]}x{scaled[1]} to fit the {MAX_SIDE}-pixel cap" if scaled != image.size else ""
    summary = _("{kind} image {width}x{height}").format(kind=kind, width=width, height=height)
    return Result(f"{what}{note}. The image follows in the next message.", summary, picture=picture)


def _picture(image, data: bytes, name: str) -> tuple[Picture, tuple[int, int]]:
    """The image as sent: as it is when it fits the cap, else scaled down (PNG, or JPEG for photos)."""
    if max(image.size) <= MAX_SIDE and image.format in KEPT:
        return Picture(name, KEPT[image.format], base64.b64encode(data).decode("ascii")), image.size
    jpeg = image.format == "JPEG" or image.mode not in ("RGBA", "LA", "P")  # a photo, or nothing transparent
    image = image.copy()
    image.thumbnail((MAX_SIDE, MAX_SIDE))
    out = io.BytesIO()
    image.convert("RGB" if jpeg else "RGBA").save(out, "JPEG" if jpeg else "PNG", quality=85)
    encoded = base64.b64encode(out.getvalue()).decode("ascii")
    return Picture(name, "image/jpeg" if jpeg else "image/png", encoded), image.size
