"""Ora et Labora (France and Ireland, 1-4 players, short and long games).

Only the catalog exists so far: `catalog.py` loads and validates the data shipped in
`seeds/ora_et_labora/` (goods, production wheel, landscapes, the 70 building rows, the 8
settlements, the seven modes with their building selections). The rules engine (commands,
events, decide/evolve, scoring) does not exist yet, so the game is not registered in
`games/registry.py`.
"""
