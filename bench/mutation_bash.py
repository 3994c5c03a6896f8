"""The Bash tool's equivalent mutants for bench/mutation.py: a piece of a line as the mutant writes it, or a pattern
of mutant names (starting with *), and why the change cannot alter what the code does."""

BASH_HERE = (
    "on Linux and macOS the Bash tool runs bash whatever the shell setting names (shells.find): the setting chooses "
    "only on Windows, whose tests run there"
)
AS_BASH = "the analysis reads any shell it is given but powershell and cmd as bash, its default: the shell here is bash"
LAST_PART = "the last part of a path split at its slashes is the same however many splits come before it"
KILLED = "once the tree is killed its output closes: the wait for it ends alike with no limit, or after 2 s"
MADE = "mkstemp made the file before the command, and only this call removes it: it is always there"
TEMPORARY = "the temporary file's name is read only by the script this call writes: any name serves"
LOOK = "how soon the end of a command is seen: at most one pause later, the same result"
SPILL_MADE = (
    "the output's thread makes the spill file first of all, and has started before: the file is there to remove"
)
ZIPPED = "zip takes strict=None as no strict, false: the stages before the last are one fewer than its statuses"

BASH_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/tools/bash/__init__.py": {
        "shell = chosen(None).shell": BASH_HERE,
        'shell="powershell" if (shell.powershell) and False else "bash"': AS_BASH,
        'shell="XXpowershellXX" if shell.powershell else "bash"': AS_BASH,
        'shell="POWERSHELL" if shell.powershell else "bash"': AS_BASH,
        'shell="powershell" if shell.powershell else "XXbashXX"': AS_BASH,
        'shell="powershell" if shell.powershell else "BASH"': AS_BASH,
        "verdict = analyze(command, cwd=ws.cwd, shell=None, env=env)": AS_BASH,
        "verdict = analyze(command, cwd=ws.cwd, env=env)": AS_BASH,
        'stage[0].rsplit("/", 2)[-1]': LAST_PART,
        'stage[0].rsplit("/", )[-1]': LAST_PART,
        "zip(stages[:-1], pipeline, strict=None)": ZIPPED,
        "zip(stages[:-1], pipeline, )": ZIPPED,
        "ws, by_model=None)": "by_model is read only as true or false, and None is false",
    },
    "narnat_agent/tools/bash/execute.py": {
        "stop_tree(process, output.thread.join, last=None)": KILLED,
        "stop_tree(process, output.thread.join, )": KILLED,
        "range(min(len(self.key) + 1, len(data)), 0, -1)": "an end as long as the key that starts it is the key, "
        "which the replace before has masked already; a longer one starts nothing",
        "startswith(data[-n:])), 1)": "a byte held back is written with the next chunk or at the close: the "
        "file is the same",
        "after.unlink(missing_ok=None)": MADE,
        "after.unlink(missing_ok=False)": MADE,
        "tempfile.mkstemp(prefix=None)": TEMPORARY,
        'tempfile.mkstemp(prefix="XXnarnat-cwd-XX")': TEMPORARY,
        'tempfile.mkstemp(prefix="NARNAT-CWD-")': TEMPORARY,
        "shell = shell or chosen(None).shell": BASH_HERE,
        "error = e.strerror or str(None)": "an OSError from starting a program carries its strerror",
        "timed_out = finished = cancelled = None": "the flags are read only as true or false, and None is false",
        'cancelled by the user", timed_out=None)': "timed_out is read only as true or false, and None is false",
        'line.rsplit("\\r", )[-1]': LAST_PART,
        'line.rsplit("\\r", 2)[-1]': LAST_PART,
        "pause = 1.001": LOOK,
        "pause = min(pause / 2, POLL)": LOOK,
        "pause = min(pause * 3, POLL)": LOOK,
        "timed_out = time.monotonic() >= deadline": "a clock read exactly at the deadline is a moment no test can hit",
        'text.encode("UTF-8", "surrogateescape")': "Python's codecs take UTF-8 in any case",
        "spill.unlink(missing_ok=None)": SPILL_MADE,
        "spill.unlink(missing_ok=False)": SPILL_MADE,
    },
}
