"""Which candidate names to believe: generic terms, plurals and tiny acronyms are not names."""

from __future__ import annotations

import re

from tui.core.naming.phrases import CONNECTORS, Candidate
from tui.core.naming.text import is_capitalised

# Common terms of the field that appear as objects of "we propose" without being coined
# by the paper ("we propose CNN features ...", "we present MCMC methods ...").
_GENERIC_TERMS = frozenset(
    """
    we our the this these in a an it ai ml nlp cv rl dl llm llms vlm vlms mllm mllms
    cnn cnns rnn rnns gnn gnns gan gans vae vaes mlp mlps lstm lstms gru grus dnn dnns
    svm svms mcmc sgd pca ica lda em hmm hmms crf crfs gp gps mdp mdps pomdp pomdps
    kl map mle iid gpu gpus cpu cpus api apis sota iou roc auc nmf svd knn
    transformer transformers bayesian gaussian markov euclidean riemannian hilbert
    rkhs rpca rgb-d rgbd sgld hmc admm lasso relu re-id reid
    monte carlo
    em bp lbp vi svi elbo mala fgsm pgd bfgs l-bfgs lbfgs mil rbm rbms cca kcca dbn dbns
    ucb ppo dqn trpo ddpg sarsa q-learning td mpc lqr
    convnet convnets dcnn dcnns fcn fcns r-cnn rcnn rpn sift hog slam sfm icp ransac nms roi
    vqa asr ocr nmt kde gmm gmms lsh k-nn glm glms ibp crp hdp smc mmd ot ae dae
    adam adagrad rmsprop sdca ista fista dtw fft dct pde pdes ode odes sde sdes
    mri fmri eeg meg ecg lidar mrf mrfs rgb dag dags kullback-leibler
    """.split()
)
# Textbook methods written out, which an abstract defines in passing ("Canonical
# Correlation Analysis (CCA) is a useful technique ..."): background, never coined.
def _term_form(text: str) -> str:
    """Lower case, hyphens read as spaces: "Non-Maximum-Suppression" is "non maximum
    suppression", as the list writes it either way."""
    return " ".join(text.lower().replace("-", " ").split())


_TEXTBOOK_TERMS = frozenset(
    _term_form(term)
    for term in """
    expectation maximization|expectation-maximization|canonical correlation analysis|
    principal component analysis|independent component analysis|restricted boltzmann machine|
    gaussian process|gaussian processes|hidden markov model|conditional random field|
    support vector machine|stochastic gradient descent|gradient descent|belief propagation|
    loopy belief propagation|variational inference|dynamic programming|monte carlo|
    markov chain monte carlo|hamiltonian monte carlo|maximum likelihood estimation|
    non-negative matrix factorization|nonnegative matrix factorization|
    singular value decomposition|k-means|latent dirichlet allocation|indian buffet process|
    chinese restaurant process|dirichlet process|reinforcement learning|deep learning|
    machine learning|convolutional neural network|convolutional neural networks|
    recurrent neural network|recurrent neural networks|long short-term memory|
    generative adversarial network|generative adversarial networks|variational autoencoder|
    variational autoencoders|graph neural network|graph neural networks|
    large language model|large language models|neural network|neural networks|
    batch normalization|the q-function|q-function|q-learning|the em algorithm|
    gaussian mixture model|gaussian mixture models|hidden markov models|
    support vector machines|multi-layer perceptron|multilayer perceptron|
    deep neural network|deep neural networks|fully convolutional network|
    fully convolutional networks|upper confidence bound|proximal policy optimization|
    deep q-network|natural language processing|structure from motion|
    simultaneous localization and mapping|region of interest|
    scale-invariant feature transform|scale invariant feature transform|
    histogram of oriented gradients|kernel density estimation|maximum mean discrepancy|
    optimal transport|multiple instance learning|multiple-instance learning|
    approximate bayesian computation|sequential monte carlo|evidence lower bound|
    projected gradient descent|fast gradient sign method|temporal difference|
    model predictive control|linear quadratic regulator|dynamic time warping|
    fast fourier transform|discrete cosine transform|partial differential equation|
    partial differential equations|ordinary differential equation|
    ordinary differential equations|stochastic differential equation|
    stochastic differential equations|magnetic resonance imaging|
    electroencephalography|visual question answering|automatic speech recognition|
    optical character recognition|neural machine translation|autoencoder|auto-encoder|
    reproducing kernel hilbert space|alternating direction method of multipliers|
    generative adversarial net|generative adversarial nets|principal component analysis|
    support vector machine|markov chain monte carlo|recurrent neural network|
    region proposal network|region proposal networks|markov random field|
    markov random fields|directed acyclic graph|directed acyclic graphs|
    kullback-leibler divergence|gradient descent ascent|gradient descent-ascent|
    non-maximum suppression|non maximum suppression|variational bayes|
    point spread function|sample average approximation|distributionally robust optimization
    """.split("|")
)
# Words that open sentences without naming anything ("Secondly, a ... is proposed").
# Adverbs in -ly are caught by their ending.
_OPENERS = frozenset(
    """
    here then next also thus hence therefore however today moreover furthermore further
    meanwhile instead likewise overall first second third fourth besides nevertheless
    nonetheless still yet again now altogether in on for to as at by with from this that
    these those such our we it its their there when while although though since because
    """.split()
)
_PROBLEM_NAME = re.compile(r" (?:[Pp]roblems?|[Tt]asks?)$")
_PLAIN_MODIFIERS = frozenset("a an the deep fully standard classical".split()) | CONNECTORS
_LETTER_DIGIT = re.compile(r"[A-KM-Z]\d")  # "M3", "D3"; not the norms "L1", "L2"
_DIMENSIONS = re.compile(r"\d+(?:\.\d+)?-?D")  # "3D", "2.5D", "128-D"
_CODED = re.compile(r".[A-Z]|\d")  # an inner capital or a digit: "LDA", "word2vec"
_PLURAL_ACRONYM = re.compile(r"[A-Z0-9-]+s")
_PDF_ARTIFACT = re.compile(r"cid:\d")  # "(cid:173)": a soft hyphen lost in PDF extraction


def resolved_name(candidate: Candidate) -> str:
    """The name a candidate stands for, or "" when it is not plausible as one.

    Generic terms ("CNN"), plural acronyms ("LLMs": a class of things), dimensions
    ("3D") and two-character names ("TV", "IP", "DP": too often textbook terms) are
    dropped; a dropped acronym with a capitalised long form yields the long form
    ("Hadamard Response (HR)" names Hadamard Response).
    """
    long_form = candidate.long_form
    if long_form and " " not in long_form and long_form.islower():
        return ""  # "re-identification (re-ID)" shortens a word, it coins no name
    if _term_form(long_form) in _TEXTBOOK_TERMS and not any(
        ch.isdigit() for ch in candidate.name
    ):
        return ""  # "Expectation-Maximization (EM) methods": a textbook method
    name = candidate.name
    if _plausible(name) and (candidate.quoted or not _lower_case_phrase(name)):
        return name
    if (
        name.lower() in _GENERIC_TERMS
        and len(name) > 2
        and (_capitalised_phrase(long_form) or candidate.spelled_before)
        and not is_textbook(long_form)
    ):
        # "Hierarchical Dirichlet Process (HDP)", "a short video dataset, called SVD":
        # spelled out as something else than the textbook HDP or SVD.
        return name
    if _PLURAL_ACRONYM.fullmatch(candidate.name) and _capitalised_phrase(candidate.long_form):
        return candidate.name  # "Part-based One-vs-One Features (POOFs)"
    if (
        len(candidate.name) <= 2
        and _capitalised_phrase(long_form)
        and not is_textbook(long_form)
    ):
        if _LETTER_DIGIT.fullmatch(candidate.name):
            return candidate.name  # "Multimodal Memory Model (M3)", "Deep Dual-Domain (D3)"
        return long_form if _plausible(long_form) else ""
    return ""


def is_generic_term(word: str) -> bool:
    """Whether ``word`` is a common term of the field ("CNN", "MCMC"), never a coined name."""
    return word.lower() in _GENERIC_TERMS


def _lower_case_phrase(name: str) -> bool:
    """"exclusive group lasso", "handicapped learning": several words, none capitalised or
    coined, read as a description unless quoted ("factorial LDA", "robust Dantzig
    selector" carry a name in them)."""
    words = name.split()
    return len(words) > 1 and not any(w[:1].isupper() or _CODED.search(w) for w in words)


def is_textbook(long_form: str) -> bool:
    """Whether a long form is a textbook method ("Markov Chain Monte Carlo"), perhaps
    with a plain modifier ("Deep Convolutional Neural Network"); "Hierarchical Dirichlet
    Process" and "Robust Reinforcement Learning" add a word of their own."""
    phrase = _term_form(long_form)
    if phrase in _TEXTBOOK_TERMS:
        return True
    for term in _TEXTBOOK_TERMS:
        if term in phrase:
            rest = phrase.replace(term, " ").split()
            return all(word in _PLAIN_MODIFIERS for word in rest)
    return False


def _capitalised_phrase(phrase: str) -> bool:
    """Whether every word of ``phrase`` but connectors is capitalised ("Hadamard Response")."""
    words = phrase.split()
    return bool(words) and all(is_capitalised(w) or w in CONNECTORS for w in words)


def _plausible(name: str) -> bool:
    """See :func:`resolved_name`."""
    # Two Latin characters are too few to tell "TV" from a name; two Chinese ones are not.
    if (len(name) <= 2 and name.isascii()) or len(name) > 60 or name.lower() in _GENERIC_TERMS:
        return False
    if _term_form(name) in _TEXTBOOK_TERMS or " " in name and _PROBLEM_NAME.search(name):
        return False  # "Expectation-Maximization"; "Online Bandit Problem": a problem
    # "Next", "Finally" open sentences; "NEXT" in capitals is a name.
    if " " not in name and not name.isupper() and (
        name.lower() in _OPENERS or name.endswith("ly")
    ):
        return False
    if _DIMENSIONS.fullmatch(name) or _PDF_ARTIFACT.search(name):
        return False
    if name.endswith("s") and name[:-1].isupper():
        return False
    return any(ch.isalpha() for ch in name)


