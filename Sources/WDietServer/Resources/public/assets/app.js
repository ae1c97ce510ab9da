// w-diet's shared script, loaded on every page before the page's own script (both deferred, in order).
// No inline script anywhere (CSP); pages render on the server and scripts only enhance them.
"use strict";

window.WDiet = (function () {
  // The string catalog in the page's language (/strings/<language>-<version>.js, loaded just before this script).
  const strings = window.WDietStrings || {};
  const lang = window.WDietLanguage || document.documentElement.lang || "en";
  const pluralRules = new Intl.PluralRules(lang);

  /**
   * The catalog's text for `key` ("meals.saved") with `{name}` placeholders filled from `args`. A plural entry
   * picks its form by `args.count`, which is written in the page language's number format.
   */
  function t(key, args) {
    let entry = strings[key];
    if (entry === undefined) return key;
    const values = Object.assign({}, args);
    if (typeof entry === "object") {
      const count = Number(values.count);
      entry = entry[pluralRules.select(count)] || entry.other || key;
    }
    if (typeof values.count === "number") values.count = formatNumber(values.count);
    return entry.replace(/\{(\w+)\}/g, (match, name) => (name in values ? String(values[name]) : match));
  }

  const csrfToken = () => {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  };

  /** Thrown by `api` for a non-2xx answer: `status`, and the API's `{error: {code, message, fields}}`. */
  class APIError extends Error {
    constructor(status, body) {
      const detail = (body && body.error) || {};
      super(detail.message || t("common.somethingWentWrong"));
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
      throw new APIError(0, { error: { code: "offline", message: t("common.offline") } });
    }
    if (response.status === 204) return null;
    let parsed = null;
    try { parsed = await response.json(); } catch (_) { parsed = null; }
    if (!response.ok) throw new APIError(response.status, parsed);
    return parsed;
  }

  /**
   * A short message (a saved meal's toast), announced to screen readers; a tap dismisses it. A page whose CSS gives
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
    // Two at the most: a run of quick actions (one tap per logged food) must not stack toasts over the page; the
    // oldest goes, and what it offered (Undo) stays on the day's meals.
    const shown = [...region.querySelectorAll(".toast:not(.toast--leaving)")];
    shown.slice(0, Math.max(0, shown.length - 1)).forEach((old) => old.dispatchEvent(new CustomEvent("toast:leave")));
    item.addEventListener("toast:leave", leave);
    region.appendChild(item);
    setTimeout(leave, (options && options.duration) || 4000);
  }

  const numberFormats = {};
  /** 82.46 → "82.5" / "82,5" with `digits` decimals (0 by default), grouped by thousands as the page's language writes it. */
  function formatNumber(n, digits) {
    const d = digits || 0;
    if (!numberFormats[d]) numberFormats[d] = new Intl.NumberFormat(lang, { minimumFractionDigits: d, maximumFractionDigits: d });
    return numberFormats[d].format(n);
  }
  /** 1250 → "1,250" / "1.250". */
  const formatInt = (n) => formatNumber(Math.round(n));

  /** The local date on this device as YYYY-MM-DD, for the API's date= parameter. */
  function localDate(d) {
    const date = d || new Date();
    const pad = (n) => String(n).padStart(2, "0");
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  }

  const prefersReducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  /**
   * A new id for a row this page creates (a meal, a weight, an analytics event): a version 7 UUID (RFC 9562),
   * 48 bits of Unix milliseconds and then random bits, like the ids the server makes. The server keys rows by id,
   * and ids made in the same moment land on the same index page instead of each on a random one.
   */
  function newId(now = Date.now()) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    let milliseconds = Math.max(0, Math.floor(now));
    for (let i = 5; i >= 0; i--) {
      bytes[i] = milliseconds % 256;
      milliseconds = Math.floor(milliseconds / 256);
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x70;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /**
   * Lets a player of a recording show its length before it is played. A recording made with MediaRecorder (WebM in
   * Chromium, Ogg in Firefox) has no duration in its header, so the player said "0:00 / 0:00" until played through.
   * Once asked, the player reads the recording (a minute is ~240 KB), seeks past its end once so that the browser
   * learns the length, and goes back to the start. A recording whose header has it (Safari's MP4) is left alone.
   */
  function showRecordingLength(audio) {
    // Once per recording: the element keeps the address whose length it already asked for.
    if (!(audio instanceof HTMLAudioElement) || !audio.getAttribute("src") || audio.dataset.lengthAskedFor === audio.src) return;
    audio.dataset.lengthAskedFor = audio.src;
    const learn = () => {
      if (Number.isFinite(audio.duration)) return;
      const back = () => {
        if (!Number.isFinite(audio.duration)) return;
        audio.removeEventListener("durationchange", back);
        audio.currentTime = 0;
      };
      audio.addEventListener("durationchange", back);
      audio.currentTime = Number.MAX_SAFE_INTEGER;
    };
    if (audio.readyState >= HTMLMediaElement.HAVE_METADATA) {
      learn();
    } else {
      audio.addEventListener("loadedmetadata", learn, { once: true });
      audio.preload = "metadata";
      audio.load();
    }
  }

  return { api, APIError, toast, t, lang, formatInt, formatNumber, localDate, csrfToken, prefersReducedMotion, newId, showRecordingLength };
})();

// Recordings in a journal card load nothing until the card is opened (`preload="none"`: a day of voice entries is
// not downloaded for a glance); an opened card's players then learn their length. `toggle` does not bubble, so it is
// caught on its way down.
document.addEventListener("toggle", (event) => {
  if (event.target instanceof HTMLDetailsElement && event.target.open) {
    event.target.querySelectorAll("audio[data-recording]").forEach(WDiet.showRecordingLength);
  }
}, true);
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("details[open] audio[data-recording], audio[data-recording]:not(details audio)")
    .forEach(WDiet.showRecordingLength);
});

// A page that has something to say once (the welcome page after an account was deleted) carries it in
// `data-page-toast`; the query that asked for it is dropped, so a reload does not say it again.
document.addEventListener("DOMContentLoaded", () => {
  const holder = document.querySelector("[data-page-toast]");
  if (!holder) return;
  WDiet.toast(holder.dataset.pageToast, { duration: 6000 });
  history.replaceState(null, "", location.pathname + location.hash);
});

// Analytics (004 Story 5.2): the moments only the browser sees — a session, a screen, a script error — sent to
// POST /api/v1/events with the page's CSRF token (fetch with keepalive, since sendBeacon cannot set the header).
// Signed-in pages only (the API needs the session); the server records onboarding's start, account step and
// finish and the error pages itself. Nothing here may throw or hold up the page: failures are dropped.
WDiet.analytics = (function () {
  const SESSION_KEY = "wdiet.analytics.session";
  const MAX_ERRORS_PER_PAGE = 5;
  const body = document.body;
  const enabled = !!(body && body.hasAttribute("data-signed-in") && WDiet.csrfToken());
  const screenName = (body && body.dataset.screen) || location.pathname;

  const seconds = (from) => String(Math.max(0, Math.round((Date.now() - from) / 1000)));

  /** Sends events now; `keepalive` lets the request outlive the page that is being left. */
  function send(events) {
    if (!enabled || !events.length) return;
    try {
      fetch("/api/v1/events", {
        method: "POST", credentials: "same-origin", keepalive: true,
        headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRF-Token": WDiet.csrfToken() },
        body: JSON.stringify({ events }),
      }).catch(() => {});
    } catch (_) { /* analytics never gets in the way */ }
  }
  const event = (name, properties) => ({ id: WDiet.newId(), name, properties, occurredAt: new Date().toISOString() });
  function track(name, properties) { send([event(name, properties || {})]); }

  // A session lives in sessionStorage: it spans the pages of one visit and ends when the user leaves the app
  // (closes the tab, switches away), not when one of our pages links to another.
  function readSession() {
    try { return JSON.parse(sessionStorage.getItem(SESSION_KEY) || "null"); } catch (_) { return null; }
  }
  function writeSession(session) {
    try { sessionStorage.setItem(SESSION_KEY, JSON.stringify(session)); } catch (_) { /* private mode */ }
  }

  let viewStartedAt = 0;
  let viewOpen = false;
  // When a link, form or script last started taking the user to another of our pages (0: none). A navigation a
  // handler cancels is forgotten after a few seconds, so closing the tab later still ends the session.
  let navigatingAt = 0;
  const navigatingWithin = () => Date.now() - navigatingAt < 5000;
  const markNavigating = () => { navigatingAt = Date.now(); };

  /** The page is (again) in front of the user: a session if none is running, and a screen_view. */
  function enter() {
    if (viewOpen) return;
    const events = [];
    let session = readSession();
    if (!session || session.ended) {
      session = { startedAt: Date.now(), ended: false };
      writeSession(session);
      events.push(event("session_start", { screen_name: screenName }));
    }
    viewOpen = true;
    viewStartedAt = Date.now();
    navigatingAt = 0;
    events.push(event("screen_view", { screen_name: screenName }));
    send(events);
  }

  /** The page goes out of sight: its screen_exit, and the session's end unless the user is moving within the app. */
  function leave() {
    if (!viewOpen) return;
    viewOpen = false;
    const events = [event("screen_exit", { screen_name: screenName, time_spent_seconds: seconds(viewStartedAt) })];
    const session = readSession();
    if (session && !session.ended && !navigatingWithin()) {
      session.ended = true;
      writeSession(session);
      events.push(event("session_end", { duration_seconds: seconds(session.startedAt) }));
    }
    send(events);
  }

  const sameOrigin = (url) => { try { return new URL(url, location.href).origin === location.origin; } catch (_) { return false; } };
  if (enabled) {
    // A link, a form or a script taking the user to another of our pages is not the end of the session.
    if (window.navigation && navigation.addEventListener) {
      navigation.addEventListener("navigate", (e) => { if (!e.destination.sameDocument && sameOrigin(e.destination.url)) markNavigating(); });
    }
    document.addEventListener("click", (e) => {
      const link = e.target instanceof Element && e.target.closest("a[href]");
      if (link && sameOrigin(link.href) && !link.target) markNavigating();
    }, true);
    document.addEventListener("submit", markNavigating, true);
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") leave(); else enter(); });
    window.addEventListener("pagehide", leave);
    window.addEventListener("pageshow", (e) => { if (e.persisted) enter(); });
    if (document.visibilityState !== "hidden") enter();
  }

  // Uncaught script errors, a few per page at most, each kind and message once, so a failing loop cannot flood.
  let errorsSent = 0;
  const seen = new Set();
  function reportError(type, message) {
    try {
      const text = String(message || "").slice(0, 200);
      const key = `${type}:${text}`;
      if (!enabled || errorsSent >= MAX_ERRORS_PER_PAGE || seen.has(key)) return;
      seen.add(key);
      errorsSent += 1;
      track("error_logged", { error_type: type, screen_name: screenName, message: text });
    } catch (_) { /* never throw from an error handler */ }
  }
  window.addEventListener("error", (e) => reportError("script_error", e.message));
  window.addEventListener("unhandledrejection", (e) => reportError("unhandled_rejection", e.reason && (e.reason.message || e.reason)));

  /** track sends one event; a script calls markNavigating before it sends the user to another of our pages. */
  return { track, markNavigating };
})();
