// Interface texts: every text shown to a player goes through t("English text", {name: value}).
// The English text is the catalog key; "{name}" placeholders are filled from params.
// The page's language is the <html lang> the server rendered (account, "lang" cookie, Accept-Language);
// its catalog (GET /api/i18n/{lang}) is loaded once here, before any module that imports t() runs.
// Texts are extracted with Babel (keywords t and tn): write each text as one string literal. See docs/i18n.md.

const LANGUAGES = [["en", "English"], ["fr", "Français"], ["de", "Deutsch"]];
export const lang = LANGUAGES.some(([code]) => code === document.documentElement.lang) ? document.documentElement.lang : "en";

let messages = {};
if (lang !== "en") {
  try {
    const response = await fetch(`/api/i18n/${lang}`);
    if (response.ok) messages = (await response.json()).messages;
  } catch { /* offline or failing: English, the keys themselves */ }
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

export function t(text, params = {}) {
  const found = messages[text];
  return fill(typeof found === "string" && found ? found : text, params);
}

// Clauses joined by semicolons as the page's language writes them: "a; b", in French "a ; b" (Python's
// i18n.clauses).
export function clauses(items) {
  return items.length ? items.reduce((joined, clause) => t("{clauses}; {clause}", { clauses: joined, clause })) : "";
}

// A text with a singular and a plural form; params.n is the count: tn("{n} region", "{n} regions", {n: 3}).
export function tn(singular, plural, params) {
  const n = Number(params.n);
  const forms = messages[singular];
  const index = lang === "fr" ? (n > 1 ? 1 : 0) : (n === 1 ? 0 : 1);  // French: 0 and 1 are singular
  const english = n === 1 ? singular : plural;
  return fill(Array.isArray(forms) && forms[index] ? forms[index] : english, params);
}

// Numbers in the page's language (decimal comma in French and German).
export function number(value, options = {}) {
  return new Intl.NumberFormat(lang, options).format(value);
}

// The language selector in every page's top bar: the choice is kept in the "lang" cookie (one year) and,
// for a signed-in player, in their account (PATCH /api/account), which wins on every browser.
function selector() {
  const bar = document.querySelector(".topbar") || document.querySelector(".docs-nav");
  if (!bar || bar.querySelector("[data-testid=language]")) return;
  const select = document.createElement("select");
  select.className = "language";
  select.dataset.testid = "language";
  select.setAttribute("aria-label", t("Language"));
  for (const [code, name] of LANGUAGES) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    select.append(option);
  }
  select.value = lang;
  select.addEventListener("change", async () => {
    const chosen = select.value;
    document.cookie = `lang=${chosen}; path=/; max-age=31536000; SameSite=Lax`;
    // Only a signed-in player has an account to keep it in (the page says so): a guest's PATCH would be a 401.
    if (document.body.dataset.session) {
      try {
        await fetch("/api/account", { method: "PATCH", headers: { "Content-Type": "application/json" },
                                      body: JSON.stringify({ language: chosen }) });
      } catch { /* the server is away: the cookie is enough */ }
    }
    location.reload();
  });
  bar.append(select);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", selector);
else selector();
