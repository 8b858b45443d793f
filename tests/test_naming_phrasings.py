"""More ways abstracts introduce names, and the traps next to each (tui.core.naming).

Each case is a made-up abstract written in a phrasing real abstracts use; the traps are
the same phrasing where the name is someone else's, a textbook term or a part of the
paper's named contribution. ``tests/test_naming.py`` holds the seeds and the older
phrasings.
"""

from __future__ import annotations

import pytest

from tui.core.naming.derive import derive_name


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # An acronym spelled out by initials, not by its shortest (textbook) tail.
        ("We present a new learning architecture: the Decision Directed Acyclic Graph "
         "(DDAG), which combines two-class classifiers.", "DDAG"),
        # Capitalised words ending in a capitalised generic noun, mid-sentence.
        ("We propose a Camera-Aware Consistency Loss to learn consistent similarities.",
         "Camera-Aware Consistency Loss"),
        ("To this end we design a Context Encoding Module, which captures global context.",
         "Context Encoding Module"),
        ("We propose a Symmetry-constrained Rectification Network (ScRN) based on local "
         "attributes of text.", "ScRN"),
        # A new thing's acronym under any verb, or none.
        ("For flow, we specify a new fully convolutional Siamese network (FCSN) that "
         "estimates boundaries.", "FCSN"),
        ("We study re-identification. At its core is a novel Spatial Attention Module (SAM) "
         "that weights regions.", "SAM"),
        # An apposition to the noun that stands for the paper's thing.
        ("We present a new algorithm for pruning. The method, \"Principal Components "
         "Pruning (PCP)\", is based on principal components.", "PCP"),
        ("A new optimization strategy, Mean Field Annealing, is presented.",
         "Mean Field Annealing"),
        ("This algorithm, SketchyGM, modifies a standard scheme to store a sketch.",
         "SketchyGM"),
        # A lower-case long form whose acronym closes the object, used once.
        ("We propose attribute-guided augmentation (AGA), which learns a mapping to "
         "synthesize data.", "AGA"),
        # "the X algorithm, a ...": a plain capitalised name, described at once.
        ("We propose the Softstar algorithm, a softened heuristic-guided search technique "
         "for control.", "Softstar"),
        # A name closing a sentence with a naming word.
        ("We model groups and topics jointly; we call this model, which learns both at "
         "once, Group-Topic.", "Group-Topic"),
        ("We consider how actors push attention, thus the term Attentional Push.",
         "Attentional Push"),
        ("We propose a novel classification architecture ProNet based on convolutional "
         "networks.", "ProNet"),
        # "based" inside the descriptors: the name comes after the head noun.
        ("We first analyze a kernel method. We then introduce our neural network based "
         "algorithm NN-Bandit, and show that its regret is low.", "NN-Bandit"),
    ],
)
def test_more_introducing_phrasings(text: str, name: str) -> None:
    assert derive_name(text) == name


@pytest.mark.parametrize(
    "text",
    [
        # Capitalised textbook terms, existing methods, plural classes, modifiers.
        "We propose a Deep Neural Network to classify images of cells.",
        "We develop a modified Fast Marching Method that includes orientation.",
        "In this work we present two other Mixture Models and derive their expressions.",
        "We propose a Graph Convolutional Neural Network (Graph CNN) based method for hands.",
        # Others' new thing, and an acronym that only modifies a noun.
        "Recently, a new document metric, the word mover's distance (WMD), has been proposed.",
        "We propose sphere networks, a novel integral probability metric (IPM)-based GAN.",
        "We also use a novel form of keypoint-based Non-Maximum-Suppression (NMS) for boxes.",
        # A name closing a sentence that cites is someone else's.
        "We study an algorithm introduced in [1] that we call here OPTSPACE.",
        # "based on" after a coined word that modifies: "interpretable DGP based on".
        "Deep processes (DGPs) are expressive. We propose interpretable DGP based on "
        "moments, which identify heavy tails.",
        # After "based" a coined word is the topic's name, not the paper's.
        "We are the first to propose an out-of-distribution detector based GZSL framework "
        "for action recognition in videos.",
    ],
)
def test_traps_next_to_the_new_phrasings(text: str) -> None:
    assert derive_name(text) == ""


def test_a_name_in_passing_after_the_named_contribution_is_secondary() -> None:
    text = (
        "We present a general framework, called SeqLay, for layout prediction. A new "
        "metric, semantic layout understudy (SLU), is devised to evaluate the task. SLU "
        "looks at unigrams. Unlike others, SLU allows tolerances."
    )
    assert derive_name(text) == "SeqLay"
    # Without the named framework, the metric is what the abstract names.
    unnamed = text.replace(", called SeqLay,", "")
    assert derive_name(unnamed) == "SLU"


def test_a_new_version_of_a_name_the_abstract_discusses() -> None:
    text = (
        "The FlowNet showed that optical flow can be learned. FlowNet cannot compete "
        "with variational methods on small displacements. We improve the training data "
        "and stack networks. FlowNet 2.0 is only marginally slower than the original "
        "FlowNet but halves the error."
    )
    assert derive_name(text) == "FlowNet 2.0"
    # A version named once, without the original around, is not enough.
    assert derive_name("We study optical flow. FlowNet 2.0 is a popular baseline.") == ""


def test_a_name_the_abstract_only_uses_after_an_unnamed_introduction() -> None:
    text = (
        "Directed models sample fast but need a fixed prior. We propose a novel approach "
        "to learning the joint distribution with an adversarially learned procedure. "
        "GibbsNet is the best of both worlds. We show empirically that GibbsNet is able "
        "to learn a more complex latent distribution."
    )
    assert derive_name(text) == "GibbsNet"
    # Used once, it is not enough; used before the introduction, it is someone else's.
    assert derive_name(text.replace("We show empirically that GibbsNet is", "It is")) == ""
    earlier = "GibbsNet was studied before. " + text
    assert derive_name(earlier) == ""


@pytest.mark.parametrize(
    "text",
    [
        # First used as someone else's method ("such as X which").
        "We present a data-efficient method. Solutions exist, such as PILCO which learns "
        "fast. PILCO evaluates policies by planning. We extend PILCO with filtering.",
        # An acronym first defined as what the paper builds on.
        "We propose a new test. It is based on the structural equation model (SEM). SEM "
        "captures dependencies and SEM scales.",
    ],
)
def test_names_used_but_first_as_others_work(text: str) -> None:
    assert derive_name(text) == ""
