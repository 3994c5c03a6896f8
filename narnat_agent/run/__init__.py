"""Running Narnat once it is configured: the interactive run (repl), a headless one (headless), what both do
around their conversation (start), and how a signal ends either (signals)."""
