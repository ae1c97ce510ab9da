// The Journal's entry form (issue 18, seed 002): 002's mode selector (text, photo, voice). A photo from the camera or
// the library is uploaded to the media store first (PUT /api/v1/media/{id}) and the entry saved with its id. Voice
// records with MediaRecorder (the recording is kept with the entry, uploaded as audio) and, where the browser
// has speech recognition, writes the words into the description as they are said; elsewhere the person types
// them. The form itself is a plain POST, which is all a text entry needs (without script too).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const form = $("journal-form");
  if (!form) return;
  const status = $("journal-status");
  const media = $("journal-media");
  const raw = $("journal-raw");
  const description = $("journal-description");
  const save = $("journal-save");
  const modes = $("journal-modes");
  const photoPanel = $("journal-photo");
  const voicePanel = $("journal-voice");
  let uploading = 0;

  const say = (text) => { status.textContent = text || ""; };
  const mode = () => {
    const checked = form.querySelector("input[name=inputType]:checked") || form.querySelector("input[name=inputType]");
    return checked ? checked.value : "text";
  };
  const ids = () => media.value.split(",").filter(Boolean);
  const setIds = (list) => { media.value = list.join(","); };

  function showMode() {
    const current = mode();
    photoPanel.hidden = current !== "photo";
    voicePanel.hidden = current !== "voice";
  }

  if (modes) {
    modes.hidden = false;
    modes.addEventListener("change", () => {
      // Switching mode drops what the other mode attached (a text entry has no media).
      if (ids().length) { setIds([]); resetPreviews(); }
      if (recorder && recorder.state === "recording") stopRecording();
      say("");
      showMode();
    });
  }
  showMode();

  function resetPreviews() {
    const figure = $("journal-photo-preview");
    figure.hidden = true;
    figure.querySelector("img").removeAttribute("src");
    const audio = $("journal-voice-preview");
    audio.hidden = true;
    audio.removeAttribute("src");
  }

  /** Uploads a blob to the media store under a new id; resolves to the id. */
  async function upload(blob, contentType) {
    const id = WDiet.newId();
    uploading += 1;
    save.disabled = true;
    try {
      let response;
      try {
        response = await fetch(`/api/v1/media/${id}`, {
          method: "PUT", credentials: "same-origin", body: blob,
          headers: { "Content-Type": contentType, "Accept": "application/json", "X-CSRF-Token": WDiet.csrfToken() },
        });
      } catch (_) {
        throw new Error(WDiet.t("common.offline"));
      }
      if (!response.ok) {
        let message = WDiet.t("common.somethingWentWrong");
        try { const body = await response.json(); if (body && body.error && body.error.message) message = body.error.message; } catch (_) { /* not JSON */ }
        throw new Error(message);
      }
      return id;
    } finally {
      uploading -= 1;
      save.disabled = uploading > 0;
    }
  }

  // ---- Photo: camera or library ----
  ["journal-camera", "journal-library"].forEach((inputId) => {
    const input = $(inputId);
    if (!input) return;
    input.addEventListener("change", async () => {
      const file = input.files && input.files[0];
      if (!file) return;
      say(WDiet.t("journalday.photoUploading"));
      let id;
      try {
        id = await upload(file, file.type || "image/jpeg");
      } catch (error) {
        say(WDiet.t("journalday.uploadFailed", { reason: error.message }));
        input.value = "";
        return;
      }
      setIds([id]);
      const figure = $("journal-photo-preview");
      figure.querySelector("img").src = `/api/v1/media/${id}?size=thumb`;
      figure.hidden = false;
      say(WDiet.t("journalday.photoAdded"));
      input.value = "";
      description.focus();
    });
  });
  const removePhoto = $("journal-photo-remove");
  if (removePhoto) {
    removePhoto.addEventListener("click", () => {
      setIds([]);
      resetPreviews();
      say(WDiet.t("journalday.photoRemoved"));
    });
  }

  // ---- Voice: the recording kept, the words from speech recognition where the browser has it ----
  const Recognition = window.SpeechRecognition || window.webkitSpeechRecognition;
  const recordButton = $("journal-record");
  const recordLabel = $("journal-record-label");
  const VOICE_BITS_PER_SECOND = 32000;
  let recorder = null, recognition = null, chunks = [], stream = null, heard = "";

  async function startRecording() {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia || !window.MediaRecorder) {
      say(WDiet.t("journalday.voiceUnsupported"));
      return;
    }
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (_) {
      say(WDiet.t("journalday.voiceNoMicrophone"));
      return;
    }
    chunks = [];
    heard = "";
    // Speech needs no music bitrate: 32 kbit/s Opus (AAC in Safari) is clear, and a minute is ~240 KB instead of the
    // ~1 MB of the browsers' default, over a phone's connection and in the export.
    recorder = new MediaRecorder(stream, { audioBitsPerSecond: VOICE_BITS_PER_SECOND });
    recorder.addEventListener("dataavailable", (event) => { if (event.data && event.data.size) chunks.push(event.data); });
    recorder.addEventListener("stop", keepRecording);
    recorder.start();
    if (Recognition) {
      try {
        recognition = new Recognition();
        recognition.lang = WDiet.lang === "de" ? "de-DE" : "en-US";
        recognition.interimResults = true;
        recognition.continuous = true;
        recognition.addEventListener("result", (event) => {
          let text = "";
          for (let i = 0; i < event.results.length; i++) text += event.results[i][0].transcript;
          heard = text.trim();
          description.value = heard;
          raw.value = heard;
        });
        recognition.addEventListener("error", () => { recognition = null; });
        recognition.start();
      } catch (_) {
        recognition = null;
      }
    }
    recordButton.setAttribute("aria-pressed", "true");
    recordLabel.textContent = WDiet.t("journalday.voiceStop");
    say(WDiet.t("journalday.voiceListening"));
  }

  function stopRecording() {
    if (recognition) { try { recognition.stop(); } catch (_) { /* already stopped */ } }
    if (recorder && recorder.state !== "inactive") recorder.stop();
    if (stream) stream.getTracks().forEach((track) => track.stop());
    recordButton.setAttribute("aria-pressed", "false");
    recordLabel.textContent = WDiet.t("journalday.voiceStart");
  }

  async function keepRecording() {
    const type = (recorder.mimeType || "audio/webm").split(";")[0];
    const blob = new Blob(chunks, { type });
    say(WDiet.t("journalday.voiceUploading"));
    let id;
    try {
      id = await upload(blob, type);
    } catch (error) {
      say(WDiet.t("journalday.uploadFailed", { reason: error.message }));
      return;
    }
    setIds([id]);
    const audio = $("journal-voice-preview");
    audio.src = `/api/v1/media/${id}`;
    audio.hidden = false;
    WDiet.showRecordingLength(audio);
    const understood = Boolean(Recognition) && heard !== "";
    say(WDiet.t(understood ? "journalday.voiceKept" : "journalday.voiceKeptTypeIt"));
    if (!understood) description.focus();
  }

  if (recordButton) {
    recordButton.addEventListener("click", () => {
      if (recorder && recorder.state === "recording") stopRecording(); else startRecording();
    });
  }

  // ---- Saving: a text entry keeps what was typed as its original input; wait for an upload ----
  form.addEventListener("submit", (event) => {
    if (uploading > 0) {
      event.preventDefault();
      say(WDiet.t("journalday.waitForUpload"));
      return;
    }
    if (recorder && recorder.state === "recording") {
      event.preventDefault();
      stopRecording();
      say(WDiet.t("journalday.waitForUpload"));
      return;
    }
    if (form.dataset.new === "true" && mode() === "text") raw.value = "";
    save.textContent = WDiet.t("journalday.saving");
  });
})();
