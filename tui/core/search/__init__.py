"""Search: queries compiled (`query`), run and ranked (`search`), corrected (`spelling`),
narrowed by reading state (`filters`) and highlighted (`highlight`).
"""
