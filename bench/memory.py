"""Peak memory of a headless turn that reads a file, against the bare openai SDK doing one request.

Run: python bench/memory.py
"""

import os
import subprocess
import sys
import tempfile

from common import ROOT, table

from tests.fake_llm import FakeLLM, text_reply, tool_reply

BARE_SDK = """
import os, openai
client = openai.OpenAI(api_key="k", base_url=os.environ["NARNAT_BASE_URL"], max_retries=0)
for chunk in client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], stream=True):
    pass
"""


def peak_rss_mb(*args: str, replies: list) -> float:
    """Peak resident memory of one child process, in MB (ru_maxrss of the children, measured alone)."""
    fake = FakeLLM()
    fake.add(*replies)
    project = tempfile.mkdtemp()
    with open(os.path.join(project, "notes.txt"), "w") as f:
        f.write("some notes\n" * 1000)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NARNAT_", "OPENAI_"))}
    env.update(HOME=project, NARNAT_API_KEY="k", NARNAT_BASE_URL=fake.base_url, PYTHONPATH=str(ROOT))
    code = (f"import resource, subprocess, sys; subprocess.run({[sys.executable, *args]!r}, check=True, "
            "capture_output=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=project, capture_output=True, text=True, check=True)
    fake.close()
    return int(out.stdout.strip()) / 1024


def main() -> None:
    turn = [tool_reply(("Read", {"file_path": "notes.txt"})), text_reply("They are notes.")]
    ours = peak_rss_mb("-m", "narnat_agent", "-p", "what is in notes.txt?", replies=turn)
    bare = peak_rss_mb("-c", BARE_SDK, replies=[text_reply("hi")])
    table("Peak RSS", [("headless turn with a Read", f"{ours:.0f} MB", f"{bare:.0f} MB bare SDK request",
                        f"{ours / bare:.2f}x", "< 100 MB")])  # fmt: skip


if __name__ == "__main__":
    main()
