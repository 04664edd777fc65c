"""A hand on its way to the sheet: the draft tapped in, and what to do when another
phone changed the game meanwhile."""
