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
