-- A sequence made by create_code_sequence(..., charset) remembers its charset:
-- nextval_code(seq) without a charset draws codes of that charset (before, it read upper
-- and failed with a hint to CREATE SEQUENCE the sequence that exists). Sequences it did not
-- make keep the default upper. The record is deleted with the sequence.
SELECT idseq_create_charset('cs_noambig', '23456789ABCDEFGHJKMNPQRSTUVWXYZ');
SELECT create_code_sequence('na_codes', 3, 'cs_noambig'), create_code_sequence('up_codes', 2);
CREATE SEQUENCE hand_codes MINVALUE 0 MAXVALUE 675 START 0 CYCLE;
SELECT seq, charset FROM idseq_code_sequences ORDER BY seq::text;
SELECT nextval_code('na_codes') AS remembered, nextval_code('na_codes', 'cs_noambig') AS named,
       nextval_code('up_codes') AS upper_made, nextval_code('hand_codes') AS upper_default;
-- as a column default, row after row
CREATE TABLE na_tickets (code text DEFAULT nextval_code('na_codes'), n int);
INSERT INTO na_tickets (n) SELECT g FROM generate_series(1, 3) g;
SELECT string_agg(code, ' ' ORDER BY n) FROM na_tickets;
-- another charset named explicitly: the error says which one the sequence was made for
SELECT * FROM expect_error($$SELECT nextval_code('na_codes', 'upper')$$);
-- a null sequence is null; a null charset is the default
SELECT nextval_code(NULL) AS null_seq, nextval_code('na_codes', NULL) AS null_charset;
-- only the sequence's owner (or create_code_sequence) records a charset: a role allowed to
-- insert (as the database's owner is, for restores) names only its own sequences
CREATE ROLE cs_other;
GRANT INSERT ON idseq_code_sequences TO cs_other;
GRANT CREATE ON SCHEMA public TO cs_other;
SET ROLE cs_other;
SELECT * FROM expect_error($$INSERT INTO idseq_code_sequences VALUES ('hand_codes', 'digits')$$);
SELECT * FROM expect_error($$DELETE FROM idseq_code_sequences$$);
CREATE SEQUENCE own_codes MINVALUE 0 MAXVALUE 99 START 0 CYCLE;
INSERT INTO idseq_code_sequences VALUES ('own_codes', 'digits');
SELECT nextval_code('own_codes') AS own_digits;
DROP SEQUENCE own_codes;
RESET ROLE;
SELECT count(*) AS own_forgotten FROM idseq_code_sequences WHERE charset = 'digits';
REVOKE ALL ON idseq_code_sequences FROM cs_other;
REVOKE CREATE ON SCHEMA public FROM cs_other;
DROP ROLE cs_other;
-- dropping a sequence forgets its charset
DROP TABLE na_tickets;
DROP SEQUENCE na_codes, up_codes, hand_codes;
SELECT count(*) AS remembered_after_drop FROM idseq_code_sequences;
