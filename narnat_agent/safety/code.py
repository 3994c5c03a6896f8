"""Code in other languages inside a shell command (python -c, node -e, perl, ruby, php, awk, sed): where it is, and
whether it deletes files. Code is matched with its string literals taken out, so `print('os.remove')` deletes
nothing, while the literals handed to a shell (`system("rm -rf x")`, backticks, qx) are checked as shell text."""

import re
from collections.abc import Callable

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import NOT_UNDOABLE
from narnat_agent.safety.sql import in_code
from narnat_agent.safety.syntax import names

SHELLS = names("bash sh zsh dash ksh mksh ash fish busybox-sh rbash")
INTERPRETERS = re.compile(r"(python[\d.]*|pypy[\d.]*|node|nodejs|deno|bun|perl|ruby|php[\d.]*|Rscript|lua[\d.]*)$")
AWKS = {"awk", "gawk", "mawk", "nawk", "busybox-awk"}
SEDS = {"sed", "gsed"}
LITERAL = re.compile(  # the lookahead lets the engine skip, at one test a character, what cannot start a literal
    r"(?=['\"`q%])(?:'''.*?'''|\"\"\".*?\"\"\"|'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|(`(?:\\.|[^`\\])*`)"
    r"|(?:\bqx|%x)\s*(?:\((.*?)\)|\{(.*?)\}|\[(.*?)\]|([^\w\s])(.*?)\5))",
    re.DOTALL,
)
DELETION_NAMES = names(
    "rmtree remove_tree removedirs send2trash rimraf rm_rf rm_r rm_f remove_dir safe_unlink unlink unlinkSync rmdir "
    "rmdirSync rmSync truncate ftruncate truncateSync remove_entry remove_entry_secure"
)
DELETION_CALLS = re.compile(
    r"(?=[rof.FDi])(?:\brm\s*\(|\bos\.remove\b|\bfs(\.promises)?\.rm\b|\.rm\s*\(|\bFileUtils\.(rm\w*|remove\w*)|\b(File|Dir)\.delete\b"
    r"|\bDeno\.remove(Sync)?\b|\bimport\b[^\n;]*\b(remove|rm)\b)"
)
# in the skeleton a literal is "" when empty, "_" otherwise, and "API" when it names a deletion function
EMPTIES = re.compile(
    r"\b(write_text|write_bytes|writeFileSync|writeFile|file_put_contents)\s*\((?:[^(),]*,)?\s*\"\"\s*[,)]"
)
WRITES = re.compile(r"\b(write|writelines|dump|print|copyfileobj|puts|fwrite)\b")
WRITE_MODES = {"w", "wb", "w+", "wt", "w+b", "wb+"}
SHELL_OUTS = names(
    "system popen Popen run call check_call check_output getoutput getstatusoutput shell_exec passthru proc_open "
    "Command child_process"
)
# compile( and not re.compile(: a method of that name compiles a pattern, not code
BUILT_CODE = re.compile(r"\b(exec|eval|(?<!\.)compile|Function)\s*\((?!\s*r?\"(_|API)?\"\s*[,)])")
NAMED_BY_STRING = re.compile(
    r"\b(getattr|send|method|public_send)\s*\([^()]*\"API\"|\[\s*\"API\"\s*\]|\(\s*\"API\"\s*,"
)
API_NAMES = names(
    "rmtree remove unlink rmdir removedirs rm rmSync unlinkSync rmdirSync rm_rf rm_r remove_dir remove_entry delete"
)
# a file named by a literal that the code writes whole: open(f, 'w'), Path(f).write_text, writeFileSync(f, …), …
WRITTEN = re.compile(
    r"""\bopen\(\s*(['"])([^'"\n]+)\1\s*,\s*(?:mode\s*=\s*)?['"][wx]"""
    r"""|\bPath\(\s*(['"])([^'"\n]+)\3\s*\)\s*\.\s*write_(?:text|bytes)\b"""
    r"""|\b(?:writeFileSync|writeFile|file_put_contents|File\.write|Deno\.writeTextFile)\(\s*(['"])([^'"\n]+)\5"""
)
# an ORM's or a driver's calls that drop a database's tables or data: SQLAlchemy's MetaData.drop_all, peewee's
# drop_tables, MongoDB drivers' dropDatabase/drop_database/drop_collection, Sequelize's sync({force: true}) (it drops
# each table before creating it), TypeORM's dropDatabase/synchronize(true)'s kin dropSchema, redis clients' flushall
DROPS = re.compile(
    r"\.\s*(drop_all|drop_tables|drop_database|drop_collection|dropDatabase|dropCollection|dropSchema|dropAllSchemas"
    r"|flushall|flushdb|flushAll|flushDb)\s*\(|\.\s*(sync)\s*\(\s*\{[^{}]*\bforce\s*:\s*true\b"
)
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
# identifiers without which none of the checks above can match: long benign code is passed over in one pass
TRIGGERS = names(
    "rmtree remove_tree removedirs send2trash rimraf rm_rf rm_r rm_f remove_dir safe_unlink unlink rmdir rm rmSync "
    "remove FileUtils File Dir Deno import truncate ftruncate truncateSync exec eval compile Function getattr send "
    "method public_send write_text write_bytes writeFileSync writeFile file_put_contents open system popen Popen run "
    "call check_call check_output getoutput getstatusoutput shell_exec passthru proc_open Command child_process qx "
    "drop_all drop_tables drop_database drop_collection dropDatabase dropCollection dropSchema dropAllSchemas flushall "
    "flushdb flushAll flushDb sync"
)
TRIGGER_PREFIXES = ("spawn", "exec", "capture", "pipeline", "remove_entry", "unlink", "rmdir")
SHELL_WORDS = re.compile(
    r"\b(rm|rmdir|unlink|shred|truncate|rimraf|srm|wipe|trash|git|find|dd|mv|rsync|sh|bash|"
    r"zsh|eval|xargs|mkfs\S*)\b"
)
SED_SUBSTITUTE = re.compile(r"s([^\w\s\\])(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1([a-zA-Z0-9]*)", re.DOTALL)
SED_ADDRESS = r"(?:\d+|\$|/(?:\\.|[^/])*/)(?:\s*[,~]\s*(?:\d+|\$|/(?:\\.|[^/])*/))?"
SED_EXECUTE = re.compile(rf"(?:^|[;\n{{}}])\s*(?:{SED_ADDRESS})?\s*!?\s*e(?:\s|;|$)")
AWK_SYSTEM = re.compile(r"\bsystem\s*\(")
AWK_LITERAL_SYSTEM = re.compile(r"\bsystem\s*\(\s*\"((?:\\.|[^\"\\])*)\"\s*\)")
AWK_PIPE = re.compile(r'\|&?\s*("(?:\\.|[^"\\])*")|("(?:\\.|[^"\\])*")\s*\|&?\s*getline')
# per language: options that take a value, and options whose value is the code
VALUES = {
    "python": {"-W", "-X", "-Q"},
    "node": {"-r", "--require", "--input-type", "--import", "--loader"},
    "perl": {"-I", "-M", "-m"},  # -x takes its directory attached (-xdir) or none
    "ruby": {"-r", "-I", "-C", "-E"},
    "php": {"-c", "-d", "-z"},
    "awk": {"-F", "-v", "-i", "-l", "-f", "--field-separator", "--assign", "--include", "--load", "--file"},
    "sed": {"-l", "-f", "--line-length", "--file"},
}
ONLY_SAYS = {"--version", "-V", "-v", "--help", "-h"}  # print and exit
SAYS_V = {"node", "perl", "php"}  # python's -v is verbose, ruby's and lua's print the version and run on
CODE = {
    "python": set(),
    "node": {"-e", "--eval", "-p", "--print"},
    "perl": {"-e", "-E"},
    "ruby": {"-e"},
    "php": {"-r"},
    "lua": {"-e"},
    "Rscript": {"-e"},
    "deno": {"eval"},
    "bun": {"-e", "--eval", "-p", "--print"},
    "awk": {"-e", "--source"},
    "sed": {"-e", "--expression"},
}


def _family(name: str) -> str:
    """The language of an interpreter's name (python3.12, pypy3, nodejs, php8.2, lua5.4), or of a text tool."""
    for family in ("python", "pypy", "node", "php", "lua"):
        if name.startswith(family):
            return "python" if family == "pypy" else family
    return "awk" if name in AWKS else "sed" if name in SEDS else name


def interpreter_code(name: str, argv: list) -> tuple[str, str | None]:
    """Where the program gets its code: ("code", text or None if computed), ("script", None) for a file or module,
    ("stdin", None) when it reads code from stdin, or ("none", None) when it runs none (--version)."""
    family, i = _family(name), 1
    codes: list[str | None] = []
    while i < len(argv):
        word = argv[i]
        if word is None or not word.startswith("-") or word in ("-", "--"):
            break
        flag = word.split("=", 1)[0]
        if flag in ONLY_SAYS and not codes and family not in ("awk", "sed") and (flag != "-v" or family in SAYS_V):
            return "none", None
        attached = "=" in word and flag in CODE[family]
        if flag in CODE[family] or _code_cluster(family, word):
            codes.append(word.split("=", 1)[1] if attached else argv[i + 1] if i + 1 < len(argv) else "")
            if family == "python":
                break
            i += 1 if attached else 2
            continue
        if family == "python" and re.fullmatch(r"-[a-zA-Z]*m", word):
            return "script", None
        i += 2 if flag in VALUES.get(family, ()) and "=" not in word else 1
    rest = argv[i + (argv[i : i + 1] == ["--"]) :]
    if family == "deno" and rest[:1] == ["eval"]:
        codes.append(rest[1] if len(rest) > 1 else "")
    elif family in ("awk", "sed") and not codes:
        if {"-f", "--file"} & set(argv) or any(a and a.startswith("--file=") for a in argv):
            return "script", None
        codes.append(rest[0] if rest else "")
    if codes:
        literal = [code for code in codes if code is not None]
        return "code", "\n".join(literal) if len(literal) == len(codes) else None
    if rest and rest[0] is None:  # `python3 <(curl …)`: a script computed at run time
        return "code", None
    return ("stdin", None) if not rest or rest[0] in ("-", "/dev/stdin") else ("script", None)


def _code_cluster(family: str, word: str) -> bool:
    """-c in python's clusters (-Bc), -e at the end of perl's and ruby's (-lne, -pe)."""
    if word.startswith("--"):
        return False
    if family == "python":
        return "c" in word[1:] and re.fullmatch(r"-[bBdEhiIOPqsSuvx]*c", word) is not None
    return family in ("perl", "ruby") and re.fullmatch(r"-[a-zA-Z0-9]*[eE]", word) is not None and len(word) > 2


def scan(name: str, code: str, shell: Callable[[str], list[str]]) -> list[str]:
    """Why this code deletes files (or cannot be shown not to); shell(text) checks text handed to a shell."""
    family = _family(name)
    if family == "sed":
        return _sed(code)
    if family == "awk":
        return _awk(code, shell)
    if queries := in_code(code):
        return [Said(N_("the {language} code {does}"), language=name, does=query) for query in queries]
    present = {i for i in set(IDENTIFIER.findall(code)) if i in TRIGGERS or i.startswith(TRIGGER_PREFIXES)}
    if not present and "`" not in code and "%x" not in code:
        return []
    skeleton, literals, commands = _split(code)
    identifiers = set(IDENTIFIER.findall(skeleton))
    # each pattern reads one line at a time, so only the lines holding a trigger need reading
    lines = "\n".join(line for line in skeleton.split("\n") if any(word in line for word in present | {"API"}))
    reasons: list[str] = [
        Said(N_("the {language} code {does}"), language=name, does=does)
        for does in _calls(skeleton, lines, identifiers, literals)
    ]
    if {"exec", "eval", "Function"} & identifiers:  # code handed over as a literal is code all the same
        for literal in literals:
            reasons += scan(name, literal, shell)
    if identifiers & SHELL_OUTS or any(i.startswith(("spawn", "exec", "capture", "pipeline")) for i in identifiers):
        commands += literals
    for text in commands:
        if SHELL_WORDS.search(text):
            reasons += shell(text)
    return reasons


def _calls(skeleton: str, lines: str, identifiers: set[str], literals: list[str]) -> list[str]:
    """What the code itself does that deletes, empties, or hides code."""
    found: list[str] = []
    if identifiers & DELETION_NAMES or DELETION_CALLS.search(lines):
        found.append(Said(N_("calls a file-deletion function")))
    if BUILT_CODE.search(lines):
        found.append(Said(N_("runs code it builds at run time")))
    if NAMED_BY_STRING.search(lines):
        found.append(Said(N_("calls a file-deletion function by name")))
    for call in dict.fromkeys(
        f"{m.group(1)}()" if m.group(1) else "sync({force: true})" for m in DROPS.finditer(lines)
    ):
        said = Said(N_("calls {call}, which drops a database's tables or data"), call=call)
        found.append(Said(N_("{reason} — {undo}"), reason=said, undo=NOT_UNDOABLE))
    opens = "open" in identifiers and WRITE_MODES & set(literals) and not WRITES.search(skeleton)
    if opens or EMPTIES.search(lines):
        found.append(Said(N_("empties a file")))
    return found


def _split(code: str) -> tuple[str, list[str], list[str]]:
    """The code with every string literal replaced by "", the literals, and the literals that are shell commands
    wherever they appear (backticks in perl, ruby and php; qx and %x)."""
    literals, commands = [], []

    def cut(match: re.Match) -> str:
        text = match.group()
        if match.group(1) is not None or not text.startswith(("'", '"')):
            # the last group that matched holds the command: in qx/…/ the one before it is the delimiter
            inner = next(g for g in reversed(match.groups()) if g is not None) if match.group(1) is None else text[1:-1]
            commands.append(inner)
            return '"_"'
        literal = text[3:-3] if text.startswith(("'''", '"""')) else text[1:-1]
        literals.append(literal)
        return '"API"' if literal in API_NAMES else '"_"' if literal else '""'

    return LITERAL.sub(cut, code), literals, commands


def _sed(script: str) -> list[str]:
    flags = [m.group(2) for m in SED_SUBSTITUTE.finditer(script)]
    if any("e" in f for f in flags) or SED_EXECUTE.search(SED_SUBSTITUTE.sub("s", script)):
        return [Said(N_("sed's e command runs the text as a shell command"))]
    return []


def _awk(program: str, shell: Callable[[str], list[str]]) -> list[str]:
    reasons = []
    for text in AWK_LITERAL_SYSTEM.findall(program):
        reasons += shell(text.replace('\\"', '"'))
    bare = re.sub(r'"(?:\\.|[^"\\])*"', '""', program)  # calls, not text that mentions them
    if len(AWK_LITERAL_SYSTEM.findall(bare)) < len(AWK_SYSTEM.findall(bare)):
        reasons.append(Said(N_("awk's system() runs a command built at run time")))
    for match in AWK_PIPE.finditer(program):
        target = (match.group(1) or match.group(2))[1:-1]
        if target.split()[:1] in (["sh"], ["bash"]):
            reasons.append(Said(N_("awk pipes text into a shell")))
        else:
            reasons += shell(target)
    return reasons


def written(code: str) -> list[str]:
    """The files, named by literals, that the code replaces whole."""
    return [m.group(2) or m.group(4) or m.group(6) for m in WRITTEN.finditer(code)]
