/**
 * @module shared/notes-summary
 * What an upload's answer says of the notes file that came beside its PDF (the multipart part
 * `notes`): its name, what it was, how many slides it gives notes for, and its warnings. One
 * TypeBox shape for the handoff record and the answer of going live, each under its own title,
 * so both doors describe a notes part alike. Plain TypeBox (browser-safe).
 */
import { Type } from "@sinclair/typebox";

export function notesSummarySchema(options: { title: string; description: string }) {
  return Type.Object(
    {
      filename: Type.String({ description: "The notes file's name as uploaded (path parts and control characters removed)." }),
      kind: Type.Union([Type.Literal("pdfpc"), Type.Literal("pptx")], { description: "What the notes file was: a .pdfpc file or a PowerPoint .pptx." }),
      slides: Type.Integer({ minimum: 0, description: "Number of slides the notes file gives notes for." }),
      warnings: Type.Array(
        Type.Object(
          {
            code: Type.String({ description: "Stable finding code, as in the check report." }),
            message: Type.String({ description: "What is off and what to do about it." }),
          },
          { title: "NotesWarning" },
        ),
        { description: "Warnings about the notes file (e.g. its slide count differs from the PDF's); the deck was taken anyway." },
      ),
    },
    options,
  );
}
