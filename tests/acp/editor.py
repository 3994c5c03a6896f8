"""The editor's side of `narnat acp`: the protocol's own client (the agent-client-protocol package's
ClientSideConnection) driving Narnat as a subprocess, and recording what it was told."""

import asyncio
import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from acp import RequestError, spawn_agent_process
from acp.schema import (
    AllowedOutcome,
    ClientCapabilities,
    DeniedOutcome,
    FileSystemCapabilities,
    ReadTextFileResponse,
    RequestPermissionResponse,
    WriteTextFileResponse,
)

from tests.launch import NARNAT, scrubbed_environment

KEY = "sk-test-key-0123456789"


class Editor:
    """acp's Client: the updates shown, the questions answered as scripted, the buffers it holds."""

    def __init__(self, answers: list[str] | None = None, buffers: dict[str, str] | None = None):
        self.updates: list[Any] = []
        self.answers = list(answers or [])  # "allow", "reject", or "cancelled" (the prompt was cancelled)
        self.asked: list[Any] = []  # the tool calls permission was asked for
        self.buffers = buffers  # None: the editor offers no file system
        self.written: dict[str, str] = {}
        self.messages: list[tuple[str, dict]] = []  # every message, both ways: ("->" to Narnat, "<-" from it)
        self.watch: Callable[[Any], Any] | None = None  # called with each update as it arrives

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self.updates.append(update)
        if self.watch is not None:
            await self.watch(update)

    async def request_permission(self, options: list, session_id: str, tool_call: Any, **kwargs: Any):
        self.asked.append(tool_call)
        answer = self.answers.pop(0)
        if answer == "cancelled":
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        assert answer in {option.option_id for option in options}
        return RequestPermissionResponse(outcome=AllowedOutcome(outcome="selected", option_id=answer))

    async def read_text_file(self, path: str, session_id: str, line=None, limit=None, **kwargs: Any):
        if self.buffers is None or path not in self.buffers:
            raise RequestError.resource_not_found(path)
        return ReadTextFileResponse(content=self.buffers[path])

    async def write_text_file(self, path: str, content: str, session_id: str, **kwargs: Any):
        self.written[path] = content
        if self.buffers is not None:
            self.buffers[path] = content
        return WriteTextFileResponse()

    def capabilities(self) -> ClientCapabilities:
        files = self.buffers is not None
        return ClientCapabilities(fs=FileSystemCapabilities(read_text_file=files, write_text_file=files))

    def seen(self, kind: str) -> list[Any]:
        """The updates of one kind (agent_message_chunk, tool_call, plan, ...), in order."""
        return [u for u in self.updates if u.session_update == kind]

    def text(self, kind: str = "agent_message_chunk") -> str:
        return "".join(u.content.text for u in self.seen(kind))

    def transcript(self) -> str:
        return "\n".join(f"{way} {json.dumps(message, ensure_ascii=False)}" for way, message in self.messages)


def environment(project: Path, base_url: str) -> dict[str, str]:
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY=KEY, NARNAT_BASE_URL=base_url)
    return env


@contextlib.asynccontextmanager
async def narnat_acp(project: Path, base_url: str, editor: Editor, *flags: str):
    """`narnat acp` in the project, initialized; its stderr is kept in project/../acp-stderr."""

    def record(event) -> None:
        editor.messages.append(("->" if event.direction.value == "outgoing" else "<-", event.message))

    with (project.parent / "acp-stderr").open("w") as stderr:
        env, streams = environment(project, base_url), {"stderr": stderr}
        async with spawn_agent_process(editor, *NARNAT, "acp", *flags, env=env, cwd=project, transport_kwargs=streams,
                                       observers=[record]) as (conn, process):  # fmt: skip
            await conn.initialize(protocol_version=1, client_capabilities=editor.capabilities())
            yield conn, process


def until(condition: Callable[[], bool]) -> "asyncio.Future[None]":
    """Resolves once condition holds, looked at as the updates arrive (and between them)."""

    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.02)

    return asyncio.ensure_future(wait())
