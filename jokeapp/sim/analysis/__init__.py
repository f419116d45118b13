"""`joke analyze`: balance reports of bot games, with the Markov chain of the marble board."""
