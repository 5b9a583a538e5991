import type uPlot from 'uplot';

/** Movement (CSS px) below which a touch is a tap, not a drag. */
const SLOP = 8;
/** Two taps this close (ms) are a double tap: back to the whole range. */
const DOUBLE_TAP_MS = 350;

/**
 * Touch on a uPlot chart, which handles only the mouse: a tap or a long press shows the values under
 * the finger (the legend), a horizontal drag selects dates to zoom into, two fingers pinch the dates,
 * a double tap shows the whole range again. A vertical swipe stays the browser's (`touch-action:
 * pan-y`), so a finger on a chart still scrolls the page. Returns the listeners' removal.
 */
export function touchGestures(u: uPlot): () => void {
  const over = u.over;
  over.style.touchAction = 'pan-y';
  const touches = new Map<number, number>();
  let start = 0;
  let dragging = false;
  let lastTap = 0;
  let pinch: { distance: number; min: number; max: number; centre: number } | null = null;

  const left = (clientX: number) => Math.min(Math.max(clientX - over.getBoundingClientRect().left, 0), over.clientWidth);
  const show = (e: PointerEvent) => u.setCursor({ left: left(e.clientX), top: e.clientY - over.getBoundingClientRect().top });
  const clearSelect = () => u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);

  function down(e: PointerEvent): void {
    if (e.pointerType !== 'touch') return;
    // No emulated mouse events after this touch: uPlot would read them as a mouse drag.
    e.preventDefault();
    touches.set(e.pointerId, e.clientX);
    if (touches.size === 1) {
      start = left(e.clientX);
      dragging = false;
      show(e);
    } else if (touches.size === 2) {
      const [a, b] = [...touches.values()];
      const { min, max } = u.scales.x;
      pinch = { distance: Math.abs(a - b) || 1, min: min!, max: max!, centre: u.posToVal(left((a + b) / 2), 'x') };
      clearSelect();
    }
  }

  function move(e: PointerEvent): void {
    if (e.pointerType !== 'touch' || !touches.has(e.pointerId)) return;
    touches.set(e.pointerId, e.clientX);
    if (pinch && touches.size === 2) {
      const [a, b] = [...touches.values()];
      const scale = pinch.distance / (Math.abs(a - b) || 1);
      u.setScale('x', { min: pinch.centre - (pinch.centre - pinch.min) * scale, max: pinch.centre + (pinch.max - pinch.centre) * scale });
      return;
    }
    const x = left(e.clientX);
    if (Math.abs(x - start) > SLOP) dragging = true;
    show(e);
    if (dragging) u.setSelect({ left: Math.min(start, x), top: 0, width: Math.abs(x - start), height: over.clientHeight }, false);
  }

  function up(e: PointerEvent): void {
    if (e.pointerType !== 'touch' || !touches.delete(e.pointerId)) return;
    if (pinch) {
      if (touches.size === 0) pinch = null;
      return;
    }
    const x = left(e.clientX);
    if (dragging) {
      clearSelect();
      const [from, to] = [Math.min(start, x), Math.max(start, x)];
      u.setScale('x', { min: u.posToVal(from, 'x'), max: u.posToVal(to, 'x') });
    } else if (e.timeStamp - lastTap < DOUBLE_TAP_MS) {
      u.setData(u.data, true);
      lastTap = 0;
      return;
    }
    lastTap = dragging ? 0 : e.timeStamp;
  }

  function cancel(e: PointerEvent): void {
    // The browser took the gesture over (a vertical swipe scrolls the page).
    touches.delete(e.pointerId);
    if (touches.size === 0) pinch = null;
    dragging = false;
    clearSelect();
  }

  over.addEventListener('pointerdown', down);
  over.addEventListener('pointermove', move);
  over.addEventListener('pointerup', up);
  over.addEventListener('pointercancel', cancel);
  return () => {
    over.removeEventListener('pointerdown', down);
    over.removeEventListener('pointermove', move);
    over.removeEventListener('pointerup', up);
    over.removeEventListener('pointercancel', cancel);
  };
}
