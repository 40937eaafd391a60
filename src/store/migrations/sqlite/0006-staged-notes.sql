-- The notes file that came beside a staged PDF: what it was, and its notes as normalised
-- .pdfpc text, which the claim and the expiry set back to NULL.
ALTER TABLE sessions ADD COLUMN notes_filename TEXT;
ALTER TABLE sessions ADD COLUMN notes_kind TEXT CHECK (notes_kind IN ('pdfpc', 'pptx'));
ALTER TABLE sessions ADD COLUMN notes_slides INTEGER;
ALTER TABLE sessions ADD COLUMN notes_pdfpc TEXT;
