// Before MathJax loads (it is deferred; this file is not): Chinese inside a formula (\text{计数})
// is drawn in the site's Chinese font (course.css), not in a "serif" the machine may not have, and
// where a page's maths holds Chinese, MathJax waits for that font before it measures the formula.
// Once the maths is typeset, the formulas that scroll sideways get their cue (below).
(() => {
  const FONT = "Course Noto Sans SC";
  const config = window.MathJax = window.MathJax || {};
  config.chtml = Object.assign({unknownFamily: `"${FONT}", serif`}, config.chtml);
  const startup = config.startup = config.startup || {};
  const userReady = startup.pageReady;
  startup.pageReady = () => {
    const chinese = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;
    const needed = document.fonts && Array.from(document.querySelectorAll(".math"))
      .some(node => chinese.test(node.textContent));
    const font = needed
      ? Promise.race([document.fonts.load(`1em "${FONT}"`, "中"), new Promise(done => setTimeout(done, 3000))])
      : Promise.resolve();
    return font.catch(() => {})
      .then(() => (userReady ? userReady() : window.MathJax.startup.defaultPageReady()))
      .then(() => window.courseWatchScrolling && window.courseWatchScrolling());
  };
})();

// Keep inline maths and the punctuation that touches it on one line. MathJax draws a formula as
// one box, and without this the browser may break the line between the formula and a following
// "，", "。" or "." (or after a "（" or "(" before it), leaving the mark alone at a line's start or end.
document.addEventListener("DOMContentLoaded", () => {
  const after = /^[，。；：、？！）」』”.,;:!?)]/;
  const before = /[（「『“(]$/;
  document.querySelectorAll("span.math").forEach(math => {
    const next = math.nextSibling, previous = math.previousSibling;
    const glueNext = next && next.nodeType === Node.TEXT_NODE && after.test(next.textContent);
    const gluePrevious = previous && previous.nodeType === Node.TEXT_NODE && before.test(previous.textContent);
    if (!glueNext && !gluePrevious) return;
    const group = document.createElement("span");
    group.style.whiteSpace = "nowrap";
    group.className = "course-math-glue";  // course.css leaves the punctuation room beside a wide formula
    math.parentNode.insertBefore(group, math);
    if (gluePrevious) {
      group.appendChild(document.createTextNode(previous.textContent.slice(-1)));
      previous.textContent = previous.textContent.slice(0, -1);
    }
    group.appendChild(math);
    if (glueNext) {
      group.appendChild(document.createTextNode(next.textContent[0]));
      next.textContent = next.textContent.slice(1);
    }
  });
});

// A box that scrolls sideways (an explorer's picture or a wide output on a narrow screen) can be
// reached and scrolled with the keyboard, and a screen reader names it: a tab stop, the role
// "region" and a label, in the page's language. Checked again when the width changes.
(() => {
  const chinese = /\/zh\//.test(window.location.pathname);
  const label = box => box.classList.contains("lmcore-static")
    ? (chinese ? "探索器的静态图（可左右滚动）" : "Explorer picture (scrolls sideways)")
    : (chinese ? "宽输出（可左右滚动）" : "Wide output (scrolls sideways)");
  const scrolls = box => {
    const overflow = getComputedStyle(box).overflowX;
    return (overflow === "auto" || overflow === "scroll") && box.scrollWidth > box.clientWidth + 1;
  };
  const markScrollable = () => {
    document.querySelectorAll("article .lmcore-static, article .cell_output .output").forEach(box => {
      if (box.dataset.courseScroll === "theme") return;  // the theme's own tab stop: leave it
      if (box.hasAttribute("tabindex") && box.dataset.courseScroll !== "course") {
        box.dataset.courseScroll = "theme";
        return;
      }
      if (scrolls(box)) {
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        if (!box.hasAttribute("aria-label")) {
          box.setAttribute("aria-label", label(box));
          box.dataset.courseLabel = "course";
        }
        box.dataset.courseScroll = "course";
      } else if (box.dataset.courseScroll === "course") {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        if (box.dataset.courseLabel === "course") box.removeAttribute("aria-label");
        delete box.dataset.courseScroll;
        delete box.dataset.courseLabel;
      }
    });
  };
  window.addEventListener("load", markScrollable);
  let pending;
  window.addEventListener("resize", () => {
    clearTimeout(pending);
    pending = setTimeout(markScrollable, 150);
  });
})();

// Maths that scrolls sideways (a formula wider than a phone's column: the inline maths' own box,
// course.css; display maths, the theme's) fades out on each side where more of it is hidden:
// data-course-more = "left", "right" or "both" (course.css draws the fade), kept up to date as it
// scrolls and as its size changes (a folded answer opened, the window turned, a font loaded). The
// formula itself already takes the keyboard's focus (MathJax), and the arrow keys scroll its box.
window.courseWatchScrolling = () => {
  const boxes = document.querySelectorAll("article span.math, article div.math > mjx-container");
  const update = box => {
    const hidden = box.scrollWidth - box.clientWidth;
    const left = hidden > 1 && box.scrollLeft > 1;
    const right = hidden > 1 && box.scrollLeft < hidden - 1;
    const more = left && right ? "both" : left ? "left" : right ? "right" : null;
    if (more === null) delete box.dataset.courseMore;
    else if (box.dataset.courseMore !== more) box.dataset.courseMore = more;
  };
  const resized = new ResizeObserver(entries => entries.forEach(entry => update(entry.target)));
  boxes.forEach(box => {
    update(box);
    box.addEventListener("scroll", () => update(box), {passive: true});
    resized.observe(box);
  });
};

// The book's title at the top of the sidebar is a link home outside every landmark (axe: "region");
// the theme has no setting to move it, so its box becomes a small navigation landmark of its own.
document.addEventListener("DOMContentLoaded", () => {
  const brand = document.querySelector(".bd-sidebar-primary .navbar-brand");
  const item = brand && brand.closest(".sidebar-primary-item");
  if (!item || item.closest("nav, [role=navigation]")) return;
  item.setAttribute("role", "navigation");
  item.setAttribute("aria-label", /\/zh\//.test(window.location.pathname) ? "课程首页" : "Course home");
});

// Search results quote each page's text, and a page's maths there is its TeX source (the search
// page runs no MathJax): "\(2^H\)". The quote shows it as plain text instead: "2^H".
document.addEventListener("DOMContentLoaded", () => {
  if (typeof Search === "undefined" || !Search.htmlToText) return;
  const symbols = {
    alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ε", theta: "θ", lambda: "λ", mu: "μ",
    pi: "π", sigma: "σ", Sigma: "Σ", prod: "∏", sum: "∑", cdot: "·", times: "×", le: "≤", leq: "≤",
    ge: "≥", geq: "≥", ne: "≠", neq: "≠", approx: "≈", infty: "∞", mid: "|", ldots: "…", dots: "…",
    cdots: "⋯", to: "→", rightarrow: "→", log: "log", ln: "ln", exp: "exp", max: "max", min: "min",
  };
  // A fraction's top or bottom, in brackets unless it is one name or number.
  const part = tex => (/^[\w.\\]+$/.test(tex.trim()) ? tex.trim() : `(${tex.trim()})`);
  const plain = tex => tex
    .replace(/\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}/g, (whole, top, bottom) => `${part(top)}/${part(bottom)}`)
    .replace(/\\(?:text|mathrm|mathit|mathbf|operatorname|textrm)\s*\{([^{}]*)\}/g, "$1")
    .replace(/\\(left|right|big|Big|bigg|Bigg)\b/g, "")
    .replace(/\\[,;:! ]|\\q?quad\b|~/g, " ")
    .replace(/\\([A-Za-z]+)/g, (whole, name) => symbols[name] || name)
    .replace(/(?<!\\)[{}]/g, "")
    .replace(/\\([{}|%$#&_])/g, "$1")
    .replace(/\s+/g, " ").trim();
  const original = Search.htmlToText;
  Search.htmlToText = (htmlString, anchor) => original(htmlString, anchor)
    .replace(/\\\(([\s\S]*?)\\\)|\\\[([\s\S]*?)\\\]|\$\$([\s\S]*?)\$\$/g,
             (whole, inline, display, dollars) => plain(inline ?? display ?? dollars));
});
