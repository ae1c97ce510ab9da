// The day switcher (issue 17 "any day"): choosing a day in the date picker opens it, and a swipe across the page
// goes to the day before (finger to the right) or after (to the left), as the ‹ › links do. Without script the
// picker is a form with its own button.
"use strict";

(function () {
  const nav = document.getElementById("day-nav");
  if (!nav) return;
  const form = document.getElementById("day-nav-pick");
  const input = document.getElementById("day-nav-date");
  const go = form.querySelector("button[type=submit]");
  if (go) go.hidden = true;

  /** The page of a chosen day: today's page has no date in its URL. */
  function pathOf(value) {
    const base = form.getAttribute("action");
    return value === input.max ? base : `${base}?date=${encodeURIComponent(value)}`;
  }

  input.addEventListener("change", () => {
    const value = input.value;
    // An empty or out-of-range value (typed half-way) waits for the next change.
    if (!value || value < input.min || value > input.max || value === input.defaultValue) return;
    window.location.assign(pathOf(value));
  });

  // ---- Swipe: a mostly horizontal move of at least 60 px, not begun in a control or an open dialog ----
  let start = null;
  document.addEventListener("touchstart", (event) => {
    const touch = event.touches[0];
    const target = event.target;
    if (event.touches.length !== 1 || target.closest("input, select, textarea, dialog, [data-no-swipe]")) {
      start = null;
      return;
    }
    start = { x: touch.clientX, y: touch.clientY, at: Date.now() };
  }, { passive: true });

  document.addEventListener("touchend", (event) => {
    if (!start) return;
    const touch = event.changedTouches[0];
    const dx = touch.clientX - start.x, dy = touch.clientY - start.y;
    const quick = Date.now() - start.at < 800;
    start = null;
    if (!quick || Math.abs(dx) < 60 || Math.abs(dx) < 2 * Math.abs(dy)) return;
    const link = document.getElementById(dx < 0 ? "day-next" : "day-previous");
    if (link) window.location.assign(link.getAttribute("href"));
  }, { passive: true });
})();
