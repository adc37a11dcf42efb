"""Scoresheets for groups that play with real cards: the bot keeps the sheet, the players the
cards. One keeper for every game (``sheets``) over the game's own match, and the handlers in the
chat (``handlers``); a game's plug-in brings only its entries, its wizard and its sheet's view."""
