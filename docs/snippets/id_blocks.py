"""Counting through a block of ids reserved by idseq, in the application.

Python 3, standard library only. Shown in docs/sequences.md; t/024_block_snippets.pl checks
that these functions expand blocks into exactly the ids the server itself would issue.

    python3 id_blocks.py range '[1001,1101)'           # a block of nextval_block(seq, n)
    python3 id_blocks.py lexid SYMBOLS FIRST_ID LAST_ID # a block of lexid_block(seq, seed)

print the block's ids, one per line.
"""
import re
import sys


def int8range_ids(block):
    """The values of a block from nextval_block(seq, n), an int8range '[first,last+1)' as
    PostgreSQL prints it, in order. (psycopg hands int8range over as a Range object: use
    range(r.lower, r.upper) there.)"""
    m = re.fullmatch(r"\[(-?\d+),(-?\d+)\)", block.strip())
    if not m:
        raise ValueError(f"not a block of nextval_block: {block!r}")
    return range(int(m.group(1)), int(m.group(2)))


def lexid_ids(first_id, last_id, symbols):
    """Every id of a block from lexid_block(seq, seed), first_id to last_id included, in
    shortlex order over the charset's symbols (SELECT symbols FROM idseq_charsets WHERE
    name = lexid_charset(first_id)). A symbol is one character; the last one counts up and
    carries into the one before it, and past the largest symbol everywhere the id grows by
    one: 'ZY', 'ZZ', '000', '001' over base36."""
    symbols = list(symbols)
    value = {s: i for i, s in enumerate(symbols)}
    digits = [value[c] for c in first_id]
    last = [value[c] for c in last_id]
    if (len(digits), digits) > (len(last), last):
        raise ValueError(f"{first_id!r} comes after {last_id!r}")
    while True:
        yield "".join(symbols[d] for d in digits)
        if digits == last:
            return
        i = len(digits) - 1
        while i >= 0 and digits[i] == len(symbols) - 1:
            digits[i] = 0
            i -= 1
        if i < 0:
            digits.insert(0, 0)
        else:
            digits[i] += 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "range":
        ids = int8range_ids(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "lexid":
        ids = lexid_ids(sys.argv[3], sys.argv[4], sys.argv[2])
    else:
        sys.exit(__doc__)
    for i in ids:
        print(i)
