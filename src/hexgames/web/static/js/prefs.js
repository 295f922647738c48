// The page's preferences, kept in the browser's storage (a private window may refuse it:
// a setting then lasts for this page only).

export const prefs = {
  get(key, fallback) {
    try {
      const v = localStorage.getItem(`hexgames.${key}`);
      return v === null ? fallback : JSON.parse(v);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(`hexgames.${key}`, JSON.stringify(value));
    } catch {
      // private windows may refuse storage; the setting then lasts for this page only
    }
  },
};
