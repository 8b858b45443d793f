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


# Phrasings added for issue 12 part 3 (second round). Each positive case is a made-up
# abstract; each trap is the same phrasing where the rule must not fire.
@pytest.mark.parametrize(
    ("text", "name"),
    [
        # A textbook acronym in the object describes it; the name follows the head noun.
        ("We propose a Recurrent Neural Network (RNN)-based model “TideNet,” which reads "
         "tide gauges as input.", "TideNet"),
        # "a family of"/"a new type of" do not end the noun phrase of the object.
        ("We present a family of sparse coding schemes spSketch (Sparse Sketching) that "
         "cut the cost of communication.", "spSketch"),
        ("We propose a new type of LDA method, ROB-LDA, which is robust to outliers.",
         "ROB-LDA"),
        # ", the NAME," after a new thing.
        ("Then we build a new recurrent network, the Motion4Net, to recognise gestures.",
         "Motion4Net"),
        # A lower-case coined word as the whole object, with a noun phrase saying what it is.
        ("To this end, we propose stitchwise, a simple yet effective method to merge "
         "batches.", "stitchwise"),
        # A long form and its acronym as the subject after an unnamed introduction.
        ("We develop a data repair approach for tabular data. Experiments demonstrate "
         "that Conformal Feature Repair (CFR) improves accuracy in most cases.", "CFR"),
        # A quoted name of several words after "we refer to ... as".
        ("We linearise the network. We refer to this corrected predictive as \"GLM "
         "posterior\" and show that it fixes underfitting.", "GLM posterior"),
        # A short form written as a capitalised word that spells its long form.
        ("We introduce the Rolling Quantile Scan (Rqscan), a scan algorithm for regions.",
         "Rqscan"),
        # A further named thing after an unnamed contribution, used again, names the paper.
        ("We propose a method to extract line graphs from images. We further introduce "
         "the GridGraphNet, a network that infers a graph directly. GridGraphNet is "
         "fast.", "GridGraphNet"),
        # A named means of the introduction, used again.
        ("We propose to align video frames by Dual Flow Warping Network (DFWN) in a "
         "coarse-to-fine manner. DFWN consists of two branches.", "DFWN"),
        # A common acronym spelled out as something else before "called".
        ("We introduce a large multi-lingual phrase corpus, called MLP, for translation. "
         "MLP holds two million phrases.", "MLP"),
    ],
)
def test_second_round_phrasings(text: str, name: str) -> None:
    assert derive_name(text) == name


@pytest.mark.parametrize(
    "text",
    [
        # A textbook acronym and no name after it; textbook long forms with an acronym.
        "We propose a Recurrent Neural Network (RNN) based model which reads tide gauges.",
        "We propose a class of adaptive Gradient Descent Ascent (GDA) methods for "
        "minimax problems.",
        "We develop a doubly stochastic variational Expectation-Maximization algorithm.",
        # ", the ..." that names nothing.
        "We build a new recurrent network, the first of its kind, to recognise gestures.",
        # A lower-case word set off by a noun phrase, but not introduced.
        "We study clustering, a classic method for grouping points.",
        # A term recalled at the opening, and a textbook acronym as the subject.
        "We propose a new prior for videos. The conditional restricted Boltzmann machine "
        "(CRBM) can model shape and has been used for walking styles. We show results.",
        "We propose a new analysis of training. We show that Stochastic Gradient Descent "
        "(SGD) converges for these losses.",
        # The means is a class of models (plural) or a task.
        "We contribute a novel framework for brain data, using Dynamic Bayesian Networks "
        "(DBNs) as generative models. DBNs are fitted by sampling.",
        "We propose a method for Zero-Shot Learning (ZSL) with attributes. ZSL is hard.",
        # A common acronym whose long form before "called" is the textbook one, or
        # builds on another term.
        "We factor the matrix by a singular value decomposition, called SVD, for speed.",
        "We build on a robust version of PCA called RPCA. RPCA is fast to compute.",
    ],
)
def test_second_round_traps(text: str) -> None:
    assert derive_name(text) == ""


def test_second_round_preferences() -> None:
    # An acronym given after the quotes is the name the abstract uses.
    assert derive_name(
        "We add a small network, which we call \"Convolutional Slice Generator\" (CSG), "
        "to each layer."
    ) == "CSG"
    # A capitalised word is a short form only where it spells the long form, and the
    # long form stands in the object.
    assert derive_name(
        "We introduce the Rolling Quantile Scan (Python), a scan algorithm for regions."
    ) == ""
    assert derive_name(
        "We propose a speed-up for the Rolling Quantile Scan (Rqscan) of earlier work."
    ) == ""
    # After a named contribution, a further named thing stays secondary.
    named = (
        "We propose LineGraph, a method to extract line graphs from images. We further "
        "introduce the GridGraphNet, a network that infers a graph directly. GridGraphNet "
        "is fast."
    )
    assert derive_name(named) == "LineGraph"
