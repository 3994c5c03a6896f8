import logging

from narnat_agent.logger import get_logger, start_log


def test_log_lines_have_the_design_format_and_never_hold_secrets(tmp_path):
    path = start_log(tmp_path / ".narnat", ["sk-secret-123"])
    log = get_logger("core.llm")
    log.info("request with key %s", "sk-secret-123")
    log.info("headers: {'Authorization': 'Bearer sk-other'}")
    logging.getLogger("narnat").handlers[0].flush()
    text = path.read_text()
    assert path.parent == tmp_path / ".narnat" / "logs"
    assert "sk-secret-123" not in text and "sk-other" not in text
    first = text.splitlines()[0]
    assert first[19:] == " [core.llm] INFO request with key ***"


def test_each_start_gets_its_own_file(tmp_path):
    first = start_log(tmp_path, [])
    second = start_log(tmp_path, [])
    assert first != second and second.exists()
