"""The equivalent mutants of the platform group (the checkpoints' watcher, journal and index, encodable text, the
log, the settings and the translations) for bench/mutation.py: a piece of a line as the mutant writes it, or a
pattern of mutant names (starting with *), and why the change cannot alter what the code does."""

FALSY = "the flag is read only as true or false, and None is false"
LOGGED = "the reason goes to the log alone, whose wording is not behaviour"
LAST_PART = "the last part of a path is the same however many times it is split from the right"
UNKNOWN = (
    "with the names changed unknown, still() is false until the next mark, which sets untaken itself: it is not read "
    "before"
)
GONE = "with the watch gone, still() is false and mark() returns at once: changed and untaken are not read again"
ROOT = "None and the empty name both name the project's own folder"
LOCALE = "the locale's encoding is UTF-8 wherever these tests run (POSIX's: Python makes the C locale UTF-8)"
FOUND = "every code comes from a catalog languages() found under locale/: gettext finds its file either way"
NOT_FOLLOWED = "follow_symlinks takes None as false; only folders reach the stat, and a folder is no link"

PLATFORM_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/checkpoints/watching.py": {
        "self.untaken = False  # a change since": UNKNOWN,
        "self.untaken = None  # a change since": UNKNOWN,
        "self.lost = None": FALSY,
        "self.off = None": FALSY,
        "self.ignored: set[str] = None": "the first follow sets the folders ignored before the watch that reads them",
        'self.changed: set[str] | None = ""': "mark() returns at once while there is no watch, and the first follow "
        "sets changed to None as it opens one",
        "self._stop(None)": LOGGED,
        'return {"XXXX"}': "any name not empty: events lost leave the names unknown and a stopped watch is gone, so "
        "still() is false until the next mark, which sets untaken itself",
        'name.rsplit("/", )[-1]': LAST_PART,
        'name.rsplit("/", 2)[-1]': LAST_PART,
        "self.watch, self.off, self.changed, self.untaken = None, True, None, False": GONE,
        "self.changed, self.untaken = None, False": UNKNOWN,
        "(set(), False) if (self.watch is not None) or True else (None, True)": GONE,
        "(set(), False) if self.watch is not None else (None, False)": GONE,
        "*xǁWatcherǁfollow__mutmut_8": ROOT,
        "*xǁWatcherǁmark__mutmut_7": ROOT,
        "entry.is_dir(follow_symlinks=None)": NOT_FOLLOWED,
        "entry.stat(follow_symlinks=None)": NOT_FOLLOWED,
        "entry.stat(follow_symlinks=True)": NOT_FOLLOWED,
    },
    "narnat_agent/checkpoints/index.py": {
        'self.known: tuple[int, int, int] | None = ""': "no file's stat is the empty text: nothing is known either way",
        "self.path.unlink(missing_ok=None)": "the index was there at the stat just before: only another process "
        "removing it in between can tell",
        "self.path.unlink(missing_ok=False)": "the index was there at the stat just before: only another process "
        "removing it in between can tell",
    },
    "narnat_agent/encodable.py": {
        "if (SURROGATE.search(text)) or True else text": "re.sub gives the text itself back when nothing matches",
    },
    "narnat_agent/logger.py": {
        "path.parent.mkdir(parents=True, exist_ok=": "a folder that exists raises FileExistsError, an OSError, "
        "suppressed as the folder's other failures are: the file is opened in it at the first line either way",
        "path.parent.mkdir(parents=True, )": "a folder that exists raises FileExistsError, an OSError, suppressed as "
        "the folder's other failures are: the file is opened in it at the first line either way",
        "root.propagate = None": FALSY,
        'super().__init__(path, encoding="UTF-8", delay=True)': "codec names ignore case",
        "super().__init__(path, encoding=None, delay=True)": LOCALE,
        "super().__init__(path, delay=True)": LOCALE,
        "self.handleError(None)": "handleError reads the error being handled, not the record",
    },
    "narnat_agent/config/loader.py": {
        'path.read_text(encoding="UTF-8")': "codec names ignore case",
        "ensure_ascii=None)": "json.dumps takes a false ensure_ascii, None included, as False",
    },
    "narnat_agent/i18n.py": {
        "[code], fallback=None)": FOUND,
        "[code], fallback=False)": FOUND,
        "[code], )": FOUND,
        "same = None": "each language has one catalog: the catalog of the asked region is also the first of its "
        "language",
        'in "XXWFXX"': "east_asian_width gives W, F, Na, H, A or N: each is in both strings or in neither",
    },
    "narnat_agent/checkpoints/runs.py": {
        "return os.read(fd, 2)": "after the seek to the last byte, one byte is left to read however many are asked",
    },
}
