"""The Bash tool's equivalent mutants for bench/mutation.py: a piece of a line as the mutant writes it, or a pattern
of mutant names (starting with *), and why the change cannot alter what the code does."""

BASH_HERE = (
    "on Linux and macOS the Bash tool runs bash whatever the shell setting names (shells.find): the setting chooses "
    "only on Windows, whose tests run there"
)
AS_BASH = "the analysis reads any shell it is given but powershell and cmd as bash, its default: the shell here is bash"
LAST_PART = "the last part of a path split at its slashes is the same however many splits come before it"
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
}
