// Counting through a block of ids reserved by idseq, in the application.
//
// Node.js (20 or later), no packages. Shown in docs/sequences.md; t/024_block_snippets.pl
// checks that these functions expand blocks into exactly the ids the server itself would
// issue.
//
//     node id_blocks.js range '[1001,1101)'            # a block of nextval_block(seq, n)
//     node id_blocks.js lexid SYMBOLS FIRST_ID LAST_ID  # a block of lexid_block(seq, seed)
//
// print the block's ids, one per line.
'use strict';

// The values of a block from nextval_block(seq, n), an int8range '[first,last+1)' as
// PostgreSQL prints it (node-postgres hands it over as that text), in order, as BigInt:
// a bigint may exceed Number.MAX_SAFE_INTEGER (2^53 - 1), where Number loses digits.
function* int8rangeIds(block) {
  const m = /^\[(-?\d+),(-?\d+)\)$/.exec(block.trim());
  if (!m) throw new Error(`not a block of nextval_block: ${block}`);
  for (let v = BigInt(m[1]); v < BigInt(m[2]); v++) yield v;
}

// Every id of a block from lexid_block(seq, seed), firstId to lastId included, in shortlex
// order over the charset's symbols (SELECT symbols FROM idseq_charsets WHERE
// name = lexid_charset(first_id)). A symbol is one character (Array.from splits by code
// point, so symbols outside the BMP count as one); the last one counts up and carries into
// the one before it, and past the largest symbol everywhere the id grows by one:
// 'ZY', 'ZZ', '000', '001' over base36.
function* lexidIds(firstId, lastId, symbols) {
  const syms = Array.from(symbols);
  const value = new Map(syms.map((s, i) => [s, i]));
  const digits = Array.from(firstId, (c) => value.get(c));
  const last = Array.from(lastId, (c) => value.get(c));
  if (digits.includes(undefined) || last.includes(undefined)) throw new Error('a symbol outside the charset');
  const differ = digits.findIndex((d, i) => d !== last[i]);
  if (digits.length > last.length || (digits.length === last.length && differ >= 0 && digits[differ] > last[differ]))
    throw new Error(`${firstId} comes after ${lastId}`);
  for (;;) {
    yield digits.map((d) => syms[d]).join('');
    if (digits.length === last.length && digits.every((d, i) => d === last[i])) return;
    let i = digits.length - 1;
    while (i >= 0 && digits[i] === syms.length - 1) digits[i--] = 0;
    if (i < 0) digits.unshift(0);
    else digits[i]++;
  }
}

module.exports = { int8rangeIds, lexidIds };

if (require.main === module) {
  const [cmd, ...args] = process.argv.slice(2);
  let ids;
  if (cmd === 'range' && args.length === 1) ids = int8rangeIds(args[0]);
  else if (cmd === 'lexid' && args.length === 3) ids = lexidIds(args[1], args[2], args[0]);
  else {
    console.error('usage: node id_blocks.js range BLOCK | lexid SYMBOLS FIRST_ID LAST_ID');
    process.exit(2);
  }
  const out = [];
  for (const id of ids) out.push(String(id));
  process.stdout.write(out.length ? out.join('\n') + '\n' : '');
}
