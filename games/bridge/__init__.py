"""Contract bridge as played for rubbers: cards, auction, play, scoring, rubber, settlement."""
