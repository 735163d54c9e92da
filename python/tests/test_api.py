import json
import threading

import pytest

import plangram

ACTS = "# Plan\n\n~~~act\nwrite_file src/a.py\n~~~\n\n~~~go\npackage a\n~~~\n"


def test_parse_typed():
    doc = plangram.parse(ACTS)
    assert doc.dialect == "acts"
    assert [a.name for a in doc.actions] == ["write_file"]
    assert doc.actions[0].params["path"] == "src/a.py"
    span = doc.actions[0].span
    assert ACTS.encode()[span.start.offset:span.end.offset].startswith(b"~~~act")
    assert plangram.parse(ACTS.encode()).to_json() == doc.to_json()


def test_parse_diagnostics_and_options():
    doc = plangram.parse("~~~act\nfrobnicate\n~~~\n")
    assert [d.code for d in doc.diagnostics] == ["unknown-action"]
    assert doc.errors[0].format("x.md").startswith("x.md:2:1: error: ")
    assert plangram.parse("--- a/x\n+++ b/x\n", filename="p.diff").dialect == "udiff"
    with pytest.raises(plangram.UsageError, match="unknown dialect"):
        plangram.parse("x", dialect="nope")


def test_bad_schema():
    with pytest.raises(plangram.UsageError):
        plangram.parse("x", schema={"actions": "not a list"})


def test_bad_input_type():
    for bad in (1, None, bytearray(b"x"), ["x"]):
        with pytest.raises(TypeError):
            plangram.parse(bad)
        with pytest.raises(TypeError):
            plangram.check(bad)


def test_invalid_utf8_is_carried():
    doc = plangram.parse(b"~~~act\nwrite_file a\n~~~\n~~~\n\xff\xfe\n~~~\n")
    assert doc.to_json()  # valid UTF-8 JSON, the bytes escaped as the Go API does
    assert doc.actions[0].name == "write_file"


def test_one_gigabyte_raises():
    big = b"a" * ((1 << 30) + 1)
    with pytest.raises(plangram.InputTooLarge):
        plangram.parse(big)
    s = plangram.Stream()
    with pytest.raises(plangram.InputTooLarge):
        s.feed(big)
    del big
    assert s.close()[-1].type == "end"  # the stream still works


def test_check():
    ds = plangram.check("~~~act\nfrobnicate\n~~~\n")
    assert [(d.severity, d.code) for d in ds] == [("error", "unknown-action")]
    assert plangram.check(ACTS) == []


def test_check_root(tmp_path):
    plan = "~~~act\nreplace a.txt\n~~~\n\n~~~\nnot there\n~~~\n\n~~~\ny\n~~~\n"
    (tmp_path / "a.txt").write_text("x\n")
    assert "find-not-found" in {d.code for d in plangram.check(plan, root=tmp_path)}
    with pytest.raises(plangram.UsageError):
        plangram.check(plan, root=tmp_path / "missing")


def test_apply(tmp_path):
    plan = "~~~act\nwrite_file a.txt\n~~~\n\n~~~\nhello\n~~~\n"
    r = plangram.apply(plan, root=tmp_path, dry_run=True)
    assert [(c.kind, c.path) for c in r.changes] == [("A", "a.txt")] and not r.applied
    assert not (tmp_path / "a.txt").exists()
    r = plangram.apply(plan, root=tmp_path)
    assert r.applied and (tmp_path / "a.txt").read_text() == "hello\n"
    assert plangram.apply(plan, root=tmp_path).already_applied


def test_apply_refused_all_or_nothing(tmp_path):
    (tmp_path / "b.txt").write_text("b\n")
    plan = ("~~~act\nwrite_file a.txt\n~~~\n\n~~~\nnew\n~~~\n\n"
            "~~~act\nreplace b.txt\n~~~\n\n~~~\nnot there\n~~~\n\n~~~\ny\n~~~\n")
    with pytest.raises(plangram.ApplyRefused, match="apply refused: nothing was written") as e:
        plangram.apply(plan, root=tmp_path)
    assert "find-not-found" in {d.code for d in e.value.result.diagnostics}
    assert not (tmp_path / "a.txt").exists()
    with pytest.raises(plangram.NothingToApply, match="nothing to apply"):
        plangram.apply("just text\n", root=tmp_path)


def test_stream_chunk_invariant(repo):
    text = (repo / "examples").joinpath("acts.md").read_bytes()
    answer = b"thinking <tool_call>{\"name\":\"read_file\",\"arguments\":{\"path\":\"a\"}}</tool_call> done\n" + text

    def run(chunk):
        s = plangram.Stream()
        evs = []
        for i in range(0, len(answer), chunk):
            evs += s.feed(answer[i:i + chunk])
        evs += s.close()
        # docs/stream.md, "Chunking": the same events once adjacent text
        # (thinking) events are merged; param_delta pieces may be cut anywhere.
        merged = []
        for e in evs:
            if e.type == "param_delta":
                continue
            if merged and e.type in ("text", "thinking") and merged[-1]["type"] == e.type:
                merged[-1] = {"type": e.type, "text": merged[-1]["text"] + e.text,
                              "start": merged[-1]["start"], "end": e.raw["span"]["end"]}
                continue
            r = dict(e.raw)
            if e.type in ("text", "thinking"):
                r = {"type": e.type, "text": e.text, "start": r["span"]["start"], "end": r["span"]["end"]}
            merged.append(r)
        return merged

    whole = run(len(answer))
    assert whole[-1]["type"] == "end"
    assert any(e["type"] == "tool_call" for e in whole)
    for n in (1, 3, 64):
        assert run(n) == whole


def test_stream_tools(repo):
    tools = json.loads((repo / "golden/tools/anthropic.json").read_text())
    call = '<tool_call>{"name":"get_stock_price","arguments":{"ticker":"AAPL"}}</tool_call>'
    with plangram.Stream(tools=tools) as s:
        evs = s.feed(call) + s.close()
    assert [e.params for e in evs if e.type == "tool_call"] == [{"ticker": "AAPL"}]
    assert not [e for e in evs if e.type == "error"]
    with plangram.Stream() as s:  # the built-in registry does not know it
        evs = s.feed(call) + s.close()
    errs = [e for e in evs if e.type == "error"]
    assert errs and "give the model's tools with plangram.Stream(tools=...)" in errs[0].raw["message"]
    with pytest.raises(plangram.UsageError):
        plangram.Stream(tools={"not": "tools"})


def test_stream_after_close_and_free():
    s = plangram.Stream()
    s.feed("hello")
    s.close()
    with pytest.raises(plangram.StreamClosed):
        s.feed("more")
    with pytest.raises(plangram.StreamClosed):
        s.close()
    s.free()
    with pytest.raises(plangram.HandleError):
        s.feed("x")
    with pytest.raises(plangram.HandleError):
        s.free()


def test_freed_handle_in_library():
    from plangram import _lib
    s = plangram.Stream()
    h = s._handle
    s.free()
    with pytest.raises(plangram.HandleError, match="not open"):
        _lib.stream_feed(h, b"x")
    with pytest.raises(plangram.HandleError):
        _lib.stream_close(123456789)


def test_threads():
    docs = [ACTS * (i + 1) for i in range(8)]
    want = [plangram.parse(d).to_json() for d in docs]
    errors = []

    def work(i):
        try:
            for _ in range(30):
                assert plangram.parse(docs[i]).to_json() == want[i]
                s = plangram.Stream(syntax="acts")
                s.feed(docs[i])
                assert s.close()[-1].type == "end"
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    assert not any(t.is_alive() for t in ts), "a thread hung"
    assert errors == []
