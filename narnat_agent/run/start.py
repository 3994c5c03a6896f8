"""What every run does around its conversation: the conversation chosen (new, -c, --resume), the agent built on
it, the autosave, and the background commands stopped on the way out."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from narnat_agent.i18n import _, ngettext

if TYPE_CHECKING:
    from collections.abc import Callable

    from narnat_agent.config.settings import Config
    from narnat_agent.conversation.session import Session
    from narnat_agent.core.agent import Agent
    from narnat_agent.core.ui import UI
    from narnat_agent.processes.jobs import Job
    from narnat_agent.provider.endpoint import Server

USAGE_ERROR = 2  # a configuration or command-line mistake: nothing was sent


@dataclass(frozen=True)
class Opening:
    """Which conversation a run goes on with: a new one, the latest saved (-c), one by name (--resume), or a copy of
    either (--fork)."""

    latest: bool = False
    resume: str | None = None
    fork: bool = False

    @property
    def saved(self) -> bool:
        return self.latest or self.resume is not None

    @classmethod
    def of(cls, args: argparse.Namespace) -> Opening:
        return cls(bool(args.latest), args.resume, bool(args.fork))


def _session(config: Config, ui: UI, opening: Opening, system_prompt: str) -> Session:
    """The conversation of this run: a saved one (-c, --resume) or a new one (named by the time and the process)."""
    from narnat_agent.conversation import session as sessions
    from narnat_agent.conversation.compressor import inherit_summary

    if opening.saved:
        saved, note = _saved_session(config, opening.resume, system_prompt)
        if opening.fork:
            return sessions.fork(saved, config.state_dir)
        if note:
            ui.notice(note)
        return saved
    if summary := inherit_summary(config.state_dir):
        ui.notice(_("A summary left by an interrupted compression was inherited into this new conversation."))
    return sessions.new_session(system_prompt, summary)


def _saved_session(config: Config, name: str | None, system_prompt: str) -> tuple[Session, str]:
    """A saved conversation (by name, else the most recent), going on in this run's environment (date, mode), and
    what to tell the person of it."""
    from narnat_agent import state
    from narnat_agent.conversation import session as sessions
    from narnat_agent.conversation import store
    from narnat_agent.prompts.system_prompt import with_environment

    state_dir = config.state_dir
    folder = state.sessions(state_dir)
    try:
        os.listdir(folder)  # a folder that cannot be read lists nothing: not "no saved conversation yet"
    except FileNotFoundError:
        pass
    except OSError as e:
        raise store.SessionError(_("{path} cannot be read ({error}).").format(path=folder, error=e.strerror)) from None
    if name is None or not store.exists(state_dir, store.check_name(name)):
        names = [row["name"] for row in store.listing(state_dir) if not store.is_archive(row["name"])]
        if name is not None:
            where, recent = state.sessions(state_dir), ", ".join(names[:3])
            missing = (
                _("there is no session named '{name}' in {where}; the most recent are {recent}.")
                if names
                else _("there is no session named '{name}' in {where}.")
            )
            raise store.SessionError(missing.format(name=name, where=where, recent=recent))
        if not names:
            raise store.SessionError(_("this project has no saved conversation yet."))
        name = names[0]
    session, note = sessions.resumed(state_dir, name)
    system = session.conversation.messages[0]
    system["content"] = with_environment(system["content"], system_prompt)
    return session, note


def sweep_leftovers(config: Config) -> None:
    """Temporary files of writers killed mid-write, in the project, the state folder and the user's settings; what
    is left of the background commands of a Narnat that was killed."""
    from narnat_agent import state
    from narnat_agent.atomic import clean_leftovers
    from narnat_agent.logger import get_logger
    from narnat_agent.processes.jobs import sweep
    from narnat_agent.tools.files.ripgrep import folders_with_writes

    if ended := sweep(state.jobs(config.state_dir)):
        log = get_logger("run.start")
        log.warning("ended %d processes left by the background commands of a killed narnat", ended)

    folders = folders_with_writes(config.project) | {state.user_folder(config.home)}
    if not config.state_dir.is_relative_to(config.project):
        folders |= folders_with_writes(config.state_dir)
    clean_leftovers(folders)


def build_agent(
    config: Config, ui: UI, opening: Opening, system_prompt: str, confirm: Callable[[str, str], bool]
) -> Agent | None:
    """The agent of this run, on the conversation the flags chose; None (and one sentence) when it cannot be had.
    How a signal ends the run is the caller's to say (signal handlers belong to the main thread)."""
    from narnat_agent.conversation import store
    from narnat_agent.core.agent import Agent
    from narnat_agent.logger import start_log
    from narnat_agent.processes.jobs import Jobs
    from narnat_agent.provider.client import Client
    from narnat_agent.tools.web.http import Web
    from narnat_agent.tools.workspace import Workspace

    start_log(config.state_dir, [config.api_key], ui.notice)
    try:
        session = _session(config, ui, opening, system_prompt)
    except store.SessionError as e:
        ui.error((_("Cannot continue: {why}") if opening.latest else _("Cannot resume: {why}")).format(why=e))
        return None
    web = Web(config.search_urls, config.web_timeout_s)
    workspace = Workspace(config.project, config.state_dir, confirm, config.bash_timeout_ms, config.sees_images,
                          web=web, jobs=Jobs(config.job_output_limit_mb), secret=config.api_key,
                          other_keys=config.other_keys, hidden=config.files, shell=config.shell)  # fmt: skip
    config, server = _learn_server(config)
    return Agent(config, ui, Client(config, ui.notice, server), workspace, session, system_prompt)


def _learn_server(config: Config) -> tuple[Config, Server | None]:
    """A server people run themselves says how much context it gives the model; that is context_window, unless the
    settings name one."""
    import dataclasses

    from narnat_agent.provider.endpoint import learn

    server = learn(config.base_url, config.model, config.api_key)
    if server and server.context and not config.context_window_set:
        config = dataclasses.replace(config, context_window=server.context)
    return config, server


SHOWN_JOBS = 3  # commands the stop notice names; the others are counted


def stop_jobs(agent: Agent) -> None:
    """Background commands end with Narnat, each with its whole process tree, said in one line: the count and the
    first few commands."""
    stopped = agent.workspace.jobs.stop_all()
    if stopped:
        said = ngettext("Stopped {n} background command: {commands}", "Stopped {n} background commands: {commands}",
                        len(stopped))  # fmt: skip
        agent.ui.notice(said.format(n=len(stopped), commands=jobs_named(stopped)))


def jobs_named(jobs: list[Job]) -> str:
    """The first few jobs' commands, the others counted."""
    commands = "; ".join(job.command for job in jobs[:SHOWN_JOBS])
    if len(jobs) > SHOWN_JOBS:
        commands = _("{commands}; and {n} more").format(commands=commands, n=len(jobs) - SHOWN_JOBS)
    return commands


def save(agent: Agent, ui: UI, quiet: bool = False) -> bool:
    """The autosave; a failure is its one sentence, and the conversation stays in memory."""
    from narnat_agent.conversation.store import SessionError

    try:
        saved = agent.save()
    except SessionError as e:
        ui.error(str(e))
        return False
    if saved and not quiet:
        ui.notice(_("Saved this conversation as '{name}' (narnat --resume {name}).").format(name=saved))
    return True
