"""Lookup tables that `tui.core.render` uses to turn LaTeX into Unicode.

Data only, no logic beyond building the alphabet maps. The tables cover what real abstracts
use (measured over 21k NeurIPS/CVPR/ICCV/AISTATS abstracts), not the whole of LaTeX: anything
missing falls back to the command's own name in `render`, so a gap costs looks, never words.
"""

from __future__ import annotations

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ",
    # \epsilon is the lunate ϵ in print, but readers (and search) expect ε.
    "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ", "eta": "η", "theta": "θ",
    "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "varkappa": "ϰ", "lambda": "λ", "mu": "μ",
    "nu": "ν", "xi": "ξ", "omicron": "ο", "pi": "π", "varpi": "ϖ", "rho": "ρ", "varrho": "ϱ",
    "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ",
    "chi": "χ", "psi": "ψ", "omega": "ω",
    "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
    "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}

_OPERATORS = {
    "times": "×", "div": "÷", "pm": "±", "mp": "∓", "cdot": "·", "ast": "∗", "star": "⋆",
    "circ": "∘", "bullet": "•", "setminus": "∖", "cup": "∪", "cap": "∩", "bigcup": "⋃",
    "bigcap": "⋂", "sqcup": "⊔", "vee": "∨", "wedge": "∧", "lor": "∨", "land": "∧",
    "bigvee": "⋁", "bigwedge": "⋀", "oplus": "⊕", "otimes": "⊗", "odot": "⊙",
    "ominus": "⊖", "bigoplus": "⨁", "bigotimes": "⨂", "circledast": "⊛", "sum": "∑",
    "prod": "∏", "coprod": "∐", "int": "∫", "iint": "∬", "oint": "∮", "neg": "¬",
    "lnot": "¬", "over": "/", "dagger": "†", "ddagger": "‡", "wr": "≀",
}

_RELATIONS = {
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "leqslant": "⩽", "geqslant": "⩾",
    "ne": "≠", "neq": "≠", "approx": "≈", "sim": "∼", "simeq": "≃", "cong": "≅",
    "equiv": "≡", "propto": "∝", "ll": "≪", "gg": "≫", "lesssim": "≲", "gtrsim": "≳",
    "asymp": "≍", "doteq": "≐", "triangleq": "≜", "coloneqq": "≔", "defeq": "≔",
    "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "supset": "⊃", "subseteq": "⊆",
    "supseteq": "⊇", "subsetneq": "⊊", "preceq": "⪯", "succeq": "⪰", "prec": "≺",
    "succ": "≻", "mid": "|", "nmid": "∤", "parallel": "∥", "vdash": "⊢", "models": "⊨",
    "perp": "⊥", "independent": "⫫", "to": "→", "rightarrow": "→", "leftarrow": "←",
    "gets": "←", "leftrightarrow": "↔", "Rightarrow": "⇒", "Leftarrow": "⇐",
    "Leftrightarrow": "⇔", "implies": "⟹", "iff": "⟺", "mapsto": "↦",
    "longrightarrow": "⟶", "longleftarrow": "⟵", "Longrightarrow": "⟹", "uparrow": "↑",
    "downarrow": "↓", "hookrightarrow": "↪", "rightharpoonup": "⇀", "leadsto": "⇝",
    "nearrow": "↗", "searrow": "↘",
}

_MISC = {
    "ell": "ℓ", "hbar": "ℏ", "infty": "∞", "partial": "∂", "nabla": "∇", "forall": "∀",
    "exists": "∃", "nexists": "∄", "emptyset": "∅", "varnothing": "∅", "top": "⊤",
    "bot": "⊥", "angle": "∠", "prime": "′", "aleph": "ℵ", "Re": "ℜ", "Im": "ℑ", "wp": "℘",
    "cdots": "⋯", "ldots": "…", "dots": "…", "dotsc": "…", "dotsb": "⋯", "vdots": "⋮",
    "ddots": "⋱", "square": "□", "Box": "□", "triangle": "△", "diamond": "⋄",
    "checkmark": "✓", "langle": "⟨", "rangle": "⟩", "lceil": "⌈", "rceil": "⌉",
    "lfloor": "⌊", "rfloor": "⌋", "vert": "|", "Vert": "‖", "lvert": "|", "rvert": "|",
    "lVert": "‖", "rVert": "‖", "lbrace": "{", "rbrace": "}", "lbrack": "[", "rbrack": "]",
    "backslash": "\\", "quad": " ", "qquad": " ", "enspace": " ", "thinspace": " ",
    "bmod": "mod",
}

# Common personal macros seen in abstracts (\eps, \R, \cO ...), mapped to what they mean.
_MACROS = {
    "eps": "ε", "R": "ℝ", "reals": "ℝ", "Real": "ℝ", "RR": "ℝ", "NN": "ℕ", "ZZ": "ℤ",
    "QQ": "ℚ", "CC": "ℂ", "EE": "𝔼", "E": "𝔼", "PP": "ℙ", "Otil": "Õ", "tO": "Õ",
    "otilde": "Õ", "tlO": "Õ", "bigOtil": "Õ",
}

SYMBOLS: dict[str, str] = {**_GREEK, **_OPERATORS, **_RELATIONS, **_MISC, **_MACROS}
"""Math commands that stand for one fixed string."""

PADDED: frozenset[str] = frozenset(_RELATIONS) | frozenset(
    "times cdot vee wedge lor land cup cap setminus oplus otimes".split()
)
"""Relations and binary operators, shown with a space each side in math (`p ≥ 1`)."""

SIZING: frozenset[str] = frozenset(
    "left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr".split()
)
"""Delimiter-size commands: dropped, the delimiter after them is kept."""

IGNORED: frozenset[str] = frozenset(
    "displaystyle textstyle scriptstyle scriptscriptstyle limits nolimits nonumber notag "
    "hline mathstrut strut noindent centering medskip bigskip smallskip".split()
)
"""Layout commands with no visible text of their own."""

DROP_WITH_ARG: frozenset[str] = frozenset(
    "label begin end vspace hspace color pagecolor phantom hphantom vphantom tag".split()
)
"""Commands whose braced argument is markup, not prose (environment names, colours, labels)."""


def _alphabet(
    upper: int, lower: int | None, holes: dict[str, str], digits: int | None = None
) -> dict[str, str]:
    """Map A–Z (and a–z, 0–9) into a Unicode math alphabet, whose gaps live elsewhere."""
    table = {chr(65 + k): chr(upper + k) for k in range(26)}
    if lower is not None:
        table.update({chr(97 + k): chr(lower + k) for k in range(26)})
    if digits is not None:
        table.update({chr(48 + k): chr(digits + k) for k in range(10)})
    table.update(holes)  # letters that predate the math block sit in Letterlike Symbols
    return table


FONTS: dict[str, dict[str, str]] = {
    "script": _alphabet(
        0x1D49C, 0x1D4B6,
        {"B": "ℬ", "E": "ℰ", "F": "ℱ", "H": "ℋ", "I": "ℐ", "L": "ℒ", "M": "ℳ", "R": "ℛ",
         "e": "ℯ", "g": "ℊ", "o": "ℴ"},
    ),
    "double": _alphabet(
        0x1D538, 0x1D552,
        {"C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"},
        digits=0x1D7D8,
    ),
    "fraktur": _alphabet(
        0x1D504, 0x1D51E, {"C": "ℭ", "H": "ℌ", "I": "ℑ", "R": "ℜ", "Z": "ℨ"}
    ),
}
"""Letter maps for the math alphabets that plain letters cannot show."""

FONT_COMMANDS: dict[str, str] = {
    "mathcal": "script", "mathscr": "script", "mathbb": "double", "Bbb": "double",
    "mathbbm": "double", "mathfrak": "fraktur",
}
"""Font commands taking an argument, to the alphabet in `FONTS` they select."""

FONT_DECLARATIONS: dict[str, str] = {"cal": "script", "Bbb": "double"}
"""Old-style `{\\cal O}` font switches."""

STYLE_COMMANDS: dict[str, str] = {
    "textbf": "bold", "mathbf": "bold", "boldsymbol": "bold", "bm": "bold", "pmb": "bold",
    "bold": "bold", "emph": "italic", "textit": "italic", "mathit": "italic",
    "textsl": "italic", "underline": "underline", "uline": "underline",
    "texttt": "code", "mathtt": "code",
}
"""Commands whose argument keeps its text and gains a style span."""

TEXT_STYLE_COMMANDS: frozenset[str] = frozenset(
    "textbf emph textit textsl underline uline texttt".split()
)
"""Style commands whose argument is prose even inside `$...$` (no math span for it)."""

STYLE_DECLARATIONS: dict[str, str | None] = {
    "bf": "bold", "bfseries": "bold", "em": "italic", "it": "italic", "itshape": "italic",
    "sl": "italic", "slshape": "italic", "tt": "code", "ttfamily": "code", "rm": None,
    "sf": None, "sc": None, "scshape": None, "rmfamily": None, "normalfont": None,
    "upshape": None, "mdseries": None, "small": None, "footnotesize": None, "large": None,
}
"""`{\\em ...}`-style switches that style the rest of their group."""

TRANSPARENT: frozenset[str] = frozenset(
    "text textrm textsf textsc textup textnormal textmd mbox hbox fbox makebox footnote "
    "mathrm mathsf mathnormal operatorname mathop mathbin mathrel mathord smash".split()
)
"""Commands whose argument is shown as is."""

PROSE_TRANSPARENT: frozenset[str] = frozenset(
    "text textrm textsf textsc textup textnormal textmd mbox hbox fbox makebox footnote".split()
)
"""Transparent commands whose argument is prose even inside `$...$`."""

CITES: frozenset[str] = frozenset(
    "cite citep citet citealp citealt citeauthor citeyear ref eqref autoref cref Cref".split()
)
"""Reference commands: the key is kept in brackets, since it is all there is."""

MATH_ACCENTS: dict[str, str] = {
    "hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303",
    "Tilde": "\u0303", "bar": "\u0304", "overline": "\u0305", "vec": "\u20d7",
    "overrightarrow": "\u20d7", "dot": "\u0307", "ddot": "\u0308", "check": "\u030c",
    "breve": "\u0306", "acute": "\u0301", "grave": "\u0300", "mathring": "\u030a",
}
"""Math accents, as the combining mark put after each accented character."""

TEXT_ACCENTS: dict[str, str] = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303",
    "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
    "c": "\u0327", "k": "\u0328", "r": "\u030a", "d": "\u0323", "b": "\u0331",
}
"""Text-mode accents (`\\'e`, `\\"{o}`, `\\v{c}`) as combining marks."""

WRAPPERS: dict[str, tuple[str, str]] = {
    "norm": ("‖", "‖"), "abs": ("|", "|"), "set": ("{", "}"), "ceil": ("⌈", "⌉"),
    "floor": ("⌊", "⌋"), "paren": ("(", ")"), "bracket": ("[", "]"),
}
"""Common one-argument delimiter macros."""

TEXT_WORDS: dict[str, str] = {
    "ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "aa": "å", "AA": "Å",
    "o": "ø", "O": "Ø", "l": "ł", "L": "Ł",
    "LaTeX": "LaTeX", "TeX": "TeX", "eg": "e.g.", "ie": "i.e.", "etc": "etc.",
    "wrt": "w.r.t.", "etal": "et al.", "textendash": "–", "textemdash": "—",
    "ldots": "…", "dots": "…", "textasciitilde": "~", "textbackslash": "\\",
    "textbar": "|", "textless": "<", "textgreater": ">", "textregistered": "®",
    "texttrademark": "™", "copyright": "©", "S": "§", "P": "¶", "dag": "†", "ddag": "‡",
    "textdegree": "°", "textbullet": "•", "pounds": "£", "euro": "€",
    "textasciicircum": "^", "textunderscore": "_", "newline": " ", "linebreak": " ",
    "par": " ", "hfill": " ", "quad": " ", "qquad": " ",
    "noindent": "", "medskip": "", "bigskip": "", "smallskip": "", "centering": "",
}
"""Text-mode commands that stand for a fixed string."""

GLUE_PREFIXES: tuple[str, ...] = tuple(sorted(
    ("emph", "textit", "textbf", "underline", "texttt", "mathcal", "mathbb", "mathbf",
     "mathrm", "mathfrak", "sqrt", "widetilde", "tilde", "widehat"),
    key=len, reverse=True,
))
"""Commands that scraped abstracts glue to their argument once braces are lost:
`\\emphkernel`, `\\mathcalO`, `\\sqrtT`. Longest first so `mathbf` wins over `mathb...`."""

SUPERSCRIPTS: dict[str, str] = {
    **dict(zip("0123456789+-=()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾")),
    **dict(zip("abcdefghijklmnoprstuvwxyz", "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ")),
    **dict(zip("ABDEGHIJKLMNOPRTUVW", "ᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ")),
    **dict(zip("αβγδεθιφχ", "ᵅᵝᵞᵟᵋᶿᶥᵠᵡ")),
    # Marks that already read as superscripts stay as they are: x*, x′, x†, Aᵀ, 90°.
    "*": "*", "∗": "∗", "′": "′", "'": "′", "†": "†", "‡": "‡", "⊤": "ᵀ", "∘": "°",
}
"""Characters that have a Unicode superscript form."""

SUBSCRIPTS: dict[str, str] = {
    **dict(zip("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")),
    **dict(zip("aehijklmnoprstuvx", "ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")),
    **dict(zip("βγρφχ", "ᵦᵧᵨᵩᵪ")),
}
"""Characters that have a Unicode subscript form."""

ALIAS_NOISE: frozenset[str] = frozenset(
    set(FONT_COMMANDS) | set(FONT_DECLARATIONS) | set(STYLE_COMMANDS) | set(STYLE_DECLARATIONS)
    | TRANSPARENT | CITES | SIZING | IGNORED | set(MATH_ACCENTS) | set(GLUE_PREFIXES)
    | {"frac", "dfrac", "tfrac", "cfrac", "nicefrac", "sqrt", "not", "quad", "qquad", "over",
       "ensuremath", "textsubscript", "textsuperscript", "stackrel", "overset", "underset"}
)
"""Command names that format rather than name something: left out of search aliases."""

SYMBOL_NAMES: dict[str, str] = {
    char: name
    for name, char in reversed(list({**_GREEK, **_MISC}.items()))
    if len(char) == 1 and char.isalpha()
}
"""Unicode symbol → command name, so `$α$` typed directly still gets the alias `alpha`."""
