"""Reads a plateau game record back with the game's own Python library and
prints what it found, for tests/records.rs to compare with the server's
state: `moves result final-position`, one per line.

    read_back.py draughts FILE EXPECTED    (pydraughts)
    read_back.py ataxx FILE EXPECTED       (python-ataxx)

EXPECTED is the server's final position; it is printed last in the form the
library's final position was printed in, so that the two lines compare.
"""
import sys


def draughts_squares(fen):
    """A draughts FEN as (side, white men, white kings, black men, black kings)."""
    side, *parts = fen.strip().split(":")
    found = {"W": (set(), set()), "B": (set(), set())}
    for part in parts:
        colour, listed = part[0], part[1:]
        for item in filter(None, listed.split(",")):
            king = item.startswith("K")
            item = item.lstrip("K")
            if "-" in item:
                low, high = map(int, item.split("-"))
                squares = range(low, high + 1)
            else:
                squares = [int(item)]
            found[colour][1 if king else 0].update(squares)
    return (side, *(sorted(s) for s in found["W"] + found["B"]))


def read_draughts(path, expected):
    from draughts import Board, Move
    from draughts.PDN import PDNReader

    game = PDNReader(filename=path).games[0]
    board = Board(variant="standard", fen=game.tags.get("FEN", "startpos"))
    for move in game.moves:
        board.push(Move(board, pdn_move=move))
    print(len(game.moves))
    print(game.game_ending)
    print(draughts_squares(board.fen))
    print(draughts_squares(expected))


def read_ataxx(path, expected):
    import ataxx
    import ataxx.pgn

    with open(path) as f:
        game = ataxx.pgn.parse(f.read())
    board = ataxx.Board(game.headers.get("FEN", "startpos"))
    count = 0
    for node in game.main_line():
        board.makemove(node.move)
        count += 1
    print(count)
    print(game.headers["Result"])
    print(" ".join(board.get_fen().split()[:2]))
    print(" ".join(expected.split()[:2]))


if __name__ == "__main__":
    {"draughts": read_draughts, "ataxx": read_ataxx}[sys.argv[1]](sys.argv[2], sys.argv[3])
