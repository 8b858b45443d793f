"""The names benchmark: its metric on hand-computed cases, and `bench/names.py` end to end.

`bench/name_labels.py` scores derived names against labels read by a person; the
figures are only worth anything if the comparison and the counts are exactly the ones
its docstring defines, so they are pinned here by hand.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.name_labels import (
    Label, LabelError, comparison_form, is_right, read_labels, score_names, split_halves,
)
from tui.core.naming.derive import derive_name

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "names.py"


def label(primary: str | None, *also: str, position: int = 0) -> Label:
    return Label("x.txt", position, primary, tuple(also))


@pytest.mark.parametrize(("derived", "primary", "right"), [
    ("VGGT-Motion", "VGGT Motion", True),      # hyphen and space are one joiner
    ("vggt–motion", "VGGT-Motion", True),      # so are case and an en dash
    ("Trajectron", "the Trajectron", True),    # a leading "the" is no part of a name
    ("“Group-Topic”", "Group-Topic", True),    # nor are quotes
    ("XNM", "XNMs", False),                    # a plural is another name
    ("FlowNet", "FlowNet 2.0", False),         # a prefix is not the name
    ("GroupTopic", "Group-Topic", False),      # a joiner is a space, not nothing
    ("", "Gecko", False),
])
def test_comparison(derived: str, primary: str, right: bool) -> None:
    assert is_right(derived, label(primary)) is right


def test_comparison_form() -> None:
    assert comparison_form("  The  Group_Topic--Model ") == "group topic model"
    assert comparison_form("$\\beta$-VAE") == "beta vae"


def test_also_names_count_and_no_primary_means_none_is_right() -> None:
    long_form = "Decision Directed Acyclic Graph"
    assert is_right(long_form, label("DDAG", long_form))
    assert is_right("DAGSVM", label("DDAG", "DAGSVM"))
    assert not is_right("DAGSVM", label(None, "DAGSVM"))


def test_scores_by_hand() -> None:
    pairs = [
        (label("Gecko", position=0), "Gecko"),          # right
        (label("ABFNet", "Anisotropic Butterworth Fusion Network", position=1),
         "Anisotropic Butterworth Fusion Network"),     # right, by an also name
        (label("OEU", position=2), ""),                 # missed
        (label("SAP", position=3), "LLM"),              # wrong and missed
        (label(None, position=4), "CNN"),               # wrong
        (label(None, position=5), ""),                  # nothing, rightly
    ]
    result = score_names(pairs)
    assert (result.labelled, result.with_primary, result.derived, result.right) == (6, 4, 4, 2)
    assert result.precision == pytest.approx(2 / 4)
    assert result.recall == pytest.approx(2 / 4)
    assert [(lab.position, got) for lab, got in result.misses] == [(2, ""), (3, "LLM")]
    assert [(lab.position, got) for lab, got in result.wrong] == [(3, "LLM"), (4, "CNN")]


def test_undefined_figures_are_none() -> None:
    result = score_names([(label(None), "")])
    assert result.precision is None and result.recall is None


def test_halves_are_fixed_disjoint_and_independent_of_order() -> None:
    labels = [label("N", position=i) for i in range(11)]
    half_a, half_b = split_halves(labels, seed=3)
    assert len(half_a) == 6 and len(half_b) == 5
    assert {lab.position for lab in half_a} | {lab.position for lab in half_b} == set(range(11))
    assert not {lab.position for lab in half_a} & {lab.position for lab in half_b}
    again_a, _ = split_halves(list(reversed(labels)), seed=3)
    assert sorted(lab.position for lab in again_a) == sorted(lab.position for lab in half_a)
    other_a, _ = split_halves(labels, seed=4)
    assert {lab.position for lab in other_a} != {lab.position for lab in half_a}


def test_read_labels(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text(
        '{"file": "a.txt", "position": 2, "primary": "Gecko", "also": ["G"], "confidence": "low"}\n'
        '\n{"file": "a.txt", "position": 3, "primary": null, "also": []}\n',
        encoding="utf-8",
    )
    assert read_labels(path) == [Label("a.txt", 2, "Gecko", ("G",), "low"),
                                 Label("a.txt", 3, None, (), "high")]
    path.write_text('{"file": "a.txt", "position": 1, "primary": null}\n{"file": "a.txt"}\n',
                    encoding="utf-8")
    with pytest.raises(LabelError, match=r"labels\.jsonl:2: not a label"):
        read_labels(path)


# A tiny corpus: a named abstract, one whose name goes underived, one that names nothing.
NAMED = ("We propose Gecko, a stateful simulation environment that provides informative "
         "feedback for refining tool calls. Experiments show large gains.")
UNNAMED = "We study the sample complexity of active regression under general losses."
PLAIN = "This note revisits stochastic gradient methods and reports their behaviour."


def make_corpus(tmp_path: Path) -> tuple[Path, Path]:
    corpora = tmp_path / "corpora"
    corpora.mkdir()
    (corpora / "tiny.txt").write_text(
        "Tiny 2026 Papers\n\n" + "\n\n".join([NAMED, UNNAMED, PLAIN]) + "\n", encoding="utf-8")
    labels = tmp_path / "labels.jsonl"
    records = [
        {"file": "tiny.txt", "position": 0, "primary": "Gecko", "also": [], "confidence": "high"},
        {"file": "tiny.txt", "position": 1, "primary": "ActReg", "also": [], "confidence": "low"},
        {"file": "tiny.txt", "position": 2, "primary": None, "also": [], "confidence": "high"},
    ]
    labels.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return corpora, labels


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=240)


ROW = re.compile(r"^(whole|half A|half B)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d\.\d{3}|n/a)"
                 r"\s+(\d\.\d{3}|n/a)$")


def test_output_shape_on_a_tiny_labelled_corpus(tmp_path: Path) -> None:
    assert (derive_name(NAMED), derive_name(UNNAMED), derive_name(PLAIN)) == ("Gecko", "", "")
    corpora, labels = make_corpus(tmp_path)
    proc = run_bench("--corpora", str(corpora), "--labels", str(labels), "--no-titles",
                     "--verbose", "--seeds", str(tmp_path / "no-seeds"))
    assert proc.returncode == 0, proc.stderr
    rows = {m.group(1): m.groups()[1:] for m in map(ROW.match, proc.stdout.splitlines()) if m}
    assert list(rows) == ["whole", "half A", "half B"]
    assert rows["whole"] == ("3", "2", "1", "1", "1.000", "0.500")
    halves = [rows["half A"], rows["half B"]]
    assert sum(int(r[0]) for r in halves) == 3 and sum(int(r[3]) for r in halves) == 1
    misses = proc.stdout.split("-- misses (1)")[1].split("-- wrong names (0)")
    assert "tiny.txt:1" in misses[0] and "'ActReg'" in misses[0] and "[low]" in misses[0]
    assert "tiny.txt" not in misses[1]
    only_a = run_bench("--corpora", str(corpora), "--labels", str(labels), "--no-titles",
                       "--half", "a")
    assert [m.group(1) for m in map(ROW.match, only_a.stdout.splitlines()) if m] == ["half A"]


def test_bad_labels_fail_in_one_line(tmp_path: Path) -> None:
    corpora, labels = make_corpus(tmp_path)
    labels.write_text('{"file": "tiny.txt", "position": 9, "primary": null}\n', encoding="utf-8")
    proc = run_bench("--corpora", str(corpora), "--labels", str(labels), "--no-titles")
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "tiny.txt:9" in proc.stderr
    proc = run_bench("--corpora", str(corpora), "--labels", str(tmp_path / "none.jsonl"))
    assert proc.returncode == 2
    assert proc.stderr == f"names.py: no labelled names at {tmp_path / 'none.jsonl'} (use --labels)\n"
