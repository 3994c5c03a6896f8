"""What Windows programs and cmdlets destroy beyond the project's files, which /undo cannot bring back: registry keys,
services, scheduled tasks, accounts, WSL distributions, drives and disks, the Recycle Bin, shadow copies, and the
environment variables every later program sees.

From the documentation of reg, sc, schtasks, net user, wsl, diskpart, format, vssadmin, cipher, setx,
Format-Volume, Clear-Disk, Clear-RecycleBin, Unregister-ScheduledTask and System.Environment."""

from collections.abc import Callable

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import NOT_UNDOABLE, Check
from narnat_agent.safety.syntax import names
from narnat_agent.safety.windows_syntax import WinCommand, bind, fed, given, operands

DISTRIBUTION = N_("{program} deletes the distribution {thing} with every file in it")
SESSION_ONLY = names(  # what they remove lives in the session only
    "remove-variable remove-module remove-job remove-psdrive remove-pssession remove-event remove-typedata "
    "remove-pssnapin"
)


def beyond(lost: str) -> str:
    return Said(N_("{lost} — {undo}"), lost=lost, undo=NOT_UNDOABLE)


def _named(words: tuple[str, ...], message: str, at: int = -1, option: str = "") -> Callable[..., list[str]]:
    """A program whose words (after its name, any case) destroy the thing named by the word at `at` among its
    operands, or after `option`."""

    def rule(command: WinCommand, check: Check) -> list[str]:
        args = [a.lower() if a else "" for a in command.argv[1:]]
        if "/?" in args or not all(w in args for w in words):
            return []
        shown = command.shown[1:]
        if option and option in args and args.index(option) + 1 < len(shown):
            thing = shown[args.index(option) + 1]
        else:
            operands = [s for a, s in zip(args, shown, strict=False) if a not in words and not a.startswith("/")]
            thing = operands[at] if -len(operands) <= at < len(operands) else "…"
        return [beyond(Said(message, program=command.shown[0], thing=thing.strip('"')))]

    return rule


def _set_variable(command: WinCommand, check: Check) -> list[str]:
    """[Environment]::SetEnvironmentVariable(name, value, 'User'|'Machine') and setx change what every later
    program sees; the old value is gone."""
    if command.name == "setx":
        if "/?" in command.argv:
            return []
        words = [s for a, s in zip(command.argv[1:], command.shown[1:], strict=False) if not (a or "x").startswith("/")]
        scope = "Machine" if any((a or "").lower() == "/m" for a in command.argv) else "User"
        name, cleared = (words or ["…"])[0], False
    else:
        shown = command.shown[1:] + ["", "", ""]
        target = (command.argv[3] if len(command.argv) > 3 else "") or shown[2]
        scope = next((s for s in ("User", "Machine") if target.lower().rstrip("'\")").endswith(s.lower())), "")
        if not scope and command.argv[3:4] != [None]:
            return []  # the process's own variables: nothing beyond it changes
        name, cleared = command.argv[1] or shown[0], shown[1].strip().lower() in ("$null", "''", '""')
    message = (
        N_("{program} clears the environment variable {name} ({scope})")
        if cleared
        else N_("{program} replaces the environment variable {name} ({scope})")
    )
    return [beyond(Said(message, program=command.shown[0].split("(")[0], scope=scope or "…", name=name))]


def removes(command: WinCommand, check: Check) -> list[str]:
    """Remove-LocalUser, Remove-Service, Unregister-ScheduledTask and their kind: what they delete is not a file."""
    bound = bind(command, ("name",), ("taskname", "path", "id", "inputobject"))
    if bound.on("whatif") or command.name in SESSION_ONLY:
        return []
    named = bound.get("name") + bound.get("taskname") + bound.get("args")
    thing = ", ".join(s.strip("'\"") for _, s in named) or given(command)
    if command.name == "unregister-scheduledtask":
        return [beyond(Said(N_("{program} deletes the scheduled task {thing}"), program=command.shown[0], thing=thing))]
    return [beyond(Said(N_("{program} deletes {thing}"), program=command.shown[0], thing=thing))]


def _erases(command: WinCommand, check: Check) -> list[str]:
    """Format-Volume's first word is a drive letter; Clear-Disk's, Initialize-Disk's and Remove-Partition's a disk's
    number."""
    if command.name == "format-volume":
        bound = bind(command, ("driveletter",), ("path",))  # it has no disk's number: -d is -DriveLetter
    else:
        bound = bind(command, ("number",), ("disknumber", "path", "driveletter"))
    if bound.on("whatif"):
        return []
    letter = bound.get("driveletter") or bound.get("path")
    if letter:
        drive = letter[0][1].strip("'\"").rstrip(":\\") + ":"
        return [beyond(Said(N_("{program} erases the whole drive {drive}"), program=command.shown[0], drive=drive))]
    disk = (bound.get("number") or bound.get("disknumber") or [(None, "…")])[0][1]
    return [beyond(Said(N_("{program} erases disk {disk}"), program=command.shown[0], disk=disk))]


def _format(command: WinCommand, check: Check) -> list[str]:
    pairs = operands(command)
    if "/?" in command.argv or not pairs:
        return []
    drive = pairs[0][1].rstrip("\\")
    return [beyond(Said(N_("{program} erases the whole drive {drive}"), program=command.shown[0], drive=drive))]


def _diskpart(command: WinCommand, check: Check) -> list[str]:
    """diskpart runs the commands of a script (/s) or of its input (a pipe, a file); alone it waits for a person's."""
    if command.upstream is not None or command.stdin is not None or fed(command):
        return [beyond(Said(N_("{program} runs the disk commands it is given, which can erase disks"),
                            program=command.shown[0]))]  # fmt: skip
    return _named(("/s",), N_("{program} runs the disk commands in {thing}, which can erase disks"), 0, "/s")(
        command, check
    )


def _cipher(command: WinCommand, check: Check) -> list[str]:
    wipe = next((a[3:] for a in command.argv[1:] if a and a.lower().startswith("/w:")), None)
    if wipe is None:
        return []
    return [beyond(Said(N_("{program} wipes what was deleted on {drive} for good"), program=command.shown[0],
                        drive=wipe))]  # fmt: skip


def _event_log(command: WinCommand, check: Check) -> list[str]:
    """wevtutil cl NAME, Clear-EventLog -LogName NAME."""
    if command.name == "wevtutil":
        args = [a.lower() if a else "" for a in command.argv[1:]]
        if args[:1] not in (["cl"], ["clear-log"]):
            return []
        name = command.shown[2] if len(command.shown) > 2 else "…"
    else:
        bound = bind(command, ("logname",))
        if bound.on("whatif"):
            return []
        name = ", ".join(s for _, s in bound.get("logname")) or "…"
    return [beyond(Said(N_("{program} clears the event log {thing}"), program=command.shown[0], thing=name))]


def _netsh(command: WinCommand, check: Check) -> list[str]:
    """`netsh advfirewall reset`, `netsh winsock reset`: the settings go back to their defaults."""
    args = [a.lower() if a else "" for a in command.argv[1:]]
    if "reset" not in args:
        return []
    what = " ".join(command.shown[1 : args.index("reset") + 1]) or "…"
    return [beyond(Said(N_("{program} resets {thing} to its defaults"), program=command.shown[0], thing=what))]


SYSTEM: dict[str, Callable[[WinCommand, Check], list[str]]] = {
    "[environment]::setenvironmentvariable": _set_variable,
    "format": _format,
    "format-volume": _erases,
    "clear-disk": _erases,
    "initialize-disk": _erases,
    "remove-partition": _erases,
    "clear-recyclebin": lambda c, k: (
        [] if bind(c, ()).on("whatif") else [beyond(Said(N_("{program} empties the Recycle Bin"), program=c.shown[0]))]
    ),  # fmt: skip
    "diskpart": _diskpart,
    "bcdedit": _named(("/delete",), N_("{program} deletes the boot entry {thing}"), 0),
    "wevtutil": _event_log,
    "clear-eventlog": _event_log,
    "netsh": _netsh,
    "certutil": _named(("-delstore",), N_("{program} deletes the certificate {thing}"), -1),
    "reg": _named(("delete",), N_("{program} deletes the registry key {thing}"), 0),
    "sc": _named(("delete",), N_("{program} deletes the service {thing}"), 0),
    "schtasks": _named(("/delete",), N_("{program} deletes the scheduled task {thing}"), 0, "/tn"),
    "net": _named(("user", "/delete"), N_("{program} deletes the account {thing}"), 0),
    "wsl": _named(("--unregister",), DISTRIBUTION, 0),
    "wslconfig": lambda c, k: _named(("/u",), DISTRIBUTION, 0)(c, k) or _named(("/unregister",), DISTRIBUTION, 0)(c, k),
    "vssadmin": lambda c, k: (
        [beyond(Said(N_("{program} deletes the shadow copies of the drives"), program=c.shown[0]))]
        if [a.lower() for a in c.argv[1:3] if a] == ["delete", "shadows"]
        else []
    ),  # fmt: skip
    "cipher": _cipher,
    "setx": _set_variable,
}
