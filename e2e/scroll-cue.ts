import { expect, type Locator } from "@playwright/test";

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * A table that scrolls sideways (components/debug/scroll-edges.tsx) names it with its "More columns"
 * cue, and the cue covers no header and no cell: it is measured against each cell's part that shows
 * (clipped to the scroller), so a cell scrolled out of view does not count.
 */
export async function expectScrollCueClearOfCells(edges: Locator) {
  const cue = edges.getByTestId("scroll-more");
  await expect(cue).toBeVisible();
  const cueBox = await cue.boundingBox();
  if (!cueBox) throw new Error("the scroll cue has no box");
  const cells = await edges.getByTestId("scroll-area").evaluate((scroller) => {
    const view = scroller.getBoundingClientRect();
    return [...scroller.querySelectorAll("th, td")].flatMap((cell) => {
      const box = cell.getBoundingClientRect();
      const x = Math.max(box.left, view.left);
      const right = Math.min(box.right, view.right);
      const y = Math.max(box.top, view.top);
      const bottom = Math.min(box.bottom, view.bottom);
      if (right <= x || bottom <= y) return [];
      return [{ x, y, width: right - x, height: bottom - y, text: (cell.textContent ?? "").trim().slice(0, 40) }];
    });
  });
  expect(cells.length, "cells on screen").toBeGreaterThan(0);
  const covered = cells.filter((cell) => overlaps(cueBox, cell)).map((cell) => cell.text);
  expect(covered, "cells the scroll cue covers").toEqual([]);
}
