// Keep inline maths and the Chinese punctuation that touches it on one line. MathJax draws a
// formula as one box, and without this the browser may break the line between the formula
// and a following "，" or "。" (or after a "（" before it), leaving the mark alone at a line's
// start or end.
document.addEventListener("DOMContentLoaded", () => {
  const after = /^[，。；：、？！）」』”]/;
  const before = /[（「『“]$/;
  document.querySelectorAll("span.math").forEach(math => {
    const next = math.nextSibling, previous = math.previousSibling;
    const glueNext = next && next.nodeType === Node.TEXT_NODE && after.test(next.textContent);
    const gluePrevious = previous && previous.nodeType === Node.TEXT_NODE && before.test(previous.textContent);
    if (!glueNext && !gluePrevious) return;
    const group = document.createElement("span");
    group.style.whiteSpace = "nowrap";
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
