// w-diet's shared script, loaded on every page before the page's own script (both deferred, in order).
// No inline script anywhere (CSP); pages render on the server and scripts only enhance them.
"use strict";

window.WDiet = (function () {
  const csrfToken = () => {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  };

  /** Thrown by `api` for a non-2xx answer: `status`, and the API's `{error: {code, message, fields}}`. */
  class APIError extends Error {
    constructor(status, body) {
      const detail = (body && body.error) || {};
      super(detail.message || "Something went wrong. Please try again.");
      this.status = status;
      this.code = detail.code || "unknown";
      this.fields = detail.fields || {};
      this.body = body;
    }
  }

  /**
   * Calls the JSON API with the session cookie and the page's CSRF token.
   * Resolves to the parsed body (null for 204); rejects with APIError (status 0 when the network failed).
   */
  async function api(method, path, body) {
    const headers = { "Accept": "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (method !== "GET") headers["X-CSRF-Token"] = csrfToken();
    let response;
    try {
      response = await fetch(path, {
        method, headers, credentials: "same-origin",
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (networkError) {
      throw new APIError(0, { error: { code: "offline", message: "You seem to be offline. Please try again." } });
    }
    if (response.status === 204) return null;
    let parsed = null;
    try { parsed = await response.json(); } catch (_) { parsed = null; }
    if (!response.ok) throw new APIError(response.status, parsed);
    return parsed;
  }

  /**
   * A short message ("Meal saved!"), announced to screen readers; a tap dismisses it. A page whose CSS gives
   * `.toast--leaving` an animation (the profile's, 001 §11 "Toast Animations: Exit") sees it played before removal.
   */
  function toast(message, options) {
    const region = document.getElementById("toast-region");
    if (!region) return;
    const item = document.createElement("div");
    item.className = "toast";
    const text = document.createElement("span");
    text.textContent = message;
    item.appendChild(text);
    const leave = () => {
      if (!item.isConnected || item.classList.contains("toast--leaving")) return;
      item.classList.add("toast--leaving");
      const running = prefersReducedMotion() ? [] : item.getAnimations().filter((a) => a.playState === "running");
      if (!running.length) { item.remove(); return; }
      Promise.all(running.map((a) => a.finished)).then(() => item.remove(), () => item.remove());
    };
    if (options && options.actionLabel && options.onAction) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "toast__action";
      button.textContent = options.actionLabel;
      button.addEventListener("click", () => { options.onAction(); leave(); });
      item.appendChild(button);
    }
    item.addEventListener("click", (event) => { if (!event.target.closest(".toast__action")) leave(); });
    region.appendChild(item);
    setTimeout(leave, (options && options.duration) || 4000);
  }

  const numberFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
  /** 1250 → "1,250". */
  const formatInt = (n) => numberFormat.format(Math.round(n));

  /** The user's local date as YYYY-MM-DD (the API's `date=` parameter). */
  function localDate(d) {
    const date = d || new Date();
    const pad = (n) => String(n).padStart(2, "0");
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  }

  const prefersReducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  return { api, APIError, toast, formatInt, localDate, csrfToken, prefersReducedMotion };
})();

// A page that has something to say once (the welcome page after an account was deleted) carries it in
// `data-page-toast`; the query that asked for it is dropped, so a reload does not say it again.
document.addEventListener("DOMContentLoaded", () => {
  const holder = document.querySelector("[data-page-toast]");
  if (!holder) return;
  WDiet.toast(holder.dataset.pageToast, { duration: 6000 });
  history.replaceState(null, "", location.pathname + location.hash);
});
