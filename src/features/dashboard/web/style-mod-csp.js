// CodeMirror's own styles under the dashboard's Content Security Policy (style-src 'self', nothing inline).
// style-mod, which CodeMirror mounts its styles with, puts a document's rules in a <style> element, which the policy
// refuses, and a shadow root's in a constructed stylesheet (document.adoptedStyleSheets), which it allows. This
// StyleModule hands it the document as a shadow root looks (no head, the same adopted sheets), so the rules go in a
// constructed sheet there too. scripts/build-web.ts puts it in place of style-mod for every module but this one.
import { StyleModule as Library } from 'style-mod';

const roots = new WeakMap();

/** The document as style-mod sees a shadow root: its adopted stylesheets and no <head>. */
function adopting(root) {
  if (!root.head) return root;
  let seen = roots.get(root);
  if (seen === undefined) {
    seen = {
      ownerDocument: root,
      get adoptedStyleSheets() {
        return root.adoptedStyleSheets;
      },
      set adoptedStyleSheets(sheets) {
        root.adoptedStyleSheets = sheets;
      },
    };
    roots.set(root, seen);
  }
  return seen;
}

export class StyleModule extends Library {
  static mount(root, modules, options) {
    Library.mount(adopting(root), modules, options);
  }
}
