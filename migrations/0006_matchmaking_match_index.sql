-- Passes find the tickets of a match still placing by its id (mm_tickets.match_id); without an
-- index each such lookup read every ticket ever stored.
CREATE INDEX mm_tickets_by_match ON mm_tickets (match_id) WHERE match_id IS NOT NULL;
