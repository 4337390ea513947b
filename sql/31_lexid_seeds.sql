-- An untyped seed of nextval_lexid where its result fills a lexid(cs) column is read in the
-- column's charset, the rule of untyped values compared with typed ones: in a column default
-- (typed once, when the default is created, so that INSERT, COPY and pg_dump all see the
-- typed seed), and in INSERT ... VALUES / UPDATE ... SET (typed by the planner hook). Read as
-- base36 on its own, every INSERT drew a sequence value and then failed to store it.
SELECT idseq_create_charset('seed_noambig', '23456789ABCDEFGHJKMNPQRSTUVWXYZ');
CREATE SEQUENCE seed_seq;
CREATE TABLE seed_orders (code lexid(seed_noambig) PRIMARY KEY DEFAULT nextval_lexid('seed_seq', '222222'), n int);
-- the stored default holds the typed seed
SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'seed_orders'::regclass;
INSERT INTO seed_orders (n) VALUES (1);
COPY seed_orders (n) FROM stdin;
2
\.
INSERT INTO seed_orders VALUES (nextval_lexid('seed_seq', '2222ZZ'), 3);
UPDATE seed_orders SET code = nextval_lexid('seed_seq', '3333AA') WHERE n = 3;
SELECT code, n, lexid_charset(code) FROM seed_orders ORDER BY n;
-- four rows' worth of values, none burnt on an error
SELECT last_value FROM seed_seq;
-- ALTER TABLE ... SET DEFAULT and ADD COLUMN, a domain column, CREATE TABLE ... LIKE
CREATE DOMAIN seed_code AS lexid(seed_noambig);
CREATE TABLE seed_more (n int);
ALTER TABLE seed_more ADD COLUMN a lexid(seed_noambig) DEFAULT nextval_lexid('seed_seq', 'ZZ');
ALTER TABLE seed_more ADD COLUMN b seed_code;
ALTER TABLE seed_more ALTER COLUMN b SET DEFAULT nextval_lexid('seed_seq', '22');
CREATE TABLE seed_like (LIKE seed_orders INCLUDING DEFAULTS);
SELECT attrelid::regclass, attname, pg_get_expr(adbin, adrelid) FROM pg_attrdef JOIN pg_attribute
    ON attrelid = adrelid AND attnum = adnum WHERE adrelid IN ('seed_more'::regclass, 'seed_like'::regclass) ORDER BY 1, 2;
INSERT INTO seed_more (n) VALUES (1);
SELECT a, b FROM seed_more;
-- SET DEFAULT on a partitioned table reaches its partitions, which COPY may fill directly
CREATE TABLE seed_part (code lexid(seed_noambig), n int) PARTITION BY RANGE (n);
CREATE TABLE seed_part_1 PARTITION OF seed_part FOR VALUES FROM (0) TO (10);
ALTER TABLE seed_part ALTER COLUMN code SET DEFAULT nextval_lexid('seed_seq', '2Z');
SELECT attrelid::regclass, pg_get_expr(adbin, adrelid) FROM pg_attrdef JOIN pg_attribute
    ON attrelid = adrelid AND attnum = adnum WHERE adrelid IN ('seed_part'::regclass, 'seed_part_1'::regclass) ORDER BY 1;
COPY seed_part_1 (n) FROM stdin;
1
\.
SELECT code, lexid_charset(code) FROM seed_part;
DROP TABLE seed_part;
-- a typed seed and a base36 column are left as they are
CREATE TABLE seed_kept (t lexid(seed_noambig) DEFAULT nextval_lexid('seed_seq', '22'::lexid(seed_noambig)),
                        b36 lexid(base36) DEFAULT nextval_lexid('seed_seq', 'a0'));
SELECT attname, pg_get_expr(adbin, adrelid) FROM pg_attrdef JOIN pg_attribute
    ON attrelid = adrelid AND attnum = adnum WHERE adrelid = 'seed_kept'::regclass ORDER BY 1;
-- a seed that does not read in the column's charset is refused when the default is created
SELECT * FROM expect_error($$CREATE TABLE seed_bad (code lexid(seed_noambig) DEFAULT nextval_lexid('seed_seq', '111111'))$$);
SELECT last_value FROM seed_seq;
-- ... except in a restore (pg_dump's scripts turn check_function_bodies off): refusing the
-- table would lose it and its rows, so the default stays as written, with a warning
SET check_function_bodies = off;
CREATE TABLE seed_restored (code lexid(seed_noambig) DEFAULT nextval_lexid('seed_seq', '111111'));
RESET check_function_bodies;
SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'seed_restored'::regclass;
DROP TABLE seed_restored;
-- a value of another charset assigned to the column: the hint names both ways out
SELECT * FROM expect_error($$INSERT INTO seed_orders VALUES ('ZZ'::lexid(base36), 9)$$);
DROP TABLE seed_orders, seed_more, seed_like, seed_kept;
DROP DOMAIN seed_code;
DROP SEQUENCE seed_seq;
-- ===== every DDL path that makes or changes a default =====
-- ALTER COLUMN ... TYPE keeps the default and coerces its result: a seed typed for the old
-- charset would be left in place, and every insert would draw a value and then fail. Refused,
-- with the default to set; setting it in the same ALTER TABLE works.
CREATE SEQUENCE ddl_seq;
CREATE TABLE ddl_type (c lexid(base36) DEFAULT nextval_lexid('ddl_seq', '00A000'), n int);
SELECT * FROM expect_error($$ALTER TABLE ddl_type ALTER COLUMN c TYPE lexid(base62)$$);
SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'ddl_type'::regclass;
ALTER TABLE ddl_type ALTER COLUMN c TYPE lexid(base62), ALTER COLUMN c SET DEFAULT nextval_lexid('ddl_seq', '00a000');
-- the same change made through a typed table's composite type (ALTER TYPE ... CASCADE
-- retypes the table's column and reports only the type)
CREATE TYPE ddl_row AS (x int, code lexid(base36));
CREATE TABLE ddl_typed OF ddl_row (code WITH OPTIONS DEFAULT nextval_lexid('ddl_seq', '00A000'));
SELECT * FROM expect_error($$ALTER TYPE ddl_row ALTER ATTRIBUTE code TYPE lexid(base62) CASCADE$$);
SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'ddl_typed'::regclass AND attname = 'code';
DROP TABLE ddl_typed;
DROP TYPE ddl_row;
SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'ddl_type'::regclass;
INSERT INTO ddl_type (n) VALUES (1);
SELECT c, lexid_charset(c) FROM ddl_type;
-- a seed typed by hand for another charset is refused alike
SELECT * FROM expect_error($$CREATE TABLE ddl_other (c lexid(base62) DEFAULT nextval_lexid('ddl_seq', 'a0'::lexid(base36)))$$);
-- ... except in a restore, where it stays as written, with a warning
SET check_function_bodies = off;
CREATE TABLE ddl_other (c lexid(base62) DEFAULT nextval_lexid('ddl_seq', 'a0'::lexid(base36)));
RESET check_function_bodies;
DROP TABLE ddl_other;
-- ADD COLUMN ... DEFAULT on a table with rows fills them in the table's rewrite, before the
-- stored default is typed: the seed is read in the column's charset there too
CREATE TABLE ddl_add (id int PRIMARY KEY);
INSERT INTO ddl_add VALUES (1), (2);
ALTER TABLE ddl_add ADD COLUMN code lexid(base62) DEFAULT nextval_lexid('ddl_seq', 'aB');
SELECT id, code, lexid_charset(code) FROM ddl_add ORDER BY id;
SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'ddl_add'::regclass;
-- ... also through a domain column with a default of its own, and on a partitioned table
CREATE DOMAIN ddl_d62 AS lexid(base62);
ALTER TABLE ddl_add ADD COLUMN code2 ddl_d62 DEFAULT nextval_lexid('ddl_seq', 'zZ');
CREATE TABLE ddl_addp (id int) PARTITION BY RANGE (id);
CREATE TABLE ddl_addp_1 PARTITION OF ddl_addp FOR VALUES FROM (0) TO (10);
INSERT INTO ddl_addp VALUES (1);
ALTER TABLE ddl_addp ADD COLUMN code lexid(base62) DEFAULT nextval_lexid('ddl_seq', 'xY');
ALTER TABLE ddl_add ADD COLUMN named lexid(base62) DEFAULT nextval_lexid(seed => 'qR', seq => 'ddl_seq');
SELECT code2, named FROM ddl_add ORDER BY id;
-- named notation is read alike in a stored default and in INSERT ... VALUES
CREATE TABLE ddl_named (c lexid(base62) DEFAULT nextval_lexid(seed => 'mN', seq => 'ddl_seq'), n int);
INSERT INTO ddl_named (n) VALUES (1);
INSERT INTO ddl_named VALUES (nextval_lexid(seed => 'pQ', seq => 'ddl_seq'), 2);
SELECT c, lexid_charset(c) FROM ddl_named ORDER BY n;
SELECT code FROM ddl_addp;
-- ... and a seed that does not read there is refused before any value is drawn
SELECT last_value, is_called FROM ddl_seq;
SELECT * FROM expect_error($$ALTER TABLE ddl_add ADD COLUMN bad lexid(digits) DEFAULT nextval_lexid('ddl_seq', 'A0')$$);
SELECT last_value, is_called FROM ddl_seq;
-- A domain's default is typed like a column's, when it is created or set: its untyped seed
-- is read in the domain's charset (then ADD COLUMN of the domain fills the rows with it), a
-- seed that cannot be read there is refused
CREATE SEQUENCE dom_seq;
CREATE DOMAIN ddl_dom62 AS lexid(base62) DEFAULT nextval_lexid('dom_seq', 'aB');
SELECT typdefault, pg_get_expr(typdefaultbin, 0) FROM pg_type WHERE oid = 'ddl_dom62'::regtype;
ALTER TABLE ddl_add ADD COLUMN code3 ddl_dom62;
SELECT id, code3, lexid_charset(code3) FROM ddl_add ORDER BY id;
SELECT * FROM expect_error($$CREATE DOMAIN ddl_digits AS lexid(digits) DEFAULT nextval_lexid('dom_seq', 'A0')$$);
SELECT * FROM expect_error($$CREATE DOMAIN ddl_digits AS lexid(digits) DEFAULT nextval_lexid('dom_seq', '12'::lexid(base36))$$);
CREATE DOMAIN ddl_digits AS lexid(digits);
SELECT * FROM expect_error($$ALTER DOMAIN ddl_digits SET DEFAULT nextval_lexid('dom_seq', 'A0')$$);
ALTER DOMAIN ddl_digits SET DEFAULT nextval_lexid('dom_seq', '90');
CREATE TABLE ddl_dom_t (c ddl_digits, n int);
INSERT INTO ddl_dom_t (n) VALUES (1);
SELECT c, lexid_charset(c) FROM ddl_dom_t;
-- no value burnt on a refused default: two rows drew 2 values from dom_seq, one row 1
SELECT last_value, is_called FROM dom_seq;
DROP TABLE ddl_type, ddl_add, ddl_addp, ddl_dom_t, ddl_named;
DROP DOMAIN ddl_d62, ddl_dom62, ddl_digits;
DROP SEQUENCE ddl_seq, dom_seq;
