"""Files in the legacy code pages of Chinese and Western Windows: read as the text they hold, and written back in
their own encoding."""

import pytest

from narnat_agent.tools.registry import execute

# `# 注释\nprint("你好")\n` as a Chinese Windows editor saves it (cp936/GBK): too short to be detected with confidence
GBK_SOURCE = b'# \xd7\xa2\xca\xcd\nprint("\xc4\xe3\xba\xc3")\n'
# `print("你好，世界")`: the edit's new text, in GBK (which GB18030 writes the same)
GBK_EDITED = b'# \xd7\xa2\xca\xcd\nprint("\xc4\xe3\xba\xc3\xa3\xac\xca\xc0\xbd\xe7")\n'


@pytest.mark.windows
def test_a_short_gbk_file_reads_as_chinese_and_an_edit_keeps_it_gbk(workspace, project):
    (project / "hello.py").write_bytes(GBK_SOURCE)
    seen = execute("Read", {"file_path": "hello.py"}, workspace)
    assert 'print("你好")' in seen.text and "# 注释" in seen.text and "gb18030" in seen.text
    edited = execute("Edit", {"file_path": "hello.py", "old_string": '"你好"', "new_string": '"你好，世界"'}, workspace)
    assert not edited.is_error, edited.text
    assert (project / "hello.py").read_bytes() == GBK_EDITED


@pytest.mark.windows
def test_a_character_gbk_lacks_is_written_in_gb18030_not_utf8(workspace, project):
    (project / "hello.py").write_bytes(GBK_SOURCE)
    execute("Read", {"file_path": "hello.py"}, workspace)
    execute("Edit", {"file_path": "hello.py", "old_string": "你好", "new_string": "你好 😀"}, workspace)
    assert (project / "hello.py").read_bytes() == GBK_SOURCE.replace(b"\xc4\xe3\xba\xc3", "你好 😀".encode("gb18030"))


@pytest.mark.windows
def test_a_file_that_names_its_gbk_coding_is_kept_in_gb18030_too(workspace, project):
    # a declared coding makes the detector sure, and it names GBK itself: still read and written as GB18030
    source = "# -*- coding: gbk -*-\n# 中华人民共和国是世界上人口最多的国家之一\nname = '你好'\n"
    (project / "old.py").write_bytes(source.encode("gbk"))
    seen = execute("Read", {"file_path": "old.py"}, workspace)
    assert "name = '你好'" in seen.text and "gb18030" in seen.text
    edited = execute("Edit", {"file_path": "old.py", "old_string": "'你好'", "new_string": "'你好 😀'"}, workspace)
    assert not edited.is_error and "UTF-8" not in edited.text, edited.text
    assert (project / "old.py").read_bytes() == source.replace("'你好'", "'你好 😀'").encode("gb18030")


@pytest.mark.windows
def test_western_text_in_cp1252_still_reads_as_cp1252(workspace, project):
    (project / "menu.txt").write_bytes("café au lait, naïve façade – 5 €\n".encode("cp1252"))
    seen = execute("Read", {"file_path": "menu.txt"}, workspace)
    assert "café au lait, naïve façade – 5 €" in seen.text and "cp1252" in seen.text
