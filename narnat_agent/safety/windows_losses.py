"""What a PowerShell cmdlet, a cmd built-in, a Windows program or a .NET call would destroy, named with its place:
the path (a drive's root or the user's home called out), the registry key, the service, the task, the account.

From the documentation of each: Remove-Item, Clear-Content, Set-Content, Out-File, Copy-Item, Move-Item,
Clear-RecycleBin, Format-Volume, Clear-Disk, Unregister-ScheduledTask; del, rd, move, copy, xcopy, robocopy, format,
diskpart, reg, sc, schtasks, net user, wsl, setx, vssadmin, cipher; System.IO.File, System.IO.Directory and
System.Environment."""

import ntpath
import re
from collections.abc import Callable

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import NOT_UNDOABLE, OWN_FOLDER_LOST, Check, computed, own_folder
from narnat_agent.safety.overwrites import replaces
from narnat_agent.safety.sql import judge
from narnat_agent.safety.windows_syntax import (
    Pairs,
    WinCommand,
    bind,
    existing,
    given,
    operands,
    place,
    switches,
    windows_path,
)
from narnat_agent.safety.windows_system import SYSTEM, beyond, removes

OUTSIDE = Said(N_("/undo restores only the project's files"))
PROVIDERS = ("env:", "variable:", "function:", "alias:")  # PowerShell drives of the session itself
REGISTRY = ("hkcu:", "hklm:", "hkcr:", "hku:", "registry::", "hkey_")


def deleting(program: str, pairs: Pairs, check: Check, inside: bool = False, every: bool = False) -> str:
    """`program deletes <paths>`, each path as the question names it; outside the project, said so."""
    placed = [place(word, shown, check.cwd) for word, shown in pairs]
    targets = ", ".join(text for text, _ in placed)
    if every:
        lost = Said(N_("{program} deletes {targets} in every subfolder"), program=program, targets=targets)
    elif inside:
        lost = Said(N_("{program} deletes {targets} with everything inside"), program=program, targets=targets)
    else:
        lost = Said(N_("{program} deletes {targets}"), program=program, targets=targets)
    if own_folder([text for text, _ in placed]):
        return Said(N_("{lost} — {undo}"), lost=lost, undo=OWN_FOLDER_LOST)
    return Said(N_("{lost} — {undo}"), lost=lost, undo=OUTSIDE) if any(out for _, out in placed) else lost


def _remove_item(command: WinCommand, check: Check) -> list[str]:
    bound = bind(command, ("path",), ("literalpath", "filter", "include", "exclude"))
    if bound.on("whatif"):
        return []
    pairs = [(v, s) for v, s in bound.get("path") + bound.get("literalpath") + bound.get("args")
             if not (v and re.fullmatch(r"/[a-zA-Z]", v))]  # fmt: skip  # cmd's /s /q handed to PowerShell
    written = [(v or s).lower() for v, s in pairs]
    if written and all(w.startswith(PROVIDERS) for w in written):
        return []
    if written and all(w.startswith(REGISTRY) for w in written):
        keys = ", ".join(s for _, s in pairs)
        return [beyond(Said(N_("{program} deletes the registry key {thing}"), program=command.shown[0], thing=keys))]
    if not pairs:
        pairs = [(None, given(command))]
    return [deleting(command.shown[0], pairs, check, inside=bound.on("recurse"))]


def _clear_content(command: WinCommand, check: Check) -> list[str]:
    bound = bind(command, ("path",), ("literalpath",))
    if bound.on("whatif"):
        return []
    pairs = bound.get("path") + bound.get("literalpath") or [(None, given(command))]
    placed = [place(word, shown, check.cwd) for word, shown in pairs]
    lost = Said(N_("{program} empties {files}"), program=command.shown[0], files=", ".join(t for t, _ in placed))
    return [Said(N_("{lost} — {undo}"), lost=lost, undo=OUTSIDE) if any(o for _, o in placed) else lost]


def _writes(command: WinCommand, check: Check) -> list[str]:
    """Set-Content, Out-File, Tee-Object, Invoke-WebRequest -OutFile and New-Item -Force replace the file they
    write; $PROFILE, the user's PowerShell profile, is taken to exist."""
    bound = bind(command, ("filepath",) if command.name == "out-file" else ("path",), ("literalpath", "outfile"))
    if bound.on("whatif") or bound.on("append") or command.name == "new-item" and not bound.on("force"):
        return []
    # a file named by its parameter first: the word in the first position may be another's (Invoke-WebRequest's
    # address, Set-Content's value when -LiteralPath names the file)
    files = bound.get("literalpath") + bound.get("outfile") + bound.get("path") + bound.get("filepath")
    file, shown = files[0] if files else (None, "")
    if shown.lower().startswith(("$profile", "'$profile", '"$profile')):
        return [replaces(command.shown[0], shown)]
    if file is None or file in command.absent or not existing(file, check.cwd):
        return []
    return [replaces(command.shown[0], file)]


def _copies(command: WinCommand, check: Check) -> list[str]:
    """Copy-Item replaces an existing file; Move-Item does with -Force; cmd's copy and move do."""
    if command.shell == "cmd":
        pairs = operands(command)
        if len(pairs) < 2 or "/-y" in switches(command):
            return []
        sources, into = [w for w, _ in pairs[:-1]], pairs[-1][0]
    else:
        bound = bind(command, ("path", "destination"), ("literalpath",))
        if bound.on("whatif") or command.name == "move-item" and not bound.on("force"):
            return []
        sources = [w for w, _ in bound.get("path") + bound.get("literalpath")]
        into = (bound.get("destination") or [(None, "")])[0][0]
    for source in sources:
        if source is None or into is None or into in command.absent:
            continue
        folder = windows_path(into, check.cwd)
        if folder is not None and folder.is_dir() and any(c in source for c in "*?"):
            return [Said(N_("{program} overwrites files in {folder}"), program=command.shown[0], folder=into)]
        target = ntpath.join(into, ntpath.basename(source)) if folder is not None and folder.is_dir() else into
        if existing(target, check.cwd):
            return [Said(N_("{program} overwrites {file}, which exists"), program=command.shown[0], file=target)]
    return []


def _robocopy(command: WinCommand, check: Check) -> list[str]:
    given_switches = switches(command)
    pairs = operands(command)
    mirror = next((s for s in ("/mir", "/purge") if s in given_switches), None)
    if mirror is None or "/l" in given_switches or len(pairs) < 2:
        return []
    target, outside = place(pairs[1][0], pairs[1][1], check.cwd)
    lost = Said(N_("robocopy {option} deletes the files in {target} that {source} does not have"),
                option=mirror.upper(), target=target, source=pairs[0][1])  # fmt: skip
    return [Said(N_("{lost} — {undo}"), lost=lost, undo=OUTSIDE) if outside else lost]


def _cmd_deletes(command: WinCommand, check: Check) -> list[str]:
    given_switches = switches(command)
    if "/?" in given_switches:
        return []
    pairs = operands(command) or [(None, "…")]
    if command.name in ("rd", "rmdir"):
        return [deleting(command.shown[0], pairs, check, inside="/s" in given_switches)]
    return [deleting(command.shown[0], pairs, check, every="/s" in given_switches)]


def _xcopy(command: WinCommand, check: Check) -> list[str]:
    pairs = operands(command)
    into = pairs[1][0] if len(pairs) > 1 else None
    path = windows_path(into, check.cwd) if into else None
    if path is None or not path.exists() or "/l" in switches(command):
        return []
    return [Said(N_("{program} overwrites files in {folder}"), program=command.shown[0], folder=pairs[1][1])]


def _dotnet_delete(command: WinCommand, check: Check) -> list[str]:
    """`[IO.Directory]::Delete(path, $true)`, `[…FileSystem]::DeleteDirectory(path, …)`, `(Get-Item x).Delete()`,
    `$fso.DeleteFolder(path)`: the path is the first argument, else the object the method is called on."""
    args = list(zip(command.argv[1:], command.shown[1:], strict=False))
    if command.name == ".delete":
        args = args[1:] or args[:1]
    recursive = any(a in ("$true", "DeleteAllContents") for a, _ in args[1:])
    return [deleting(command.shown[0], args[:1] or [(None, "…")], check, inside=recursive)]


def _dotnet_write(command: WinCommand, check: Check) -> list[str]:
    file = command.argv[1] if len(command.argv) > 1 else None
    if (command.name or "").endswith(("::copy", "::move")):  # (source, destination, overwrite): asked to overwrite
        shown = command.shown[2] if len(command.shown) > 2 else "…"
        return [Said(N_("{program} overwrites {file} if it exists"), program=command.shown[0], file=shown)] if (
            "$true" in command.argv[3:]
        ) else []  # fmt: skip
    return [replaces(command.shown[0], file)] if file and existing(file, check.cwd) else []


def _sqlcmd(command: WinCommand, check: Check) -> list[str]:
    """Invoke-Sqlcmd -Query: SQL Server's SQL, read as sqlcmd's is."""
    bound = bind(command, ("query",), ("serverinstance", "database", "inputfile", "username", "password"))
    reasons = []
    for query, _ in bound.get("query"):
        if query is None:
            reasons.append(computed(command.shown[0]))
        elif lost := judge(query, "tsql"):
            reasons.append(Said(N_("{program} {lost} — {undo}"), program=command.shown[0], lost=lost,
                                undo=NOT_UNDOABLE))  # fmt: skip
    return reasons


LOSSES: dict[str, Callable[[WinCommand, Check], list[str]]] = {
    "remove-item": _remove_item,
    "remove-itemproperty": lambda c, k: (
        []
        if bind(c, ()).on("whatif")
        else [
            beyond(
                Said(
                    N_("{program} deletes a value of the registry key {key}"),
                    program=c.shown[0],
                    key=(bind(c, ("path",)).get("path") or [(None, "…")])[0][1],
                )
            )
        ]
    ),  # fmt: skip
    "clear-content": _clear_content,
    "clear-item": lambda c, k: (
        [] if all((a or "").lower().startswith(PROVIDERS) for a in c.argv[1:]) else _clear_content(c, k)
    ),  # fmt: skip
    "invoke-sqlcmd": _sqlcmd,
    "set-content": _writes,
    "new-item": _writes,
    "out-file": _writes,
    "tee-object": _writes,
    "invoke-webrequest": _writes,
    "copy-item": _copies,
    "move-item": _copies,
    "copy": _copies,
    "move": _copies,
    "xcopy": _xcopy,
    "robocopy": _robocopy,
    "del": _cmd_deletes,
    "erase": _cmd_deletes,
    "rd": _cmd_deletes,
    "rmdir": _cmd_deletes,
    "[io.directory]::delete": _dotnet_delete,
    "[io.file]::delete": _dotnet_delete,
    ".delete": _dotnet_delete,
    **{f"[io.file]::{m}": _dotnet_write for m in ("writealltext", "writealllines", "writeallbytes", "copy", "move")},
    **SYSTEM,
}


def losses(command: WinCommand, check: Check) -> list[str]:
    """What running the command would destroy, one phrase a thing; empty when nothing."""
    name = command.name or ""
    rule = LOSSES.get(name)
    if rule is None and name.startswith(("remove-", "unregister-")):
        rule = removes
    elif rule is None and "]::delete" in name:  # any .NET static Delete…: Microsoft.VisualBasic's FileSystem too
        rule = _dotnet_delete
    return rule(command, check) if rule else []
