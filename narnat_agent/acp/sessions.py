"""A session the editor opened: the agent of a project folder (the client's working folder), built as a REPL's is,
and what the prompt carries turned into a question."""

import dataclasses
import os
from argparse import Namespace
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from acp import RequestError
from acp.schema import AvailableCommand, AvailableCommandInput, SessionMode, SessionModeState, UnstructuredCommandInput

from narnat_agent import i18n, state
from narnat_agent.acp.ui import DEFAULT, PLAN, Buffers, EditorUI
from narnat_agent.commands.custom import UserCommand
from narnat_agent.core.agent import Agent
from narnat_agent.i18n import N_, _
from narnat_agent.run.start import Opening, build_agent, sweep_leftovers

NOT_OFFERED = {  # why a built-in command is not offered in an editor
    "exit": N_("the editor closes the session"),
    "rewind": N_("the questions it asks need the terminal; /undo and /redo work here"),
}
INVALID_PARAMS, INTERNAL = -32602, -32603
MODES = {  # the session modes the editor's picker offers: each one's name and description
    DEFAULT: (N_("Default"), N_("Ask before destructive actions")),
    PLAN: (N_("Plan"), N_("Investigate and propose; change nothing")),
}


@dataclass(frozen=True)
class Settings:
    """What holds for every session of the run: the flags, and the environment as it was before the key left it."""

    args: Namespace
    environment: dict[str, str]
    home: Path
    secrets: set[str] = field(default_factory=set)  # the keys of the sessions opened: the wire masks them


@dataclass
class Opened:
    id: str
    agent: Agent
    ui: EditorUI
    user: dict[str, UserCommand]  # the user's own slash commands


def open_session(cwd: str, name: str | None, ui: EditorUI, settings: Settings, taken: set[str]) -> Opened:
    """A new conversation in `cwd` (name None), or the saved one of that name; a RequestError saying why not."""
    from narnat_agent.commands import custom
    from narnat_agent.commands.dispatch import descriptions  # its import registers the built-in commands
    from narnat_agent.config.loader import ConfigError, load_config
    from narnat_agent.prompts.system_prompt import build_system_prompt

    project = Path(cwd)
    if not project.is_absolute() or not project.is_dir():
        raise RequestError(INVALID_PARAMS, _("{path} is not a folder: the working folder is an absolute path to one.")
                           .format(path=cwd))  # fmt: skip
    args = settings.args
    try:
        config = load_config(project, settings.home, settings.environment, model=args.model, max_cost=args.max_cost)
    except ConfigError as e:
        raise RequestError(INTERNAL, str(e)) from None
    settings.secrets.add(config.api_key)
    state_dir, moved = state.choose_folder(project, settings.home, os.environ)
    config = dataclasses.replace(config, state_dir=state_dir, max_steps=args.max_steps or config.max_steps)
    if config.language:
        i18n.use(config.language)
    for notice in (*config.notices, moved) if moved else config.notices:
        ui.notice(str(notice))
    sweep_leftovers(config)
    system_prompt = build_system_prompt(config, ui.notice)
    agent = build_agent(config, ui, Opening(resume=name), system_prompt, ui.confirm)
    if agent is None:
        raise RequestError(INVALID_PARAMS if name else INTERNAL, ui.errors[-1])
    if name is None and agent.session.name in taken:  # two sessions opened in the same second
        agent.session.conversation.name = f"{agent.session.name}-{len(taken) + 1}"
    agent.offer_undo(ui.confirm)  # as in the REPL: /undo can bring files back
    ui.workspace, ui.session_id = agent.workspace, agent.session.name
    if ui.link.edits_files():
        agent.workspace.editor = Buffers(ui)
    user, notices = custom.load(project, settings.home, descriptions(), config.api_key)
    for notice in notices:
        ui.notice(notice)
    return Opened(agent.session.name, agent, ui, user)


def offered(opened: Opened) -> list[AvailableCommand]:
    """The slash commands, built-in and the user's own, as the editor offers them."""
    from narnat_agent.commands.dispatch import listed

    commands = []
    for name, slash in listed():
        if name not in NOT_OFFERED:
            usage, line = slash.help()
            hint = usage.partition(" ")[2]
            wanted = AvailableCommandInput(UnstructuredCommandInput(hint=hint)) if hint else None
            commands.append(AvailableCommand(name=name, description=line, input=wanted))
    for name, command in opened.user.items():
        arguments = AvailableCommandInput(UnstructuredCommandInput(hint=_("arguments")))
        commands.append(AvailableCommand(name=name, description=command.description, input=arguments))
    return commands


def modes(opened: Opened) -> SessionModeState:
    """The modes offered, and the one the session is in (what the editor is told it shows)."""
    opened.ui.mode = PLAN if opened.agent.planning else DEFAULT
    offered = [SessionMode(id=mode, name=_(name), description=_(about)) for mode, (name, about) in MODES.items()]
    return SessionModeState(current_mode_id=opened.ui.mode, available_modes=offered)


def choose_mode(opened: Opened, mode: str) -> None:
    """session/set_mode: plan mode on or off as the editor chose; an unknown mode changes nothing."""
    if mode not in MODES:
        raise RequestError(INVALID_PARAMS, _("There is no mode {mode}: the modes are {modes}.")
                           .format(mode=mode, modes=", ".join(MODES)))  # fmt: skip
    opened.ui.mode = mode  # what the editor shows already: planning() need not tell it
    opened.agent.plan_mode(mode == PLAN)


def _mention(uri: str, root: Path) -> str:
    """A file the person attached, as an @path the model is asked to Read (its content is not put in the question)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return f" {uri} "
    path = Path(unquote(parsed.path))
    return f" @{path.relative_to(root) if path.is_relative_to(root) else path} "


def question(blocks: list, root: Path) -> str:
    """The prompt's text, with each linked or embedded file as a mention."""
    parts = []
    for block in blocks:
        kind = block.type
        if kind == "text":
            parts.append(block.text)
        elif kind in ("resource_link", "resource"):
            parts.append(_mention(block.uri if kind == "resource_link" else block.resource.uri, root))
        else:
            raise RequestError(INVALID_PARAMS, _("Narnat takes text and files in a prompt, not {kind}.")
                               .format(kind=kind))  # fmt: skip
    return "".join(parts)
