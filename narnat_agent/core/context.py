"""The conversation: OpenAI message dicts, appended to only, so every request extends the last one."""

from narnat_agent.core.reply import Reply

CANCELLED = "Cancelled by the user; if it was running, its effects are unknown."


class Conversation:
    def __init__(self, system_prompt: str):
        self.messages: list[dict] = [{"role": "system", "content": system_prompt}]
        self.turns = 0

    def add_user(self, text: str) -> None:
        self.messages.append({"role": "user", "content": text})
        self.turns += 1

    def add_reply(self, reply: Reply) -> None:
        """The assistant message; calls of a reply that was cut off are left out, so none waits for a result."""
        calls = [] if reply.cut_off else reply.tool_calls
        if not calls and not reply.content:
            return
        message: dict = {"role": "assistant", "content": reply.content or None}
        if reply.reasoning and calls:  # thinking providers need it back on tool-call turns
            message[reply.reasoning_field] = reply.reasoning
        if calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.stored_arguments}}
                for c in calls
            ]
        else:
            message["content"] = reply.content
        self.messages.append(message)

    def add_tool_result(self, call_id: str, text: str) -> None:
        self.messages.append({"role": "tool", "tool_call_id": call_id, "content": text})

    def answer_open_calls(self, text: str = CANCELLED) -> None:
        """Give every tool call of the last assistant message a result, so the history stays valid."""
        for i in range(len(self.messages) - 1, -1, -1):
            if self.messages[i]["role"] == "assistant":
                break
        else:
            return
        answered = {m["tool_call_id"] for m in self.messages[i + 1 :] if m["role"] == "tool"}
        for call in self.messages[i].get("tool_calls", []):
            if call["id"] not in answered:
                self.add_tool_result(call["id"], text)
