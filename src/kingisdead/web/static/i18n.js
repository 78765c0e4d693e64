// Interface texts: every text shown to a player goes through t("English text", {name: value}).
// The English text is the catalog key; "{name}" placeholders are filled from params.
export function t(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}
