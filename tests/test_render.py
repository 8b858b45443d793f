"""Tests for `tui.core.render.text`: LaTeX/Markdown → Unicode text, style spans, links, aliases."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.material import external, needs
from tui.core.index.aliases import math_aliases
from tui.core.render import text as render_module
from tui.core.render.spans import Rendered, Span
from tui.core.render.text import render

ROOT = Path(__file__).resolve().parent.parent
SEED_FILES = sorted((ROOT / "seeds").glob("*.txt"))
CORPORA = external("corpora")
STYLES = {"bold", "italic", "underline", "code", "math", "link"}


def abstracts_of(path: Path) -> list[str]:
    """The abstracts of a seed list (title line and blank line skipped)."""
    paragraphs = path.read_text(encoding="utf-8").split("\n\n")[1:]
    return [" ".join(p.split("\n")).strip() for p in paragraphs if p.strip()]


def styled(rendered: Rendered, style: str) -> list[str]:
    """The texts under spans of `style`, in order."""
    return [rendered.text[s.start : s.end] for s in rendered.spans if s.style == style]


# Markup whose argument is not prose, so it is not shown: environment names, colours, labels,
# link targets (kept in Span.url instead).
_HIDDEN = re.compile(
    r"\\(?:begin|end|label|vspace|hspace|color|pagecolor|phantom|hphantom|vphantom|tag|href"
    r"|textcolor|colorbox)\s*\{[^{}]*\}(?:\{[clr|]*\})?|\]\(https?://[^)\s]*\)"
)
_COMMAND = re.compile(r"\\[A-Za-z]+")


def words_outside_commands(raw: str) -> list[str]:
    """The alphanumeric words of `raw` once LaTeX command names are taken out."""
    return re.findall(r"[A-Za-z0-9]+", _COMMAND.sub(" ", _HIDDEN.sub(" ", raw)))


def readable(text: str) -> str:
    """Fold rendered text back to base letters: 𝒪 → O, τ² → τ2, ö → o, ℓₚ → lp."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def assert_words_kept(raw: str, rendered: Rendered) -> None:
    """Each word of `raw` appears in the rendered text, in order.

    Compared on letters and digits alone, since rendering may join or split them with
    symbols: `\\frac00` is `0/0`, `$a$b` is `ab`.
    """
    text = re.sub(r"[^A-Za-z0-9]", "", readable(rendered.text))
    pos = 0
    raw = raw.replace("(cid:173)", "")  # a PDF's soft hyphen is no word; render drops it
    for word in words_outside_commands(raw):
        found = text.find(word, pos)
        assert found != -1, f"{word!r} lost from {raw!r} -> {rendered.text!r}"
        pos = found + len(word)


def assert_well_formed(rendered: Rendered) -> None:
    starts = [span.start for span in rendered.spans]
    assert starts == sorted(starts)
    for span in rendered.spans:
        assert 0 <= span.start < span.end <= len(rendered.text)
        assert span.style in STYLES
        assert bool(span.url) == (span.style == "link")
    link_urls = [span.url for span in rendered.spans if span.style == "link"]
    assert list(rendered.links) == list(dict.fromkeys(link_urls))


# --- math -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (r"On BFCLv3 and $\tau^2$-bench", "On BFCLv3 and τ²-bench"),
        (r"$\mathcal{O}(n^2)$", "𝒪(n²)"),
        (r"$\ell_p$", "ℓₚ"),
        (r"$\alpha, \beta, \Gamma, \epsilon, \varepsilon$", "α, β, Γ, ε, ε"),
        (r"$p\geq 1$ and $p \le 2$", "p ≥ 1 and p ≤ 2"),
        (r"$10\times$ faster", "10 × faster"),
        (r"$a \cdot b \in \mathbb{R}$", "a · b ∈ ℝ"),
        (r"$\sum_{i=1}^n x_i \to \infty$", "∑ᵢ₌₁ⁿ xᵢ → ∞"),
        (r"$x \approx y \sim z \pm 1$", "x ≈ y ∼ z ± 1"),
        (r"$\sqrt{n}$, $\sqrt{n+1}$, $\sqrt[3]{x}$", "√n, √(n+1), ³√x"),
        (r"$\frac{a}{b}$ and $\frac{1}{1+x}$", "a/b and 1/(1+x)"),
        (r"$A^\top$, $x^{-1}$, $x^*$, $f^{(t)}$", "Aᵀ, x⁻¹, x*, f⁽ᵗ⁾"),
        (r"$x_{ij}$ and $\mathbf{x}_0$", "xᵢⱼ and x₀"),
        (r"$\pi_0$ and $\mu$ and $\sigma$", "π₀ and μ and σ"),
        (r"$68.9\%$ and $\{0,1\}^n$", "68.9% and {0,1}ⁿ"),
        (r"$x \not= y$, $\tilde{O}(n)$, $\hat{\theta}$", "x ≠ y, Õ(n), θ̂"),
        (r"$\left( \frac{n}{\epsilon} \right)$", "( n/ε )"),
        (r"$\mathbb{E}[X]$ in $\mathbb{R}^d$", "𝔼[X] in ℝᵈ"),
        (r"$x^{\text{poly}}$", "xᵖᵒˡʸ"),
        (r"$\|x\|_2$ and $\langle{u,v}\rangle$", "‖x‖₂ and ⟨u,v⟩"),
    ],
)
def test_math_renders_as_unicode(raw: str, expected: str) -> None:
    assert render(raw).text == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # Scripts with no Unicode form fall back to the readable `^x` / `^(…)` / `_(…)`.
        (r"$x^q$", "x^q"),
        (r"$d^{p/2}$", "d^(p/2)"),
        (r"$\min_{f,x} f$", "min_(f,x) f"),
        (r"$x_Q$", "x_Q"),
    ],
)
def test_scripts_without_unicode_form_fall_back(raw: str, expected: str) -> None:
    assert render(raw).text == expected


def test_math_gets_a_math_span_over_exactly_the_math() -> None:
    rendered = render(r"On BFCLv3 and $\tau^2$-bench")
    assert rendered.spans == (Span(14, 16, "math"),)
    assert styled(rendered, "math") == ["τ²"]


def test_prose_inside_dollars_is_styled_not_math() -> None:
    rendered = render(r"We propose $\textbf{OEU}$, a novel $\textit{static}$ one")
    assert rendered.text == "We propose OEU, a novel static one"
    assert styled(rendered, "bold") == ["OEU"]
    assert styled(rendered, "italic") == ["static"]
    assert styled(rendered, "math") == []


def test_nested_styles_in_math() -> None:
    rendered = render(r"$\underline{\textbf{S}}$elf-$\underline{\textbf{A}}$ware")
    assert rendered.text == "Self-Aware"
    assert styled(rendered, "bold") == ["S", "A"]
    assert styled(rendered, "underline") == ["S", "A"]


# --- markup styles ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "text", "style", "words"),
    [
        (r"We propose \emph{Euler Mean Flows (EMF)} now", "We propose Euler Mean Flows (EMF) now",
         "italic", ["Euler Mean Flows (EMF)"]),
        (r"a \textit{b c} d", "a b c d", "italic", ["b c"]),
        (r"a {\em distinct} loss", "a distinct loss", "italic", ["distinct"]),
        ("using *black-box auxiliary* models", "using black-box auxiliary models", "italic",
         ["black-box auxiliary"]),
        (r"a \textbf{strong} b", "a strong b", "bold", ["strong"]),
        ("a **bold words** b", "a bold words b", "bold", ["bold words"]),
        ("**WE**ighted", "WEighted", "bold", ["WE"]),
        ("***Co***mpleteness", "Completeness", "bold", ["Co"]),
        ("***Co***mpleteness", "Completeness", "italic", ["Co"]),
        ("studies ``*offline IL*\", and", "studies “offline IL”, and", "italic", ["offline IL"]),
        (r"an \underline{x} y", "an x y", "underline", ["x"]),
        ("run `pip install x` now", "run pip install x now", "code", ["pip install x"]),
        (r"use \texttt{foo()} here", "use foo() here", "code", ["foo()"]),
    ],
)
def test_markup_styles_the_right_words(raw: str, text: str, style: str, words: list[str]) -> None:
    rendered = render(raw)
    assert rendered.text == text
    assert styled(rendered, style) == words
    assert_well_formed(rendered)


def test_scraped_declarations_and_glued_commands() -> None:
    # Scraped abstracts lose braces: `\em constant regret` and `\emphkernel methods`.
    rendered = render(r"has \em constant regret and \emphkernel methods in $\mathcalO(\sqrtT)$")
    assert rendered.text == "has constant regret and kernel methods in 𝒪(√T)"
    assert styled(rendered, "italic") == ["constant", "kernel"]


def test_text_accents_and_quotes() -> None:
    raw = r"Nystr\"{o}m, Fr\'echet, Gr{\"o}bner, na\"{\i}ve: ``quoted'' and `single'"
    assert render(raw).text == "Nyström, Fréchet, Gröbner, naïve: “quoted” and ‘single’"


# --- links -----------------------------------------------------------------------------------


def test_bare_urls_become_links_without_trailing_punctuation() -> None:
    raw = "Code: https://github.com/x/y. Also (see https://a.org/b), https://github.com/x/y!"
    rendered = render(raw)
    assert rendered.text == raw
    repo, other = "https://github.com/x/y", "https://a.org/b"
    assert styled(rendered, "link") == [repo, other, repo]
    assert rendered.links == (repo, other)
    assert_well_formed(rendered)


def test_markdown_autolinks_and_www() -> None:
    rendered = render("see <https://github.com/h/C>. or www.x.org/a, but p < 0.05")
    assert rendered.text == "see https://github.com/h/C. or www.x.org/a, but p < 0.05"
    assert styled(rendered, "link") == ["https://github.com/h/C", "www.x.org/a"]
    assert rendered.links == ("https://github.com/h/C", "http://www.x.org/a")


def test_latex_and_markdown_links() -> None:
    rendered = render(
        r"at \url{https://u.org/v}, \href{https://h.org}{our code} and [docs](https://d.io/x)"
    )
    assert rendered.text == "at https://u.org/v, our code and docs"
    assert styled(rendered, "link") == ["https://u.org/v", "our code", "docs"]
    assert rendered.links == ("https://u.org/v", "https://h.org", "https://d.io/x")
    assert [s.url for s in rendered.spans if s.style == "link"] == list(rendered.links)


# --- nothing lost ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # `%` outside math is text; pylatexenc would drop the rest of the line as a comment.
        ("accuracy rises 62% over the baseline", "accuracy rises 62% over the baseline"),
        (r"up to $68.9\%$ and 24% more", "up to 68.9% and 24% more"),
        ("SCHUR-A* beats A* search; 2 * 3 * 4 = 24", "SCHUR-A* beats A* search; 2 * 3 * 4 = 24"),
        ("B^*, then c^*, (*) and * bullets", "B^*, then c^*, (*) and * bullets"),
        ("costs $5 and $10 today", "costs $5 and $10 today"),
        ("costs $5,$10 or $400.", "costs $5,$10 or $400."),
        ("a lone $ sign", "a lone $ sign"),
        ("braces { meant to show } and {0,1}", "braces { meant to show } and {0,1}"),
        (r"LaTeX {G}aussian, {non-}convex, {\em x}", "LaTeX Gaussian, non-convex, x"),
        ("open {only", "open {only"),
        ("close} only", "close} only"),
        (r"$x^{2$ and y", "x^{2 and y"),
        (r"escaped \% \& \_ \$ \# \{ \}", "escaped % & _ $ # { }"),
        (r"a set A \ B and C:\2020", r"a set A \ B and C:\2020"),
        ("ends with a backslash \\", "ends with a backslash \\"),
        (r"an \unknownmacro here and \method{X} there", "an unknownmacro here and X there"),
        (r"$\poly(n)$ and $\vct{x}$", "poly(n) and vct(x)"),
        (r"i.i.d.~samples and ~10% and \cite{smith20}", "i.i.d. samples and ~10% and [smith20]"),
        ("snake_case and x^2 in prose", "snake_case and x^2 in prose"),
    ],
)
def test_no_text_is_lost(raw: str, expected: str) -> None:
    rendered = render(raw)
    assert rendered.text == expected
    assert_words_kept(raw, rendered)


def test_money_dollars_do_not_start_math() -> None:
    rendered = render("a $10K program and a $50K one; $x$ is math")
    assert rendered.text == "a $10K program and a $50K one; x is math"
    assert styled(rendered, "math") == ["x"]


def test_math_after_a_digit_closer_is_still_math() -> None:
    assert render(r"up to $\sim$19 points").text == "up to ∼19 points"


def test_padded_dollars_keep_words_apart() -> None:
    assert render("where $ d $ are").text == "where d are"


def test_the_seeds_hold_38_abstracts() -> None:
    assert sum(len(abstracts_of(path)) for path in SEED_FILES) == 38


@pytest.mark.parametrize("path", SEED_FILES, ids=lambda p: p.name)
def test_every_seed_abstract_keeps_its_words(path: Path) -> None:
    for raw in abstracts_of(path):
        rendered = render_module._render(raw)  # without render's safety net
        assert_well_formed(rendered)
        assert_words_kept(raw, rendered)
        assert "$" not in rendered.text  # every seed's dollars are math


def test_words_kept_check_can_fail() -> None:
    with pytest.raises(AssertionError):
        assert_words_kept("alpha 62% beta", Rendered("alpha 62", (), ()))


def test_empty_and_degenerate_input() -> None:
    assert render("") == Rendered("", (), ())
    for raw in ["$", "$$", "\\", "{", "}", "*", "**", "`", "``", "~", "$x", "\\frac", "\\sqrt[",
                "$\\frac{$", "$^$", "$_{$", "\\begin{", "[a](", "http://", "\\'"]:
        rendered = render_module._render(raw)
        assert_well_formed(rendered)
        assert_words_kept(raw, rendered)


def test_deep_nesting_does_not_overflow() -> None:
    depth = 5000
    for raw in ["{" * depth + "x" + "}" * depth, "$" + "{" * depth + "x" + "}" * depth + "$",
                "$" + "\\hat" * depth + " x$", "$" + "x^" * depth + "y$"]:
        rendered = render_module._render(raw)
        assert "x" in rendered.text


# --- properties ------------------------------------------------------------------------------

_MARKUP_FREE = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs",), blacklist_characters="\\$*`{}[]~<"
    ),
    max_size=300,
)


@settings(max_examples=300, deadline=None)
@given(_MARKUP_FREE)
def test_text_without_markup_comes_through_unchanged(raw: str) -> None:
    rendered = render_module._render(raw)
    assert rendered.text == raw
    assert all(span.style == "link" for span in rendered.spans)


_TOKENS = st.sampled_from(
    [
        # Markup characters, alone and in the combinations abstracts use.
        "$", "$$", "\\", "\\\\", "{", "}", "*", "**", "***", "`", "``", "''", "'", "_", "^", "%",
        "~", "[", "]", "(", ")", "<", ">", " ", " ", " ", "&", "#", "\\%", "\\$", "\\{",
        # Commands of every kind render knows, and one it does not.
        "\\alpha", "\\frac", "\\sqrt", "\\textbf", "\\emph", "\\em", "\\bf", "\\mathcal",
        "\\mathbb", "\\hat", "\\left", "\\right", "\\not", "\\text", "\\cite", "\\url",
        "\\href", "\\url{}", "\\foo", "\\'", '\\"', "\\v", "\\begin", "\\label", "\\le",
        # Links and the prose cases the brief names.
        "https://x.org/a", "[t](https://y.io)", "<https://z.io>", "62%", "A*", "2 * 3",
    ]
)
_WORDS = st.from_regex(r"[A-Za-z0-9]{1,8}", fullmatch=True)
_SOUP = st.lists(st.one_of(_TOKENS, _WORDS), max_size=40).map("".join)


@settings(max_examples=600, deadline=None)
@given(_SOUP)
def test_markup_soup_never_raises_and_keeps_words(raw: str) -> None:
    rendered = render_module._render(raw)
    assert_well_formed(rendered)
    assert_words_kept(raw, rendered)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_renders(raw: str) -> None:
    assert_well_formed(render_module._render(raw))
    assert math_aliases(raw).isascii()


# --- search aliases --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (r"On $\tau^2$-bench", "tau2 tau 2"),
        (r"the $\ell_p$ norm", "ell_p ellp ell p"),
        (r"$\mathcal{O}(n^2)$", "O n2 n 2"),
        (r"We propose $\textbf{OEU}$", "OEU"),
        (r"$x_{ij}$ and $\tau^2$ and $\tau^2$", "x_ij xij x ij tau2 tau 2"),
        (r"$p\geq 1$", "p geq 1"),
        ("no math, 62% and $5 and $10", ""),
        ("", ""),
    ],
)
def test_math_aliases(raw: str, expected: str) -> None:
    assert math_aliases(raw) == expected


def test_math_aliases_are_ascii_for_unicode_math() -> None:
    assert math_aliases("$α_1$ and $\\mathbb{R}$") == "alpha_1 alpha1 alpha 1 R"


# --- the real corpora, when the shared material is next to the project ------------------------


@needs("corpora", why="every real abstract of the developers' corpora")
def test_corpora_render_without_errors() -> None:
    """Every real abstract renders without the safety net; words survive in almost all."""
    total = lost = 0
    for path in sorted(CORPORA.glob("*.txt")):
        for raw in path.read_text(encoding="utf-8").split("\n\n")[1:]:
            total += 1
            rendered = render_module._render(raw)
            try:
                assert_words_kept(raw, rendered)
            except AssertionError:
                lost += 1
    assert total > 20_000
    assert lost <= total // 1000, f"{lost} of {total} abstracts lost words"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("a representa(cid:173) tion of signif(cid:173)\nicantly", "a representation of significantly"),
        ("the *conjunc(cid:173) tion* holds", "the conjunction holds"),
    ],
)
def test_a_line_broken_at_a_soft_hyphen_is_one_word_again(raw: str, expected: str) -> None:
    assert render(raw).text == expected


def test_a_soft_hyphen_joins_the_words_that_search_finds() -> None:
    from tui.core.index.analysis import terms

    assert "represent" in terms(render("a representa(cid:173) tion").text)
    assert "tion" not in terms(render("a representa(cid:173) tion").text)
