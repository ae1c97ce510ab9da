// The Challenge's photo view and Photo Comparison (C3): arrow keys and a horizontal swipe step through the weekly
// photos (the page's own previous/next links, so without script the links do the same); the comparison's week
// pickers apply on change, and its slider moves the split between the two photos.
(() => {
  "use strict";
  const previous = document.querySelector("[data-photo-previous]");
  const next = document.querySelector("[data-photo-next]");
  const go = (link) => { if (link) window.location.assign(link.href); };
  if (document.querySelector("[data-photo-viewer]")) {
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === "ArrowLeft") go(previous);
      else if (event.key === "ArrowRight") go(next);
      else if (event.key === "Escape") go(document.getElementById("ch-photo-close"));
    });
    let startX = null, startY = null;
    const figure = document.querySelector(".ch-viewer__figure");
    figure?.addEventListener("touchstart", (event) => {
      startX = event.touches[0].clientX; startY = event.touches[0].clientY;
    }, { passive: true });
    figure?.addEventListener("touchend", (event) => {
      if (startX === null) return;
      const dx = event.changedTouches[0].clientX - startX, dy = event.changedTouches[0].clientY - startY;
      startX = null;
      if (Math.abs(dx) < 50 || Math.abs(dx) < Math.abs(dy)) return;
      go(dx > 0 ? previous : next);
    });
  }
  const form = document.querySelector("[data-compare-form]");
  form?.querySelectorAll("select").forEach((select) => select.addEventListener("change", () => form.submit()));
  const range = document.querySelector("[data-compare-range]");
  const overlay = document.getElementById("ch-compare-overlay");
  if (range && overlay) {
    const apply = () => overlay.style.setProperty("--split", `${range.value}%`);
    range.addEventListener("input", apply);
    apply();
  }
})();
