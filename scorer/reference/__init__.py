"""The rules reference: the game in the project's own words, as data.

`sections.SECTIONS` holds the text; `search.search` finds sections by words;
`tables` builds the card-points table from the rules engine's own values.
"""
