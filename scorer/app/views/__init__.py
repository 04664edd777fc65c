"""One module per screen; each builds an `ft.View` from the store, never from memory alone."""
