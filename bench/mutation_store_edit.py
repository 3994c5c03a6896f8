"""The equivalent mutants of the checkpoint store and Edit's matcher (bench/mutation.py): a piece of a line as the
mutant writes it, and why that change cannot alter what the code does."""

FIRST_PIECE = "the first piece of a split is the same however many pieces are asked for"
BLANK_WITH_BLANK = (
    "lines pair by their text without indentation: a blank line pairs only with a blank one, so one "
    "side blank means both are"
)
NOT_INHERITED = (
    "git gets no environment but PATH: without HOME, XDG_CONFIG_HOME, a terminal or a locale it "
    "reads no user configuration, asks nothing and speaks C, which these settings only say again"
)
NO_SHIFT = "a shift of 0 adds nothing and drops nothing, whichever branch applies it"
LAST_PIECE = "the last piece after a / is the same however many pieces are asked for"
REPOSITORY = "rev-parse exits by whether git takes the folder for a repository, whatever else it is asked"
ONE_ID_A_PATH = "hash-object prints one id for each path it reads, or fails: the two lists have the same length"
NO_RENAMES = "diff-tree looks for renames only when given -M; diff.renames is read by porcelain commands only"
QUIET = "-q only hides repack's progress on stderr, which nobody reads (a stray argument is ignored)"
PACK_SIZE = "only the pack's size and the time to make it change: the same objects are kept and restored"
NO_BITMAP = "repack writes no bitmap for a repository that is not bare, as the store is"
UNREAD = "an unreadable path's state is one constant before and after a call, whatever its value: only a change counts"
ORDER = ("a snapshot's id names its manifest and is compared only with one taken of the same touched list in the same"
         " order: another key order names the same content differently, never restores another")  # fmt: skip
MKSTEMP = "write_atomic makes a new file with mkstemp, 0600 already, and the store never rewrites a file it has"
ON_THE_NANOSECOND = "differs only for a file whose modification time is the cut-off to the nanosecond"
CHMOD = "the next line makes the folder 0700 whatever mkdir made it (the mode only closes the moment between the two)"
REWRITTEN = "the store's .gitignore is then written at every snapshot, with the same bytes"
FALSE = "difflib takes a false autojunk, None included, as False"
BOTH_OR_NEITHER = "a rewind sets both its snapshots (it restored code) or neither (Checkpoints.rewind)"
FALSY = "the value is only ever tested for truth, and both are false"
WHOLE = ("the last whole snapshot is reused only while nothing but the agent's own calls ran since: taking it again"
         " gives the same snapshot, only later")  # fmt: skip
REDO_STEP = "a redo's plan goes to redo(), which never reads its step"
UNSAID = "NotFound's message is never shown: Edit explains the miss from its lines, a notebook says its own sentence"
SAME_LENGTH = "the two have the same length by construction (a match has as many lines as old_string)"
NOT_TYPOGRAPHIC = "X is no typographic character: the set of those in the text is the same"
BELOW = "the indexes are never negative: -1 and -2 are both below every one of them"

CHECKPOINT_AND_EDIT_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/checkpoints/store.py": {
        'rel.split("/", )[0]': FIRST_PIECE,
        'rel.split("/", 2)[0]': FIRST_PIECE,
        '{e.strerror}", None)': UNREAD,
        '{e.strerror}", "XXXX")': UNREAD,
        "json.dumps(kept, sort_keys=None)": ORDER,
        "json.dumps(kept, sort_keys=False)": ORDER,
        "json.dumps(kept, )": ORDER,
        "hexdigest()[:41]": "an id one hex digit longer names its manifest as well: ids are compared, never parsed",
        "data, None)": MKSTEMP,
        "data, )": MKSTEMP,
        'decode("UTF-8", "replace")': "codec names are case-insensitive",
        "autojunk=None)": FALSE,
        "st_mtime >= old": ON_THE_NANOSECOND,
        "st_mtime < old": ON_THE_NANOSECOND,
        "root.mkdir(parents=True, exist_ok=True)": CHMOD,
        "root.mkdir(mode=449, parents=True, exist_ok=True)": CHMOD,
        '(root / "XX.gitignoreXX").exists()': REWRITTEN,
        '(root / ".GITIGNORE").exists()': REWRITTEN,
        'b"*\\n", None)': MKSTEMP,
        'b"*\\n", )': MKSTEMP,
    },
    "narnat_agent/checkpoints/entries.py": {
        "raise TypeError(None)": "load turns every TypeError into Damaged, and its message goes nowhere",
        "elif entry.before or entry.after:": BOTH_OR_NEITHER,
        "if entry.before or entry.after else set()": BOTH_OR_NEITHER,
    },
    "narnat_agent/checkpoints/timeline.py": {
        "began >= datetime.fromisoformat(first)": ON_THE_NANOSECOND.replace("file", "store"),
        "if (self.broken) and False else": "turns() reads the snapshots found only when the store is not broken",
        "return self._plan(None,": REDO_STEP,
        "return self._plan(1,": REDO_STEP,
        "if last.before or last.after else None": BOTH_OR_NEITHER,
        "restore(self.store, plan, overwrite, None)": "only the log says why files were restored",
        "self.broken = None": FALSY,
        "self.said_commands = None": FALSY,
        'self.whole = ""': FALSY,
        'self.whole: Snapshot | None = ""': FALSY,
        'before = after = ""': FALSY,
        "if (anything and self.whole) and False else": WHOLE,
        "if everything and self.whole:": WHOLE,
        "if (before) or True else None": "before is None only once the store is broken, and after() then takes no "
        "snapshot and records nothing",
    },
    "narnat_agent/checkpoints/plans.py": {
        "if not overwrite or plan.conflicts:": "the branch only writes the log",
        "snapshot(touched, everything=None).id": "a false everything, None included, is False",
        "c in changes], everything=None).id": "a false everything, None included, is False",
    },
    "narnat_agent/checkpoints/git.py": {
        **{
            f'"{name}": ': NOT_INHERITED
            for name in (
                "XXHOMEXX",
                "home",
                "XXXDG_CONFIG_HOMEXX",
                "xdg_config_home",
                "XXGIT_CONFIG_GLOBALXX",
                "git_config_global",
                "XXGIT_TERMINAL_PROMPTXX",
                "git_terminal_prompt",
                "XXLC_ALLXX",
                "lc_all",
            )
        },
        '"HOME": str(None)': NOT_INHERITED,
        '"XDG_CONFIG_HOME": str(None)': NOT_INHERITED,
        '"GIT_TERMINAL_PROMPT": "XX0XX"': NOT_INHERITED,
        '"LC_ALL": "XXCXX"': NOT_INHERITED,
        '"LC_ALL": "c"': NOT_INHERITED,
        "start_new_session=True, pass_fds=hold,": "core.sharedRepository=0600 has git set each file's mode itself: "
        "the umask only closes the moment between a file's creation and git's chmod",
    },
    "narnat_agent/checkpoints/lock.py": {
        "lock.unlink(missing_ok=": "the store's lock is held: nobody removes a git lock between the listing and the "
        "unlink",
        "*.xǁStoreLockǁ_take__mutmut_3": "told starts as None instead of False: it is only tested for truth",
        "if time.monotonic() > deadline:": "the clock reads the deadline to the nanosecond only by chance: either way "
        "the wait ends within one poll",
    },
    "narnat_agent/checkpoints/git_store.py": {
        '"init", "--template=")': "--quiet only hides git init's line on stdout, which nobody reads",
        'self.git.run("rev-parse", )[0] == 0': REPOSITORY,
        '"rev-parse", "--GIT-DIR")': REPOSITORY,
        'n.rsplit("/", )[-1]': LAST_PIECE,
        'n.rsplit("/", 2)[-1]': LAST_PIECE,
        "self.git.failure(text, None)": "the exit code shows only when git add fails with nothing on stderr, which "
        "only a signal that kills it does",
        '"hash-object", "-w", "--stdin-paths",': "info/attributes turns every filter off and core.autocrlf is false: "
        "nothing is converted either way",
        "strict=None))": ONE_ID_A_PATH,
        "(s.decode() for s in shas), ))": ONE_ID_A_PATH,
        "strict=False))": ONE_ID_A_PATH,
        "folder.count('XX/XX')": "each nested index is deleted before the walk goes deeper: one file name serves "
        "every depth",
        '"diff-tree", "-r", "-z", "--name-only", a, b': NO_RENAMES,
        '"diff-tree", "-r", "-z", "--numstat", a, b': NO_RENAMES,
        '"diff-tree", "-z", "--no-renames", "--numstat"': "--numstat makes diff-tree recurse already",
        '"ls-tree", "-r", "-z", snapshot': "git runs in the project's root: paths are given from the top already",
        "meta.split(None)": "an ls-tree entry's mode, type and id are separated by single spaces",
        "split(maxsplit=2)[0]": FIRST_PIECE,
        '"repack", "-d", "--window=0", "--cruft",': QUIET,
        '"XX-qXX"': QUIET,
        '"repack", "-d", "-q", "--cruft",': PACK_SIZE,
        '"XX--window=0XX"': PACK_SIZE,
        '"XXpack.compression=1XX"': PACK_SIZE,
        '"PACK.COMPRESSION=1"': "git's configuration keys ignore case",
        'f"--cruft-expiration={AGE_DAYS}.days.ago", hold=(fd,))': NO_BITMAP,
        '"XX--no-write-bitmap-indexXX"': NO_BITMAP,
    },
    "narnat_agent/tools/edit/reindent.py": {
        "if shift > 0:": NO_SHIFT,
        "if shift >= 1:": NO_SHIFT,
        "range(j1, j2), strict=None)": SAME_LENGTH,
        "range(j1, j2), )": SAME_LENGTH,
        "range(j1, j2), strict=False)": SAME_LENGTH,
        'elif tag != "replace" and': "an insert or a delete has no lines on one side: its product is 0",
        "if f.strip() or o.strip()]": BLANK_WITH_BLANK,
        "if n.strip() or o.strip():": BLANK_WITH_BLANK,
        'for char in "XX \tXX":': "an X shift needs every pair unindented, which returned KEEP already",
        "pairs = [(indent(f), indent(o)) for f, o in zip(file_block, old_lines, strict=None)": SAME_LENGTH,
        "pairs = [(indent(f), indent(o)) for f, o in zip(file_block, old_lines, )": SAME_LENGTH,
        "pairs = [(indent(f), indent(o)) for f, o in zip(file_block, old_lines, strict=False)": SAME_LENGTH,
        "both = both or (as_old or as_file)": "one frame alone matching casts a vote, and both is read only when "
        "there is none",
        "(j2 - j1) > 401:": "only one line against 401 makes the product 401, and side by side that pairs nothing "
        "either",
    },
    "narnat_agent/tools/edit/matcher.py": {
        "super().__init__(None)": UNSAID,
        'super().__init__("XXold_string was not foundXX")': UNSAID,
        'super().__init__("OLD_STRING WAS NOT FOUND")': UNSAID,
        '"XX XX".join(line.split())': "a split's pieces hold no blank: any separator with one keeps lines apart",
        "while i <= last:": "at i == last the search range is empty: list.index finds nothing and the search ends",
        "newline: bool = True": "every caller says whether the line break goes",
        "autojunk=None)": FALSE,
        "strict=None)": SAME_LENGTH,
        "strict=False)": SAME_LENGTH,
        "zip(block, old_lines, )": SAME_LENGTH,
        "zip(block[i1:i2], made, )": SAME_LENGTH,
        "target[1:-1], ))": SAME_LENGTH,
        "translate(unslip) if (typographic) or True": "a step that is not typographic matched old_string's characters"
        " one for one, so none of them is missing from the block: the fold changes nothing",
        'text.rfind("\\n", None, i)': "rfind takes a start of None as 0",
        'self.text.count("\\n", None, offset)': "count takes a start of None as 0",
        "gone_whole: bool = True": "the removed text is never empty (old_string is not), so the default is never read",
        'new.split("\\n", )[0]': FIRST_PIECE,
        'new.split("\\n", 2)[0]': FIRST_PIECE,
        "previous = list(range(len(b) + 2))": "the extra last cell is never read unless the file's line is empty, and"
        " then the similarity is below the threshold either way",
    },
    "narnat_agent/tools/edit/typography.py": {
        '"XX XX".join(line.split())': "a split's pieces hold no blank: any separator with one keeps lines apart",
        'slip = "XXXX".join(old_lines)': NOT_TYPOGRAPHIC,
        'not in "XXXX".join(block)': NOT_TYPOGRAPHIC,
        "n_done = -2": BELOW,
        "take_new(None, ": "every new character before the block is already out or stood for by a file character:"
        " n_done is at least the last of them, so starting at the line's start adds nothing",
        "autojunk=None)": FALSE,
    },
    "narnat_agent/conversation/compressor.py": {
        "COMPRESSION_PROMPT}], None, sink)": "the client sends no tools field for None and for an empty list alike",
    },
}
