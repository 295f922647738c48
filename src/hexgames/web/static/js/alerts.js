// The message area: errors from the server and short notices, visible to people and tests.

const area = () => document.getElementById("alerts");
let timer = null;

function show(text, kind, seconds) {
  const el = area();
  if (!el) return;
  el.textContent = text;
  el.dataset.kind = kind;
  // Below the top bar, however many lines it takes on a narrow screen.
  const bar = document.querySelector(".topbar");
  el.style.top = `${Math.max(0, bar ? bar.getBoundingClientRect().bottom : 0) + 6}px`;
  el.hidden = false;
  clearTimeout(timer);
  if (seconds) timer = setTimeout(clearAlert, seconds * 1000);
}

/** An error: stays until the next action or 10 seconds. */
export function showError(text) {
  show(text, "error", 10);
}

/** A notice that goes away by itself. */
export function showNotice(text) {
  show(text, "notice", 4);
}

export function clearAlert() {
  const el = area();
  if (!el) return;
  el.hidden = true;
  el.textContent = "";
  delete el.dataset.kind;
}
