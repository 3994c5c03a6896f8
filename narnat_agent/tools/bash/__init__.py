"""Bash: run a command in the project, never hanging, never flooding, and asking before anything deletes files."""

import contextlib
import dataclasses
import os
import re
import subprocess
from datetime import datetime

from narnat_agent import state
from narnat_agent.i18n import N_, Said, _, listed, ngettext, spoken
from narnat_agent.inert import without_escapes
from narnat_agent.processes.jobs import DRAIN, HEAD, MB, RUNNING, earlier_log
from narnat_agent.safety import analyze, changes, ending_chain, last_pipeline
from narnat_agent.tools.base import Changes, Output, Result, ToolError
from narnat_agent.tools.bash.execute import (
    LIMIT,
    TAIL,
    Finished,
    environment,
    execute,
    line_count,
    private,
    spawn_script,
    stopped,
)
from narnat_agent.tools.bash.shells import BASH, Shell, chosen
from narnat_agent.tools.tool import Tool
from narnat_agent.tools.verification import of_job, verified_chain
from narnat_agent.tools.workspace import Workspace

__all__ = ["TOOL", "chosen", "environment", "execute", "for_shell", "run_named"]  # the system prompt tells of the shell

MAX_TIMEOUT_MS = 600_000
SECOND_MS = 1000  # a timeout under it was most likely meant in seconds
MAX_JOBS = 32  # background jobs running at once: each holds descriptors of Narnat's; hundreds left none for a command
NOT_FAILURES = {"grep", "egrep", "fgrep", "rg", "diff", "cmp", "test", "["}  # exit 1 means "no" for these


WAIT = re.compile(r"\s*wait\s+(%?)(\d+)\s*")  # `wait %1` (job 1) or `wait 4242` (its pid), as in a shell


def run(args: dict, ws: Workspace) -> Result:
    return _run(args, ws, by_model=True)


def run_named(command: str, ws: Workspace) -> Result:
    """A command the person named (a goal's check), run as the model's are: the same shell, environment, timeout
    and output, and a deletion still asks; only the refusals that send the model to a file tool do not apply."""
    return _run({"command": command}, ws, by_model=False)


def _run(args: dict, ws: Workspace, by_model: bool) -> Result:
    command = args["command"]
    if not command.strip():
        raise ToolError("the command is empty.", Said(N_("the command is empty")))
    if waited := WAIT.fullmatch(command):
        return _wait(waited, ws, min(args.get("timeout") or ws.bash_timeout_ms, MAX_TIMEOUT_MS) / 1000)
    _check(command, ws, background=bool(args.get("run_in_background")), by_model=by_model)
    if not ws.cwd.is_dir():
        ws.cwd = ws.root
    if args.get("run_in_background"):
        return _background(command, ws)
    asked = args.get("timeout") or ws.bash_timeout_ms
    timeout_ms = min(asked, MAX_TIMEOUT_MS)
    finished = execute(command, ws, timeout_ms / 1000)
    notes = [f"timeout {asked} ms is above the maximum; it ran with {MAX_TIMEOUT_MS} ms"] if asked > timeout_ms else []
    if finished.code is None and args.get("timeout") and asked < SECOND_MS:  # `"timeout": 120` meant as seconds
        notes.append(f"timeout is in milliseconds: {asked} ms is {asked / 1000:g} s ({asked} seconds would be "
                     f"{asked * 1000})")  # fmt: skip
    if ws.cwd != ws.root:
        notes.append(
            f"Bash's working directory: {ws.cwd} — file paths in the other tools still start at the project root"
        )
    return _result(command, finished, timeout_ms, notes + ws.jobs.news())


def _background(command: str, ws: Workspace) -> Result:
    """Start a command that keeps running, its output going to a file the model Reads; it returns at once."""
    running = ws.jobs.running()
    if len(running) >= MAX_JOBS:
        numbers = ", ".join(f"%{job.number}" for job in running[:5])
        raise ToolError(
            f"{len(running)} background jobs are running ({numbers}, …), the most one run keeps: stop one (kill PID) "
            f"or wait for one to end (`wait %N`) before starting another.",
            Said(N_("{count} background jobs are running already, the most one run keeps"), count=str(len(running))),
        )
    logs = state.jobs(ws.state_dir)
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"job-{len(ws.jobs.started) + 1}-{datetime.now():%Y%m%d-%H%M%S}.log"
    private(log).close()  # the job's output may hold anything: only the user reads it (Jobs keeps the mode)
    shell = chosen(ws.shell).shell
    script = shell.script(command, None), log.with_suffix(shell.suffix)
    try:
        job = ws.jobs.start(
            command, log, lambda tag: spawn_script(subprocess.Popen, shell, script, ws, subprocess.PIPE, tag)
        )
    except OSError:  # a start that failed (no descriptor, no process left) leaves no log to collide with the next
        for left in (log, log.with_name(log.name + RUNNING)):
            with contextlib.suppress(OSError):
                left.unlink()
        raise
    news = "".join(f"\n({line})" for line in ws.jobs.news())
    text = (f"Started in the background as job {job.number}, pid {job.pid} (its own process group). Its output goes "
            f"to {ws.show(log)}: Read it (it grows; past {HEAD // MB} MB the log keeps the first and the last MB, "
            f"and past {ws.jobs.limit // MB:,} MB the job is stopped). Later Bash and Read results say when it ends; "
            f"Bash `wait %{job.number}` waits for it (up to its timeout) and returns its new output and exit code. "
            f"Stop it with: {shell.stop_hint(job.pid)}{news}")  # fmt: skip
    return Result(text, _("job {number} started in the background · pid {pid}").format(number=job.number, pid=job.pid))


def _wait(waited: re.Match, ws: Workspace, timeout_s: float) -> Result:
    """Wait for a background job, up to the timeout: its output since the last wait, and how it ended."""
    number = int(waited.group(2))
    job = next((j for j in ws.jobs.started if (j.number if waited.group(1) else j.pid) == number), None)
    job = job or next((j for j in ws.jobs.started if not waited.group(1) and j.number == number), None)
    if job is None:
        raise _not_this_runs(number, by_number=bool(waited.group(1)), ws=ws)
    with contextlib.suppress(subprocess.TimeoutExpired):
        job.process.wait(timeout_s)
    ended = job.process.poll() is not None
    if ended:  # the last of its output may still be on its way to the log, as for Read
        job.output.finish(DRAIN)
    first = ws.jobs.first_new_line(job)
    new = without_escapes(ws.jobs.new_output(job, LIMIT))  # a command's colours, written as to a terminal
    job.told = job.told or ended
    how = f"job {job.number} {job.state}" if ended else f"job {job.number} still running after {timeout_s:g} s"
    body = f"{new.rstrip()}\n" if new.strip() else "(no new output)\n"
    if first > 1 and new.strip():  # what was Read or given before is not given again
        body = f"(its output from line {first} of its log, after what was already seen)\n{body}"
    verification = of_job(job) if ended else None
    summary = _("job {number}: {state}").format(number=job.number, state=spoken(job.state))
    failed = ended and job.process.returncode != 0
    # a command may have removed the log (or put something else there): the model is not sent to read it
    where = f"its whole output: {ws.show(job.log)}" if job.log.is_file() else \
        f"its log {ws.show(job.log)} was removed or replaced, so its output is lost"  # fmt: skip
    return Result(f"{body}({how}; {where})", summary, failed, verification=verification)


def _not_this_runs(number: int, by_number: bool, ws: Workspace) -> ToolError:
    """No job of this run has that number (or pid): a job of an earlier run, whose log may say how it ended."""
    known = ", ".join(f"%{j.number} (pid {j.pid})" for j in ws.jobs.started) or "none"
    earlier = earlier_log(state.jobs(ws.state_dir), number, ws.reads) if by_number else None
    if earlier is None:
        said = Said(N_("there is no background job {job}"), job=str(number))
        return ToolError(f"there is no background job {number} in this run; this run's jobs: {known}.", said)
    log, stopped = earlier
    if stopped:
        said = Said(N_("job {job} was stopped when an earlier run of Narnat ended"), job=str(number))
        why = f"job {number} belonged to an earlier run of Narnat, which stopped it before it finished"
        return ToolError(f"{why}; its log {ws.show(log)} ends: {stopped} This run's jobs: {known}.", said)
    said = Said(N_("job {job} belonged to an earlier run of Narnat"), job=str(number))
    why = f"job {number} belonged to an earlier run of Narnat (job numbers start again in each run) and ended there"
    return ToolError(f"{why}; its log: {ws.show(log)}. This run's jobs: {known}.", said)


def _check(command: str, ws: Workspace, background: bool, by_model: bool) -> None:
    """Refuse the model's file operations and terminal programs (in the background nothing waits for them: a server
    is what it is for); ask the user before anything that deletes."""
    shell = chosen(ws.shell).shell
    env = {**environment(ws.secret, ws.root), **shell.variables}  # the command's own: its variables name the paths
    verdict = analyze(command, cwd=ws.cwd, shell="powershell" if shell.powershell else "bash", env=env)
    if verdict.file_ops and by_model:
        why = listed(list(dict.fromkeys(verdict.file_ops)))
        raise ToolError(f"not run — Bash is for running programs: {why}.", Said(N_("not run: {why}"), why=why))
    if verdict.interactive and not background:
        why = listed(list(dict.fromkeys(verdict.interactive)))
        raise ToolError(f"not run — it would wait for a terminal: {why}.", Said(N_("not run: {why}"), why=why))
    if ws.planning and by_model and (would := changes(command, ws.cwd)):
        why = listed(would)
        raise ToolError(f"plan mode: this would change the project ({why}), so it was not run. While planning, Bash "
                        f"runs only commands that read (ls, wc, diff, git status/log/diff/show, a program's --version; "
                        f"files are read and searched with Read, Grep and Glob); put the rest in the plan.",
                        Said(N_("plan mode: this would change the project ({why})"), why=why))  # fmt: skip
    if verdict.deletions:
        reason = listed(list(dict.fromkeys(verdict.deletions)))
        targets = [ws.cwd / os.path.expanduser(path) for path in dict.fromkeys(verdict.targets)]
        ws.ask(command, reason, Said(N_("Do not destroy it another way; ask the user what they want.")), targets)


def _failed_stages(stages: list[list[str | None]], pipeline: tuple[int, ...]) -> list[str]:
    """Stages before the last that failed: the pipeline's exit code only tells about the last one. A stage stopped
    by SIGPIPE (141, its reader had enough) or a grep/diff answering "no" (1) did not fail."""
    if len(pipeline) != len(stages) or len(stages) < 2:
        return []
    return [
        f"stage {n} of the pipeline ({stage[0] if stage and stage[0] else '…'}) exited {status}"
        for n, (stage, status) in enumerate(zip(stages[:-1], pipeline, strict=False), 1)
        if status not in (0, 141) and not (status == 1 and _name(stage) in NOT_FAILURES)
    ]


def _name(stage: list[str | None]) -> str | None:
    """The program a pipeline stage runs, without its folder."""
    return stage[0].rsplit("/", 1)[-1] if stage and stage[0] else None


def _result(command: str, finished: Finished, timeout_ms: int, notes: list[str]) -> Result:
    text, code = finished.text, finished.code
    stages = last_pipeline(command)
    verification = verified_chain(ending_chain(command), finished.code, finished.pipeline)
    if code is None:
        timed_out = stopped(text, f"timed out after {timeout_ms / 1000:g} s", True, notes)
        return dataclasses.replace(timed_out, verification=verification)
    benign = code == 1 and bool(stages) and _name(stages[-1]) in NOT_FAILURES
    failed = _failed_stages(stages, finished.pipeline)
    status = "; ".join(
        [f"exit code {code}" + (" — no match / a difference, not an error" if benign else ""), *failed, *notes]
    )
    body = f"{text.rstrip()}\n" if text.strip() else "(no output)\n"
    shown = line_count(text)
    output = Output(tuple(text.splitlines()[-TAIL:]), finished.lines, min(shown, finished.lines), code)
    n = finished.lines
    if failed:
        summary = ngettext(
            "exit {code} · a pipeline stage failed · {n} line", "exit {code} · a pipeline stage failed · {n} lines", n
        ).format(code=code, n=n)
    else:
        summary = ngettext("exit {code} · {n} line", "exit {code} · {n} lines", n).format(code=code, n=n)
    return Result(f"{body}({status})", summary, bool(failed) or (bool(code) and not benign), output, verification)


DESCRIPTION = (
    "Run {runs} (tests, builds, git, package managers, scripts). No terminal: editors, pagers and "
    "REPLs are refused. Its working directory "
    "persists between calls (a result names it when it is not the project root); environment variables do not. "
    "Commands that delete files or destroy data ask the user first. "
    "Output is cut at 30000 characters (the full text is saved to a file you can Read). "
    "Timeout in ms, default 120000, max 600000."
)

TOOL = Tool(
    name="Bash",
    description=DESCRIPTION.format(runs=BASH.runs),
    parameters={
        "type": "object",
        "properties": {
            "command": {"type": "string"},
            "timeout": {"type": "integer", "description": "Milliseconds (max 600000)"},
            "description": {"type": "string", "description": "What it does, in 5-10 words"},
            "run_in_background": {
                "type": "boolean",
                "description": "Start it and return at once (servers, "
                "watchers, long builds); its output goes to a file you Read",
            },
        },
        "required": ["command"],
    },
    run=run,
    target=lambda args: args.get("command", ""),  # the UI cuts it, visibly
    changes=lambda args: Changes(anything=True),
)


def for_shell(shell: Shell) -> Tool:
    """The Bash tool as the model is told of it when it runs shell (its name stays: the model knows it)."""
    return dataclasses.replace(TOOL, description=DESCRIPTION.format(runs=shell.runs))
