/** A progress bar on stderr: redrawn in place on a terminal, a line per 10% otherwise (CI logs). */
import type { RunProgress } from "./run";

const WIDTH = 30;

export function progressBar(stream: NodeJS.WriteStream = process.stderr): RunProgress & { done(): void } {
  let total = 1;
  let current = 0;
  let label = "";
  let started = 0;
  let lastDecile = -1;
  let lastDraw = 0;

  const draw = (force = false) => {
    const ratio = Math.min(1, current / total);
    const now = performance.now();
    if (stream.isTTY) {
      if (!force && now - lastDraw < 80) return;
      lastDraw = now;
      const filled = Math.round(ratio * WIDTH);
      const elapsed = (now - started) / 1000;
      const eta = ratio > 0 ? elapsed / ratio - elapsed : 0;
      const bar = `${"█".repeat(filled)}${"░".repeat(WIDTH - filled)}`;
      stream.write(
        `\r${label.padEnd(10)} ${bar} ${(ratio * 100).toFixed(0).padStart(3)}%  ${current}/${total}  ${elapsed.toFixed(0)}s elapsed, ~${eta.toFixed(0)}s left  `,
      );
    } else {
      const decile = Math.floor(ratio * 10);
      if (decile === lastDecile && !force) return;
      lastDecile = decile;
      stream.write(`${label}: ${(ratio * 100).toFixed(0)}% (${current}/${total})\n`);
    }
  };

  return {
    start(steps, name) {
      total = Math.max(1, steps);
      current = 0;
      label = name;
      started = performance.now();
      lastDecile = -1;
      draw(true);
    },
    tick(steps) {
      current += steps;
      draw(current >= total);
    },
    done() {
      if (stream.isTTY) stream.write("\n");
    },
  };
}
