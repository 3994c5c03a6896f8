"""Programs that never end on their own or wait for a person, beyond editors, REPLs and pagers: watch modes, dev
loops, ping without a count, consoles and sign-in prompts. The forms come from each tool's manual; a program no
table knows is read by its words, as the destructive ones are: a server, a port-forward, a dashboard or a dev loop
says so in its name or its first subcommands (`redis-server`, `ollama serve`, `kubectl port-forward`, `minikube
dashboard`, `skaffold dev`)."""

import re

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.code import INTERPRETERS
from narnat_agent.safety.destroys import program
from narnat_agent.safety.syntax import Command, names
from narnat_agent.safety.vocabulary import REHEARSALS, parts, subcommands

WATCH_OPTIONS = names("--watch --watchAll --watch=true --watchAll=true")
ALWAYS = names("nodemon ts-node-dev tsc-watch chokidar entr start-storybook")  # their whole job is to wait for changes
SUBCOMMANDS = {  # program → subcommands that never end or ask questions
    "cargo": names("watch"),
    "dotnet": names("watch"),
    "terraform": names("console"),
    "tofu": names("console"),
    "gcloud": names("init"),
    "firebase": names("login"),
    "heroku": names("login"),
    "vercel": names("login"),
    "netlify": names("login"),
    "npm": names("login adduser"),
}
NEVER_END = {  # program → subcommands that serve, watch or follow until stopped ("*": whatever the words)
    "prisma": names("studio"),
    "drizzle-kit": names("studio"),
    "storybook": names("dev start"),
    "wrangler": names("dev tail"),
    "netlify": names("dev watch"),
    "vercel": names("dev"),
    "jupyter": names("lab notebook server"),
    "jupyter-lab": names("*"),
    "streamlit": names("run hello"),
    "mkdocs": names("serve"),
    "ngrok": names("http tcp tls start"),
    "cloudflared": names("tunnel"),
    "firebase": names("emulators:start serve"),
    "stern": names("*"),
    "tilt": names("up"),  # Tilt: `tilt up` runs the dev loop until stopped (`tilt ci` ends)
    "okteto": names("up"),  # Okteto CLI: `okteto up` keeps the development container synced
}
FOLLOWS = {  # program → the words that print a log, and the options that make it follow the log forever
    "aws": (("logs", "tail"), names("--follow")),
    "gcloud": (("logs", "tail"), names("*")),
    "heroku": (("logs",), names("--tail -t")),
    "fly": (("logs",), names("*")),
    "flyctl": (("logs",), names("*")),
    "az": (("log", "tail"), names("*")),
    "railway": (("logs",), names("*")),
}
UNTIL_STOPPED = names("--no-follow --no-tail")  # log commands that end when told so
SERVERS = {  # program → what makes it serve until stopped: a subcommand, "" for none given, "*" for anything
    "uvicorn": names("*"),
    "gunicorn": names("*"),
    "hypercorn": names("*"),
    "daphne": names("*"),
    "http-server": names("*"),
    "live-server": names("*"),
    "manage.py": names("runserver runserver_plus"),
    "flask": names("run"),
    "rails": names("server s"),
    "vite": frozenset({"", "dev", "serve", "preview"}),
    "next": names("dev start"),
    "nuxt": names("dev"),
    "nuxi": names("dev"),
    "astro": names("dev"),
    "ng": names("serve s"),
    "webpack": names("serve"),
    "webpack-dev-server": names("*"),
    "hugo": names("server serve"),
    "jekyll": names("serve s"),
    "gatsby": names("develop"),
    "expo": names("start"),
}
SHORT_WATCH = names("tsc vite webpack rollup esbuild tailwindcss sass")  # -w is their watch mode
PACKAGE_MANAGERS = names("npm yarn pnpm bun")
# the package scripts that start a development server by convention
SCRIPTS = names("dev start serve develop storybook")
NAMES = (
    ALWAYS
    | SUBCOMMANDS.keys()
    | SHORT_WATCH
    | SERVERS.keys()
    | PACKAGE_MANAGERS
    | FOLLOWS.keys()
    | NEVER_END.keys()
    | names("ping ping6 read aws az gcloud php celery")
)
SERVING = names("serve server proxy")  # in a program's name: `redis-server`, `npx serve`, `cloud-sql-proxy`
STARTS = names(  # first word
    "dev develop serve server runserver dashboard tunnel proxy watch studio port-forward listen"
)
SECOND = names("serve runserver")  # as its second: `supabase functions serve`
ENDING = names("stop status list ls kill info version help install build deploy config log logs restart")
DETACHED = names("-d --detach --daemon --daemonize --background --bg")  # it starts in the background and returns
MODULE_SERVERS = names("http.server SimpleHTTPServer")  # python -m …; the others as SERVERS says of their program
PING_ENDS = re.compile(r"-[a-zA-Z]*[cw]")  # a count or a deadline


def never_ends(name: str, argv: list[str | None], command: Command) -> str | None:
    """Why this command would never end or would wait for a person, or None."""
    if name not in NAMES and not name.startswith("python") and WATCH_OPTIONS.isdisjoint(argv) or command.background:
        return None  # the common case, settled at once; and the shell does not wait for what it starts with `&`
    name, argv = program(name, argv)
    args = [a for a in argv[1:] if a is not None]
    words = [a for a in args if not a.startswith("-")]
    if WATCH_OPTIONS & set(args) or name in SHORT_WATCH and "-w" in args or name in ALWAYS:
        return Said(N_("{program} in watch mode never ends: run it once (without --watch)"), program=name)
    if _serves(name, args, words):
        return Said(
            N_("{program} serves until it is stopped: start it in the background (`… &`), then query it"), program=name
        )
    if words[:1] and words[0] in SUBCOMMANDS.get(name, ()):
        return Said(N_("{program} {word} waits for a person or never ends"), program=name, word=words[0])
    ends = NEVER_END.get(name, frozenset())
    if (words[:1] and words[0] in ends or "*" in ends) and not UNTIL_STOPPED & set(args):
        return Said(N_("{program} {word} never ends: run it with run_in_background (or put timeout N in front)"),
                    program=name, word="" if "*" in ends else words[0])  # fmt: skip
    if name == "celery" and {"worker", "beat", "flower"} & set(words):
        return Said(N_("{program} {word} never ends: run it with run_in_background (or put timeout N in front)"),
                    program=name, word="worker")  # fmt: skip
    if _follows(name, args, words):
        return Said(N_("{program} follows the log and never ends: run it with run_in_background, or drop the "
                       "follow option"), program=name)  # fmt: skip
    if name in ("ping", "ping6") and not any(PING_ENDS.match(a) for a in args):
        return Said(N_("{program} never ends: add -c N"), program=name)
    timed = any(re.fullmatch(r"-[a-zA-Z]*t\S*", a) for a in args)  # bash(1): read -t N gives up after N seconds
    if name == "read" and any(re.fullmatch(r"-[a-zA-Z]*p", a) for a in args) and not _fed(command) and not timed:
        return Said(N_("read -p asks the user a question: ask in your answer instead"))
    return _signs_in(name, args, words)


def _signs_in(name: str, args: list[str], words: list[str]) -> str | None:
    """Sign-ins and set-ups that ask a person questions or send them to a browser."""
    if name == "aws" and words[:1] == ["configure"] and words[1:2] in ([], ["sso"]):
        return Said(N_("aws configure asks questions: use aws configure set KEY VALUE"))
    if name == "az" and words[:1] == ["login"] and not {"--service-principal", "--identity"} & set(args):
        return Said(N_("az login waits for a person to sign in in a browser"))
    if name == "gcloud" and words[:2] == ["auth", "login"] and not any(a.startswith("--cred-file") for a in args):
        return Said(N_("gcloud auth login waits for a person to sign in in a browser"))
    return None


def _follows(name: str, args: list[str], words: list[str]) -> bool:
    log, follow = FOLLOWS.get(name, ((), frozenset()))
    found = any(tuple(words[i : i + len(log)]) == log for i in range(len(words))) if log else False
    return found and not UNTIL_STOPPED & set(args) and ("*" in follow or bool(follow & set(args)))


def _serves(name: str, args: list[str], words: list[str]) -> bool:
    if name in PACKAGE_MANAGERS:  # `npm start`, `npm run dev`, `yarn dev`
        script = words[1:2] if words[:1] in (["run"], ["run-script"]) else words[:1]
        return bool(script) and script[0] in SCRIPTS and "--help" not in args
    if name == "php":  # before the interpreters, which php is one of
        return "-S" in args
    if INTERPRETERS.match(name):
        if not (name.startswith("python") and args[:1] == ["-m"] and len(args) > 1):
            return False
        rest = args[2:]  # `python -m flask run` serves as `flask run` does; `python -m flask db upgrade` does not
        module_words = [a for a in rest if not a.startswith("-")]
        return args[1] in MODULE_SERVERS or args[1] in SERVERS and _serves(args[1], rest, module_words)
    serving = SERVERS.get(name, frozenset())
    first = words[:2] or [""]  # `flask --app app.py run`: an option's value may come first
    return bool(serving) and "--help" not in args and ("*" in serving or any(w in serving for w in first))


def _fed(command: Command) -> bool:
    return (
        command.stdin is not None or command.stdin_dynamic or command.upstream is not None or bool(command.stdin_file)
    )


def serves_by_words(name: str, argv: list[str | None]) -> str | None:
    """Why a program no table knows would never end, by its words: a server, a port-forward, a dashboard or a dev
    loop in its name or its first subcommands; None when they say it stops, lists, or starts in the background."""
    args = [a for a in argv[1:] if a is not None]
    if (REHEARSALS | DETACHED) & {a.split("=", 1)[0] for a in args}:
        return None
    words = subcommands(argv)
    if any(ENDING & set(parts(w)) for w in words[:2]):
        return None
    segments = [set(re.split(r"[:.]", w.lower())) for w in words[:2]]  # `phx.server`, `server:start`; not `app_dev`
    if SERVING & set(parts(name)) or parts(name) == ["dev"]:
        said = ""
    elif segments and STARTS & segments[0]:
        said = words[0]
    elif len(segments) > 1 and SECOND & segments[1]:
        said = " ".join(words[:2])
    else:
        return None
    return Said(N_("{program} {word} never ends: run it with run_in_background (or put timeout N in front)"),
                program=name, word=said)  # fmt: skip
