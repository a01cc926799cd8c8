// Local servers (llama.cpp, vLLM, LM Studio, Ollama with some models) put a reasoning model's
// thinking inside the answer text as `<think>…</think>`. That text is not the answer: it is split off,
// as it streams (a tag may arrive cut over several deltas), so it is neither shown as the answer nor
// read as findings.

const OPEN = '<think>';
const CLOSE = '</think>';

/** Length of the longest end of `text` that is the start of `tag` (a tag still arriving). */
function partialTag(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) if (tag.startsWith(text.slice(-n))) return n;
  return 0;
}

export class ThinkSplitter {
  private buffer = '';
  private inside = false;
  /** After `</think>` the answer's first line breaks are the tag's, not the answer's. */
  private trimNext = false;

  /** Feed one delta; get what is known to be answer and what is known to be thinking. */
  push(delta: string): { answer: string; thinking: string } {
    this.buffer += delta;
    let answer = '';
    let thinking = '';
    for (;;) {
      const tag = this.inside ? CLOSE : OPEN;
      const at = this.buffer.indexOf(tag);
      if (at >= 0) {
        if (this.inside) thinking += this.buffer.slice(0, at);
        else answer += this.take(this.buffer.slice(0, at));
        this.buffer = this.buffer.slice(at + tag.length);
        this.inside = !this.inside;
        if (!this.inside) this.trimNext = true;
        continue;
      }
      const keep = partialTag(this.buffer, tag);
      const ready = this.buffer.slice(0, this.buffer.length - keep);
      this.buffer = this.buffer.slice(this.buffer.length - keep);
      if (this.inside) thinking += ready;
      else answer += this.take(ready);
      return { answer, thinking };
    }
  }

  /** The end of the text: a tag that never completed is text after all (an unclosed think block stays thinking). */
  flush(): { answer: string; thinking: string } {
    const rest = this.buffer;
    this.buffer = '';
    return this.inside ? { answer: '', thinking: rest } : { answer: this.take(rest), thinking: '' };
  }

  private take(text: string): string {
    if (!this.trimNext) return text;
    const trimmed = text.replace(/^\s+/, '');
    if (trimmed !== '') this.trimNext = false;
    return trimmed;
  }
}

/** A whole text split at once (a JSON answer). */
export function splitThinking(text: string): { answer: string; thinking: string } {
  const s = new ThinkSplitter();
  const a = s.push(text);
  const b = s.flush();
  return { answer: a.answer + b.answer, thinking: a.thinking + b.thinking };
}
