"""The report written out: one self-contained HTML page with its table of contents, and
Markdown beside its plots, from the same blocks (:mod:`.blocks`), so the two forms always
say the same."""

from __future__ import annotations

import base64
import html
import platform
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .blocks import build
from .plots import Block


def to_markdown(blocks: Sequence[Block], images: str = "plots") -> str:
    """The report in Markdown; figures are files under ``images``."""
    lines: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind == "h":
            lines += ["#" * block[1] + " " + block[2], ""]
        elif kind == "p":
            lines += [block[1], ""]
        elif kind == "list":
            lines += [f"- {item}" for item in block[1]] + [""]
        elif kind == "table":
            heads, rows = block[1], block[2]
            lines.append("| " + " | ".join(heads) + " |")
            lines.append("|" + "|".join("---" for _ in heads) + "|")
            lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
            lines.append("")
        elif kind == "img":
            lines += [f"![{block[3]}]({images}/{block[1]}.png)", "", f"*{block[3]}*", ""]
    return "\n".join(lines).rstrip() + "\n"


_CSS = """body{font-family:Georgia,serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222;
line-height:1.45}p,li{overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%;margin:.5rem 0 1rem}
table{border-collapse:collapse;font-size:.85rem}
th,td{border:1px solid #ccc;padding:.2rem .45rem;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}
th{background:#f3f0e8}figure{margin:1rem 0}figcaption{font-style:italic;font-size:.9rem}
figure .scroll img{display:block;max-width:100%}code{font-size:.85rem;background:#f5f5f5;padding:0 .2rem}
nav.toc{background:#faf8f3;border:1px solid #e3dccb;padding:.5rem 1rem;margin:1rem 0}
nav.toc ul{margin:.2rem 0;padding-left:1.2rem}
h1,h2,h3{font-family:sans-serif}
@media (max-width:40rem){body{margin:1rem auto}figure .scroll img{max-width:none}}"""


def _inline(text: str) -> str:
    """Text for HTML: escaped, `code` in <code>, *a title* in <em> (never a lone star)."""
    parts = html.escape(text, quote=False).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else _ITALIC.sub(r"<em>\1</em>", p)
                   for i, p in enumerate(parts))


_ITALIC = re.compile(r"(?<![\w*])\*(\S(?:[^*]*?\S)?)\*(?![\w*])")


def slug(text: str, seen: set[str]) -> str:
    """A heading's anchor: its words in small letters joined by hyphens, made unique.

    >>> seen: set[str] = set()
    >>> slug("Tables of heuristic (10,000 deals)", seen), slug("Length", seen), slug("Length", seen)
    ('tables-of-heuristic-10-000-deals', 'length', 'length-2')
    """
    base = "-".join(re.findall(r"[a-z0-9]+", text.lower())) or "section"
    out, k = base, 1
    while out in seen:
        k += 1
        out = f"{base}-{k}"
    seen.add(out)
    return out


def to_html(blocks: Sequence[Block]) -> str:
    """The report as one self-contained HTML page (figures embedded), with a table of
    contents of its sections; tables and plots scroll inside their own box on a phone."""
    body: list[str] = []
    title = next((b[2] for b in blocks if b[0] == "h"), "Readings")
    seen: set[str] = set()
    toc: list[tuple[int, str, str]] = []
    for block in blocks:
        kind = block[0]
        if kind == "h":
            level = block[1]
            anchor = slug(block[2], seen)
            if level in (2, 3):
                toc.append((level, anchor, block[2]))
            body.append(f'<h{level} id="{anchor}">{_inline(block[2])}</h{level}>')
        elif kind == "p":
            body.append(f"<p>{_inline(block[1])}</p>")
        elif kind == "list":
            body.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in block[1]) + "</ul>")
        elif kind == "table":
            head = "".join(f"<th>{_inline(h)}</th>" for h in block[1])
            rows = "".join("<tr>" + "".join(f"<td>{_inline(str(c))}</td>" for c in row) + "</tr>"
                           for row in block[2])
            body.append(f'<div class="scroll" role="region" tabindex="0"><table><thead><tr>{head}</tr>'
                        f"</thead><tbody>{rows}</tbody></table></div>")
        elif kind == "img":
            data = base64.b64encode(block[2]).decode()
            alt = html.escape(block[3])
            body.append(f'<figure><div class="scroll" role="region" tabindex="0"><img alt="{alt}" '
                        f'src="data:image/png;base64,{data}"></div><figcaption>{alt}</figcaption></figure>')
    if toc:
        body.insert(1 if blocks and blocks[0][0] == "h" else 0, _toc(toc))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _toc(entries: Sequence[tuple[int, str, str]]) -> str:
    """The table of contents: the sections, each section's parts under it."""
    out = ['<nav class="toc" aria-label="Contents"><strong>Contents</strong><ul>']
    open_sub = False
    for level, anchor, text in entries:
        link = f'<a href="#{anchor}">{_inline(text)}</a>'
        if level == 2:
            if open_sub:
                out.append("</ul></li>")
                open_sub = False
            elif len(out) > 1:
                out.append("</li>")
            out.append(f"<li>{link}")
        else:
            if not open_sub:
                out.append("<ul>")
                open_sub = True
            out.append(f"<li>{link}</li>")
    out.append("</ul></li>" if open_sub else "</li>")
    out.append("</ul></nav>")
    return "".join(out)


def write_report(summary: dict[str, Any], directory: Path, run: dict[str, Any]) -> list[Path]:
    """Write ``report.html``, ``report.md`` and ``plots/*.png`` into ``directory``."""
    run = {"machine": machine(), **run}
    blocks = build(summary, run)
    plots = directory / "plots"
    plots.mkdir(parents=True, exist_ok=True)
    paths = []
    for block in blocks:
        if block[0] == "img":
            path = plots / f"{block[1]}.png"
            path.write_bytes(block[2])
    md, page = directory / "report.md", directory / "report.html"
    md.write_text(to_markdown(blocks), encoding="utf-8")
    page.write_text(to_html(blocks), encoding="utf-8")
    paths += [page, md, plots]
    return paths


def machine() -> str:
    """This machine in one line: processor, cores, system and Python."""
    import os

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    system = f"{platform.system()} {platform.release()}"
    return f"{cpu}, {cores} cores, {system}, Python {platform.python_version()}"
