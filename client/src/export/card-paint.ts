/**
 * @module client/export/card-paint
 * What a live talk put over the slide, drawn on a canvas as the audience window shows it in
 * HTML and CSS (client/styles/talk-back.css and live-panel.css: `.talk-question`, `.talk-poll`, `.join-card`): the question card at
 * the bottom, a poll's results over a dimmed slide, the join card with its QR code, talk code
 * and viewer link. Sizes are the stylesheet's, in vmin of the picture; text is wrapped as the
 * browser wraps it (at spaces, long words anywhere). Text only ever goes in as canvas text.
 */
import { encode } from "uqr";
import { shortUrl } from "../live/talk/join-card.ts";
import { pollBars, votersText } from "../live/talk/poll-bars.ts";
import type { ProjectedTalk } from "../live/talk/talk-model.ts";

type Ctx = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

const SANS = "system-ui, sans-serif";
const MONO = "ui-monospace, 'DejaVu Sans Mono', monospace";
const INK = "#111827";
const MUTED = "#4b5563";
const TEAL = "#0f766e";

/** Lines of `text` no wider than `max`: at spaces, words too long for a line broken anywhere; newlines kept. */
export function wrapText(text: string, max: number, width: (s: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/ +/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (width(candidate) <= max) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = "";
      // A word wider than the line: broken by characters (overflow-wrap: anywhere).
      let rest = word;
      while (width(rest) > max && rest.length > 1) {
        let cut = rest.length - 1;
        while (cut > 1 && width(rest.slice(0, cut)) > max) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

function roundedBox(ctx: Ctx, x: number, y: number, w: number, h: number, r: number, vmin: number): void {
  ctx.save();
  // box-shadow: 0 2vmin 6vmin rgb(0 0 0 / 0.5)
  ctx.shadowColor = "rgb(0 0 0 / 0.5)";
  ctx.shadowBlur = 3 * vmin;
  ctx.shadowOffsetY = 2 * vmin;
  ctx.fillStyle = "#fff";
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
  ctx.fill();
  ctx.restore();
}

/** Text with letter spacing (canvas `letterSpacing` where the engine has it, else plain). */
function spaced(ctx: Ctx, spacing: string): void {
  if ("letterSpacing" in ctx) (ctx as { letterSpacing: string }).letterSpacing = spacing;
}

/** The question the presenter shows: a white card at the bottom centre (`.talk-question`). */
export function paintQuestion(ctx: Ctx, question: NonNullable<ProjectedTalk["question"]>, W: number, H: number): void {
  const vmin = Math.min(W, H) / 100;
  const padX = 4 * vmin;
  const padY = 3 * vmin;
  const maxBox = Math.min(0.9 * W, 1120);
  const textSize = 4.4 * vmin;
  const nameSize = 2.6 * vmin;
  ctx.font = `600 ${textSize}px ${SANS}`;
  const lines = wrapText(question.text, maxBox - 2 * padX, (s) => ctx.measureText(s).width);
  let contentW = Math.max(...lines.map((l) => ctx.measureText(l).width));
  ctx.font = `400 ${nameSize}px ${SANS}`;
  const nameLines = question.name ? wrapText(question.name, maxBox - 2 * padX, (s) => ctx.measureText(s).width) : [];
  contentW = Math.max(contentW, ...nameLines.map((l) => ctx.measureText(l).width));
  const lineH = textSize * 1.25;
  const nameH = nameSize * 1.2;
  const boxW = Math.min(maxBox, contentW + 2 * padX);
  const boxH = 2 * padY + lines.length * lineH + (nameLines.length ? 1.5 * vmin + nameLines.length * nameH : 0);
  const x = (W - boxW) / 2;
  const y = H - 4 * vmin - boxH;
  roundedBox(ctx, x, y, boxW, boxH, 2 * vmin, vmin);
  ctx.textBaseline = "middle";
  ctx.textAlign = "left";
  ctx.fillStyle = INK;
  ctx.font = `600 ${textSize}px ${SANS}`;
  lines.forEach((line, i) => ctx.fillText(line, x + padX, y + padY + (i + 0.5) * lineH));
  ctx.fillStyle = MUTED;
  ctx.font = `400 ${nameSize}px ${SANS}`;
  const nameTop = y + padY + lines.length * lineH + 1.5 * vmin;
  nameLines.forEach((line, i) => ctx.fillText(line, x + padX, nameTop + (i + 0.5) * nameH));
}

/** A poll's results over the dimmed slide (`.talk-poll`, `.poll-chart-big`). */
export function paintPoll(ctx: Ctx, poll: NonNullable<ProjectedTalk["poll"]>, W: number, H: number): void {
  const vmin = Math.min(W, H) / 100;
  ctx.fillStyle = "rgb(0 0 0 / 0.6)";
  ctx.fillRect(0, 0, W, H);
  const boxW = Math.min(0.9 * W, 1120);
  const padX = 4 * vmin;
  const padY = 3 * vmin;
  const inner = boxW - 2 * padX;
  const qSize = 4 * vmin;
  const barSize = 3.2 * vmin;
  const votersSize = 2.4 * vmin;
  const gap = 1.6 * vmin;
  ctx.font = `700 ${qSize}px ${SANS}`;
  const qLines = wrapText(poll.question, inner, (s) => ctx.measureText(s).width);
  const bars = pollBars(poll, { counts: poll.counts, voters: poll.voters });
  ctx.font = `400 ${barSize}px ${SANS}`;
  const rows = bars.map((bar) => ({ bar, value: `${bar.count} · ${bar.percent}%` }));
  const labelLines = rows.map((row) => wrapText(row.bar.option, inner - ctx.measureText(row.value).width - 0.6 * 16, (s) => ctx.measureText(s).width));
  const lineH = barSize * 1.2;
  const trackH = barSize * 1.2;
  const rowH = (i: number) => labelLines[i]!.length * lineH + 1.6 + trackH;
  const barsH = rows.reduce((sum, _, i) => sum + rowH(i), 0) + gap * Math.max(0, rows.length - 1);
  const boxH = 2 * padY + qLines.length * qSize * 1.2 + 2 * vmin + 0.3 * 16 + barsH + 0.3 * 16 + votersSize * 1.2;
  const x = (W - boxW) / 2;
  const y = Math.max(0, (H - boxH) / 2);
  roundedBox(ctx, x, y, boxW, boxH, 2 * vmin, vmin);
  ctx.textBaseline = "middle";
  ctx.textAlign = "left";
  ctx.fillStyle = INK;
  ctx.font = `700 ${qSize}px ${SANS}`;
  let top = y + padY;
  for (const line of qLines) {
    ctx.fillText(line, x + padX, top + qSize * 0.6);
    top += qSize * 1.2;
  }
  top += 2 * vmin + 0.3 * 16;
  rows.forEach((row, i) => {
    ctx.font = `400 ${barSize}px ${SANS}`;
    ctx.fillStyle = INK;
    labelLines[i]!.forEach((line, j) => ctx.fillText(line, x + padX, top + (j + 0.5) * lineH));
    ctx.textAlign = "right";
    ctx.fillText(row.value, x + padX + inner, top + 0.5 * lineH);
    ctx.textAlign = "left";
    const trackTop = top + labelLines[i]!.length * lineH + 1.6;
    ctx.fillStyle = "#e5e7eb";
    ctx.beginPath();
    ctx.roundRect(x + padX, trackTop, inner, trackH, trackH / 2);
    ctx.fill();
    ctx.fillStyle = TEAL;
    ctx.beginPath();
    ctx.roundRect(x + padX, trackTop, Math.max(2, inner * row.bar.fill), trackH, trackH / 2);
    ctx.fill();
    top += rowH(i) + gap;
  });
  top += 0.3 * 16 - gap;
  ctx.fillStyle = MUTED;
  ctx.font = `400 ${votersSize}px ${SANS}`;
  ctx.fillText(`${votersText(poll.voters)}${poll.closed ? " · closed" : ""}`, x + padX, top + votersSize * 0.6);
}

/** A QR code of `text` (uqr, medium error correction, a two-module margin), drawn module by module. */
function paintQr(ctx: Ctx, text: string, x: number, y: number, size: number): void {
  const { data, size: n } = encode(text, { ecc: "M", border: 2 });
  const module = size / n;
  ctx.fillStyle = "#fff";
  ctx.fillRect(x, y, size, size);
  ctx.fillStyle = "#000";
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      // Whole pixels, so neighbouring modules meet without seams.
      if (data[row]![col]) ctx.fillRect(Math.floor(x + col * module), Math.floor(y + row * module), Math.ceil(module), Math.ceil(module));
    }
  }
}

/** The live talk's join card over the dimmed slide (`.join-card`): QR code, the link and the code. */
export function paintJoinCard(ctx: Ctx, card: { code: string; viewerUrl: string }, W: number, H: number): void {
  const vmin = Math.min(W, H) / 100;
  ctx.fillStyle = "rgb(0 0 0 / 0.78)";
  ctx.fillRect(0, 0, W, H);
  const qr = Math.min(0.42 * H, 0.36 * W);
  const padX = 5 * vmin;
  const padY = 4 * vmin;
  const gap = 5 * vmin;
  const titleSize = 3.6 * vmin;
  const labelSize = 2.4 * vmin;
  const codeSize = 9 * vmin;
  let urlSize = 3.6 * vmin;
  const maxText = W - 2 * 4 * vmin - 2 * padX - qr - gap;
  const url = shortUrl(card.viewerUrl);
  ctx.font = `600 ${urlSize}px ${MONO}`;
  // The link on one line: a long one is set smaller rather than broken inside the code.
  const urlW = ctx.measureText(url).width;
  if (urlW > maxText) urlSize *= maxText / urlW;
  const texts: { text: string; font: string; color: string; height: number; after: number; spacing: string; upper?: boolean }[] = [
    { text: "Follow this talk on your phone", font: `700 ${titleSize}px ${SANS}`, color: INK, height: titleSize * 1.2, after: 2.5 * vmin, spacing: "0px" },
    { text: "Scan the code, or open", font: `400 ${labelSize}px ${SANS}`, color: MUTED, height: labelSize * 1.2, after: 0, spacing: `${0.08 * labelSize}px`, upper: true },
    { text: url, font: `600 ${urlSize}px ${MONO}`, color: INK, height: urlSize * 1.25, after: 2.5 * vmin, spacing: "0px" },
    { text: "Talk code", font: `400 ${labelSize}px ${SANS}`, color: MUTED, height: labelSize * 1.2, after: 0, spacing: `${0.08 * labelSize}px`, upper: true },
    { text: card.code, font: `800 ${codeSize}px ${MONO}`, color: TEAL, height: codeSize * 1.05, after: 0, spacing: `${0.14 * codeSize}px` },
  ];
  let textW = 0;
  for (const t of texts) {
    ctx.font = t.font;
    spaced(ctx, t.spacing);
    textW = Math.max(textW, ctx.measureText(t.upper ? t.text.toUpperCase() : t.text).width);
  }
  spaced(ctx, "0px");
  textW = Math.min(textW, maxText);
  const textH = texts.reduce((sum, t) => sum + t.height + t.after, 0);
  const boxW = 2 * padX + qr + gap + textW;
  const boxH = 2 * padY + Math.max(qr, textH);
  const x = (W - boxW) / 2;
  const y = (H - boxH) / 2;
  roundedBox(ctx, x, y, boxW, boxH, 2 * vmin, vmin);
  paintQr(ctx, card.viewerUrl, Math.round(x + padX), Math.round(y + (boxH - qr) / 2), Math.round(qr));
  let top = y + (boxH - textH) / 2;
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  for (const t of texts) {
    ctx.font = t.font;
    ctx.fillStyle = t.color;
    spaced(ctx, t.spacing);
    ctx.fillText(t.upper ? t.text.toUpperCase() : t.text, x + padX + qr + gap, top + t.height / 2, maxText);
    top += t.height + t.after;
  }
  spaced(ctx, "0px");
}
