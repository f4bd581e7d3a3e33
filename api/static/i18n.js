/* The pages' messages in the reader's language.
 *
 * t("{seat} to play", {seat: "N"}) looks the English message up in window.TUTE_MESSAGES (the catalogue of
 * tutepgn/locale/<lang>/*.po, served as /i18n/<lang>.js, loaded first by base.html) and fills its named
 * {placeholders}; tn(singular, plural, n, params) picks the form for n things by the language's plural
 * rules.  Every text a person reads goes through them (tests/test_i18n.py checks the catalogue).
 */
(function (root) {
  "use strict";

  function fill(text, params) {
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
    });
  }

  function t(message, params) {
    var found = (root.TUTE_MESSAGES || {})[message];
    return fill(typeof found === "string" ? found : message, params);
  }

  function tn(singular, plural, n, params) {
    var forms = (root.TUTE_MESSAGES || {})[singular];
    var one = new Intl.PluralRules(root.TUTE_LANG || "en").select(n) === "one";
    var text = Array.isArray(forms) ? forms[one ? 0 : 1] : (one ? singular : plural);
    return fill(text, Object.assign({ n: n }, params || {}));
  }

  root.t = t;
  root.tn = tn;
})(window);
