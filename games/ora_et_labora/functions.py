"""Building functions (§11): what using a building does, and the ways a seat may use it.

`resolve(state, seat, building, use)` judges one `Use` command for the building waiting in
the top `UseFunction` decision and returns the `Outcome` (every good paid and gained, the
wheel after it, cards removed, Wonders taken, clergymen returned, and the decisions the
function opens next), or a Rejection. `choices(state, seat, building)` lists the ways a
seat may use it now, each of which `resolve` accepts (a representative set: one payment
per distinct result where payments could be mixed in many ways).
`clear(state, seat, good, cell, joker)` is Fell Trees / Cut Peat (§7.2), shared with the
Calefactory.

Pure: reads the state, never changes it. The function under way is `function_work.py`, its
steps and `resolve` `function_steps.py`, the ways to use a building `function_choices.py`.

Every function is read from its catalog row's `effect_steps`, one step after the other, so
a disputed row switched in the seed data (§16) changes the behaviour without code. Goods
produced by a step may be used by a later one ("then, additionally or instead", §11.1: the
Bakery sells bread it has just baked); goods given in `pay` come from the holding as it was.

How a `Use` carries the choices (the same reading for every building):

* `times` — one count per *counted* conversion step (convert, convert_choice,
  convert_basic_pair), in step order; a missing entry is 0, more than the step's `max` is
  refused (`over_limit`). A building whose only conversion is once-only (Grain Storage,
  Druid's House, Sacristy, Bathhouse, ...) has no entry: using the function is making it
  once. Bakery (bake, sell), Brewery (brew, sell), Winery (wine, sell), Cloister Workshop
  (ceramics, ornaments), Cloister Library (books, meat+wine), Chapel (book, reliquaries),
  Inn (food points, wine), Alehouse (beer, whiskey), Forger's Workshop (first, further),
  Windmill/Malthouse (grain), Stone Merchant (stones), Estate (repetitions), Peat Coal Kiln,
  Refectory, Dormitory, Slaughterhouse, Whiskey Distillery, Cloister Church, Camera, Coal
  Harbor (their one repeatable conversion). The Calefactory's `times` are joker flags
  (0/1), one per action chosen in `goods`.
* `pay` — the goods given for every value part of the function together: food, energy
  (Bakery, Stone Merchant, Inn, Estate, Shipping Company, Fuel Merchant: the tier is the
  highest the energy reaches, §15 #6), different goods (Cloister Courtyard 3, Market 4,
  Filial Church 5, Chamber of Wonders 13: one tile each, "coin5" is a type of its own,
  §15 #4) and points (Round Tower, §15 #7). Each good must carry the value asked; surplus
  is lost (§15 #5); straw may be flipped from grain. Goods the function names (grain for
  the Windmill, 1 coin for the Grain Storage, ...) are taken from the holding by
  themselves and are not part of `pay`; a function without a value part takes no `pay`.
* `goods` — the goods chosen, in step order: Farmyard grain|livestock; Cloister Courtyard
  the good of six; Druid's House (five of, three of); Sacred Site (grain|malt, beer|whiskey);
  False Lighthouse beer|whiskey; Shipping Company meat|bread|wine; Cooperage beer|whiskey;
  Calefactory the actions as the goods they yield, "wood" (Fell Trees) and/or "peat"
  (Cut Peat), in that order.
* `take` — point goods taken (House of the Brotherhood, Festival Ground), or the
  Pilgrimage Site's upgrades as {"book>ceramic": n, "ceramic>ornament": n,
  "ornament>reliquary": n}, applied in chain order (one tile may go up twice).
* `cells` — forest cards removed (Carpentry, Forest Hut, Printing Office); for the
  Calefactory one forest or moor card per action chosen, in the order of `goods`.
* `target` — the building whose function is used next (Priory, Palace, Grand Manor,
  Cloister Garden, Cottage; Hospice and Guesthouse name a display building as (-1, id));
  its own choices come in the next `Use`, opened in `then`.
* `joker` — produce with the joker (wheel buildings, §4.3); the Shipping Company and the
  Cooperage always use the joker and ignore it.

A use that changes nothing (no good paid or gained, no wheel, card, clergyman or decision)
is refused (`nothing_to_do`): not using a function is the separate `Decline`.
"""

from __future__ import annotations

from games.ora_et_labora.function_choices import CHEAP, LIMIT, choices
from games.ora_et_labora.function_steps import clear, resolve
from games.ora_et_labora.function_work import Outcome


__all__ = ["CHEAP", "LIMIT", "Outcome", "choices", "clear", "resolve"]
