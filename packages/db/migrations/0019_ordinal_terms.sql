-- The text analysis now reads a digit ordinal as its number ("14th" -> "14", "3rd" -> "3"; packages/core/src/text/terms.ts).
-- Stored terms written before are rewritten the same way, so a query analysed today matches them. Before, an ordinal
-- went through the Snowball stemmer, which writes every "3" of a word with letters as "y" ("3rd" -> "yrd",
-- "13th" -> "1yth"): a stored term of digits and "y" with an ordinal's ending is such an ordinal.
UPDATE "memories" SET "terms" = array_to_string(array(
  SELECT CASE WHEN w ~ '^[0-9y]+(st|nd|rd|th)$' THEN translate(left(w, -2), 'y', '3') ELSE w END
  FROM unnest(string_to_array("terms", ' ')) WITH ORDINALITY AS u(w, n) ORDER BY n), ' ')
 WHERE "terms" ~ '(^| )[0-9y]+(st|nd|rd|th)( |$)';
--> statement-breakpoint
UPDATE "passages" SET "terms" = array_to_string(array(
  SELECT CASE WHEN w ~ '^[0-9y]+(st|nd|rd|th)$' THEN translate(left(w, -2), 'y', '3') ELSE w END
  FROM unnest(string_to_array("terms", ' ')) WITH ORDINALITY AS u(w, n) ORDER BY n), ' ')
 WHERE "terms" ~ '(^| )[0-9y]+(st|nd|rd|th)( |$)';
--> statement-breakpoint
UPDATE "universal_memories" SET "terms" = array_to_string(array(
  SELECT CASE WHEN w ~ '^[0-9y]+(st|nd|rd|th)$' THEN translate(left(w, -2), 'y', '3') ELSE w END
  FROM unnest(string_to_array("terms", ' ')) WITH ORDINALITY AS u(w, n) ORDER BY n), ' ')
 WHERE "terms" ~ '(^| )[0-9y]+(st|nd|rd|th)( |$)';
