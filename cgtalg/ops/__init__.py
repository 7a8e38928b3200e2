"""Operations: one public function per question (outcome, winning moves, canonical form, comparison, values), for every kind of game it has meaning for."""
