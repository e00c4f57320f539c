"""Writes tests/data/arimaa-pyrimaa.txt: positions from random games of the full game, each with
its side to move, its number of distinct turns and their count by the fewest steps that make
them, as pyrimaa (the AEI package's reference move generator, `pip install AEI`) finds them.
matchbox's own generator must agree (tests/arimaa.rs). Run: python3 tests/data/arimaa-pyrimaa.py
"""
import random

from pyrimaa import board
from pyrimaa.board import Color, Position, BASIC_SETUP

random.seed(2026)
lines = []
games = 0
while len(lines) < 40:
    games += 1
    pos = Position(Color.GOLD, 4, BASIC_SETUP)
    for turn in range(random.randint(10, 70)):
        steps, nxt = pos.get_rnd_step_move()
        if steps is None or nxt.is_end_state():
            break
        pos = nxt
    if pos.is_end_state():
        continue
    partial = {pos: 0}
    seen = {}
    by_min = [0, 0, 0, 0]
    color = pos.color
    level = 0
    finished = {}
    while partial:
        level += 1
        nextpart = {}
        for npos in partial:
            for step, move in npos.get_steps():
                if move.color == color:
                    if move not in nextpart:
                        nextpart[move] = 0
                else:
                    finished[move] = min(finished.get(move, level), level)
            if not npos.inpush and npos is not pos:
                # pyrimaa's own get_moves keeps the first path found, which is not always the
                # shortest: the fewest steps are taken here.
                m = npos.get_null_move()
                finished[m] = min(finished.get(m, level - 1), level - 1)
        partial = nextpart
    null = pos.get_null_move()
    finished.pop(null, None)
    for m, n in finished.items():
        by_min[n - 1] += 1
    side = "gold" if color == Color.GOLD else "silver"
    lines.append(f"{side}\t{len(finished)}\t{' '.join(map(str, by_min))}\t{pos.board_to_str('short')}")

with open("tests/data/arimaa-pyrimaa.txt", "w") as f:
    f.write("# side\tturns\tby fewest steps (1 2 3 4)\tposition; from tests/data/arimaa-pyrimaa.py\n")
    f.write("\n".join(lines) + "\n")
