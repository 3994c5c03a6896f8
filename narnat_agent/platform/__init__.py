"""What differs between POSIX and Windows, one module per concern, each choosing its side once, at import.

`processes.py` process trees: started so they can be stopped whole, stopped whole, and whether a process lives;
`signals.py` the signals that end a run, threads that never take them, the main thread interrupted from another;
`console.py` the keyboard the key watcher reads, the terminal's settings given back, UTF-8 output;
`locks.py` a file lock the system drops when its holder dies; `files.py` a folder's files stat'ed, a file made
private to its user, paths and globs as the user writes them; `watch.py` folders watched for changes (Linux
only). `win32.py` holds the Windows API calls the Windows sides make (imported only on Windows).

Nothing here imports the rest of Narnat: every layer may use it.
"""
