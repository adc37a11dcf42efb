"""Pure views: (state, viewer, language) -> text and keyboard (``bot.rendered``). No awaits, no
Bot, no I/O."""
