"""Names and titles derived from abstracts (tui.core.naming).

The seed expectations were written by reading each of the 38 bundled abstracts: the
name is what the abstract introduces as its own ("" when it introduces none), and the
title check names words the title must carry. The unit tests pin the phrasings and the
false-positive traps one by one; the property tests make sure nothing raises or stalls.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui.core.lists.paragraphs import read_list
from tui.core.naming.derive import derive_name, derive_title
from tui.core.render.text import render

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
FIRST = "000_67583c3df93e6358.txt"
SECOND = "001_a97cd713095d32ac.txt"

# (file, position): (name, words the title must contain)
SEED_EXPECTATIONS: dict[tuple[str, int], tuple[str, str]] = {
    (FIRST, 0): ("Gecko", "stateful simulation environment"),
    (FIRST, 1): ("VGGT-Motion", "calibration-free SLAM system"),
    (FIRST, 2): ("OEU", "Orthogonal Entropy Unlearning"),
    # Proposes "a compositional graph embedding framework"; ILR is background.
    (FIRST, 3): ("", "compositional graph embedding framework"),
    (FIRST, 4): ("ABFNet", "Anisotropic Butterworth Fusion Network"),
    # RKME is the specification it analyses, not something it introduces.
    (FIRST, 5): ("", "incremental risk introduced by specifications in learnware"),
    (FIRST, 6): ("", "Active regression for single-index models"),
    (FIRST, 7): ("SD-MoE", "Spectral-Decoupled MoE"),
    (FIRST, 8): ("Polaris", "polar hyperspherical embedding framework"),
    (FIRST, 9): ("EquiCAD", "symmetry-aware learning framework"),
    (FIRST, 10): ("CoRe", "hybrid framework"),
    (FIRST, 11): ("ReDICE", "DICE-based method"),
    # "we propose BN layers": BN is the batch normalization defined before.
    (FIRST, 12): ("", "BN layers for neural networks on complex domains"),
    (FIRST, 13): ("", "saddle-point problems"),
    (FIRST, 14): ("GCR-RL", "Geometric Coherence Regularized Reinforcement Learning"),
    # Introduces the Mimic Score first, then Grad-Mimic built on it; mimic scores recur.
    (FIRST, 15): ("Mimic Score", "data-quality metric"),
    (FIRST, 16): ("BGFormer", "Bipartite Graph Transformer-based clustering model"),
    (FIRST, 17): ("WebWorld", "open-web simulator"),
    # RapTB is the main objective; SubM comes "further" and once.
    (FIRST, 18): ("RapTB", "Rooted absorbed prefix Trajectory Balance"),
    (SECOND, 0): ("ParaTool", "projects each tool"),
    # "termed Pruning-Induced Malicious Amplification" names a mechanism it finds.
    (SECOND, 1): ("SAP", "Safety-Aware Pruning"),
    # SMILE only closes the abstract ("unlocks a new class of ... (SMILE) samplers").
    (SECOND, 2): ("", "microcanonical dynamics"),
    (SECOND, 3): ("SCHUR-A*", "A* search"),
    (SECOND, 4): ("Move-Then-Operate", "Vision–language–action framework"),
    (SECOND, 5): ("CoCoReviewBench", "3,900 papers"),
    (SECOND, 6): ("X-EviProbe", "post-hoc framework"),
    (SECOND, 7): ("NSI", "Neuro-Symbolic Skill Induction"),
    (SECOND, 8): ("Agent Primitives", "reusable latent building blocks"),
    (SECOND, 9): ("FACET", "representation learning framework"),
    (SECOND, 10): ("SAG", "Sparse ActionGen"),
    (SECOND, 11): ("3DPoV", "self-supervised approach"),
    (SECOND, 12): ("PL-LIME", "sparse local explanation framework"),
    (SECOND, 13): ("Representation Unlearning", "performs unlearning"),
    # "a factored representation learning framework": no name; RLHF is background.
    (SECOND, 14): ("", "factored representation learning framework"),
    (SECOND, 15): ("CombinationTS", "probabilistic evaluation framework"),
    (SECOND, 16): ("EMF", "Euler Mean Flows"),
    (SECOND, 17): ("SOL", "stochastic order learning"),
    (SECOND, 18): ("DPPrefSyn", "differentially private"),
}


def _seed_texts() -> dict[tuple[str, int], str]:
    """Every bundled abstract, rendered as the app renders it."""
    texts: dict[tuple[str, int], str] = {}
    for path in sorted(SEEDS.glob("*.txt")):
        for paper in read_list(path).papers:
            texts[(path.name, paper.position)] = render(paper.raw).text
    return texts


SEED_TEXTS = _seed_texts()


def test_every_seed_abstract_has_an_expectation() -> None:
    assert sorted(SEED_TEXTS) == sorted(SEED_EXPECTATIONS)
    assert len(SEED_TEXTS) == 38


@pytest.mark.parametrize(
    ("key", "name", "title_words"),
    [(key, *value) for key, value in SEED_EXPECTATIONS.items()],
    ids=[f"{key[0][:3]}:{key[1]}" for key in SEED_EXPECTATIONS],
)
def test_seed_name_and_title(key: tuple[str, int], name: str, title_words: str) -> None:
    text = SEED_TEXTS[key]
    assert derive_name(text) == name
    title = derive_title(text, name)
    assert title_words in title
    if name:
        assert title.startswith(name)
    else:
        assert title[:1].isupper()
    _assert_readable(title, text)


def _assert_readable(title: str, text: str) -> None:
    """One line of readable length, no trailing period, not cut inside a word."""
    assert "\n" not in title
    assert 10 <= len(title) <= 110, title
    assert not title.endswith((".", ",", ";", ":"))
    last_word = re.findall(r"[\w*’'-]+", title)[-1]
    assert re.search(rf"(?<![\w-]){re.escape(last_word)}(?![\w-])", text), last_word


def test_gecko_title_matches_the_example_of_the_brief() -> None:
    text = SEED_TEXTS[(FIRST, 0)]
    assert derive_title(text, "Gecko") == (
        "Gecko: a stateful simulation environment that provides informative feedback "
        "for refining LLM tool calls"
    )


# --- introducing phrasings -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Tool use matters. We propose Falcon, a planner that checks every call.", "Falcon"),
        ("We introduce ZetaNet, an architecture for sparse graphs.", "ZetaNet"),
        ("In this paper we present Deep Orbit, a simulator for satellites.", "Deep Orbit"),
        ("We propose Neural Orbit Search (NOS), which finds stable orbits.", "NOS"),
        ("We propose NOS (Neural Orbit Search) to find stable orbits.", "NOS"),
        ("This paper proposes a novel Hierarchical Memory Transformer (HMT) for long text.", "HMT"),
        ("We design a new sampler, called Quickstep, that mixes faster.", "Quickstep"),
        ("We build a dataset named OrbitBench for orbit prediction.", "OrbitBench"),
        ("We develop a training scheme dubbed WarmFlow that needs no labels.", "WarmFlow"),
        ("We identify a failure mode. We propose a remedy termed SlowMo, which helps.", "SlowMo"),
        ("Our method, PolyGrad, achieves the best accuracy on all benchmarks.", "PolyGrad"),
        ("LatticeRL is a new framework for safe exploration. It scales well.", "LatticeRL"),
        ("We introduce the Memory Ledger, a data structure for agents.", "Memory Ledger"),
        ("We propose stochastic order learning (SOL), a framework for ranks. SOL works.", "SOL"),
        # A comma after the verb, doubled quotes, "which we call" amid others' work.
        ("We propose, WarpGAN, a fully automatic network for caricatures.", "WarpGAN"),
        ("We propose a new paradigm called ''Co-teaching'' for noisy labels.", "Co-teaching"),
        ("Unlike previous systems, our system (which we call Autoconj) reads Python.", "Autoconj"),
        # A background word in another clause does not make the name others' work.
        (
            "To fight forgery, which commonly mixes edits, we propose a network called ManTra-Net.",
            "ManTra-Net",
        ),
        ("We introduce Deep Voice 2, which improves on Deep Voice 1.", "Deep Voice 2"),
        ("We present RTRMC 1, a trust-region method for matrix completion.", "RTRMC"),
        (
            'We propose a method termed Double Updating Online Learning, or "DUOL" for short.',
            "DUOL",
        ),
        # A lower-case long form ending in a generic noun names the paper's own network.
        ("We proposed an efficient deep contour-aware network (DCAN) to segment glands.", "DCAN"),
        ("Our approach, Polya-Gamma augmented Thompson Sampling (PG-TS), has low regret.", "PG-TS"),
        ("We introduce a new light field feature detector and descriptor: LiFF.", "LiFF"),
        ("We propose a Multimodal Memory Model (M3) to describe videos.", "M3"),
        ("We present a novel deep network pipeline, LO-Net, for lidar odometry.", "LO-Net"),
        ("We apply those layers in SchNet: a novel deep learning architecture.", "SchNet"),
        (
            "We introduce the Professor Forcing algorithm, which uses adversarial training. "
            "Professor Forcing helps.",
            "Professor Forcing",
        ),
        ("We describe a new mobile architecture, mboxMobileNetV2, that is fast.", "MobileNetV2"),
        ("We propose a method---SEGA (SkEtched GrAdient method)---which sketches.", "SEGA"),
        # A name that closes the introducing sentence after a dash or a colon.
        (
            "We contribute the first large-scale database for car understanding - CarBase3D.",
            "CarBase3D",
        ),
        ("We propose a compression model to defend adversarial examples: ComShield.", "ComShield"),
        ("We add dropouts to boosted trees, resulting in the new DropTree algorithm.", "DropTree"),
        (
            "The main contribution of this work is the introduction of Logical Team Routing (LTR).",
            "LTR",
        ),
        # An acronym naming the object's own head noun ("... (RMPE) framework").
        ("We propose a novel regional multi-person pose estimation (RMPE) framework.", "RMPE"),
        # A network built from the paper's component is the main object.
        (
            "We propose a harmonious bottleneck (HBO) block. HBO blocks are cheap. With them "
            "we build a network, HBONet, that runs on phones.",
            "HBONet",
        ),
        ("The system, called NEXT, provides a platform for active learning.", "NEXT"),
        # A textbook name with a long form of its own is the paper's.
        (
            "We propose the Hierarchical Dirichlet Process (HDP), a prior for groups. "
            "The HDP shares clusters.",
            "HDP",
        ),
    ],
)
def test_introducing_phrasings(text: str, name: str) -> None:
    assert derive_name(text) == name


def test_a_later_clear_introduction_beats_a_passing_mention() -> None:
    text = (
        "PointNet is a pioneer in this direction. However, PointNet misses local structure. "
        "We introduce PointNet++, a hierarchical network that applies PointNet recursively."
    )
    assert derive_name(text) == "PointNet++"


def test_title_of_an_acronym_keeps_its_long_form() -> None:
    text = "We propose a Bipartite Graph Transformer-based clustering model (BGFormer) for cells."
    name = derive_name(text)
    assert name == "BGFormer"
    assert derive_title(text, name) == (
        "BGFormer: a Bipartite Graph Transformer-based clustering model for cells"
    )


def test_title_without_a_name_is_the_studied_phrase() -> None:
    text = "This paper studies online learning with delayed feedback. We prove tight bounds."
    assert derive_name(text) == ""
    assert derive_title(text, "") == "Online learning with delayed feedback"


def test_title_drops_the_short_form_it_starts_with() -> None:
    text = 'We propose a method termed Double Updating Online Learning, or "DUOL" for short.'
    assert derive_title(text, "DUOL") == "DUOL: a method termed Double Updating Online Learning"


def test_title_reads_tex_dashes_as_dashes() -> None:
    text = "We propose a method---SEGA (SkEtched GrAdient method)---which sketches gradients."
    title = derive_title(text, derive_name(text))
    assert title.startswith("SEGA: SkEtched GrAdient method")
    assert "--" not in title


def test_title_without_a_name_is_not_a_fragment() -> None:
    # "difficult to design by hand" would leave the fragment "By hand".
    text = (
        "Energy minimization methods are classical tools. Their assumptions are difficult "
        "to design by hand. Deep learning is purely data-driven."
    )
    title = derive_title(text, derive_name(text))
    assert title == "Energy minimization methods are classical tools"


def test_title_with_a_name_but_no_description_is_the_name() -> None:
    assert derive_title("Nothing to see here.", "Gecko") == "Gecko"


def test_long_title_is_cut_at_a_word_boundary() -> None:
    text = (
        "We propose a method for " + " ".join(["remarkably"] * 10) + " efficient "
        "estimation of extraordinarily complicated probabilistic generative models."
    )
    title = derive_title(text, derive_name(text))
    assert len(title) <= 100
    assert title.split()[-1] in text.split()
    assert not title.endswith(("for", "of", "the", "a"))


# --- false-positive traps -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "We propose a novel method for graph matching that is fast and accurate.",
        "Large language models (LLMs) are strong. Reinforcement learning from human feedback "
        "(RLHF) aligns them. We propose a reward model that resists hacking.",
        "Experiments on BFCLv3 and WebArena show gains for GPT-4o, GPT-5 and Gemini-3.0-pro.",
        "We use BERT to embed sentences and report results on GLUE.",
        "We propose to use ResNet-50 features for retrieval.",
        "Graph neural networks (GNNs) are popular. We propose GNNs for molecules.",
        "We study two prominent models, namely GLOW and RealNVP, under attack.",
        "We show that the so-called Lasso is consistent under weak conditions.",
        "This paper presents a total variation (TV) based approach for deblurring.",
        "We propose a 3D reconstruction pipeline for indoor scenes.",
        "Secondly, a multimodal target detection technique is proposed.",
        "We propose a pseudo-Bayesian estimator for sparse signals.",
        "Spaces called CAT(κ) spaces admit exponential concentration, we show.",
        # Textbook methods, written out or abbreviated, are background.
        "We develop Expectation-Maximization (EM) methods for semantic segmentation.",
        "We propose a Generative Adversarial Network (GAN) to forecast human motion.",
        "Canonical Correlation Analysis (CCA) is a useful technique. We extend it to many views.",
        # The problem an abstract opens with is not its contribution.
        "Face Super-Resolution (SR) is a domain-specific problem. We study it with priors.",
        # A description in lower case is no name; nor are counts and dimensions.
        "We introduce handicapped learning, a new variant of reinforcement learning.",
        "We present a 3.5-point solver for relative pose with a known direction.",
        "We learn a 128-D descriptor, a compact representation for matching.",
        # Several names introduced together: no single one is the paper's name.
        "We propose two algorithms termed FooRank-I and FooRank-II, which locate the target.",
        # An opening "X is a ..." followed by the paper's own, different contribution.
        "Markov Logic is a language for relational learning. We propose a new sampler for it "
        "that mixes quickly. The sampler is exact.",
        # A problem the paper poses is no method, system or benchmark.
        "We introduce the Known Rotation Problem, a new setting for SLAM.",
    ],
)
def test_false_positive_traps_give_no_name(text: str) -> None:
    assert derive_name(text) == ""


@pytest.mark.parametrize(
    "text",
    [
        # Weak evidence alone stays below the threshold: others' work ...
        "Transformers dominate. BERT is a popular encoder. We fine-tune it on notes.",
        "Training uses a popular regularizer called Dropout, which we analyse here.",
        # ... and a textbook term in lower case, mentioned once, is no coined name.
        "We develop a conditional variational autoencoder (CVAE) approach for imputation.",
        "We present an integer programming (IP) formulation for small data sets.",
    ],
)
def test_weak_evidence_is_not_enough(text: str) -> None:
    assert derive_name(text) == ""


def test_weak_evidence_with_repeated_mentions_is_enough() -> None:
    text = (
        "We propose stochastic order learning (SOL) for noisy ranks. SOL learns an "
        "embedding. Experiments show that SOL is robust."
    )
    assert derive_name(text) == "SOL"


def test_background_acronym_used_before_is_not_the_contribution() -> None:
    text = (
        "Local Interpretable Model-agnostic Explanations (LIME) is popular. LIME assumes "
        "linearity. To fix this, we propose PL-LIME, a piecewise linear explainer."
    )
    assert derive_name(text) == "PL-LIME"


def test_a_further_name_after_the_main_contribution_needs_more_support() -> None:
    # ShiftNet comes "further", once, after the paper introduced its (unnamed) operation.
    text = (
        "We propose the shift operation as an alternative to spatial convolutions. We "
        "further design a family of networks called ShiftNet, which performs well."
    )
    assert derive_name(text) == ""
    # Used throughout the abstract, the same phrasing is believed.
    text += " ShiftNet is small. ShiftNet is fast. We release ShiftNet."
    assert derive_name(text) == "ShiftNet"


def test_evaluation_models_after_the_name_do_not_replace_it() -> None:
    text = (
        "We introduce Gecko, a simulator for tool calls. On BFCLv3, Gecko improves "
        "GPT-4o, GPT-5, and Gemini-3.0-pro."
    )
    assert derive_name(text) == "Gecko"


# --- any script, any input ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We propose 鲲鹏, a new model for translation.", "鲲鹏"),
        ("We introduce Ёлка, a planner for robots.", "Ёлка"),
        ("本文提出了一种新的翻译模型。实验表明效果良好。", ""),
        ("Nous proposons une méthode nouvelle pour les graphes.", ""),
    ],
)
def test_names_in_any_script(text: str, name: str) -> None:
    assert derive_name(text) == name
    title = derive_title(text, name)
    assert title and title.startswith(name)


@pytest.mark.parametrize(
    "text",
    ["", "   ", ".", "(", "we propose", "x" * 200_000, "(" * 50_000, "\x00\ud800", "。。。"],
)
def test_odd_inputs_do_not_raise(text: str) -> None:
    assert isinstance(derive_name(text), str)
    assert isinstance(derive_title(text, derive_name(text)), str)


def test_non_string_input_gives_empty_results() -> None:
    assert derive_name(None) == ""  # type: ignore[arg-type]
    assert derive_title(None, "") == ""  # type: ignore[arg-type]
    # A missing name is treated as "": the title is then what the abstract proposes.
    title = derive_title("We propose Gecko, a simulator.", None)  # type: ignore[arg-type]
    assert title == "Gecko, a simulator"


def test_long_inputs_stay_fast() -> None:
    texts = [
        "We propose " + "A" * 40_000 + ", a new model.",
        "We propose " + " ".join(["Xx"] * 20_000) + " (XX).",
        " ".join(SEED_TEXTS.values()) * 5,
    ]
    started = time.perf_counter()
    for text in texts:
        derive_title(text, derive_name(text))
    assert time.perf_counter() - started < 2.0


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_any_text_gives_a_name_written_in_it(text: str) -> None:
    name = derive_name(text)
    assert name == "" or name in " ".join(text.split())
    title = derive_title(text, name)
    assert isinstance(title, str)
    assert "\n" not in title


_WORDS = st.sampled_from(
    "we propose introduce present a an the novel new method framework called named "
    "Gecko X-Net ABFNet (ABF) Full Name , . ( ) which that for of is LLMs GPT-4o 鲲鹏".split()
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, max_size=60))
def test_abstract_like_text_never_raises(words: list[str]) -> None:
    text = " ".join(words)
    name = derive_name(text)
    assert name == "" or name in text
    assert len(derive_title(text, name)) <= 220
