"""An abstract's LaTeX and Markdown as Unicode text with style spans.

`text.render` is the entry point and `plain.rendered_text` its remembered plain text;
`math` renders math segments, `scan` finds them, `spans` holds what rendering produces and
`tables` the lookup data.
"""
