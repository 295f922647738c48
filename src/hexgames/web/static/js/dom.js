// Small helpers to build HTML and SVG elements without a framework.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "text") {
      el.textContent = value;
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of [].concat(children || [])) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h("button", {id: "undo", onclick: f}, "Undo"). */
export function h(tag, attrs, children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs, children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace every child of el. */
export function replaceChildren(el, children) {
  el.replaceChildren(
    ...[].concat(children).filter((c) => c !== null && c !== undefined && c !== false),
  );
}

/** A button of the game view: its id, its text (or icon), a title that is also its
 * accessible name, and what a click does; extra: more attributes. */
export function button(id, text, title, onclick, extra = {}) {
  return h("button", { id, type: "button", title, "aria-label": title, onclick, ...extra }, text);
}

/** A form whose submission calls onSubmit() instead of loading a page. */
export function actionForm(attrs, onSubmit, children) {
  const submit = (e) => {
    e.preventDefault();
    onSubmit();
  };
  return h("form", { ...attrs, onsubmit: submit }, children);
}

/** A 24×24 SVG icon of one path. */
export function icon(path) {
  return s("svg", { viewBox: "0 0 24 24", "aria-hidden": "true" }, [s("path", { d: path })]);
}
