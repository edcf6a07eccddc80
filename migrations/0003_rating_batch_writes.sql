-- RecordMatch now records matches in batches, one transaction per batch, with multi-row
-- statements (services/rating/match_writer.cc); the one-match function of 0002 is unused.
DROP FUNCTION rating_record_match(text, text, smallint, bigint, bigint, boolean, bytea, bytea,
                                  text[], text[], integer[], double precision[],
                                  double precision[], double precision[]);
