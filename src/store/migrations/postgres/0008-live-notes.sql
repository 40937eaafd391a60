-- The notes file a presenter sent with a live talk's deck, for its phone remote: what it was,
-- and its notes as normalised .pdfpc text, which the end sets back to NULL.
ALTER TABLE live_sessions ADD COLUMN notes_filename text;
ALTER TABLE live_sessions ADD COLUMN notes_kind text CHECK (notes_kind IN ('pdfpc', 'pptx'));
ALTER TABLE live_sessions ADD COLUMN notes_slides integer;
ALTER TABLE live_sessions ADD COLUMN notes_pdfpc text;
