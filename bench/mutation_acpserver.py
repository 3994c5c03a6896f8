"""The equivalent mutants of the protocol's server and of a session an editor opens (bench/mutation.py), beside those
the core's measure listed first (mutation_core.py, kept here: a module's entries are one dict): a piece of a line as
the mutant writes it, and why that change cannot alter what the code does."""

from mutation_core import CORE_EQUIVALENT

FIRST_WORD = "the command's name is the text before the first space, however many splits follow it"
NO_CAPABILITY = (
    "the protocol's defaults: a capability left out of initialize's response, or null (which the library leaves out), "
    "is false, as Narnat's are"
)

ACPSERVER_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/acp/server.py": {
        **CORE_EQUIVALENT["narnat_agent/acp/server.py"],
        '.removeprefix("/").split(" ", )[0].lower()': FIRST_WORD,
        '.removeprefix("/").split(" ", 2)[0].lower()': FIRST_WORD,
        'self.client: Client | None = ""': "on_connect sets the client as the connection is made, before any request "
        "reads it",
        "self.leaving = None": "the ending signal is read only as true or false until one sets it",
        "*xǁTurnsǁserve__mutmut_11": "only the signal that ends the run raises while the main thread waits for a job "
        "(a SIGINT outside a turn does nothing), and it has set leaving: the loop ends there either way",
        "*xǁTurnsǁserve__mutmut_15": "a prompt is withdrawn only once the connection has closed, and the one job "
        "queued after it is the end: the loop ends there either way",
        # the protocol's defaults: what the response leaves out (or sends as null, which the library leaves out) is
        # false or empty, as Narnat's capabilities are
        "prompt_capabilities=None,": NO_CAPABILITY,
        "mcp_capabilities=None,": NO_CAPABILITY,
        "PromptCapabilities(image=None,": NO_CAPABILITY,
        "PromptCapabilities(image=False, audio=None,": NO_CAPABILITY,
        "audio=False, embedded_context=None)": NO_CAPABILITY,
        "PromptCapabilities(audio=False, embedded_context=False)": NO_CAPABILITY,
        "PromptCapabilities(image=False, embedded_context=False)": NO_CAPABILITY,
        "PromptCapabilities(image=False, audio=False, )": NO_CAPABILITY,
        "McpCapabilities(http=None,": NO_CAPABILITY,
        "McpCapabilities(http=False, sse=None)": NO_CAPABILITY,
        "McpCapabilities(sse=False)": NO_CAPABILITY,
        "McpCapabilities(http=False, )": NO_CAPABILITY,
        "*xǁEditorǁinitialize__mutmut_14": NO_CAPABILITY + " (the prompt capabilities left out)",
        "*xǁEditorǁinitialize__mutmut_15": NO_CAPABILITY + " (the MCP capabilities left out)",
        "auth_methods=None,": NO_CAPABILITY + " (no authentication methods)",
        "agent_capabilities=capabilities, agent_info=about)": NO_CAPABILITY + " (no authentication methods)",
    },
    "narnat_agent/acp/sessions.py": {
        **CORE_EQUIVALENT["narnat_agent/acp/sessions.py"],
        "raise RequestError(INVALID_PARAMS if (name) or True else INTERNAL": "build_agent gives no agent only when a "
        "saved conversation cannot be loaded: a new session (no name) always has one",
    },
}
